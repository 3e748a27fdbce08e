#include "client/eval_bar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace amazons::client {

EvalBar eval_bar(ai::Score s) {
  const bool white = s > 0;
  const std::string side = white ? "White" : "Black";
  if (ai::is_win_score(s)) return {white ? 1.0 : 0.0, side + " wins"};
  if (ai::is_decided(s)) {
    // A separated endgame counted exactly: kKnownWin + 10 * margin in moves.
    const int margin = (std::abs(s) - ai::kKnownWin) / 10;
    return {white ? 1.0 : 0.0,
            side + " wins by " + std::to_string(margin) + (margin == 1 ? " move" : " moves")};
  }
  const double squares = s / 100.0;
  const double share = std::clamp(0.5 + 0.5 * std::tanh(squares / kEvalBarScale),
                                  1 - kEvalBarMaxShare, kEvalBarMaxShare);
  char label[32];
  std::snprintf(label, sizeof label, "%+.1f", squares);
  // "-0.0" and "+0.0" read as a sign without a meaning.
  const std::string text = std::string(label) == "-0.0" || std::string(label) == "+0.0"
                               ? std::string("0.0")
                               : std::string(label);
  return {share, text};
}

ai::Score white_score(ai::Evaluator& evaluator, const Position& pos) {
  const ai::Score s = evaluator.evaluate(pos);
  return pos.side_to_move() == Color::White ? s : -s;
}

}  // namespace amazons::client
