#!/usr/bin/env bash
# amazons-server.exe under Wine referees a game between two Linux amazons-bot processes: the
# server on a loopback port Windows picks, with its state (SQLite database, self-signed TLS
# certificate and key) in a temporary folder and Wine's own in a temporary WINEPREFIX; the bots
# seek one game each, play it to the end and exit. Checks both bots' game_end, the finished game
# in the server's database, and that Ctrl-C (SIGINT) stops the server cleanly. Every wait is
# bounded; everything it started is stopped at the end. Run by scripts/test-windows.sh.
# Usage: tests/windows/server_game.sh WINDOWS_BUILD LINUX_BUILD
#   e.g. tests/windows/server_game.sh build/windows build/release
set -euo pipefail
windows_build=$(cd "$1" && pwd)
linux_build=$(cd "$2" && pwd)
server_exe=$windows_build/server/amazons-server.exe
bot=$linux_build/bot/amazons-bot

fail() { echo "FAIL: $*"; exit 1; }
step() { echo "== $*"; }
[[ -f $server_exe ]] || fail "no $server_exe (scripts/build-windows.sh amazons-server)"
[[ -x $bot ]] || fail "no $bot (scripts/build.sh release amazons-bot)"
wine=$(command -v wine64 || command -v wine || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver64)

top=$(mktemp -d /tmp/amazons-wine-game-XXXXXX)
export WINEPREFIX=$top/wine WINEDEBUG=-all
# No Mono or Gecko for this prefix: the server needs neither, and Wine would offer to install them.
export WINEDLLOVERRIDES="mscoree,mshtml="
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # This prefix's wineserver and whatever still runs in it; nothing of any other prefix.
  "$wineserver" -k 2>/dev/null || true
  rm -rf "$top"
}
trap cleanup EXIT
trap 'exit 1' INT TERM  # a timeout's TERM cleans up too

step "a Wine prefix in $top/wine"
start=$SECONDS
timeout 120 "$wine" wineboot --init >/dev/null 2>&1 || fail "wineboot failed"
echo "made in $((SECONDS - start)) s"

step "amazons-server.exe listens on loopback"
mkdir "$top/state"
server_log=$top/server.log
: >"$server_log"
(cd "$top/state" && exec "$wine" "$server_exe" --port 0 --bind 127.0.0.1 --discovery-port -1 \
   --db amazons.db) >"$server_log" 2>&1 &
server_pid=$!
pids+=("$server_pid")
port=
for _ in $(seq 1 600); do
  port=$(sed -n 's/.*listening on port \([0-9][0-9]*\).*/\1/p' "$server_log" | head -1)
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$server_log"; fail "the server exited"; }
  sleep 0.1
done
[[ -n $port ]] || { cat "$server_log"; fail "the server did not say its port within 60 s"; }
echo "listening on 127.0.0.1:$port (started in $((SECONDS - start)) s)"
[[ -f $top/state/amazons.db ]] || fail "no database in the state folder"
[[ -f $top/state/amazons-tls-cert.pem && -f $top/state/amazons-tls-key.pem ]] ||
  fail "no self-signed certificate and key in the state folder"

step "two Linux bots play a game on it"
# The bots trust the server's certificate on first use: their known servers in the temp folder.
for name in alpha beta; do
  XDG_STATE_HOME=$top/bots nice -n 19 "$bot" --server "127.0.0.1:$port" --name "$name" \
    --level beginner --seek 300+5 --no-join --no-challenges --games 1 >"$top/$name.log" 2>&1 &
  pids+=($!)
done
bots=("${pids[@]:1}")
start=$SECONDS
deadline=$((SECONDS + 180))
for pid in "${bots[@]}"; do
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || { tail -n 5 "$top"/*.log; fail "the game took over 180 s"; }
    sleep 0.2
  done
  status=0
  wait "$pid" || status=$?
  ((status == 0)) || { tail -n 5 "$top"/*.log; fail "a bot exited with status $status"; }
done
pids=("$server_pid")
grep -h 'event=game_end' "$top/alpha.log" "$top/beta.log" || fail "no game_end in the bots' logs"
grep -q 'event=game_end.*result=win' "$top"/alpha.log "$top"/beta.log || fail "nobody won"
grep -q 'event=game_end.*result=loss' "$top"/alpha.log "$top"/beta.log || fail "nobody lost"
echo "played in $((SECONDS - start)) s"

step "Ctrl-C (SIGINT) stops the server cleanly"
kill -INT "$server_pid"
deadline=$((SECONDS + 30))
while kill -0 "$server_pid" 2>/dev/null; do
  ((SECONDS < deadline)) || { tail -n 5 "$server_log"; fail "the server did not stop within 30 s"; }
  sleep 0.2
done
status=0
wait "$server_pid" || status=$?
pids=()
((status == 0)) || { tail -n 5 "$server_log"; fail "the server exited with status $status"; }
grep -q 'event=signal.*SIGINT' "$server_log" || { tail -n 5 "$server_log"; fail "no signal in the log"; }

step "the server stored the game"
sqlite3 -readonly "$top/state/amazons.db" \
  "SELECT 'stored: game ' || id || ', ' || rules || ', ' || white || ' (white) v ' || black ||
          ', winner ' || winner || ' by ' || reason || ', ' ||
          (SELECT count(*) FROM moves WHERE game = games.id) || ' moves'
   FROM games WHERE reason IS NOT NULL" | tee "$top/stored"
[[ -s $top/stored ]] || fail "the server stored no finished game"
echo "ok: amazons-server.exe under Wine refereed a game between two Linux bots to its end"
