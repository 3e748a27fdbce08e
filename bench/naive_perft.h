// The baseline the fast move generator is measured against: the straightforward implementation
// of the standard 10x10 game, written as a first attempt would be. Not used by the product.
#pragma once

#include <cstdint>

namespace amazons::bench {

// Perft from the standard start: a 100-cell array with direction offsets (1, 9, 10, 11 and their
// negatives), a copy of the board for each queen move, every move pushed into a std::vector.
std::uint64_t naive_perft_standard(int depth);

}  // namespace amazons::bench
