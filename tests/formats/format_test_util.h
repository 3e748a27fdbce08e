// Helpers of the record-format tests: random finished games on several boards.
#pragma once

#include <chrono>
#include <random>

#include "common/game_record.h"
#include "tests/common/test_util.h"

namespace amazons::test {

// A random legal game on `v`, finished when it ran to the end, with names, ratings, a clock and
// the time left after each move.
inline GameRecord random_record(const RuleVariant& v, std::uint64_t seed, int plies = 200) {
  using namespace std::chrono_literals;
  std::mt19937_64 rng(seed);
  GameRecord r;
  r.rules = v;
  r.white = {"alice", false, 1612};
  r.black = {"bob [the] \\ builder", false, std::nullopt};
  r.time_control = TimeControl::fischer(300s, 5s);
  Position p(v);
  Millis clock = 300s;
  for (Move m : random_game(p, plies, rng)) {
    clock -= 700ms;
    r.moves.push_back({m, std::nullopt, clock});
  }
  if (p.is_game_over())
    r.result = GameResult{~p.side_to_move(), EndReason::NoMoves};
  else
    r.result = GameResult{p.side_to_move(), EndReason::Resign};
  r.started_at = *parse_timestamp("2026-11-29T00:00:00Z");
  return r;
}

}  // namespace amazons::test
