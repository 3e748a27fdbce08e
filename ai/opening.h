// Varied starting moves for matches and self-play.
#pragma once

#include <cstdint>
#include <vector>

#include "common/move.h"
#include "common/position.h"

namespace amazons::ai {

// `plies` moves from `start`, each picked at random (from `seed`) among the `choices` moves the
// static evaluation likes best, so openings differ without handing either side a lost game.
// Stops early if the game ends. The same arguments always give the same moves.
std::vector<Move> random_opening(const Position& start, int plies, int choices, std::uint64_t seed);

}  // namespace amazons::ai
