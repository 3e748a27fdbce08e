#!/usr/bin/env bash
# Measures the server under load on loopback: starts a release amazons-server on a free port
# with a fresh SQLite file (durable commits: WAL, synchronous=FULL), then runs amazons-loadgen
# twice: paced (every player pauses THINK ms on average before moving) and at saturation (no
# pause). Each run also prints the plain TCP echo round trip on loopback as the floor.
# Usage: scripts/loadtest.sh [GAMES] [SECONDS] [THINK_MS]     (defaults: 1000 10 100)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
seconds=${2:-10}
think=${3:-100}
./scripts/build.sh release >/dev/null

work=$(mktemp -d)
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
cat >"$work/server.json" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": 2,
 "limits": {"connections_per_address": $((2 * games + 100)), "requests_per_second": 1000,
            "requests_burst": 1000}}
JSON
./build/release/server/amazons-server --port 0 --db "$work/load.db" --config "$work/server.json" \
  --quiet >"$work/out.txt" 2>"$work/err.txt" &
server_pid=$!
for _ in $(seq 50); do
  port=$(grep -o 'listening on port [0-9]*' "$work/out.txt" | grep -o '[0-9]*$' || true)
  [[ -n $port ]] && break
  sleep 0.1
done
[[ -n $port ]] || { echo "loadtest: the server did not start" >&2; cat "$work/err.txt" >&2; exit 1; }

echo "== paced: $games games, think ${think} ms"
./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds "$seconds" \
  --think-ms "$think" --prefix paced
echo "== saturation: $games games, no think time"
./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds "$seconds" \
  --think-ms 0 --prefix sat
kill -TERM "$server_pid"
wait "$server_pid" && echo "server stopped cleanly"
echo "database: $(du -h "$work/load.db" | cut -f1), moves stored: $(sqlite3 "$work/load.db" 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo '?')"
