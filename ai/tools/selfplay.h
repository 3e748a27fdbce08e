// The engine plays one game against itself, shown move by move.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "ai/levels.h"
#include "common/variant.h"

namespace amazons::ai {

struct SelfplayOptions {
  RuleVariant rules = standard_variant();
  Level level;             // both sides
  AiConfig config;         // threads, table size
  std::uint64_t seed = 1;  // picks the opening moves and the weak levels' mistakes
  int opening_plies = 2;   // random (but sensible) moves before the engine takes over
};

// Prints the game to `out`: a header, then every move with the engine's score, depth and time
// and the board after it, then the result. Returns the finished game's record.
GameRecord run_selfplay(const SelfplayOptions& options, std::ostream& out);

}  // namespace amazons::ai
