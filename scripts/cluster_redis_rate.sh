#!/usr/bin/env bash
# What a node's games cost Redis (issue 38, docs/SCALING.md): for each number of games, two
# cluster nodes on a fresh PostgreSQL database and one Redis, every game paced (each player
# thinking THINK ms on average) and run by node a; once every game has started, Redis's own
# counters (INFO commandstats, which count the commands scripts run as well) are read at the
# start and the end of a window of WINDOW seconds. Prints Redis commands a second, in all and by
# command, and Redis's CPU over the window.
# Usage: scripts/cluster_redis_rate.sh [WINDOW] [THINK_MS] GAMES...   (e.g. 10 1000 1000 5000)
# SERVER=path/to/amazons-server measures another build's server (the load generator stays).
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-10}
think=${2:-1000}
shift 2 || true
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(1000 5000)
server=${SERVER:-./build/release/server/amazons-server}
loadgen=./build/release/bench/amazons-loadgen

work=$(mktemp -d -p "$PWD/build")
chmod 755 "$work"  # PostgreSQL runs as another user when this runs as root
node_pids=()
stop_nodes() {
  for pid in "${node_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${node_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  node_pids=()
}
cleanup() {
  stop_nodes
  scripts/redis_test_server.sh stop "$work/redis" >/dev/null 2>&1 || true
  scripts/pg_test_server.sh stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
pg_port=$(free_port)
scripts/pg_test_server.sh start "$work/pg" "$pg_port" >/dev/null
redis_port=$(free_port)
scripts/redis_test_server.sh start "$work/redis" "$redis_port" >/dev/null
pg_url() { echo "postgresql://amazons@127.0.0.1:$pg_port/$1"; }
redis_cli() { redis-cli -h 127.0.0.1 -p "$redis_port" "$@"; }

ports=()
start_node() {
  local name=$1 db=$2 port=""
  ./"$server" --port 0 --db "$db" --config "$work/server.json" --quiet \
    --cluster "redis://127.0.0.1:$redis_port" --node "$name" >"$work/$name.out" 2>"$work/$name.err" &
  node_pids+=($!)
  for _ in $(seq 100); do
    port=$(grep -o 'listening on port [0-9]*' "$work/$name.out" | grep -o '[0-9]*$' || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { echo "$name did not start:" >&2; cat "$work/$name.err" >&2; exit 1; }
  ports+=("$port")
}

# "COMMAND CALLS" lines of INFO commandstats, and a line "cpu SECONDS".
snapshot() {
  redis_cli INFO commandstats | tr -d '\r' |
    sed -n 's/^cmdstat_\([a-z|]*\):calls=\([0-9]*\),.*/\1 \2/p'
  redis_cli INFO cpu | tr -d '\r' | awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { print "cpu", s }'
}

for games in "${counts[@]}"; do
  cat >"$work/server.json" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": 2, "tls": {"enabled": false},
 "limits": {"connections_per_address": $((2 * games + 100)), "requests_per_second": 1000,
            "requests_burst": 1000}}
JSON
  psql -X -q -t -A "$(pg_url postgres)" -c "CREATE DATABASE rate$games" >/dev/null
  redis_cli FLUSHALL >/dev/null
  ports=()
  start_node a "$(pg_url "rate$games")"
  start_node b "$(pg_url "rate$games")"
  # Every game on node a; b is there to scan and to be the one that would take them over.
  "$loadgen" --server "127.0.0.1:${ports[0]}" --games "$games" --seconds 600 \
    --think-ms "$think" --prefix "r$games" --echo 1 >"$work/loadgen.out" 2>"$work/loadgen.err" &
  loadgen_pid=$!
  touch "$work/loadgen.err"
  until grep -q 'measuring for' "$work/loadgen.err"; do
    kill -0 "$loadgen_pid" 2>/dev/null || { cat "$work/loadgen.err" >&2; exit 1; }
    sleep 0.2
  done
  # Node a's cluster thread may still be behind with the start's work (names, leases): the
  # window opens once it holds every game, and a moment later.
  held() {
    curl -s "http://127.0.0.1:${ports[0]}/metrics" | awk '$1 == "amazons_cluster_leases" { print int($2) }'
  }
  until [[ $(held) -ge $games ]]; do sleep 0.2; done
  sleep 2
  [[ -n ${MONITOR:-} ]] && { timeout 2 stdbuf -oL redis-cli -h 127.0.0.1 -p "$redis_port" MONITOR >"$MONITOR" 2>/dev/null || true; }
  snapshot >"$work/before"
  sleep "$window"
  snapshot >"$work/after"
  kill -TERM "$loadgen_pid" 2>/dev/null || true
  wait "$loadgen_pid" 2>/dev/null || true
  echo "== $games paced games on node a (think $think ms), Redis over $window s:"
  awk -v w="$window" 'NR == FNR { before[$1] = $2; next }
    { d = $2 - before[$1]; if ($1 == "cpu") cpu = d; else if (d > 0) { rate[$1] = d / w; all += d } }
    END {
      printf "  commands a second: %.0f (Redis CPU %.1f%% of a core)\n", all / w, 100 * cpu / w
      n = 0
      for (c in rate) order[++n] = c
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (rate[order[j]] > rate[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
      for (i = 1; i <= n && i <= 8; i++) printf "    %-12s %8.1f /s\n", order[i], rate[order[i]]
    }' "$work/before" "$work/after"
  grep -h 'games started' "$work/loadgen.err" | sed 's/^/  /'
  stop_nodes
done
