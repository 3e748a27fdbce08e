#include <doctest/doctest.h>

#include "format_test_util.h"
#include "formats/littlegolem.h"
#include "formats/record_formats.h"
#include "tests/text_checks.h"

using namespace amazons;
using namespace amazons::formats;
using amazons::test::contains;
using amazons::test::mv;

namespace {

std::string littlegolem_error(std::string_view text) {
  auto r = parse_littlegolem(text);
  REQUIRE_FALSE(r);
  return r.error();
}

// A record in the shape of LittleGolem's downloads: no GM, the event in EV, the winner in RE,
// the game number in GC, the site in SO, then one node per move.
constexpr const char* kGame =
    "(;FF[4]EV[amazons.ch.41.1.1]PB[Bruno]PW[Wanda]SZ[10]RE[W]GC[ game #2112345]"
    "SO[http://www.littlegolem.com];W[d1-d7-g7];B[a7-b7-c7];W[g1g3g1];B[d10-d8/d9]"
    ";W[j4j5,j5j6];B[resign])\n";

}  // namespace

TEST_CASE("littlegolem: a record as the site writes it, with a resignation") {
  const auto r = parse_littlegolem(kGame);
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->rules == standard_variant());
  CHECK(r->white.name == "Wanda");
  CHECK(r->black.name == "Bruno");
  REQUIRE(r->moves.size() == 5);
  CHECK(r->moves[0].move == mv("d1-d7/g7"));
  CHECK(r->moves[1].move == mv("a7-b7/c7"));
  CHECK(r->moves[2].move == mv("g1-g3/g1"));
  CHECK(r->moves[3].move == mv("d10-d8/d9"));
  CHECK(r->moves[4].move == mv("j4-j5/j6"));
  CHECK(r->result == GameResult{Color::White, EndReason::Resign});
}

TEST_CASE("littlegolem: an .sgf download without GM goes to the LittleGolem reader") {
  const auto r = read_record(kGame, RecordFormat::Sgf);
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->moves.size() == 5);
  // Without the site's marks it is an SGF file that lacks GM[18].
  auto plain = read_record("(;FF[4]PB[x];W[d1-d7-g7])", RecordFormat::Sgf);
  REQUIRE_FALSE(plain);
  CHECK(contains(plain.error(), "GM: missing"));
}

TEST_CASE("littlegolem: coordinates in every spelling, and SGF points") {
  CHECK(*parse_coordinate_move("d1-d7-g7") == mv("d1-d7/g7"));
  CHECK(*parse_coordinate_move("D1D7G7") == mv("d1-d7/g7"));
  CHECK(*parse_coordinate_move("d1-d7/g7") == mv("d1-d7/g7"));
  CHECK(*parse_coordinate_move("d1d7,d7g7") == mv("d1-d7/g7"));
  CHECK(*parse_coordinate_move("j10-j9-a9") == mv("j10-j9/a9"));
  CHECK_FALSE(parse_coordinate_move("d1d7,e7g7"));
  CHECK_FALSE(parse_coordinate_move("d1-d7"));
  CHECK_FALSE(parse_coordinate_move("-d1d7g7"));
  CHECK_FALSE(parse_coordinate_move("d100d7g7"));
  CHECK_FALSE(parse_coordinate_move(""));
  const auto r = parse_littlegolem("(;SO[littlegolem.net];W[djddgd])");
  REQUIRE(r);
  CHECK(r->moves[0].move == mv("d1-d7/g7"));
}

TEST_CASE("littlegolem: a finished board is a win on moves, else the winner alone") {
  // A random game to the end, written as LittleGolem writes it.
  std::mt19937_64 rng(5);
  Position p(standard_variant());
  const auto moves = test::random_game(p, 200, rng);
  REQUIRE(p.is_game_over());
  std::string lg = "(;FF[4]EV[amazons]PB[b]PW[w]RE[";
  lg += p.side_to_move() == Color::White ? "B" : "W";
  lg += "]";
  char colour = 'W';
  for (Move m : moves) {
    lg += ";";
    lg += colour;
    lg += "[" + to_string(m.from()) + "-" + to_string(m.to()) + "-" + to_string(m.arrow()) + "]";
    colour = colour == 'W' ? 'B' : 'W';
  }
  lg += ")";
  const auto r = parse_littlegolem(lg);
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->moves.size() == moves.size());
  CHECK(r->result == GameResult{~p.side_to_move(), EndReason::NoMoves});
}

TEST_CASE("littlegolem: every bad record is refused with the move and the reason") {
  CHECK(contains(littlegolem_error("(;SO[littlegolem]SZ[8])"), "10x10 only"));
  CHECK(contains(littlegolem_error("(;GM[1])"), "GM[1]"));
  CHECK(contains(littlegolem_error("(;AB[aa])"), "no setup"));
  CHECK(contains(littlegolem_error("(;;W[d1-d7-g7];W[a7-b7-c7])"),
                 "move 2 (W[a7-b7-c7]): B is to move"));
  CHECK(contains(littlegolem_error("(;;W[d1-d7-g7];B[d10-d7-d8])"),
                 "move 2 (B[d10-d7-d8], d10-d7/d8): the destination square is occupied"));
  CHECK(contains(littlegolem_error("(;;W[d1-d7])"), "move 1 (W[d1-d7]): expected a move"));
  CHECK(contains(littlegolem_error("(;;W[djddzz])"), "zz is not a point"));
  CHECK(contains(littlegolem_error("(;;W[resign];B[a7-b7-c7])"), "ended with a resignation"));
  CHECK(contains(littlegolem_error("(;RE[W];W[resign])"), "the winner is the side that resigned"));
  CHECK(contains(littlegolem_error("(;RE[X];W[d1-d7-g7])"), "RE[X]"));
}
