// amazons-match's command line: two players and how they meet.
#pragma once

#include <cstdint>
#include <string>

#include "common/expected.h"

namespace amazons::ai {

struct MatchArgs {
  std::string spec_a, spec_b;  // parse_player_spec's forms (match.h)
  std::string config_dir;      // rules/ and ai.json
  std::string rules = "standard";
  std::string tc = "none";  // parse_time_control's forms
  std::string records;      // append each game's record here, one JSON a line (empty: none)
  int games = 20, openings = 2, parallel = 1, threads = 1, hash_mb = 32, movetime = 1000;
  int grace = 500;  // ms past an external engine's time limit before it counts as hung
  std::uint64_t seed = 1;
  bool quiet = false;  // only the summary
};

// What the arguments ask for, or the status to exit with at once (0 after --help, CLI11's own
// for a malformed command line), printed as CLI11 prints it.
Expected<MatchArgs, int> parse_match_command_line(int argc, const char* const* argv);

}  // namespace amazons::ai
