#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (the `fuzz` preset: clang, ASan + UBSan) and runs each
# for a bounded time, starting from its committed seed corpus (and the inputs of crashes fixed
# before). New inputs the fuzzer finds go to build/fuzz/corpus/NAME, not into the repository; a
# crash leaves its input in build/fuzz/artifacts/NAME/ and fails the script.
# Usage: scripts/fuzz.sh [SECONDS_PER_HARNESS] [NAME...]     (defaults: 60, every harness)
# After fixing a crash, copy its input to fuzz/regressions/NAME/ with a telling name: the normal
# suites replay it from then on (ctest -L fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(protocol notation variant record_json record_text position_text engine_protocol botzone transport
  sgf littlegolem move_list bus node_wire)
names=("$@")
((${#names[@]})) || names=("${all[@]}")

echo "== fuzz: build" >&2
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --parallel "$(nproc)"

# run_one NAME: fuzzes one harness; its report goes to build/fuzz/NAME.log, a crash's input to
# build/fuzz/artifacts/NAME/. Returns non-zero on a failure.
run_one() {
  local name=$1
  local exe=build/fuzz/fuzz/fuzz_$name
  local work=build/fuzz/corpus/$name
  local artifacts=build/fuzz/artifacts/$name
  mkdir -p "$work" "$artifacts"
  local seeds=(fuzz/corpus/"$name")
  [[ -d fuzz/regressions/$name ]] && seeds+=(fuzz/regressions/"$name")
  local dict=()
  [[ -f fuzz/dict/$name.dict ]] && dict=(-dict=fuzz/dict/"$name".dict)
  # -timeout: one input taking this long is a hang; -rss_limit_mb: memory blow-ups are bugs too.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$exe" "$work" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    >"build/fuzz/$name.log" 2>&1
}

for name in "${names[@]}"; do
  [[ -x build/fuzz/fuzz/fuzz_$name ]] ||
    { echo "fuzz: no harness named $name (known: ${all[*]})" >&2; exit 2; }
done

# One harness per core at a time: each is a single process, so on two cores this halves the
# phase's wall time and gives every harness the same CPU time as running them one by one.
slots=$(nproc)
declare -A pid_of=()
failed=()
# reap: waits for one running harness and reports it.
reap() {
  local done_pid name
  wait -n -p done_pid && status=0 || status=$?
  for name in "${!pid_of[@]}"; do
    [[ ${pid_of[$name]} == "$done_pid" ]] || continue
    unset "pid_of[$name]"
    if ((status == 0)); then
      echo "== fuzz: $name: $(grep -E '^stat::number_of_executed_units' "build/fuzz/$name.log" |
        tail -1)" >&2
    else
      echo "fuzz: $name FAILED; the log is build/fuzz/$name.log, the input in" \
        "build/fuzz/artifacts/$name/:" >&2
      ls "build/fuzz/artifacts/$name" >&2
      tail -40 "build/fuzz/$name.log" >&2
      failed+=("$name")
    fi
  done
}
for name in "${names[@]}"; do
  ((${#pid_of[@]} < slots)) || reap
  echo "== fuzz: $name for ${seconds} s" >&2
  run_one "$name" &
  pid_of[$name]=$!
done
while ((${#pid_of[@]})); do reap; done

if ((${#failed[@]})); then
  echo "fuzz: failures in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#names[@]} harnesses, ${seconds} s each, no failure" >&2
