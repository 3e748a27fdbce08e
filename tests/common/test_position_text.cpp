#include <doctest/doctest.h>

#include <random>

#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;

TEST_CASE("the start positions in text") {
  CHECK(to_text(Position(standard_variant())) == "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w");
  CHECK(to_text(Position(botzone8_variant())) == "2B2B2/8/B6B/8/8/W6W/8/2W2W2 b");
}

TEST_CASE("positions of every size survive a round trip through text") {
  std::mt19937_64 rng(5);
  for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
    for (int plies : {0, 7, 30}) {
      Position p(test::small_variant(size));
      test::random_game(p, plies, rng);
      const auto back = parse_position(to_text(p));
      REQUIRE(back);
      CHECK(*back == p);
      CHECK(to_text(*back) == to_text(p));
    }
  }
}

TEST_CASE("arrows may be written x or X, the side to move w or b") {
  const auto p = parse_position("W5/X5/6/6/6/5B b");
  REQUIRE(p);
  CHECK(p->piece_at(test::sq("a5")) == Piece::Arrow);
  CHECK(p->side_to_move() == Color::Black);
}

TEST_CASE("a bad position text names the character and the problem") {
  struct Case {
    const char* text;
    std::size_t column;
    const char* problem_part;
  };
  for (const Case& c : {
           Case{"W5/6/6/6/6/5B", 14, "side to move"},
           Case{"W5/6/6/6/6/5B x", 15, "w or b"},
           Case{"W5/6/6/6/6/5B w extra", 15, "nothing after"},
           Case{"W5/6/6/6/5B w", 1, "5 ranks"},
           Case{"W5/7/6/6/6/5B w", 4, "longer than 6"},
           Case{"W5/5/6/6/6/5B w", 5, "rank 5 has 5 squares"},
           Case{"W5/6/6/6/6/4B w", 14, "rank 1 has 5 squares"},
           Case{"W5/6/6/6/6/5Q w", 13, "expected W, B, x"},
           Case{"W5/06/6/6/6/5B w", 4, "cannot start with 0"},
           Case{"W5/6/6/6/6/6 w", 0, "unequal queen counts"},
           Case{"WWWWW1/6/6/6/6/BBBBB1 w", 5, "more than 4 queens"},
       }) {
    CAPTURE(c.text);
    const auto r = parse_position(c.text);
    REQUIRE_FALSE(r);
    CHECK(r.error().column == c.column);
    CHECK(r.error().problem.find(c.problem_part) != std::string::npos);
  }
}
