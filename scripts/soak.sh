#!/usr/bin/env bash
# Soak: a release amazons-server under amazons-loadgen for a bounded time (games end and new ones
# start all along, on the same connections), while the server's resident memory (RSS) and open
# file descriptors are sampled every second. Fails unless
#   - memory levels off: the highest RSS of the last third of the run is at most 5% (and 4 MiB)
#     above the highest of the middle third, and
#   - descriptors return to the baseline (the count before the first client) once the clients
#     are gone, and the server then stops cleanly.
# The samples are left in build/soak/samples.csv.
# Usage: scripts/soak.sh [SECONDS] [GAMES] [THINK_MS]    (defaults: 60 200 50)
# CI runs the 60 s version; `scripts/soak.sh 600` is the 10-minute one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/server_lib.sh
seconds=${1:-60}
games=${2:-200}
think=${3:-50}
# Finished games stay in memory for rematches (300 s by default); a short soak shortens that so
# the steady state (as many games leave as arrive) is reached within the run.
retention=${RETENTION:-$((seconds >= 600 ? 300 : seconds / 6))}
./scripts/build.sh release >/dev/null

out=build/soak
mkdir -p "$out"
work=$(mktemp -d -p build)
server_pid=
sampler_pid=
cleanup() {
  [[ -n $sampler_pid ]] && kill "$sampler_pid" 2>/dev/null
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cat >"$work/server.json" <<JSON
{"bind": "127.0.0.1", "discovery_port": -1, "threads": 2,
 "limits": {"connections_per_address": $((2 * games + 100)), "finished_retention_seconds": $retention}}
JSON
start_server soak "$work/soak.db" "$work/server.json"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$server_pid/status"; }
fds() { find "/proc/$server_pid/fd" -mindepth 1 -maxdepth 1 | wc -l; }
sleep 0.5
baseline_fds=$(fds)
echo "soak: server pid $server_pid on port $port: ${seconds} s of $games games" \
  "(think ${think} ms, finished games kept ${retention} s); baseline: $(rss_kib) KiB, $baseline_fds descriptors" >&2

samples=$out/samples.csv
echo "seconds,rss_kib,fds,load1" >"$samples"
(
  start=$(date +%s.%N)
  while kill -0 "$server_pid" 2>/dev/null; do
    now=$(date +%s.%N)
    echo "$(awk -v a="$start" -v b="$now" 'BEGIN {printf "%.1f", b - a}'),$(rss_kib),$(fds),$(cut -d' ' -f1 /proc/loadavg)"
    sleep 1
  done
) >>"$samples" 2>/dev/null &
sampler_pid=$!

./build/release/bench/amazons-loadgen --port "$port" --games "$games" --seconds "$seconds" \
  --think-ms "$think" --prefix soak --echo 200 2> >(grep -v '^loadgen: [0-9]' >&2) |
  grep -E '^(accepted|move round trip)' >&2
end_of_load=$(date +%s)

# Descriptors: the last clients are gone; the server closes their sockets within a second or so.
back=no
for _ in $(seq 50); do
  now_fds=$(fds)
  if ((now_fds <= baseline_fds)); then back=yes; break; fi
  sleep 0.2
done
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
sampler_pid=

verdict=$(awk -F, -v base="$baseline_fds" '
  BEGIN { n = 0 }
  NR > 1 && $2 > 0 { t[n] = $1; r[n] = $2; f[n] = $3; n++ }
  END {
    a = int(n / 3); b = int(2 * n / 3)
    for (i = a; i < b; i++) if (r[i] > mid) mid = r[i]
    for (i = b; i < n; i++) if (r[i] > last) last = r[i]
    for (i = 0; i < n; i++) { if (r[i] > peak) peak = r[i]; if (f[i] > fpeak) fpeak = f[i] }
    limit = mid * 1.05; if (limit < mid + 4096) limit = mid + 4096
    printf "rss: first %d KiB, middle third max %d KiB, last third max %d KiB (limit %d), peak %d KiB; descriptors: baseline %d, peak %d\n", r[0], mid, last, limit, peak, base, fpeak
    exit (last <= limit) ? 0 : 1
  }' "$samples") && memory_ok=yes || memory_ok=no
echo "soak: $verdict" >&2
echo "soak: descriptors after the load: $now_fds (baseline $baseline_fds)" >&2

kill -TERM "$server_pid"
stopped=yes
wait "$server_pid" || stopped=no
server_pid=
ok=yes
[[ $memory_ok == yes ]] || { echo "soak: FAILED: memory kept growing" >&2; ok=no; }
[[ $back == yes ]] || { echo "soak: FAILED: descriptors did not return to the baseline" >&2; ok=no; }
[[ $stopped == yes ]] || { echo "soak: FAILED: the server did not stop cleanly" >&2; ok=no; }
[[ $ok == yes ]] || exit 1
echo "soak: passed ($(($(date +%s) - end_of_load)) s to wind down); samples in $samples" >&2
