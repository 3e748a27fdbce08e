#!/usr/bin/env bash
# Configures and builds one preset (default: release), all of it or only the named targets.
# Usage: scripts/build.sh [PRESET [TARGET...]]
#   e.g. scripts/build.sh release amazons-programs   (what scripts/run.sh builds)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
shift || true
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --parallel "$(nproc)" "${targets[@]}"
