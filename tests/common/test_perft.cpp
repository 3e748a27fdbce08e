#include <doctest/doctest.h>

#include "common/perft.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;

namespace {

// Perft through the brute-force move list: slow, independent of the line-mask generator.
std::uint64_t brute_force_perft(Position& p, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (Move m : test::brute_force_moves(p)) {
    p.do_move(m);
    n += brute_force_perft(p, depth - 1);
    p.undo_move(m);
  }
  return n;
}

}  // namespace

TEST_CASE("perft from the standard start") {
  Position p(standard_variant());
  CHECK(perft(p, 0) == 1);
  CHECK(perft(p, 1) == 2176);
  CHECK(perft(p, 2) == 4307152);
}

TEST_CASE("perft from the botzone 8x8 start") {
  Position p(botzone8_variant());
  CHECK(perft(p, 1) == 1232);
  CHECK(perft(p, 2) == 1331198);
}

TEST_CASE("perft agrees with a brute-force count on a small board") {
  Position p(test::small_variant(6));
  const std::uint64_t fast = perft(p, 2);
  CHECK(fast == brute_force_perft(p, 2));
  CHECK(perft_parallel(p, 2, 2) == fast);
}

TEST_CASE("perft divide sums to perft") {
  Position p(botzone8_variant());
  std::uint64_t sum = 0;
  for (const auto& d : perft_divide(p, 2)) sum += d.count;
  CHECK(sum == 1331198);
}

TEST_CASE("perft of a finished game is 0 below depth 0") {
  auto p = parse_position("6/6/6/B5/xx4/Wx4 w");
  REQUIRE(p);
  CHECK(perft(*p, 1) == 0);
  CHECK(perft(*p, 2) == 0);
}

TEST_SUITE("slow") {
  TEST_CASE("perft 3 from the standard start") {
    CHECK(perft_parallel(Position(standard_variant()), 3, 0) == 8350439170ULL);
  }
  TEST_CASE("perft 3 from the botzone 8x8 start") {
    CHECK(perft_parallel(Position(botzone8_variant()), 3, 0) == 1358441750ULL);
  }
}
