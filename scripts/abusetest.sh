#!/usr/bin/env bash
# Legitimate games under attack, on loopback: starts a release amazons-server on a free port,
# runs amazons-loadgen (GAMES paced games, THINK ms per move) for SECONDS to record the move
# round trip without attack, then again while amazons-attack runs every hostile client of
# bench/attack.cpp from another loopback address, and prints both p99s, their ratio, the load
# average, and the attack's tally (each attempt checked against docs/PROTOCOL.md). Fails if any
# attack was not answered as the protocol promises.
# Usage: scripts/abusetest.sh [GAMES] [SECONDS] [THINK_MS]    (defaults: 100 20 200)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server_lib.sh
games=${1:-100}
seconds=${2:-20}
think=${3:-200}
./scripts/build.sh release >/dev/null

work=$(mktemp -d -p build)
server_pid=
attack_pid=
cleanup() {
  [[ -n $attack_pid ]] && kill "$attack_pid" 2>/dev/null
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# The default request limits; room for the legitimate connections from 127.0.0.1 (the attack
# comes from 127.0.0.2, with the same allowance); silence closes a connection after 5 s so the
# half-open attack gets its answer within the run.
cat >"$work/server.json" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": 2,
 "limits": {"connections_per_address": $((2 * games + 100)), "idle_ping_seconds": 2,
            "idle_timeout_seconds": 5}}
JSON
start_server abusetest "$work/abuse.db" "$work/server.json"

load() {
  ./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds "$seconds" \
    --think-ms "$think" --prefix "$1" --echo 200 2> >(grep -v '^loadgen: [0-9]' >&2) |
    tee "$work/$1.txt" | grep -E '^(accepted|move round trip)'
}
p99() { grep -o 'p99 [0-9.]*' "$work/$1.txt" | head -1 | cut -d' ' -f2; }

echo "== $games legitimate games (think $think ms), no attack; load average $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(server_ticks)
load calm
t1=$(server_ticks)
echo "== the same, under attack from 127.0.0.2"
# The attack starts first and outlasts the measurement (loadgen needs a few seconds to start).
./build/release/bench/amazons-attack --port "$port" --seconds $((seconds + 15)) >"$work/attack.txt" &
attack_pid=$!
sleep 2
t2=$(server_ticks)
load attacked
t3=$(server_ticks)
echo "   load average $(cut -d' ' -f1-3 /proc/loadavg)"
attack_ok=yes
wait "$attack_pid" || attack_ok=no
attack_pid=
cat "$work/attack.txt"
calm=$(p99 calm)
attacked=$(p99 attacked)
awk -v a="$calm" -v b="$attacked" 'BEGIN {
  printf "legitimate move round trip p99: %.2f ms without attack, %.2f ms under attack (%.1fx)\n",
    a, b, (a > 0 ? b / a : 0) }'
awk -v c=$((t1 - t0)) -v d=$((t3 - t2)) -v hz="$(getconf CLK_TCK)" 'BEGIN {
  printf "server CPU while measuring: %.1f s without attack, %.1f s under attack\n", c / hz, d / hz }'
kill -TERM "$server_pid"
wait "$server_pid" || { echo "abusetest: the server did not stop cleanly" >&2; exit 1; }
server_pid=
[[ $attack_ok == yes ]] || { echo "abusetest: FAILED: an attack was not answered as promised" >&2; exit 1; }
