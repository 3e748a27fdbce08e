#!/usr/bin/env bash
# Measures the cluster's Redis operations (bench/cluster_bench.cpp) against a throwaway Redis on
# a loopback port (scripts/redis_test_server.sh), stopped at the end.
#   scripts/cluster_bench.sh [SECONDS_PER_MEASUREMENT]   (default 2; the build: build/release)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=${AMAZONS_BUILD_DIR:-$here/../build/release}/bench/cluster_bench
[[ -x $bench ]] || { echo "build it first: cmake --build build/release --target cluster_bench" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/amazons-redis-bench.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
trap '"$here/redis_test_server.sh" stop "$dir"' EXIT
"$here/redis_test_server.sh" start "$dir" "$port" $$ >/dev/null
echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on 127.0.0.1:$port, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" --redis "redis://127.0.0.1:$port" --seconds "${1:-2}"
