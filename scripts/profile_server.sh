#!/usr/bin/env bash
# Where a move's time goes in the server: starts a release amazons-server on a free port with a
# fresh SQLite file on the build directory's disk (as scripts/loadtest.sh does), puts it at
# saturation with amazons-loadgen (GAMES games, no think time), and samples the server with
# `perf record` for SECONDS while the load runs. Prints the hottest functions (self time) and the
# hottest shared objects, and the server's CPU per stored move. Needs perf (Debian: linux-perf).
# Usage: scripts/profile_server.sh [GAMES] [SECONDS]      (defaults: 1000 10)
# THREADS (default 2) sets the server's threads; PERF_OUT keeps perf.data at that path.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server_lib.sh
games=${1:-1000}
seconds=${2:-10}
command -v perf >/dev/null || { echo "profile_server.sh: needs perf (apt install linux-perf)" >&2; exit 2; }
./scripts/build.sh release >/dev/null

work=$(mktemp -d -p build)
loadgen_pid=
trap 'kill $loadgen_pid "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
load_config "$work/server.json" "$games"
start_server profile "$work/load.db" "$work/server.json"

# The load runs for longer than the sampling, which starts once every game has begun.
./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds $((seconds + 4)) \
  --think-ms 0 --prefix prof >"$work/loadgen.txt" 2>"$work/loadgen.err" &
loadgen_pid=$!
for _ in $(seq 600); do
  grep -q 'measuring for' "$work/loadgen.err" && break
  kill -0 "$loadgen_pid" 2>/dev/null || { cat "$work/loadgen.err" >&2; exit 1; }
  sleep 0.1
done
t0=$(server_ticks); m0=$(stored_moves "$work/load.db")
perf record -F 499 -o "$work/perf.data" -p "$server_pid" -- sleep "$seconds" 2>"$work/perf.err"
t1=$(server_ticks); m1=$(stored_moves "$work/load.db")
wait "$loadgen_pid"
grep -E '^accepted moves' "$work/loadgen.txt"
awk -v t=$((t1 - t0)) -v m=$((m1 - m0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {
  if (m > 0) printf "server CPU while sampled: %.2f s for %d stored moves = %.1f us per move\n",
    t / hz, m, 1e6 * t / hz / m }'
echo "== hottest functions (self time, % of the server's samples)"
# Template arguments stripped, so that a line names the function.
short() { sed -E ':a; s/<[^<>]*>//g; ta; s/ +$//' | cut -c1-150; }
perf report -i "$work/perf.data" --no-children --sort symbol --percent-limit 0.7 --stdio \
  2>/dev/null | grep -E '^ +[0-9]' | short | head -45
echo "== by shared object"
perf report -i "$work/perf.data" --no-children --sort dso --stdio 2>/dev/null |
  grep -E '^ +[0-9]' | short | head -12
[[ -n ${PERF_OUT:-} ]] && cp "$work/perf.data" "$PERF_OUT"
kill -TERM "$server_pid"
wait "$server_pid" || true
