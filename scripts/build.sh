#!/usr/bin/env bash
# Configures and builds one preset (default: release), all of it or only the named targets, and
# says how long it took: wall time and the CPU time of the compilers and linkers.
# Usage: scripts/build.sh [PRESET [TARGET...]]
#   e.g. scripts/build.sh release amazons-programs   (what scripts/run.sh builds)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
targets=()
for target in "$@"; do targets+=(--target "$target"); done
start=$SECONDS
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --parallel "$(nproc)" "${targets[@]}"
# The second line of `times` is the user and system time of this script's children, the
# compilers and linkers among them (`times` in a pipe would run in a subshell that has none).
times_file=$(mktemp)
times >"$times_file"
cpu=$(tail -1 "$times_file" | awk '{
  s = 0
  for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
  printf "%.0f", s }')
rm -f "$times_file"
echo "build.sh: $preset${*:+ ($*)} built in $((SECONDS - start)) s, $cpu s of CPU" >&2
