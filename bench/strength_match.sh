#!/usr/bin/env bash
# The engine of this checkout against a baseline built from a git commit: both as engine
# programs (docs/ENGINE_PROTOCOL.md) at the hard level's full strength, one search thread each, at
# a fixed time a move with varied openings, on 8x8 (botzone8) and 10x10 (standard). Prints
# amazons-match's score and Elo with its 95% interval for each board.
#
#   bench/strength_match.sh COMMIT [-n GAMES] [--movetime MS] [-j PARALLEL] [--rules "botzone8 standard"]
#
# Defaults are the issue's settings: 100 games a board, 1000 ms a move, two games at a time
# (about 2 x 100 x 60 s on 8x8 and more on 10x10: hours, so run it on a machine with two free
# cores). The baseline is checked out with `git worktree add` under build/ (so that ccache finds
# objects of the same sources) and built once; later runs reuse it. Game records go to
# build/strength-COMMIT-RULES.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
[ $# -ge 1 ] || usage
commit=$1
shift
games=100
movetime=1000
parallel=2
rules="botzone8 standard"
while [ $# -gt 0 ]; do
  case $1 in
    -n) games=$2; shift 2 ;;
    --movetime) movetime=$2; shift 2 ;;
    -j) parallel=$2; shift 2 ;;
    --rules) rules=$2; shift 2 ;;
    *) usage ;;
  esac
done

sha=$(git rev-parse --verify --quiet "$commit^{commit}") || {
  echo "strength_match: '$commit' is not a commit" >&2
  exit 2
}
short=${sha:0:12}
base=$root/build/baseline-$short

# ccache where the machine has it (it is not among the project's packages): a launcher that is
# not installed would fail every compile.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
fi

if [ ! -x "$base/build/release/ai/amazons-engine" ]; then
  [ -d "$base" ] || git worktree add --detach "$base" "$sha" >/dev/null
  echo "building the baseline $short in $base" >&2
  (cd "$base" && cmake --preset release >/dev/null &&
    cmake --build --preset release --target amazons-engine --parallel 2 >/dev/null)
fi
echo "building this checkout's amazons-engine and amazons-match" >&2
cmake --preset release >/dev/null
cmake --build --preset release --target amazons-engine amazons-match --parallel 2 >/dev/null

# Each engine gets its own config with the hard level as the default (what `go movetime` plays
# with) and one search thread.
configs=$(mktemp -d)
trap 'rm -rf "$configs"' EXIT
for side in new base; do
  src=$root/config
  [ $side = base ] && src=$base/config
  mkdir -p "$configs/$side"
  cp -r "$src/rules" "$configs/$side/rules"
  sed -e 's/"default_level": *"[a-z]*"/"default_level": "hard"/' \
    -e 's/"threads": *[0-9]*/"threads": 1/' "$src/ai.json" >"$configs/$side/ai.json"
done
new_engine="$root/build/release/ai/amazons-engine --config-dir $configs/new"
base_engine="$base/build/release/ai/amazons-engine --config-dir $configs/base"

for r in $rules; do
  echo "== $r: this checkout (A) against $short (B), $games games, $movetime ms a move, -j $parallel"
  "$root/build/release/ai/amazons-match" "engine:$new_engine" "engine:$base_engine" \
    --rules "$r" -n "$games" -j "$parallel" --threads 1 --movetime "$movetime" \
    --records "$root/build/strength-$short-$r.jsonl" -q
done
