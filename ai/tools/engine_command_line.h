// amazons-engine's command line: which of its modes to run, with what. Without a subcommand it
// speaks the engine protocol on stdin/stdout; --botzone speaks Botzone's format; `selfplay` shows
// a game; `analyse GAME` annotates a game record; `perft N` counts move sequences.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

#include "ai/botzone.h"
#include "common/expected.h"

namespace amazons::ai {

// The engine protocol on stdin/stdout (docs/ENGINE_PROTOCOL.md).
struct ProtocolArgs {};

struct BotzoneArgs {
  botzone::Options options;
};

struct SelfplayArgs {
  std::string rules = "standard";
  std::string level;  // empty: ai.json's default_level
  int movetime_ms = 0;
  int depth = 0;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

struct AnalyseArgs {
  std::string game;
  std::string out;  // empty: standard output
  int movetime_ms = 1000;
};

struct PerftArgs {
  int depth = 1;
  std::string rules = "standard";
  std::string position;
  unsigned threads = 0;  // 0: one per core
  bool divide = false;
};

struct EngineCommand {
  std::filesystem::path config_dir;  // rules/ and ai.json
  std::variant<ProtocolArgs, BotzoneArgs, SelfplayArgs, AnalyseArgs, PerftArgs> mode;
};

// What the arguments ask for, or the status to exit with at once (0 after --help, CLI11's own
// for a malformed command line), printed as CLI11 prints it.
Expected<EngineCommand, int> parse_engine_command_line(int argc, const char* const* argv);

}  // namespace amazons::ai
