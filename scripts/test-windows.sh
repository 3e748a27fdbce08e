#!/usr/bin/env bash
# Builds the Windows programs and suites (scripts/build-windows.sh) and runs the suites as .exe
# under Wine through ctest (the toolchain's CMAKE_CROSSCOMPILING_EMULATOR): the rules (common),
# the engine (ai), the records (formats) and the server's core (server). Prints each suite's
# pass count. Then amazons-server.exe under Wine referees a game between two Linux bots
# (tests/windows/server_game.sh; the bots from the Linux release build, made here). Not part of
# .ci/run: see docs/DEVELOPING.md, "Windows".
# Usage: scripts/test-windows.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
./scripts/build-windows.sh
built=$SECONDS
# Wine's own messages (fixme:, err: of the parts it does not implement) are not the tests'.
export WINEDEBUG=-all
status=0
for suite in common ai formats server; do
  if ! grep -q "^${suite}/" <(ctest --test-dir build/windows -N -L "^${suite}\$" | sed -n 's/^ *Test *#[0-9]*: //p'); then
    echo "test-windows: $suite: not built" >&2
    continue
  fi
  log=build/windows/ctest-$suite.log
  # A case that hangs under Wine fails after 300 s instead of holding the run.
  if ctest --test-dir build/windows -L "^${suite}\$" -j"$(nproc)" --timeout 300 \
       --output-on-failure "$@" >"$log" 2>&1
  then :; else status=1; fi
  echo "test-windows: $suite: $(grep -E 'tests passed' "$log")" >&2
done
suites_done=$SECONDS
# The bots are Linux's, from the release build (niced: the machine may be shared).
nice -n 19 ./scripts/build.sh release amazons-bot >build/windows/linux-build.log 2>&1 ||
  { tail -20 build/windows/linux-build.log >&2; exit 1; }
log=build/windows/server-game.log
game_start=$SECONDS
if timeout 600 tests/windows/server_game.sh build/windows build/release >"$log" 2>&1; then
  echo "test-windows: server_game: passed in $((SECONDS - game_start)) s" >&2
else
  status=1
  tail -20 "$log" >&2
  echo "test-windows: server_game: FAILED (the log: $log)" >&2
fi
echo "test-windows: built in $((built - start)) s, suites in $((suites_done - built)) s," \
  "the game under Wine in $((SECONDS - game_start)) s" >&2
exit $status
