// Perft: the number of move sequences of a given length, the standard check of move generation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/move.h"
#include "common/position.h"

namespace amazons {

// Precondition: depth >= 0. A finished game has no continuations (perft 0 is always 1).
std::uint64_t perft(Position& pos, int depth);

// Called after each root move is counted, from whichever worker thread counted it (calls are
// serialised): how many root moves are done, and how many there are.
using PerftProgress = std::function<void(std::size_t done, std::size_t total)>;

// The same, with the root moves shared among `threads` threads (0 means one per core).
std::uint64_t perft_parallel(const Position& pos, int depth, unsigned threads,
                             const PerftProgress& progress = {});

struct PerftDivide {
  Move move;
  std::uint64_t count;
};
// Perft of depth - 1 below each root move. Precondition: depth >= 1.
std::vector<PerftDivide> perft_divide(Position& pos, int depth);

}  // namespace amazons
