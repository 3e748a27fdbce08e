#!/usr/bin/env bash
# Installs what is missing, builds, and opens the desktop client with a game server of its own on
# this computer (its database in the user's data directory): play the computer, or give friends
# the address shown in the menu.
#
# Without a display (no DISPLAY/WAYLAND_DISPLAY, or the X server cannot be opened) it says so and
# shows a game instead: a server on loopback with a temporary database, two bots (easy and
# medium, 2 s a move at most) playing one game, printed move by move with the board. Everything
# it started is stopped at the end.
#
# Environment: AMAZONS_RUN_NO_BUILD=1 skips setup and build; AMAZONS_BUILD_DIR (default
# build/release) is where the programs are; AMAZONS_RUN_RULES (default standard) the demo's rules.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${AMAZONS_RUN_NO_BUILD:-0}" != 1 ]]; then
  ./scripts/setup.sh
  ./scripts/build.sh release amazons-programs
fi
build=${AMAZONS_BUILD_DIR:-build/release}

# The client checks the display itself and exits with 3 when there is none it can open.
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  status=0
  "$build/client/amazons-client" --host "$@" || status=$?
  [[ $status == 3 ]] || exit "$status"
  echo "run.sh: the display cannot be opened; showing a game between two bots instead."
else
  echo "run.sh: no graphical display (DISPLAY and WAYLAND_DISPLAY are unset); showing a game" \
    "between two bots instead."
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/amazons-run.XXXXXX")
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
echo "run.sh: working in $tmp"

# Created before the server starts: the background job opens it only once it runs, and a read
# of it before then failed the script (sed: can't read ..., under set -e).
: >"$tmp/server.out"
"$build/server/amazons-server" --port 0 --bind 127.0.0.1 --discovery-port -1 --quiet \
  --name "run.sh demo" --db "$tmp/server.db" >"$tmp/server.out" 2>"$tmp/server.log" &
server=$!
pids+=("$server")
port=
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$tmp/server.out")
  [[ -n $port ]] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "run.sh: the server did not start:" >&2
    cat "$tmp/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
[[ -n $port ]] || { echo "run.sh: the server did not say its port" >&2; exit 1; }
echo "run.sh: a server on 127.0.0.1:$port; two bots are joining it"

rules=${AMAZONS_RUN_RULES:-standard}
"$build/client/amazons-watch" --server "127.0.0.1:$port" --timeout 240 &
watcher=$!
pids+=("$watcher")
for level in easy medium; do
  "$build/bot/amazons-bot" --server "127.0.0.1:$port" --name "$level-bot" --level "$level" \
    --seek 2/move --rules "$rules" --no-join --no-challenges --games 1 --threads 1 --hash 16 \
    --log-level warn 2>"$tmp/bot-$level.log" &
  pids+=("$!")
done

status=0
wait "$watcher" || status=$?
if [[ $status != 0 ]]; then
  echo "run.sh: watching the game failed; the bots said:" >&2
  cat "$tmp"/bot-*.log >&2
  exit "$status"
fi
echo "run.sh: the game is over; stopping the bots and the server"
exit 0
