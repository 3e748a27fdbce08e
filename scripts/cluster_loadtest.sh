#!/usr/bin/env bash
# The price of the cluster, measured (issue 12, docs/SCALING.md): amazons-loadgen against three
# set-ups back to back on this machine, each paced (GAMES games, every player thinking THINK ms
# on average) and at saturation (no think time):
#   1. one node on SQLite (a file on the build directory's disk: WAL, synchronous=FULL);
#   2. one node on PostgreSQL (a server of its own with fsync on, on the same disk);
#   3. three nodes (--cluster) on that PostgreSQL and a Redis, every game's two players on two
#      different nodes (amazons-loadgen --cross-node): one runs the game, one hands moves on.
# For each run: moves a second and the move round trip (amazons-loadgen's report), then the CPU
# per stored move of the amazons-server processes, of PostgreSQL and of Redis, and their sum.
# Everything shares this machine's cores, so the saturation rates say what one machine does with
# all of it; the CPU per move is the price of each design.
# Usage: scripts/cluster_loadtest.sh [GAMES] [SECONDS] [THINK_MS]     (defaults: 1000 10 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
seconds=${2:-10}
think=${3:-1000}
./scripts/build.sh release >/dev/null

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
AMAZONS_PG_DURABLE=1 scripts/pg_test_server.sh start "$work/pg" "$pg_port" >/dev/null
redis_port=$(free_port)
scripts/redis_test_server.sh start "$work/redis" "$redis_port" >/dev/null
pg_url() { echo "postgresql://amazons@127.0.0.1:$pg_port/$1"; }
psql_q() { psql -X -q -t -A "$(pg_url postgres)" -c "$1"; }

cat >"$work/server.json" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": ${THREADS:-2}, "tls": {"enabled": false},
 "limits": {"connections_per_address": $((2 * games + 100)), "requests_per_second": 1000,
            "requests_burst": 1000}}
JSON

# start_node NAME DB [FLAGS...]: a release amazons-server on a free port; appends its pid to
# node_pids and its port to ports.
ports=()
start_node() {
  local name=$1 db=$2 port=""
  shift 2
  ./build/release/server/amazons-server --port 0 --db "$db" --config "$work/server.json" --quiet \
    "$@" >"$work/$name.out" 2>"$work/$name.err" &
  node_pids+=($!)
  for _ in $(seq 100); do
    port=$(grep -o 'listening on port [0-9]*' "$work/$name.out" | grep -o '[0-9]*$' || true)
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { echo "$name did not start:" >&2; cat "$work/$name.err" >&2; exit 1; }
  ports+=("$port")
}

# CPU time in clock ticks of processes (utime + stime).
ticks_of() {
  local sum=0 pid
  for pid in "$@"; do
    [[ -r /proc/$pid/stat ]] && sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$sum"
}
pg_pids() {
  local main
  main=$(head -1 "$work/pg/data/postmaster.pid")
  echo "$main" $(pgrep -P "$main" || true)
}
redis_pid() { cat "$work/redis/redis.pid"; }

# run SETUP MODE THINK COUNT_MOVES [LOADGEN FLAGS...]
run() {
  local setup=$1 mode=$2 think_ms=$3 count=$4
  shift 4
  local servers s0 p0 r0 m0 s1 p1 r1 m1
  servers=$(printf '127.0.0.1:%s,' "${ports[@]}")
  s0=$(ticks_of "${node_pids[@]}"); p0=$(ticks_of $(pg_pids)); r0=$(ticks_of "$(redis_pid)")
  m0=$($count)
  echo "== $setup, $mode: $games games, think $think_ms ms"
  ./build/release/bench/amazons-loadgen --server "${servers%,}" --games "$games" \
    --seconds "$seconds" --think-ms "$think_ms" --prefix "$setup$mode" --echo 200 "$@" \
    2> >(grep -v '^loadgen: [0-9]' >&2)
  s1=$(ticks_of "${node_pids[@]}"); p1=$(ticks_of $(pg_pids)); r1=$(ticks_of "$(redis_pid)")
  m1=$($count)
  awk -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v r=$((r1 - r0)) -v m=$((m1 - m0)) \
    -v hz="$(getconf CLK_TCK)" -v setup="$setup" -v mode="$mode" 'BEGIN {
    if (m <= 0) { print "no moves stored"; exit }
    us = 1e6 / hz / m
    printf "CPU per stored move (%d moves): servers %.0f us, PostgreSQL %.0f us, Redis %.0f us, all %.0f us\n",
      m, s * us, p * us, r * us, (s + p + r) * us
    printf "SUMMARY %s %s: %.0f us per move (servers %.0f)\n", setup, mode, (s + p + r) * us, s * us }'
}

sqlite_moves() { sqlite3 "$work/one.db" 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo 0; }
pg_moves_1() { psql -X -q -t -A "$(pg_url bench1)" -c 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo 0; }
pg_moves_2() { psql -X -q -t -A "$(pg_url bench2)" -c 'SELECT COUNT(*) FROM moves' 2>/dev/null || echo 0; }

summaries=()
collect() { while IFS= read -r line; do
  echo "$line"
  [[ $line == SUMMARY* ]] && summaries+=("${line#SUMMARY }")
done; }

# 1. One node on SQLite.
ports=()
start_node one "$work/one.db"
collect < <(run sqlite paced "$think" sqlite_moves --fsync-dir "$work"; run sqlite saturation 0 sqlite_moves)
stop_nodes

# 2. One node on PostgreSQL.
psql_q "CREATE DATABASE bench1" >/dev/null
ports=()
start_node one "$(pg_url bench1)"
collect < <(run postgres paced "$think" pg_moves_1; run postgres saturation 0 pg_moves_1)
stop_nodes

# 3. Three nodes on PostgreSQL and Redis, the players of every game on two of them.
psql_q "CREATE DATABASE bench2" >/dev/null
ports=()
for n in a b c; do
  start_node "$n" "$(pg_url bench2)" --cluster "redis://127.0.0.1:$redis_port" --node "$n"
done
collect < <(run cluster3 paced "$think" pg_moves_2 --cross-node; run cluster3 saturation 0 pg_moves_2 --cross-node)
stop_nodes

echo "== the price of each set-up: CPU per stored move, everything it takes (servers alone)"
for s in "${summaries[@]}"; do echo "  $s"; done
