#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the release build first, then the whole
# suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
# Usage: scripts/test.sh [--quick]   (--quick: the release build only)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

presets=(release)
[[ ${1:-} == --quick ]] || presets+=(asan)
for preset in "${presets[@]}"; do
  echo "== $preset: build" >&2
  ./scripts/build.sh "$preset"
  echo "== $preset: test" >&2
  ctest --preset "$preset"
done
