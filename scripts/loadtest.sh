#!/usr/bin/env bash
# Measures the server under load on loopback: starts a release amazons-server on a free port
# with a fresh SQLite file (durable commits: WAL, synchronous=FULL), then runs amazons-loadgen
# twice: paced (every player pauses THINK ms on average before moving) and at saturation (no
# pause). Each run also prints the plain TCP echo round trip on loopback as the floor, and the
# saturation run first measures the throughput ceiling, an Asio line echo over as many
# connections (ECHO_SECONDS, default 5), and gives its moves a second as a share of it.
# Usage: scripts/loadtest.sh [GAMES] [SECONDS] [THINK_MS]     (defaults: 1000 10 1000)
# TRANSPORTS (default "tcp"; e.g. "tcp tls ws wss") plays the paced run once over each, one after
# the other against the same server, so the figures of the transports stand side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server_lib.sh
games=${1:-1000}
seconds=${2:-10}
think=${3:-1000}
./scripts/build.sh release >/dev/null

# On the build directory's disk, not a tmpfs, so commits really reach the disk.
work=$(mktemp -d -p build)
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
load_config "$work/server.json" "$games"
start_server loadtest "$work/load.db" "$work/server.json"

run() {
  local name=$1 think_ms=$2 transport=${3:-tcp} t0 m0 t1 m1
  shift $(( $# < 3 ? $# : 3 ))
  t0=$(server_ticks); m0=$(stored_moves "$work/load.db")
  ./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds "$seconds" \
    --think-ms "$think_ms" --prefix "$name" --fsync-dir "$work" --transport "$transport" "$@" \
    2> >(grep -v '^loadgen: [0-9]' >&2)
  t1=$(server_ticks); m1=$(stored_moves "$work/load.db")
  awk -v t=$((t1 - t0)) -v m=$((m1 - m0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {
    if (m > 0) printf "server CPU: %.2f s for %d stored moves = %.0f us per move (%.0f moves per core-second)\n",
      t / hz, m, 1e6 * t / hz / m, m / (t / hz) }'
}
for transport in ${TRANSPORTS:-tcp}; do
  echo "== paced over $transport: $games games, think ${think} ms"
  run "paced$transport" "$think" "$transport"
done
echo "== saturation: $games games, no think time"
run sat 0 tcp --echo-ceiling "${ECHO_SECONDS:-5}"
kill -TERM "$server_pid"
wait "$server_pid" && echo "server stopped cleanly"
echo "database: $(du -h "$work/load.db" | cut -f1), moves stored: $(sqlite3 "$work/load.db" 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo '?')"
