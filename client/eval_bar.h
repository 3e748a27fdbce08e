// The evaluation bar of games against the computer: the engine's judgement of a position turned
// into White's share of a bar and a short label. Pure; the game screen draws it.
#pragma once

#include <string>

#include "ai/evaluate.h"
#include "ai/score.h"
#include "common/position.h"

namespace amazons::client {

struct EvalBar {
  double white_share = 0.5;  // 0..1: how much of the bar is White's
  std::string label;         // "+1.3" (White ahead by 1.3 squares), "-0.4", "White wins", ...
  friend bool operator==(const EvalBar&, const EvalBar&) = default;
};

// Squares of territory beyond which the bar barely moves: the share is
// 0.5 + 0.5 * tanh(squares / kEvalBarScale).
inline constexpr double kEvalBarScale = 8.0;
// An undecided position never fills the bar: both colours stay visible.
inline constexpr double kEvalBarMaxShare = 0.96;

// `white_score` is an engine score (ai/score.h: hundredths of a square, proven and counted
// results beyond) from White's point of view.
EvalBar eval_bar(ai::Score white_score);

// The engine's static evaluation of `pos` from White's point of view, without the weak levels'
// noise. Cheap (microseconds; a separated endgame is counted within the evaluator's budget).
ai::Score white_score(ai::Evaluator& evaluator, const Position& pos);

}  // namespace amazons::client
