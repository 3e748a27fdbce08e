#include "ai/analysis.h"

#include <cmath>

namespace amazons::ai {

double score_squares(Score s) {
  if (is_decided(s))
    return s > 0 ? MoveAnnotation::kDecidedSquares : -MoveAnnotation::kDecidedSquares;
  return std::round(static_cast<double>(s)) / 100;
}

MoveMark mark_for_loss(double squares_lost) {
  if (squares_lost >= kBlunderSquares) return MoveMark::Blunder;
  if (squares_lost >= kMistakeSquares) return MoveMark::Mistake;
  return MoveMark::None;
}

Expected<GameRecord, std::string> analyse_game(const GameRecord& record,
                                               const AnalysisOptions& options,
                                               const AnalysisProgress& progress) {
  if (auto replayed = replay(record); !replayed) return Unexpected(replayed.error());
  Position pos = *initial_position(record);
  const std::size_t plies = record.moves.size();
  auto search = make_search(options.settings);
  SearchLimits limits;
  limits.movetime = options.movetime;

  // scores[i], best[i]: the position before ply i (i == plies: the final one), for its mover.
  std::vector<double> scores(plies + 1);
  std::vector<Move> best(plies + 1, Move::none());
  for (std::size_t i = 0; i <= plies; ++i) {
    if (pos.is_game_over()) {
      scores[i] = -MoveAnnotation::kDecidedSquares;  // the side to move has lost
    } else {
      const SearchResult r = search_now(*search, pos, limits);
      scores[i] = score_squares(r.score);
      best[i] = r.best;
    }
    if (progress) progress(i + 1, plies + 1);
    if (i < plies) pos.do_move(record.moves[i].move);
  }

  GameRecord out = record;
  for (std::size_t i = 0; i < plies; ++i) {
    MoveAnnotation a;
    a.before = scores[i];
    a.after = -scores[i + 1];
    if (best[i] != record.moves[i].move) {
      a.best = best[i];
      // The engine's own choice is not judged: a deeper look at the next position is no mistake
      // of the player's.
      a.mark = mark_for_loss(a.before - a.after);
    }
    out.moves[i].annotation = a;
  }
  return out;
}

}  // namespace amazons::ai
