#include <doctest/doctest.h>

#include <memory>

#include "ai/endgame.h"
#include "ai/evaluate.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

// The most moves `side` can make alone, by plain exhaustive search: the definition the counter's
// pruning, splitting and caching must agree with.
int brute_force_moves(Position pos, Color side) {
  // Take the other side's queens off the board's use by giving the move to `side` every time:
  // rebuild the position with `side` to move after each move.
  if (pos.side_to_move() != side) {
    std::vector<Square> w(pos.queens(Color::White).begin(), pos.queens(Color::White).end());
    std::vector<Square> b(pos.queens(Color::Black).begin(), pos.queens(Color::Black).end());
    pos = *Position::make(pos.size(), w, b, pos.arrows(), side);
  }
  auto moves = std::make_unique<MoveList>();
  generate_moves(pos, *moves);
  int best = 0;
  for (Move m : *moves) {
    Position next = pos;
    next.do_move(m);
    best = std::max(best, 1 + brute_force_moves(next, side));
  }
  return best;
}

}  // namespace

TEST_CASE("a straight corridor gives one move per square") {
  // White's queen on a1 with b1..f1 free; Black's queen shut in on f6.
  const Position pos = *parse_position("xxxx1B/xxxxxx/xxxxxx/xxxxxx/xxxxxx/W5 w");
  EndgameCounter counter;
  const MoveCount white = counter.count(pos, Color::White);
  CHECK(white.exact());
  CHECK(white.lower == 5);
  CHECK(counter.count(pos, Color::Black).lower == 1);
}

TEST_CASE("a defective region gives fewer moves than squares") {
  // White's queen on b2 can reach a2 and c3, but going to either shuts the other out.
  const Position pos = *parse_position("xxxx1B/xxxxx1/xxxxxx/xx1xxx/1Wxxxx/xxxxxx w");
  EndgameCounter counter;
  const MoveCount white = counter.count(pos, Color::White);
  CHECK(white.exact());
  CHECK(white.lower == 1);
  CHECK(white.upper == 1);
  CHECK(counter.count(pos, Color::Black).lower == 2);
  // White is to move and has fewer moves: a counted loss, whatever the territory says.
  Evaluator eval;
  CHECK(eval.evaluate(pos) <= -kKnownWin);
}

TEST_CASE("queens in separate regions are counted apart and added up") {
  const Position pos =
      *parse_position("B1xxxxxx/xxxxxxxx/xxxxxxxx/W2xxxxx/xxxxxxxx/xxxxx1xx/xxxxxW2/Bxxxxxxx w");
  // a5 with b5, c5 (2 moves); f2 with g2, h2 and f3 above it; Black's queen on a8 has b8, the
  // one on a1 nothing.
  EndgameCounter counter;
  const MoveCount white = counter.count(pos, Color::White);
  CHECK(white.exact());
  CHECK(white.lower == brute_force_moves(pos, Color::White));
  CHECK(counter.count(pos, Color::Black).lower == 1);
}

TEST_CASE("counts agree with exhaustive search on random separated regions") {
  std::mt19937_64 rng(11);
  EndgameCounter counter(1'000'000);
  int checked = 0;
  for (int trial = 0; trial < 400 && checked < 12; ++trial) {
    Position pos(test::small_variant(6));
    test::random_game(pos, 22 + static_cast<int>(rng() % 4), rng);
    // Exhaustive search is exponential: keep to positions with few empty squares.
    if (pos.is_game_over() || pos.empty_squares().count() > 9) continue;
    Evaluator eval;
    if (!eval.terms(pos).separated) continue;
    for (Color c : {Color::White, Color::Black}) {
      const MoveCount got = counter.count(pos, c);
      CAPTURE(to_text(pos));
      CHECK(got.exact());
      CHECK(got.lower == brute_force_moves(pos, c));
    }
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("with a tiny budget the counter still gives true bounds") {
  const Position pos =
      *parse_position("W1x1xxWx/x1xx2x1/xxxxxx1x/3xxxx1/1xx2xx1/2xxBx2/xxx1xxxx/B1xx4 b");
  EndgameCounter exact(1'000'000), rough(3);
  for (Color c : {Color::White, Color::Black}) {
    const MoveCount truth = exact.count(pos, c);
    const MoveCount bounds = rough.count(pos, c);
    REQUIRE(truth.exact());
    CHECK(bounds.lower <= truth.lower);
    CHECK(bounds.upper >= truth.upper);
  }
}
