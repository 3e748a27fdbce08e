#include <doctest/doctest.h>

#include <vector>

#include "common/bitboard.h"
#include "test_util.h"

using namespace amazons;
using amazons::test::sq;

TEST_CASE("a bitboard holds any square of the index space, across its words") {
  Bitboard b;
  CHECK(b.empty());
  for (int i : {0, 63, 64, 127, 128, 191}) b.set(Square::from_index(i));
  CHECK(b.count() == 6);
  std::vector<int> seen;
  for (Square s : b) seen.push_back(s.index());
  CHECK(seen == std::vector<int>{0, 63, 64, 127, 128, 191});
  b.reset(Square::from_index(64));
  CHECK_FALSE(b.test(Square::from_index(64)));
  CHECK(b.pop_lowest().index() == 0);
  CHECK(b.count() == 4);
}

TEST_CASE("the words expose the set in index order, 64 squares to a word") {
  Bitboard b;
  for (int i : {0, 5, 64, 191}) b.set(Square::from_index(i));
  CHECK(b.word(0) == ((std::uint64_t{1} << 5) | 1U));
  CHECK(b.word(1) == 1U);
  CHECK(b.word(2) == std::uint64_t{1} << 63);
}

TEST_CASE("shifts carry bits between words and drop those leaving the index space") {
  const Bitboard b = Bitboard::of(Square::from_index(63));
  CHECK(b.shifted(1) == Bitboard::of(Square::from_index(64)));
  CHECK(b.shifted(65) == Bitboard::of(Square::from_index(128)));
  CHECK(b.shifted(129).empty());
  CHECK(Bitboard::of(Square::from_index(130)).shifted(-67) == b);
  CHECK(Bitboard::of(Square::from_index(5)).shifted(-6).empty());
}

TEST_CASE("a board mask has exactly size * size squares, none in the guard band") {
  for (int n = kMinBoardSize; n <= kMaxBoardSize; ++n) {
    const Bitboard board = Bitboard::board(n);
    CHECK(board.count() == n * n);
    for (Square s : board) CHECK(s.on_board(n));
  }
}

TEST_CASE("king steps never wrap around the board edge") {
  const Bitboard board = Bitboard::board(10);
  CHECK(king_step(Bitboard::of(sq("a1")), board).count() == 3);
  CHECK(king_step(Bitboard::of(sq("j1")), board).count() == 3);
  CHECK(king_step(Bitboard::of(sq("j10")), board).count() == 3);
  CHECK(king_step(Bitboard::of(sq("a5")), board).count() == 5);
  CHECK(king_step(Bitboard::of(sq("e5")), board).count() == 8);
  // On the 12x12 board the guard band is narrower; the east edge still stops east steps.
  CHECK(king_step(Bitboard::of(sq("l6")), Bitboard::board(12)).count() == 5);
}

TEST_CASE("sliding stops before blocked squares and at the edges") {
  const Bitboard board = Bitboard::board(10);
  Bitboard empty = board.without(Bitboard::of(sq("e8")));
  const Bitboard north = slide(Bitboard::of(sq("e2")), Direction::North, empty);
  CHECK(north == (Bitboard::of(sq("e3")) | Bitboard::of(sq("e4")) | Bitboard::of(sq("e5")) |
                  Bitboard::of(sq("e6")) | Bitboard::of(sq("e7"))));
  CHECK(slide(Bitboard::of(sq("a1")), Direction::NorthEast, board).count() == 9);
  CHECK(slide(Bitboard::of(sq("a1")), Direction::West, board).empty());
  CHECK(queen_step(Bitboard::of(sq("a1")), board.without(Bitboard::of(sq("a1")))).count() == 27);
  CHECK(queen_step(Bitboard::of(sq("l12")), Bitboard::board(12)).count() == 33);
}
