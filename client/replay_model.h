// Steps through a recorded game: forward, back, jump to any move, and export in the text
// notation. Every position is computed once up front, so jumping is instant.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "client/game_text.h"
#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::client {

class ReplayModel {
 public:
  // Fails with the record's own error message when a move does not replay.
  static Expected<ReplayModel, std::string> make(GameRecord record);
  // A record file of any format amazons-record reads (formats/record_formats.h), chosen by its
  // extension: our .json and .txt, .sgf (also LittleGolem's downloads), .lg and .moves. Every
  // move is checked; the error names the file, the move and the reason.
  static Expected<ReplayModel, std::string> open(const std::filesystem::path& file);

  const GameRecord& record() const { return record_; }
  std::size_t size() const { return positions_.size() - 1; }  // number of moves
  std::size_t ply() const { return ply_; }  // moves played in the shown position, 0..size()

  bool forward();              // false at the end
  bool back();                 // false at the start
  void jump(std::size_t ply);  // clamped to size()
  void to_start() { jump(0); }
  void to_end() { jump(size()); }

  // Takes the annotations of an analysis of this very game (the same start and moves); false,
  // and nothing changes, for another game.
  bool annotate(const GameRecord& analysed);

  const Position& position() const { return positions_[ply_]; }
  // The move that led to the shown position.
  std::optional<Move> last_move() const;
  // The moves, each followed by its analysis mark when it has one ("?" mistake, "??" blunder).
  std::vector<MoveRow> move_rows() const;
  // "Move 12 of 40", "Start position".
  std::string progress() const;
  // The result sentence of the whole game, or "Unfinished game".
  std::string result_text() const;

  // The record in the plain text form (common/game_record.h).
  std::string export_text() const { return to_text(record_); }
  // The record as SGF for the Amazons (GM[18], formats/sgf.h), for other programs and sites.
  std::string export_sgf() const;

 private:
  ReplayModel(GameRecord record, std::vector<Position> positions)
      : record_(std::move(record)), positions_(std::move(positions)) {}

  GameRecord record_;
  std::vector<Position> positions_;  // positions_[i]: after i moves
  std::size_t ply_ = 0;
};

// Writes the shown game to <data_dir>/exports/, named by its start time: `.txt` in our
// notation, `.sgf` for other programs and sites (atomically). Returns the file, or why not.
enum class ExportFormat { Text, Sgf };
Expected<std::filesystem::path, std::string> export_replay(const ReplayModel& model,
                                                           const std::filesystem::path& data_dir,
                                                           ExportFormat format);

// The record files in `dir` that other programs wrote (.sgf, .lg, .moves), sorted by name, for
// the replay list's imports. A missing directory has none.
std::vector<std::filesystem::path> importable_files(const std::filesystem::path& dir);

}  // namespace amazons::client
