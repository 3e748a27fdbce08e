#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ai/evaluate.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

constexpr int kFar = std::numeric_limits<int>::max();

// Distance to every square by breadth-first search over single moves, square by square: the
// slow, obvious definition the bitboard fills are checked against.
std::vector<int> distances(const Position& pos, Color c, bool queen_moves) {
  std::vector<int> dist(kSquareSpace, kFar);
  std::vector<Square> frontier(pos.queens(c).begin(), pos.queens(c).end());
  for (Square q : frontier) dist[static_cast<std::size_t>(q.index())] = 0;
  const Bitboard empty = pos.empty_squares();
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<Square> next;
    for (Square from : frontier) {
      for (Direction dir : kAllDirections) {
        for (int s = from.index() + delta(dir);; s += delta(dir)) {
          const Square to = Square::from_index(s);
          if (s < 0 || s >= kSquareSpace || !empty.test(to)) break;
          if (dist[static_cast<std::size_t>(s)] == kFar) {
            dist[static_cast<std::size_t>(s)] = d;
            next.push_back(to);
          }
          if (!queen_moves) break;
        }
      }
    }
    frontier = next;
  }
  return dist;
}

EvalTerms naive_terms(const Position& pos, double tempo) {
  const Color me = pos.side_to_move();
  const auto qm = distances(pos, me, true), qo = distances(pos, ~me, true);
  const auto km = distances(pos, me, false), ko = distances(pos, ~me, false);
  EvalTerms t;
  bool shared = false;
  for (Square s : pos.empty_squares()) {
    const auto i = static_cast<std::size_t>(s.index());
    auto territory = [&](int a, int b) {
      if (a < b) return 1.0;
      if (a > b) return -1.0;
      return a == kFar ? 0.0 : tempo;
    };
    t.queen_territory += territory(qm[i], qo[i]);
    t.king_territory += territory(km[i], ko[i]);
    auto inv = [](int d) { return d == kFar ? 0.0 : std::ldexp(1.0, -d); };
    t.queen_position += 2 * (inv(qm[i]) - inv(qo[i]));
    if (km[i] != kFar || ko[i] != kFar) {
      const double diff = km[i] == kFar ? -6 : ko[i] == kFar ? 6 : ko[i] - km[i];
      t.king_position += std::clamp(diff / 6.0, -1.0, 1.0);
    }
    if (qm[i] != kFar && qo[i] != kFar) shared = true;
  }
  t.separated = !shared;
  return t;
}

}  // namespace

TEST_CASE("the bitboard distance terms equal a square-by-square search on every board size") {
  std::mt19937_64 rng(7);
  Evaluator eval;
  for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
    for (int game = 0; game < 6; ++game) {
      Position pos(test::small_variant(size));
      test::random_game(pos, game * size, rng);
      const EvalTerms fast = eval.terms(pos);
      const EvalTerms slow = naive_terms(pos, eval.params().tempo);
      CAPTURE(to_text(pos));
      CHECK(fast.queen_territory == doctest::Approx(slow.queen_territory));
      CHECK(fast.king_territory == doctest::Approx(slow.king_territory));
      CHECK(fast.queen_position == doctest::Approx(slow.queen_position));
      CHECK(fast.king_position == doctest::Approx(slow.king_position));
      CHECK(fast.separated == slow.separated);
    }
  }
}

TEST_CASE("the evaluation is symmetric: swapping the colours negates it") {
  // Mirror the board top to bottom and swap the colours: the side to move has the same game.
  const Position a = *parse_position("2B2B2/8/B6B/3x4/8/W6W/8/2W2W2 b");
  const Position b = *parse_position("2B2B2/8/B6B/8/3x4/W6W/8/2W2W2 w");
  Evaluator eval;
  CHECK(eval.evaluate(a) == eval.evaluate(b));
}

TEST_CASE("a side with no move scores as lost") {
  Evaluator eval;
  CHECK(eval.evaluate(*parse_position("6/6/6/B5/xx4/Wx4 w")) == -kWin);
}

TEST_CASE("a shut-in queen is worth less than a free one") {
  Evaluator eval;
  // White's queen on a1 has one square left; Black's is free.
  const Score s = eval.evaluate(*parse_position("8/8/8/8/3B4/8/xx6/W1x5 w"));
  CHECK(s < -500);
}
