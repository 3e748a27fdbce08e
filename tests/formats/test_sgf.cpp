#include <doctest/doctest.h>

#include "common/notation.h"
#include "format_test_util.h"
#include "formats/sgf.h"
#include "tests/text_checks.h"

using namespace amazons;
using namespace amazons::formats;
using amazons::test::contains;
using amazons::test::mv;

namespace {

std::string error_of(std::string_view sgf) {
  auto r = parse_sgf(sgf);
  REQUIRE_FALSE(r);
  return r.error();
}

}  // namespace

TEST_CASE("sgf: the example of the SGF Amazons page reads as the standard game, Black first") {
  // red-bean.com/sgf/amazons.html: ";B[djddgd];W[addgad];B[gjehea]", default size and start.
  const auto r = parse_sgf("(;FF[4]GM[18];B[djddgd];W[addgad];B[gjehea])");
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->rules == standard_variant());
  CHECK_FALSE(r->start_position);
  REQUIRE(r->moves.size() == 3);
  // Rows count from the top: dj is d1, dd is d7, ad is a7, dg is d4, ea is e10.
  CHECK(r->moves[0].move == mv("d1-d7/g7"));
  CHECK(r->moves[1].move == mv("a7-d4/a7"));
  CHECK(r->moves[2].move == mv("g1-e3/e10"));
  CHECK_FALSE(r->result);
}

TEST_CASE("sgf: points count rows from the top") {
  CHECK(sgf_point(*parse_square("a1"), 10) == "aj");
  CHECK(sgf_point(*parse_square("j10"), 10) == "ja");
  CHECK(sgf_point(*parse_square("c6"), 8) == "cc");
  CHECK(sgf_square("aj", 10) == *parse_square("a1"));
  CHECK(sgf_square("hh", 8) == *parse_square("h1"));
  CHECK(sgf_square("ia", 8).is_none());
  CHECK(sgf_square("a", 8).is_none());
}

TEST_CASE("sgf: round trips over random games on every board") {
  for (const RuleVariant& v :
       {standard_variant(), botzone8_variant(), test::small_variant(6), test::small_variant(12)}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      CAPTURE(v.name);
      CAPTURE(seed);
      const GameRecord r = test::random_record(v, seed, seed % 3 == 0 ? 12 : 200);
      const std::string sgf = to_sgf(r);
      const auto back = parse_sgf(sgf);
      REQUIRE_MESSAGE(back, (back ? "" : back.error() + "\n" + sgf));
      CHECK(*back == r);
      CHECK(to_sgf(*back) == sgf);
    }
  }
}

TEST_CASE("sgf: the writer uses the default start only for the standard game") {
  const GameRecord standard = test::random_record(standard_variant(), 7, 4);
  const std::string s = to_sgf(standard);
  CHECK(contains(s, "GM[18]"));
  CHECK(contains(s, "SZ[10]"));
  CHECK_FALSE(contains(s, "AB["));
  CHECK(contains(s, "PB[alice]"));  // White moves first: SGF calls her Black
  CHECK(contains(s, "PW[bob [the\\] \\\\ builder]"));
  CHECK(contains(s, "BR[1612]"));
  CHECK(contains(s, "OT[300+5]"));
  CHECK(contains(s, "DT[2026-11-29]"));
  CHECK(contains(s, ";B[" + sgf_point(standard.moves[0].move.from(), 10)));
  const GameRecord b8 = test::random_record(botzone8_variant(), 7, 4);
  const std::string s8 = to_sgf(b8);
  // Black moves first on botzone8: Black's queens a6 c8 f8 h6 are SGF's Black stones.
  CHECK(contains(s8, "AB[ac][ca][fa][hc]"));
  CHECK(contains(s8, "AW[af][ch][fh][hf]"));
  CHECK(contains(s8, "PB[bob"));
}

TEST_CASE("sgf: a hand-written record with setup, arrows, variations and comments") {
  // 8x8, White's queens (the first mover's, so AB) at the bottom, an arrow on d4 (dd on 8x8)
  // and two arrows given as a rectangle; the variation after the first move is skipped.
  const char* sgf = R"((;FF[4]GM[18]SZ[8]
    PB[Ann]PW[Bo\]b]BR[1500]WR[strong]RE[B+R]TM[600]C[a comment with \] inside]
    AB[ah][ch][fh][hh]AW[aa][ca][fa][ha]AA[dd][ee:ef]
    ;B[ahagbh]BL[590.5]C[first]
    (;W[aaabba]WL[595];B[chcgch])
    (;W[caccaa]))
)";
  const auto r = parse_sgf(sgf);
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->rules.size == 8);
  CHECK(r->white.name == "Ann");
  CHECK(r->white.rating == 1500);
  CHECK(r->black.name == "Bo]b");
  CHECK_FALSE(r->black.rating);  // "strong" is not a rating
  REQUIRE(r->moves.size() == 3);
  CHECK(r->moves[0].move == mv("a1-a2/b1"));
  CHECK(r->moves[0].clock_left == Millis(590500));
  CHECK(r->moves[1].move == mv("a8-a7/b8"));
  CHECK(r->moves[2].move == mv("c1-c2/c1"));
  REQUIRE(r->result);
  CHECK(r->result->winner == Color::White);
  CHECK(r->result->reason == EndReason::Resign);
  CHECK(r->time_control == TimeControl::fischer(std::chrono::seconds(600), Millis(0)));
  REQUIRE(r->start_position);  // the arrows make it a position, not a variant's start
  CHECK(contains(*r->start_position, "x"));
}

TEST_CASE("sgf: PL says who moves first, and without setup the default start is used") {
  // PL[W] with the default setup: White (SGF) moves first from d10 g10 a7 j7.
  const auto r = parse_sgf("(;GM[18]PL[W]PW[first]PB[second];W[dadgda])");
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->white.name == "first");
  CHECK(r->moves.size() == 1);
}

TEST_CASE("sgf: results") {
  const std::string base = "(;GM[18]RE[";
  const std::string moves = "];B[djddgd])";
  auto w = parse_sgf(base + "W+T" + moves);
  REQUIRE(w);
  CHECK(w->result == GameResult{Color::Black, EndReason::Time});
  auto f = parse_sgf(base + "B+F" + moves);
  REQUIRE(f);
  CHECK(f->result == GameResult{Color::White, EndReason::Abandon});
  auto plain = parse_sgf(base + "B+" + moves);  // the game is not over: taken as a resignation
  REQUIRE(plain);
  CHECK(plain->result == GameResult{Color::White, EndReason::Resign});
  auto v = parse_sgf(base + "Void" + moves);
  REQUIRE(v);
  CHECK(v->result == GameResult{std::nullopt, EndReason::Aborted});
  auto unknown = parse_sgf(base + "?" + moves);
  REQUIRE(unknown);
  CHECK_FALSE(unknown->result);
}

TEST_CASE("sgf: every malformed file is refused with the reason") {
  CHECK(contains(error_of(""), "empty"));
  CHECK(contains(error_of("hello"), "expected '('"));
  CHECK(contains(error_of("(;FF[4]SZ[10];B[djddgd])"), "GM: missing"));
  CHECK(contains(error_of("(;GM[1]SZ[19];B[pd])"), "GM[1]: not an Amazons game"));
  CHECK(contains(error_of("(;GM[18]FF[9])"), "FF[9]"));
  CHECK(contains(error_of("(;GM[18]SZ[13])"), "SZ[13]: boards of 6 to 12"));
  CHECK(contains(error_of("(;GM[18]SZ[ten])"), "SZ[ten]: expected a number"));
  CHECK(contains(error_of("(;GM[18]SZ[10:8])"), "only square boards"));
  CHECK(contains(error_of("(;GM[18]SZ[8];B[ahagbh])"), "default start only for SZ[10]"));
  CHECK(contains(error_of("(;GM[18]SZ[10][12])"), "SZ: expected one value"));
  CHECK(contains(error_of("(;GM[18];B[djdd])"), "move 1 (B[djdd]): expected three points"));
  CHECK(contains(error_of("(;GM[18];B[djddzz])"), "zz is not a point of the 10x10 board"));
  CHECK(contains(error_of("(;GM[18];B[])"), "a pass is not a move"));
  CHECK(contains(error_of("(;GM[18];B[djddgd];B[gjgdgj])"), "move 2 (B[gjgdgj]): W is to move"));
  CHECK(contains(error_of("(;GM[18];B[djddgd];W[dadggd])"),
                 "move 2 (W[dadggd], d10-d4/g7): the path of the queen is blocked"));
  CHECK(contains(error_of("(;GM[18];B[djddgd]W[dadggd])"), "both B and W"));
  CHECK(contains(error_of("(;GM[18];B[djddgd"), "no closing ']'"));
  CHECK(contains(error_of("(;GM[18];B[djddgd]"), "not closed"));
  CHECK(contains(error_of("(;GM[18])(;GM[18])"), "more than one game"));
  CHECK(contains(error_of("(;GM[18]) trailing"), "unexpected text after the game tree"));
  CHECK(contains(error_of("(GM[18])"), "expected ';'"));
  CHECK(contains(error_of("(;GM[18]C)"), "property C: expected a value"));
  CHECK(contains(error_of("(;GM[18];B[djddgd](;W[addgad]);C[y])"), "after a variation"));
  CHECK(contains(error_of("(;GM[18]RE[0])"), "cannot be drawn"));
  CHECK(contains(error_of("(;GM[18]RE[B+Q])"), "RE[B+Q]"));
  CHECK(contains(error_of("(;GM[18]RE[X])"), "RE[X]"));
  CHECK(contains(error_of("(;GM[18]TM[soon])"), "TM[soon]"));
  CHECK(contains(error_of("(;GM[18];B[djddgd]BL[-3])"), "BL[-3]"));
  CHECK(contains(error_of("(;GM[18]PL[X])"), "PL[X]"));
  CHECK(contains(error_of("(;GM[18];B[djddgd]AA[aa])"), "only the root node may set up"));
  CHECK(contains(error_of("(;GM[18]AB[dj][dj]AW[da][ga])"), "two things on dj"));
  CHECK(contains(error_of("(;GM[18]AB[dj]AW[da]AA[dj])"), "two things on dj"));
  CHECK(contains(error_of("(;GM[18]AB[dj][gj]AW[da])"), "setup:"));
  CHECK(contains(error_of("(;GM[18]AB[zz]AW[da])"), "AB[zz]"));
  // A result that contradicts the board: White (SGF Black) cannot have won on moves here.
  CHECK(contains(error_of("(;GM[18]SZ[6]AB[aa]AW[cc]AA[ba][ab][bb];W[ccddcc]RE[B+])"), "result"));
}

TEST_CASE("sgf: a record that ends the game passes the no-moves check") {
  // 6x6: SGF's Black (our White) on a1, boxed in once White's arrow lands; White on f6.
  const char* sgf = "(;GM[18]SZ[6]AB[af]AW[aa]AA[bd][be][bf]RE[W+];B[afaeaf];W[aaacad])";
  const auto r = parse_sgf(sgf);
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  REQUIRE(r->result);
  CHECK(r->result->reason == EndReason::NoMoves);
  CHECK(r->result->winner == Color::Black);
}
