// The replay screen's analysis view: what an annotated record (ai/analysis.h) shows, the
// evaluation graph, the marks, the engine's best moves, and the analysis of a game running in
// the background. Pure C++ on the engine, no SFML: the screen only draws it and feeds it clicks.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ai/analysis.h"
#include "client/board_geometry.h"
#include "common/game_record.h"

namespace amazons::client {

// Squares of territory at which the graph reaches its edge; beyond, it flattens (tanh), as the
// evaluation bar does with kEvalBarScale.
inline constexpr double kGraphScale = 8.0;

// The engine's judgement of the position after `ply` moves, from White's point of view.
struct GraphPoint {
  std::size_t ply = 0;
  double white_squares = 0;  // +-MoveAnnotation::kDecidedSquares for a decided game
  double y = 0;              // -1 (Black winning) .. 1 (White winning): tanh(squares / scale)
  friend bool operator==(const GraphPoint&, const GraphPoint&) = default;
};

// Every move of `record` has an annotation (and there is at least one move).
bool fully_annotated(const GameRecord& record);

// One point per position, plies 0..moves, when the record is fully annotated (else none; a
// record that does not replay has none either). The position before move i is judged by that
// move's `before` (the engine's search of that very position); the last position by the last
// move's `after`.
std::vector<GraphPoint> graph_points(const GameRecord& record);

// The ply of the graph point nearest to x when `points` points are spread evenly across `area`
// (the first at its left edge, the last at its right); nullopt off the area.
std::optional<std::size_t> graph_ply_at(Rect area, std::size_t points, float x, float y);
// Where point `ply` of `points` sits across `area` (its x).
float graph_x(Rect area, std::size_t points, std::size_t ply);

// "?" for a mistake, "??" for a blunder, "" otherwise; for move `ply` (1-based).
std::string mark_suffix(const GameRecord& record, std::size_t ply);

// What the engine would have played instead of the move made from the position after `ply`
// moves (so the move is legal on that board), when it differs from that move; else nullopt.
std::optional<Move> best_move_at(const GameRecord& record, std::size_t ply);

// One line about the next move for the panel, for the position after `ply` moves: "Next:
// d1-d7/g7 ?? lost 6.1; engine d1-d4/d8", "Next: d1-d7/g7, the engine's move", or "" when
// unannotated or at the end.
std::string next_move_comment(const GameRecord& record, std::size_t ply);

// The analysis of a game on a worker thread of its own, with progress and cancel. Every member
// is called from one thread (the screen's); the worker touches only the shared progress.
class AnalysisJob {
 public:
  enum class State { Idle, Running, Done, Cancelled, Failed };

  explicit AnalysisJob(ai::AnalysisOptions options = {});
  // Cancels a running analysis and waits for its worker (promptly: cancel() stops its search).
  ~AnalysisJob();
  AnalysisJob(const AnalysisJob&) = delete;
  AnalysisJob& operator=(const AnalysisJob&) = delete;

  // Starts analysing `record` and returns at once; false while one is still running.
  bool start(GameRecord record);
  // Asks a running analysis to stop and returns at once; its state becomes Cancelled at once
  // and the worker ends within its current search's first millisecond or so.
  void cancel();

  State state() const;
  // Plies judged and the game's plies, of the running (or last) analysis.
  std::size_t done() const;
  std::size_t total() const;
  // "Analysing ply 23 of 61", "Analysis cancelled", "Analysis failed: ...", "" when idle or done.
  std::string status_text() const;
  // Once, after the analysis finished (state Done): the annotated record.
  std::optional<GameRecord> take_result();

 private:
  struct Shared;
  void join();

  ai::AnalysisOptions options_;
  std::shared_ptr<Shared> shared_;  // of the running (or last) analysis
  std::thread worker_;
};

}  // namespace amazons::client
