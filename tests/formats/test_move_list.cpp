#include <doctest/doctest.h>

#include "common/position_text.h"
#include "format_test_util.h"
#include "formats/move_list.h"
#include "tests/text_checks.h"

using namespace amazons;
using namespace amazons::formats;
using amazons::test::contains;
using amazons::test::mv;

namespace {

std::string move_list_error(std::string_view text) {
  auto r = parse_move_list(text);
  REQUIRE_FALSE(r);
  return r.error();
}

}  // namespace

TEST_CASE("moves: Fairy-Stockfish's notation, the queen's step then the arrow") {
  CHECK(to_uci(mv("d1-d7/g7")) == "d1d7,d7g7");
  CHECK(to_uci(mv("j10-j9/a9")) == "j10j9,j9a9");
  CHECK(*parse_uci_move("d1d7,d7g7") == mv("d1-d7/g7"));
  CHECK(*parse_uci_move("a10a9,a9a10") == mv("a10-a9/a10"));
  CHECK(contains(parse_uci_move("d1d7,e7g7").error(),
                 "shot from e7, not from the queen's square d7"));
  CHECK_FALSE(parse_uci_move("d1d7g7"));
  CHECK_FALSE(parse_uci_move("d1d7,d7"));
  CHECK_FALSE(parse_uci_move("d1d7,d7g7x"));
  CHECK_FALSE(parse_uci_move(""));
}

TEST_CASE("moves: the FEN of the standard start is Fairy-Stockfish's") {
  CHECK(to_fen(Position(standard_variant())) == "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1");
  const auto p = parse_fen("3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3", "w");
  REQUIRE(p);
  CHECK(*p == Position(standard_variant()));
  const auto arrows = parse_fen("3q2q3/10/10/q8q/3*6/10/Q8Q/10/10/3Q2Q3", "b");
  REQUIRE(arrows);
  CHECK(arrows->piece_at(*parse_square("d6")) == Piece::Arrow);
  CHECK(arrows->side_to_move() == Color::Black);
}

TEST_CASE("moves: a hand-written list, bare and in UCI form") {
  const auto r = parse_move_list("d1d7,d7g7 a7b7,b7c7\n g1g3,g3g1\n");
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->rules == standard_variant());
  REQUIRE(r->moves.size() == 3);
  CHECK(r->moves[2].move == mv("g1-g3/g1"));
  const auto uci = parse_move_list("position startpos moves d1d7,d7g7 a7b7,b7c7");
  REQUIRE(uci);
  CHECK(uci->moves.size() == 2);
  // A FEN after the first move: the same game, from there.
  const auto fen = parse_move_list(
      "position fen 3q2q3/10/10/q2Q2*2q/10/10/Q8Q/10/10/6Q3 b - - 0 1 moves a7b7,b7c7");
  REQUIRE_MESSAGE(fen, (fen ? "" : fen.error()));
  CHECK(fen->rules == standard_variant());
  REQUIRE(fen->start_position);
  CHECK(fen->moves.size() == 1);
  const auto empty = parse_move_list("");
  REQUIRE(empty);
  CHECK(empty->moves.empty());
}

TEST_CASE("moves: round trips over random games on every board") {
  for (const RuleVariant& v : {standard_variant(), botzone8_variant(), test::small_variant(7)}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      CAPTURE(v.name);
      CAPTURE(seed);
      GameRecord r = test::random_record(v, seed);
      const std::string text = to_move_list(r);
      CHECK(text.find('\n') == text.size() - 1);
      if (v == standard_variant()) CHECK_FALSE(contains(text, "fen"));
      const auto back = parse_move_list(text);
      REQUIRE_MESSAGE(back, (back ? "" : back.error() + "\n" + text));
      // A move list holds the moves and the start, nothing else.
      REQUIRE(back->moves.size() == r.moves.size());
      for (std::size_t i = 0; i < r.moves.size(); ++i)
        CHECK(back->moves[i].move == r.moves[i].move);
      CHECK(*initial_position(*back) == *initial_position(r));
      if (v.name != "test7") CHECK(back->rules == v);
      CHECK(to_move_list(*back) == text);
    }
  }
}

TEST_CASE("moves: every bad list is refused with the move and the reason") {
  CHECK(contains(move_list_error("d1d7,d7g7 nonsense"),
                 "move 2 (nonsense): expected a move such as d1d7,d7g7"));
  CHECK(contains(move_list_error("d1d7,d7g7 d10d7,d7d8"),
                 "move 2 (d10d7,d7d8, d10-d7/d8): the destination square is occupied"));
  CHECK(contains(move_list_error("d1d7,d7g7 d1d2,d2d3"), "there is no queen of the side to move"));
  CHECK(contains(move_list_error("d1d7,e7g7"), "shot from e7"));
  CHECK(contains(move_list_error("position sideways"), "expected startpos or fen"));
  CHECK(contains(move_list_error("position fen"), "expected the board and the side to move"));
  CHECK(contains(move_list_error("fen 10/10/10 w"), "3 ranks"));
  CHECK(
      contains(move_list_error("fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 x"), "expected w or b"));
  CHECK(contains(move_list_error("fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q2 w"),
                 "rank 1: 9 squares"));
  CHECK(contains(move_list_error("fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q4 w"),
                 "rank 1: more than 10"));
  CHECK(contains(move_list_error("fen 3q2k3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w"),
                 "rank 10: unexpected 'k'"));
  CHECK(contains(move_list_error("fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q6 w"),
                 "fen:"));  // 3 against 4
  CHECK(contains(move_list_error("fen 3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q0Q3 w"), "0 empty"));
  const std::string long_word(500, 'x');
  const auto e = move_list_error(long_word);
  CHECK(e.size() < 200);
}
