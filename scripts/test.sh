#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the release build first, then the fuzz
# harnesses for a short bounded time each (clang, ASan + UBSan) and a 60 s soak of the server,
# then the suite again under AddressSanitizer and UndefinedBehaviorSanitizer (all but the desktop
# client's SFML views and their window suites: the asan preset leaves them out).
# Usage: scripts/test.sh [--quick]   (--quick: the release build's suite only)
# FUZZ_SECONDS (default 15, per harness) and SOAK_SECONDS (default 60) change the two runs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

quick=no
[[ ${1:-} == --quick ]] && quick=yes

echo "== release: build" >&2
./scripts/build.sh release
echo "== release: test" >&2
ctest --preset release
[[ $quick == yes ]] && exit 0

./scripts/fuzz.sh "${FUZZ_SECONDS:-15}"
echo "== soak: ${SOAK_SECONDS:-60} s" >&2
./scripts/soak.sh "${SOAK_SECONDS:-60}"

echo "== asan: build" >&2
./scripts/build.sh asan
echo "== asan: test" >&2
ctest --preset asan
