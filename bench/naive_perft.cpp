#include "naive_perft.h"

#include <array>
#include <cstdlib>
#include <vector>

namespace amazons::bench {

namespace {

enum Cell : std::uint8_t { kEmpty, kWhite, kBlack, kArrow };

struct Board {
  std::array<std::uint8_t, 100> cells{};
  bool white_to_move = true;
};

struct NaiveMove {
  int from, to, arrow;
};

constexpr std::array<int, 8> kOffsets = {1, -1, 9, -9, 10, -10, 11, -11};

// One step from `sq` by `offset`, or -1 when it leaves the board (including wrapping a rank).
int step(int sq, int offset) {
  const int next = sq + offset;
  if (next < 0 || next >= 100) return -1;
  if (std::abs(next % 10 - sq % 10) > 1) return -1;
  return next;
}

std::vector<NaiveMove> generate(const Board& b) {
  std::vector<NaiveMove> moves;
  const std::uint8_t own = b.white_to_move ? kWhite : kBlack;
  for (int from = 0; from < 100; ++from) {
    if (b.cells[static_cast<std::size_t>(from)] != own) continue;
    for (int d : kOffsets) {
      for (int to = step(from, d); to >= 0 && b.cells[static_cast<std::size_t>(to)] == kEmpty;
           to = step(to, d)) {
        Board after = b;
        after.cells[static_cast<std::size_t>(from)] = kEmpty;
        after.cells[static_cast<std::size_t>(to)] = own;
        for (int d2 : kOffsets) {
          for (int a = step(to, d2); a >= 0 && after.cells[static_cast<std::size_t>(a)] == kEmpty;
               a = step(a, d2))
            moves.push_back({from, to, a});
        }
      }
    }
  }
  return moves;
}

std::uint64_t perft(const Board& b, int depth) {
  if (depth == 0) return 1;
  const std::vector<NaiveMove> moves = generate(b);
  if (depth == 1) return moves.size();
  std::uint64_t total = 0;
  for (const NaiveMove& m : moves) {
    Board next = b;
    next.cells[static_cast<std::size_t>(m.to)] = next.cells[static_cast<std::size_t>(m.from)];
    next.cells[static_cast<std::size_t>(m.from)] = kEmpty;
    next.cells[static_cast<std::size_t>(m.arrow)] = kArrow;
    next.white_to_move = !b.white_to_move;
    total += perft(next, depth - 1);
  }
  return total;
}

}  // namespace

std::uint64_t naive_perft_standard(int depth) {
  Board b;
  // Index = rank * 10 + file, rank 0 at the bottom. White a4 d1 g1 j4, Black a7 d10 g10 j7.
  for (int sq : {30, 3, 6, 39}) b.cells[static_cast<std::size_t>(sq)] = kWhite;
  for (int sq : {60, 93, 96, 69}) b.cells[static_cast<std::size_t>(sq)] = kBlack;
  return perft(b, depth);
}

}  // namespace amazons::bench
