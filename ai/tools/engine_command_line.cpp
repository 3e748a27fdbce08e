#include "ai/tools/engine_command_line.h"

#include <CLI/CLI.hpp>

#include "ai/levels.h"

namespace amazons::ai {

Expected<EngineCommand, int> parse_engine_command_line(int argc, const char* const* argv) {
  CLI::App app{
      "amazons-engine: the Game of the Amazons engine.\n"
      "Without a subcommand it reads engine protocol commands on stdin (docs/ENGINE_PROTOCOL.md)."};
  app.require_subcommand(0, 1);
  std::string config_dir = default_config_dir().string();
  app.add_option("--config-dir", config_dir, "Directory with rules/ and ai.json")
      ->capture_default_str();

  bool botzone = false;
  BotzoneArgs bz;
  int bz_movetime = static_cast<int>(bz.options.movetime.count());
  int bz_first = static_cast<int>(bz.options.first_movetime.count());
  bool bz_once = false;
  app.add_flag("--botzone", botzone, "Speak Botzone's Amazons format (8x8) on stdin/stdout");
  app.add_option("--movetime", bz_movetime, "--botzone: milliseconds per move")
      ->check(CLI::Range(10, 600000))
      ->capture_default_str();
  app.add_option("--first-movetime", bz_first, "--botzone: milliseconds for the first move")
      ->check(CLI::Range(10, 600000))
      ->capture_default_str();
  app.add_flag("--once", bz_once, "--botzone: answer one turn and exit (no keep-running)");
  app.add_option("--threads", bz.options.threads, "--botzone: search threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();

  SelfplayArgs selfplay;
  auto* selfplay_cmd =
      app.add_subcommand("selfplay", "Play one game against itself, shown move by move");
  selfplay_cmd->add_option("--rules", selfplay.rules, "Variant name or JSON file")
      ->capture_default_str();
  selfplay_cmd->add_option("--level", selfplay.level,
                           "Level from ai.json (default: its default_level)");
  selfplay_cmd
      ->add_option("--movetime", selfplay.movetime_ms,
                   "Milliseconds per move instead of the level's")
      ->check(CLI::Range(1, 3600000));
  selfplay_cmd->add_option("--depth", selfplay.depth, "Depth limit instead of the level's")
      ->check(CLI::Range(1, 100));
  selfplay_cmd->add_option("--seed", selfplay.seed, "Picks the opening (default: from the clock)")
      ->each([&](const std::string&) { selfplay.seed_given = true; });

  AnalyseArgs analyse;
  auto* analyse_cmd = app.add_subcommand(
      "analyse",
      "Search every position of a game record (JSON or text form) and write it back annotated: "
      "scores before and after each move, the engine's move where it differs, mistakes and "
      "blunders (docs/GAME_RECORD.md)");
  analyse_cmd->add_option("GAME", analyse.game, "The game record")->required();
  analyse_cmd->add_option("--movetime", analyse.movetime_ms, "Milliseconds per position")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  analyse_cmd->add_option("--out", analyse.out,
                          "Write the annotated record here (default: standard output), in the "
                          "form it was read in");

  PerftArgs perft;
  auto* perft_cmd = app.add_subcommand("perft", "Count the move sequences of length N");
  perft_cmd->add_option("N", perft.depth, "Depth")->required()->check(CLI::Range(0, 6));
  perft_cmd->add_option("--rules", perft.rules, "Variant name or JSON file")->capture_default_str();
  perft_cmd->add_option("--position", perft.position, "Start from this position text");
  perft_cmd->add_option("--threads", perft.threads, "Worker threads (0: one per core)")
      ->capture_default_str();
  perft_cmd->add_flag("--divide", perft.divide, "Print the count below each root move");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return Unexpected(app.exit(e));
  }
  EngineCommand command{config_dir, ProtocolArgs{}};
  if (*perft_cmd) {
    command.mode = perft;
  } else if (*analyse_cmd) {
    command.mode = analyse;
  } else if (*selfplay_cmd) {
    command.mode = selfplay;
  } else if (botzone) {
    bz.options.movetime = Millis{bz_movetime};
    bz.options.first_movetime = Millis{bz_first};
    bz.options.keep_running = !bz_once;
    command.mode = bz;
  }
  return command;
}

}  // namespace amazons::ai
