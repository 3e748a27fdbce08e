#include <doctest/doctest.h>

#include "client/move_input.h"
#include "client/premove.h"
#include "common/position_text.h"
#include "tests/client/catalogues.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using test::mv;
using test::sq;

namespace {

// The standard start after White's d1-d7/g7: Black thinks, White may premove.
Position black_thinking() {
  Position p(standard_variant());
  p.do_move(mv("d1-d7/g7"));
  return p;
}

Position after(Position p, const char* move) {
  REQUIRE_FALSE(p.check(mv(move)));
  p.do_move(mv(move));
  return p;
}

}  // namespace

TEST_CASE("premove: the position a premove is entered in has only the side to move changed") {
  const Position p = black_thinking();
  const Position q = premove_position(p, Color::White);
  CHECK(q.side_to_move() == Color::White);
  CHECK(to_text(q).substr(0, to_text(q).rfind(' ')) == to_text(p).substr(0, to_text(p).rfind(' ')));
  CHECK(premove_position(p, Color::Black) == p);
  // The move input enters it as a normal move, with White's queens selectable.
  MoveInput input;
  input.reset(q, true);
  CHECK(input.selectable().test(sq("d7")));
  CHECK_FALSE(input.selectable().test(sq("d10")));
}

TEST_CASE("premove: only a move legal against the position as it stands is taken, one at a time") {
  const Position p = black_thinking();
  Premove pre;
  CHECK(pre.panel_line(test::english()).empty());
  CHECK_FALSE(pre.set(p, Color::White, mv("d7-d10/d9")));  // d10 holds a black queen
  CHECK_FALSE(pre.set(p, Color::White, mv("d10-d9/d8")));  // not a white queen
  CHECK_FALSE(pre.pending());
  CHECK(pre.set(p, Color::White, mv("a4-c4/c8")));
  CHECK(pre.move() == mv("a4-c4/c8"));
  CHECK(pre.panel_line(test::english()) == "Premove a4-c4/c8, Esc cancels");
  CHECK_FALSE(pre.set(p, Color::White, mv("g1-g5/e3")));  // only one
  CHECK(pre.move() == mv("a4-c4/c8"));
  CHECK(pre.cancel());
  CHECK_FALSE(pre.pending());
  CHECK_FALSE(pre.cancel());
  CHECK(pre.panel_line(test::english()).empty());
  CHECK_FALSE(pre.resolve(after(p, "j7-h7/h8")).has_value());  // nothing pending
}

TEST_CASE("premove: still legal after the opponent's move, it is sent and cleared") {
  const Position p = black_thinking();
  Premove pre;
  REQUIRE(pre.set(p, Color::White, mv("g1-g5/e3")));
  const auto out = pre.resolve(after(p, "j7-h7/h8"));
  REQUIRE(out.has_value());
  CHECK(out->send());
  CHECK(out->move == mv("g1-g5/e3"));
  CHECK(out->notice(test::english()).empty());
  CHECK_FALSE(pre.pending());
}

TEST_CASE("premove: made illegal by the opponent's move, it is dropped with the reason") {
  const Position p = black_thinking();
  struct Case {
    const char* premove;
    const char* reply;
    MoveError error;
    const char* notice;
  };
  const Case cases[] = {
      {"a4-c4/c8", "d10-c9/c8", MoveError::ArrowOccupied,
       "Premove a4-c4/c8 dropped: the arrow square c8 is now blocked"},
      {"g1-g6/g2", "j7-g4/h4", MoveError::PathBlocked,
       "Premove g1-g6/g2 dropped: the queen's way to g6 is now blocked"},
      {"j4-j6/j5", "j7-j6/i6", MoveError::DestinationOccupied,
       "Premove j4-j6/j5 dropped: the square j6 is now blocked"},
      {"a4-c4/c9", "a7-c7/b7", MoveError::ArrowPathBlocked,
       "Premove a4-c4/c9 dropped: the arrow's way to c9 is now blocked"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.premove);
    Premove pre;
    REQUIRE(pre.set(p, Color::White, mv(c.premove)));
    const auto out = pre.resolve(after(p, c.reply));
    REQUIRE(out.has_value());
    CHECK_FALSE(out->send());
    CHECK(out->error == c.error);
    CHECK(out->notice(test::english()) == c.notice);
    CHECK_FALSE(pre.pending());
  }
}

TEST_CASE("premove: a side left without a move has its premove dropped as such") {
  // White a1 boxed in except b1; Black's move puts the arrow on b1.
  const Position p = *parse_position("6/6/6/6/xx4/W4B b");
  Premove pre;
  REQUIRE(pre.set(p, Color::White, mv("a1-b1/a1")));
  const auto out = pre.resolve(after(p, "f1-e1/b1"));
  REQUIRE(out.has_value());
  CHECK(out->error == MoveError::GameOver);
  CHECK(out->notice(test::english()) == "Premove a1-b1/a1 dropped: you have no move left");
  // In Chinese, the move as written and the reason in the catalogue's words.
  CHECK(out->notice(test::chinese()) == "预走 a1-b1/a1 已取消：你已无棋可走");
}
