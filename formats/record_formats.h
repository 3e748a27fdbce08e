// Every record format amazons-record knows, chosen by name or by file extension, and the file
// conversion itself: read and check the whole game, then write it to a temporary file next to
// the output and rename it into place, so a failed conversion leaves no partial file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::formats {

enum class RecordFormat : std::uint8_t {
  Json,         // docs/GAME_RECORD.md
  Text,         // docs/GAME_RECORD.md
  Sgf,          // GM[18]
  LittleGolem,  // read only
  MoveList,     // Fairy-Stockfish / PlayStrategy
};

std::string_view name(RecordFormat f);  // "json", "text", "sgf", "littlegolem", "moves"
std::optional<RecordFormat> format_from_name(std::string_view name);
// .json, .txt, .sgf, .lg, .moves (and .uci, .fsf); the message lists them.
Expected<RecordFormat, std::string> format_for_path(const std::filesystem::path& path);
bool can_write(RecordFormat f);

// Reads a record of format f. An .sgf file without GM[18] that names LittleGolem is read as
// LittleGolem's (LittleGolem's downloads are .sgf files too).
Expected<GameRecord, std::string> read_record(std::string_view text, RecordFormat f);
// Fails only for a format that cannot be written (LittleGolem).
Expected<std::string, std::string> write_record(const GameRecord& record, RecordFormat f);

// Files larger than this are refused before they are read: the longest game on the largest
// board, with every comment a format allows, is far smaller.
inline constexpr std::uintmax_t kMaxRecordFileBytes = 16 * 1024 * 1024;

Expected<std::string, std::string> read_file(const std::filesystem::path& path);
// Writes `text` to a temporary file in the directory of `path`, then renames it to `path`.
Expected<void, std::string> write_file_atomically(const std::filesystem::path& path,
                                                  std::string_view text);

struct ConvertOptions {
  std::optional<RecordFormat> from;  // default: from the input's extension
  std::optional<RecordFormat> to;    // default: from the output's extension
};
// Reads `in`, checks the game, writes `out`. Errors start with the file they concern.
Expected<GameRecord, std::string> convert_file(const std::filesystem::path& in,
                                               const std::filesystem::path& out,
                                               const ConvertOptions& options);

}  // namespace amazons::formats
