#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the release build first, then the fuzz
# harnesses for a short bounded time each (clang, ASan + UBSan) and a 60 s soak of the server,
# then the suites that exercise memory again under AddressSanitizer and UndefinedBehaviorSanitizer
# (docs/DEVELOPING.md says which and why). Prints how long each phase took at the end.
# Usage: scripts/test.sh [--quick]   (--quick: the release build's suite only)
# FUZZ_SECONDS (default 15, per harness) and SOAK_SECONDS (default 60) change the two runs.
set -euo pipefail
cd "$(dirname "$0")/.."

phases=()
phase_start=$SECONDS
# phase NAME: the phase before it ends here; NAME begins.
phase() {
  ((${#phases[@]})) && phases[-1]+=" $((SECONDS - phase_start))"
  phase_start=$SECONDS
  phases+=("$1")
  echo "== $1" >&2
}
report() {
  ((${#phases[@]})) && phases[-1]+=" $((SECONDS - phase_start))"
  echo "== test.sh: phases (seconds)" >&2
  local p
  for p in "${phases[@]}"; do printf '   %-16s %6s\n' "${p% *}" "${p##* }" >&2; done
  printf '   %-16s %6s\n' total "$SECONDS" >&2
}
trap report EXIT

quick=no
[[ ${1:-} == --quick ]] && quick=yes

phase setup
./scripts/setup.sh
phase "release build"
./scripts/build.sh release
phase "release tests"
ctest --preset release
[[ $quick == yes ]] && exit 0

phase fuzz
./scripts/fuzz.sh "${FUZZ_SECONDS:-15}"
phase soak
./scripts/soak.sh "${SOAK_SECONDS:-60}"

phase "asan build"
./scripts/build.sh asan
phase "asan tests"
ctest --preset asan
