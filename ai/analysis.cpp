#include "ai/analysis.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace amazons::ai {

AnalysisOptions analysis_options(const AiConfig& config, Millis movetime) {
  AnalysisOptions o;
  o.movetime = movetime;
  if (const Level* hard = config.find("hard")) o.settings = settings_for(*hard, config);
  o.settings.threads = 1;  // one position at a time; a window or a terminal stays responsive
  // Alpha-beta whatever the level plays with: the marks compare scores in squares of territory
  // at equal depths, which MCTS's winning chances do not give.
  o.settings.kind = SearchKind::AlphaBeta;
  return o;
}

double score_squares(Score s) {
  if (is_decided(s))
    return s > 0 ? MoveAnnotation::kDecidedSquares : -MoveAnnotation::kDecidedSquares;
  return std::round(static_cast<double>(s)) / 100;
}

void AnalysisCancel::cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  if (running_) running_->stop();
}

bool AnalysisCancel::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

bool AnalysisCancel::start(Search& search, const Position& pos, const SearchLimits& limits) {
  std::lock_guard lock(mutex_);
  if (cancelled_) return false;
  running_ = &search;
  search.start(pos, limits, {});
  return true;
}

void AnalysisCancel::finished() {
  std::lock_guard lock(mutex_);
  running_ = nullptr;
}

namespace {

// search_now, unless `cancel` is cancelled before or during the search: then nothing.
std::optional<SearchResult> search_unless_cancelled(Search& search, const Position& pos,
                                                    const SearchLimits& limits,
                                                    AnalysisCancel* cancel) {
  if (!cancel) return search_now(search, pos, limits);
  if (!cancel->start(search, pos, limits)) return std::nullopt;
  SearchResult result = search.wait();
  cancel->finished();
  if (cancel->cancelled()) return std::nullopt;
  return result;
}

}  // namespace

MoveMark mark_for_loss(double squares_lost) {
  if (squares_lost >= kBlunderSquares) return MoveMark::Blunder;
  if (squares_lost >= kMistakeSquares) return MoveMark::Mistake;
  return MoveMark::None;
}

MoveMark mark_for(double before, double after) {
  constexpr double kDecisive = MoveAnnotation::kDecisiveSquares;
  if (before <= -kDecisive) return MoveMark::None;                       // lost whatever is played
  if (before >= kDecisive && after >= kDecisive) return MoveMark::None;  // won, and still won
  return mark_for_loss(before - after);
}

namespace {

bool proven(double squares) { return std::abs(squares) >= MoveAnnotation::kDecidedSquares; }

void judge(MoveAnnotation& a) { a.mark = a.best ? mark_for(a.before, a.after) : MoveMark::None; }

}  // namespace

bool share_proof(MoveAnnotation& previous, MoveAnnotation& next) {
  // Both proven: they agree, proofs being exact. Neither: nothing to share.
  if (proven(previous.after) == proven(next.before)) return false;
  if (proven(previous.after))
    next.before = -previous.after;
  else
    previous.after = -next.before;
  judge(previous);
  judge(next);
  return true;
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

  GameRecord out = record;
  if (progress) progress(0, plies);
  for (std::size_t i = 0; i < plies; ++i) {
    const Move played = record.moves[i].move;
    const auto searched = search_unless_cancelled(*search, pos, limits, options.cancel);
    if (!searched) return Unexpected(std::string(kAnalysisCancelled));
    const SearchResult& best = *searched;
    pos.do_move(played);
    MoveAnnotation a;
    a.before = a.after = score_squares(best.score);
    if (best.best != played) {
      a.best = best.best;
      // The move played is searched one ply less deep than the engine's, so that both scores
      // look equally far ahead: a search of the next position on its own clock would reach
      // another depth, and in this game the side that moves last in a search is favoured by
      // more than a square, which would mark sound moves as mistakes.
      if (pos.is_game_over()) {
        a.after = MoveAnnotation::kDecidedSquares;  // the opponent cannot move
      } else {
        // A decided result is exact whatever the depth that found it: the move played gets the
        // whole time to show whether it keeps it.
        SearchLimits same_depth = limits;
        if (!is_decided(best.score)) same_depth.depth = std::max(1, best.depth - 1);
        const auto after = search_unless_cancelled(*search, pos, same_depth, options.cancel);
        if (!after) return Unexpected(std::string(kAnalysisCancelled));
        a.after = -score_squares(after->score);
      }
    }
    judge(a);
    out.moves[i].annotation = a;
    // A proof found at this ply, or one this ply's search missed, is shared with the ply before.
    if (i > 0) share_proof(*out.moves[i - 1].annotation, *out.moves[i].annotation);
    if (progress) progress(i + 1, plies);
  }
  return out;
}

}  // namespace amazons::ai
