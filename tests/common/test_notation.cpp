#include <doctest/doctest.h>

#include <random>

#include "common/movegen.h"
#include "common/notation.h"
#include "test_util.h"

using namespace amazons;

TEST_CASE("squares are written with a file letter and a rank number") {
  CHECK(to_string(Square::at(0, 0)) == "a1");
  CHECK(to_string(Square::at(9, 9)) == "j10");
  CHECK(to_string(Square::at(11, 11)) == "l12");
  CHECK(*parse_square("J10") == Square::at(9, 9));
  CHECK(*parse_square("d1") == Square::at(3, 0));
}

TEST_CASE("moves are written from-to/arrow") {
  const Move m(Square::at(3, 0), Square::at(3, 6), Square::at(6, 6));
  CHECK(to_string(m) == "d1-d7/g7");
  CHECK(*parse_move("d1-d7/g7") == m);
  CHECK(*parse_move("D1-D7/G7") == m);
}

TEST_CASE("every legal move of several positions survives a round trip through text") {
  std::mt19937_64 rng(99);
  std::size_t checked = 0;
  for (const RuleVariant& v : {standard_variant(), botzone8_variant(), test::small_variant(12)}) {
    for (int plies : {0, 10, 30}) {
      Position p(v);
      test::random_game(p, plies, rng);
      auto moves = std::make_unique<MoveList>();
      generate_moves(p, *moves);
      for (Move m : *moves) {
        const auto back = parse_move(to_string(m));
        REQUIRE(back);
        CHECK(*back == m);
        ++checked;
      }
    }
  }
  CHECK(checked > 5000);
}

TEST_CASE("a parse error says what was wrong and at which character") {
  struct Case {
    const char* text;
    std::size_t column;
    const char* problem_part;
  };
  for (const Case& c : {
           Case{"", 1, "found the end"},
           Case{"z1-d7/g7", 1, "file letter a-l"},
           Case{"m1-d7/g7", 1, "file letter"},
           Case{"d-d7/g7", 2, "rank number"},
           Case{"d0-d7/g7", 2, "cannot start with 0"},
           Case{"d13-d7/g7", 2, "rank must be 1-12"},
           Case{"d1d7/g7", 3, "expected '-'"},
           Case{"d1-d7", 6, "expected '/', found the end"},
           Case{"d1-d7-g7", 6, "expected '/'"},
           Case{"d1-d7/g", 8, "rank number"},
           Case{"d1-d7/g7 ", 9, "after the move"},
           Case{"d1-d7/g7x", 9, "after the move"},
           Case{"d1-\x01", 4, "control or non-ASCII"},
       }) {
    CAPTURE(c.text);
    const auto r = parse_move(c.text);
    REQUIRE_FALSE(r);
    CHECK(r.error().column == c.column);
    CHECK(r.error().problem.find(c.problem_part) != std::string::npos);
    CHECK(r.error().message().find("at character " + std::to_string(c.column)) == 0);
  }
  CHECK_FALSE(parse_square("a1 "));
  CHECK_FALSE(parse_square("a"));
}
