// Playing strengths for people (beginner, easy, medium, hard, max) and the engine-wide settings,
// read from config/ai.json (docs/ENGINE.md describes the file).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ai/search.h"
#include "common/expected.h"
#include "common/player.h"

namespace amazons::ai {

struct Level {
  std::string name;
  std::string description;
  std::optional<Millis> movetime;  // time per move (the most it takes when a clock gives more)
  bool clock = false;              // spend what the game clock allows instead of movetime
  int depth = 0;                   // depth limit in moves, 0 for none
  std::uint64_t nodes = 0;         // node limit, 0 for none
  double width = 1.0;              // scales the search's selective widths
  int noise = 0;  // evaluation noise in hundredths of a square (deliberate mistakes)
  SearchKind search = SearchKind::AlphaBeta;
  friend bool operator==(const Level&, const Level&) = default;
};

// Every config must define these, weakest first.
inline constexpr std::string_view kStandardLevels[] = {"beginner", "easy", "medium", "hard", "max"};

struct AiConfig {
  std::vector<Level> levels;  // the standard ones first, in order, then any others by name
  std::string default_level = "medium";
  int threads = 0;           // search threads; 0 for one per core
  std::size_t hash_mb = 64;  // transposition table per engine

  const Level* find(std::string_view name) const;
  friend bool operator==(const AiConfig&, const AiConfig&) = default;
};

// Where the tools find rules/ and ai.json: $AMAZONS_CONFIG_DIR, else the installed
// share/amazons/config beside the program's bin/, else the source tree's config/ (fixed at build
// time). common/shipped_files.h says why in that order.
std::filesystem::path default_config_dir();

// What config/ai.json holds; used where no file is at hand (Botzone runs a lone binary).
AiConfig builtin_ai_config();

// Every problem is reported as "path.to.field: problem".
Expected<AiConfig, std::string> ai_config_from_json(const nlohmann::json& j);
Expected<AiConfig, std::string> parse_ai_config(std::string_view json_text);
Expected<AiConfig, std::string> load_ai_config(const std::filesystem::path& path);
nlohmann::json to_json(const AiConfig& config);

// The search settings for a level (threads 0 resolved to the number of cores).
SearchSettings settings_for(const Level& level, const AiConfig& config);
// The limits for one move: the level's, tightened by the clock when there is one. `clock` may be
// null (no clock).
SearchLimits limits_for(const Level& level, const ClockState* clock, Color side);

}  // namespace amazons::ai
