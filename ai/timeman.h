// Time management: how long to think about one move.
#pragma once

#include <chrono>
#include <optional>

#include "ai/search.h"
#include "common/position.h"

namespace amazons::ai {

// Kept back from every time limit for what happens around the search: waking up, sending the
// reply, the other side noticing it. On a busy machine a woken thread can wait 20 ms or more for a
// core, so this is not smaller.
inline constexpr Millis kMoveOverhead{30};

// Both times are measured from the start of the search.
struct TimePlan {
  // Start no new iteration after half of this, and end the current one once its first move is
  // searched after all of it. Empty for a fixed time per move, where searching until the hard
  // limit is best: a partly searched deeper iteration can still find a better move.
  std::optional<Millis> target;
  // Never search past this. Empty: no time limit (infinite, or depth and node limits only).
  std::optional<Millis> hard;
};

TimePlan plan_time(const SearchLimits& limits, const Position& pos);

}  // namespace amazons::ai
