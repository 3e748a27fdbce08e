// The player's games on this computer, in the user's data directory: the unfinished local game
// (saved after every move so it can be resumed) and the finished games (to replay).
// Thread-safety: distinct GameStore objects on the same directory may be used from different
// threads as long as they do not write the same file at once; the client writes the unfinished
// game from the game's thread only.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::client {

class GameStore {
 public:
  explicit GameStore(std::filesystem::path data_dir) : dir_(std::move(data_dir)) {}

  std::filesystem::path unfinished_path() const { return dir_ / "unfinished-game.json"; }
  std::filesystem::path games_dir() const { return dir_ / "games"; }

  // Replaces the saved unfinished game (atomically). Returns a sentence on failure.
  std::optional<std::string> save_unfinished(const GameRecord& record) const;
  // nullopt when there is none; an error sentence when the file cannot be used.
  std::optional<Expected<GameRecord, std::string>> load_unfinished() const;
  void discard_unfinished() const;
  // Moves the unfinished game, if there is one, to the saved games (where it can be replayed but
  // not resumed), so that a new game can take its place without losing it. Returns where it
  // went; nothing when there was none.
  Expected<std::optional<std::filesystem::path>, std::string> shelve_unfinished() const;

  // Stores a finished game under games/ and removes the unfinished one. A game aborted before
  // any move is not worth keeping: it is only removed. Returns the new file, if one was written.
  Expected<std::optional<std::filesystem::path>, std::string> finish(
      const GameRecord& record) const;

  struct Entry {
    std::filesystem::path file;
    std::optional<GameRecord> record;  // empty when the file could not be read
    std::string problem;               // why it could not be read
  };
  // The finished games, newest first (by file name, which starts with the start time).
  std::vector<Entry> list() const;

  static Expected<GameRecord, std::string> load(const std::filesystem::path& file);

 private:
  // Writes the record under games/ with a name of its own.
  Expected<std::filesystem::path, std::string> archive(const GameRecord& record) const;

  std::filesystem::path dir_;
};

// "White vs Black, 2026-11-29 14:25 — White won (no_moves)": a line for lists.
std::string describe_game(const GameRecord& record);

// Both clocks as they stood after the record's last move: each side's last recorded clock, or
// the initial time. Indexed by index_of(Color).
std::array<Millis, 2> clocks_after(const GameRecord& record);

}  // namespace amazons::client
