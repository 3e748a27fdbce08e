#!/usr/bin/env bash
# The level matches the engine must pass (docs/ENGINE.md): hard against medium, medium against
# easy and easy against beginner (beginner must stay winnable), and every level against a random
# mover, 40 games each on 8x8 (botzone8) and on 10x10 (standard). Prints each match's summary
# and the total time.
# Usage: bench/level_matches.sh [BUILD_DIR] [GAMES] [PARALLEL]   (defaults: build/release 40 2)
# Game records go to BUILD_DIR/level-matches/ (or $LEVEL_MATCH_RECORDS), one JSON a line.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
games=${2:-40}
parallel=${3:-2}
match=$build/ai/amazons-match
records=${LEVEL_MATCH_RECORDS:-$build/level-matches}
mkdir -p "$records"
[[ -x $match ]] || { echo "level_matches: $match not found; build first" >&2; exit 1; }

start=$(date +%s)
for rules in botzone8 standard; do
  run() {
    local a=$1 b=$2
    shift 2
    echo "== $rules: $a vs $b $*"
    "$match" "$a" "$b" --rules "$rules" -n "$games" -j "$parallel" --quiet \
      --records "$records/$rules-$a-$b.jsonl" "$@" | tail -n 4
  }
  run hard medium
  run medium easy
  run easy beginner
  for level in beginner easy medium hard; do run "$level" random; done
  # max spends the clock: give it one, or it would think 5 s a move.
  run max random --tc 20+0.2
done
echo "== total: $(( ($(date +%s) - start) / 60 )) min"
