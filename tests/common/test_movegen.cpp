#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "common/movegen.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using amazons::test::sq;

namespace {

std::vector<std::uint32_t> sorted_raw(const MoveList& moves) {
  std::vector<std::uint32_t> out;
  for (Move m : moves) out.push_back(m.raw());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint32_t> sorted_raw(const std::vector<Move>& moves) {
  std::vector<std::uint32_t> out;
  for (Move m : moves) out.push_back(m.raw());
  std::sort(out.begin(), out.end());
  return out;
}

// Random positions along random games of every board size, the variants' starts included.
std::vector<Position> sample_positions() {
  std::vector<Position> out;
  std::mt19937_64 rng(2024);
  for (const RuleVariant& v :
       {standard_variant(), botzone8_variant(), test::small_variant(6), test::small_variant(7),
        test::small_variant(11), test::small_variant(12)}) {
    for (int plies : {0, 3, 12, 25, 40, 80}) {
      Position p(v);
      test::random_game(p, plies, rng);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("generated moves are exactly the legal moves, on every board size") {
  for (const Position& p : sample_positions()) {
    CAPTURE(to_text(p));
    auto moves = std::make_unique<MoveList>();
    generate_moves(p, *moves);
    const auto generated = sorted_raw(*moves);
    CHECK(std::adjacent_find(generated.begin(), generated.end()) ==
          generated.end());  // no duplicates
    CHECK(generated == sorted_raw(test::brute_force_moves(p)));
    CHECK(count_moves(p) == moves->size());
    CHECK(moves->empty() == p.is_game_over());
  }
}

TEST_CASE("nth_move is the move generate_moves lists at that index") {
  for (const Position& p : sample_positions()) {
    CAPTURE(to_text(p));
    auto moves = std::make_unique<MoveList>();
    generate_moves(p, *moves);
    for (std::size_t k = 0; k < moves->size(); ++k) {
      CAPTURE(k);
      REQUIRE(nth_move(p, k) == (*moves)[k]);
    }
  }
}

TEST_CASE("queen destinations and arrow targets agree with the rules") {
  for (const Position& p : sample_positions()) {
    CAPTURE(to_text(p));
    const int n = p.size();
    for (Square from : p.queens(p.side_to_move())) {
      const Bitboard dests = queen_destinations(p, from);
      for (int i = 0; i < n * n; ++i) {
        const Square to = Square::at(i % n, i / n);
        // A destination is legal when some arrow completes the move (the vacated square always
        // does), so check it with the arrow shot back at `from`.
        CHECK(dests.test(to) == !p.check(Move(from, to, from)).has_value());
        if (!dests.test(to)) continue;
        const Bitboard arrows = arrow_targets(p, from, to);
        CHECK(arrows.test(from));
        for (int j = 0; j < n * n; ++j) {
          const Square a = Square::at(j % n, j / n);
          CHECK(arrows.test(a) == !p.check(Move(from, to, a)).has_value());
        }
      }
    }
  }
}

TEST_CASE("queens at the edges and corners move along every open line") {
  // A lone white queen in each corner of an otherwise empty 10x10 board.
  for (const char* text : {"9B/10/10/10/10/10/10/10/10/W9 w", "W9/10/10/10/10/10/10/10/10/9B w"}) {
    auto p = parse_position(text);
    REQUIRE(p);
    const Square corner = p->queens(Color::White)[0];
    CHECK(queen_destinations(*p, corner).count() == 9 + 9 + 8);  // the diagonal ends at a queen
  }
  auto edge = parse_position("B9/10/10/10/10/W9/10/10/10/10 w");  // white a5, black a10
  REQUIRE(edge);
  // Up the a-file: a6..a9 (a10 is occupied); down: a4..a1; east: 9; diagonals: 5 + 4.
  CHECK(queen_destinations(*edge, sq("a5")).count() == 4 + 4 + 9 + 5 + 4);
}

TEST_CASE("the 12x12 board uses the last file and rank") {
  auto p = parse_position("11W/12/12/12/12/12/12/12/12/12/12/B11 w");
  REQUIRE(p);
  CHECK(p->size() == 12);
  const Bitboard d = queen_destinations(*p, sq("l12"));
  CHECK(d.test(sq("l1")));
  CHECK(d.test(sq("a12")));
  CHECK_FALSE(d.test(sq("a1")));  // the black queen stands there
  CHECK(d.test(sq("b2")));
  CHECK(d.count() == 11 + 11 + 10);
}

TEST_CASE("a reach table kept up to date square by square equals one built from scratch") {
  std::mt19937_64 rng(31);
  for (const RuleVariant& v :
       {standard_variant(), test::small_variant(6), test::small_variant(12)}) {
    Position p(v);
    ReachTable table(p);
    MoveList moves;
    for (int ply = 0; ply < 60 && !p.is_game_over(); ++ply) {
      moves.clear();
      generate_moves(p, moves);
      const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      table.unblock(p, m.from());
      p.do_queen_step(m.from(), m.to());
      table.block(p, m.to());
      table.block(p, m.arrow());
      p.do_arrow(m.arrow());
      const ReachTable fresh(p);
      for (Square s : p.empty_squares()) CHECK(table.at(s) == fresh.at(s));
      CHECK(count_moves(p, table) == count_moves(p));
      for (Square s : p.empty_squares()) CHECK(table.at(s) == slide_count(p, s, Square::none()));
    }
  }
}
