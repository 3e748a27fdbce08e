// Search scores: hundredths of a square of territory, from the side to move's point of view.
#pragma once

#include <cstdint>

namespace amazons::ai {

using Score = int;

// A side that cannot move has lost: -kWin + ply, so a faster win scores higher.
inline constexpr Score kWin = 30000;
inline constexpr Score kInfinity = kWin + 1;
// Scores beyond this are proven results of the search itself (wins and losses in so many plies).
inline constexpr Score kWinBound = kWin - 1000;
// A separated endgame counted exactly: kKnownWin + 10 * margin for the side that will win.
inline constexpr Score kKnownWin = 10000;
// Heuristic evaluations are clamped to this, below every proven or counted result.
inline constexpr Score kMaxHeuristic = 9000;

constexpr bool is_win_score(Score s) { return s >= kWinBound || s <= -kWinBound; }
constexpr bool is_decided(Score s) { return s >= kKnownWin || s <= -kKnownWin; }

}  // namespace amazons::ai
