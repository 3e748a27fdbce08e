// Game analysis: the engine searches every position of a recorded game and judges each move by
// the territory it lost against the engine's own choice (amazons-engine analyse).
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "ai/levels.h"
#include "ai/score.h"
#include "ai/search.h"
#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::ai {

// The marks' thresholds in squares of territory lost (common/game_record.h says why these).
inline constexpr double kMistakeSquares = MoveAnnotation::kMistakeSquares;
inline constexpr double kBlunderSquares = MoveAnnotation::kBlunderSquares;

// Lets another thread end a running analyse_game early. cancel() stops the search in progress
// (the search promises within a millisecond or so) and no further search starts, so
// analyse_game returns kAnalysisCancelled at once. cancel() and cancelled() from any thread, any
// number of times; one token per analysis, which must outlive it.
class AnalysisCancel {
 public:
  void cancel();
  bool cancelled() const;

  // For analyse_game: starts `search` unless cancelled (then false). Checked and started under
  // the lock, so that a cancel() can never fall between the check and the start and be missed.
  bool start(Search& search, const Position& pos, const SearchLimits& limits);
  // For analyse_game: the search started last has ended.
  void finished();

 private:
  mutable std::mutex mutex_;
  bool cancelled_ = false;
  Search* running_ = nullptr;
};

// The error analyse_game returns when it was cancelled.
inline constexpr std::string_view kAnalysisCancelled = "analysis cancelled";

struct AnalysisOptions {
  Millis movetime{1000};             // per position
  SearchSettings settings;           // full strength by default
  AnalysisCancel* cancel = nullptr;  // none: runs to the end
};

// What `amazons-engine analyse` and the client's replay screen analyse with: the `hard` level of
// `config` (the built-in search settings when it has none) on one search thread, `movetime` a
// position.
AnalysisOptions analysis_options(const AiConfig& config, Millis movetime);

// Before the first ply (0) and after each ply: `done` plies of `total` judged.
using AnalysisProgress = std::function<void(std::size_t done, std::size_t total)>;

// A search score in squares of territory, as the client's evaluation bar reads it; a proven or
// counted result is +-MoveAnnotation::kDecidedSquares. Rounded to hundredths.
double score_squares(Score s);
MoveMark mark_for_loss(double squares_lost);
// The mark of a move played instead of the engine's: `before` the engine's best, `after` the
// move played, in squares for the mover. None where the game was decided whichever move was
// played (MoveAnnotation::kDecisiveSquares): lost already, or won before and still won after.
MoveMark mark_for(double before, double after);

// `previous`'s after and `next`'s before are one position seen by either side. Where a search
// proved its result (+-kDecidedSquares) on one side and the other search missed it, the proof is
// given to the other side, a proof being exact whatever the depth that found it; the marks are
// judged again. Only that position's scores change: a proof says nothing of the positions before
// or after it. True when a score changed. analyse_game applies it to each ply and the one before.
bool share_proof(MoveAnnotation& previous, MoveAnnotation& next);

// The record with an annotation on every move (earlier annotations replaced), or why the record
// does not replay. Each position is searched for movetime; a move that is not the engine's is
// then searched one ply less deep than the engine's (the same horizon) for the score after it.
// Blocks for up to 2 * plies * movetime (or until options.cancel is cancelled: then it fails
// with kAnalysisCancelled); calls progress on this thread.
Expected<GameRecord, std::string> analyse_game(const GameRecord& record,
                                               const AnalysisOptions& options,
                                               const AnalysisProgress& progress = {});

}  // namespace amazons::ai
