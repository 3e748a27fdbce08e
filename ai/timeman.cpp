#include "ai/timeman.h"

#include <algorithm>

namespace amazons::ai {

namespace {

// The moves still to come are guessed from the empty squares: about a third of them will be
// this side's moves that need thought (the rest are the other side's, or quick fills at the end).
constexpr double kThoughtfulMovesPerEmptySquare = 0.3;
constexpr int kMinMovesLeft = 6;
// Use most of the increment: it comes back after the move.
constexpr double kIncrementShare = 0.8;
// One move may use at most this share of the clock (hard) and aim for at most this one (target).
constexpr double kHardShareOfClock = 0.5;
constexpr double kTargetShareOfClock = 0.2;
// The hard limit allows this many times the target, for a hard move.
constexpr int kHardOverTarget = 3;

Millis at_least_1(Millis t) { return std::max(t, Millis{1}); }
Millis share(Millis t, double fraction) {
  return Millis{static_cast<Millis::rep>(static_cast<double>(t.count()) * fraction)};
}

}  // namespace

TimePlan plan_time(const SearchLimits& limits, const Position& pos) {
  TimePlan plan;
  if (limits.time_left) {
    const Millis left = *limits.time_left - kMoveOverhead;
    const int empties = pos.empty_squares().count();
    const int moves_left =
        std::max(kMinMovesLeft, static_cast<int>(empties * kThoughtfulMovesPerEmptySquare));
    Millis target = left / moves_left + share(limits.increment, kIncrementShare);
    target = std::min(target, share(left, kTargetShareOfClock));
    const Millis hard = std::min(target * kHardOverTarget, share(left, kHardShareOfClock));
    plan.target = at_least_1(target);
    plan.hard = at_least_1(std::max(hard, *plan.target));
  }
  if (limits.movetime) {
    const Millis hard = at_least_1(*limits.movetime - kMoveOverhead);
    plan.hard = plan.hard ? std::min(*plan.hard, hard) : hard;
    if (plan.target) plan.target = std::min(*plan.target, hard);
  }
  if (!plan.hard && !limits.infinite && limits.depth == 0 && limits.nodes == 0) {
    plan.hard = kDefaultMoveTime - kMoveOverhead;
  }
  return plan;
}

}  // namespace amazons::ai
