#include "ai/tools/match_command_line.h"

#include <CLI/CLI.hpp>

#include "ai/levels.h"

namespace amazons::ai {

Expected<MatchArgs, int> parse_match_command_line(int argc, const char* const* argv) {
  CLI::App app{
      "amazons-match: plays games between two players and scores them.\n"
      "A player is a level (beginner, easy, medium, hard, max), limits:movetime=MS,depth=N,"
      "width=W,noise=N,search=alphabeta|mcts|auto, engine:COMMAND (our engine protocol), "
      "uci:COMMAND (UCI as Fairy-Stockfish plays the Amazons), botzone:COMMAND (Botzone format, "
      "8x8 only) or random. A level or limits ending in +ponder thinks on the opponent's time."};
  MatchArgs a;
  a.config_dir = default_config_dir().string();
  app.add_option("A", a.spec_a, "First player")->required();
  app.add_option("B", a.spec_b, "Second player")->required();
  app.add_option("-n,--games", a.games, "Games (rounded up to even: each opening twice)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--rules", a.rules, "Variant name or JSON file")->capture_default_str();
  app.add_option("--tc", a.tc, "Time control: none, 300+5 (seconds) or 1/move")
      ->capture_default_str();
  app.add_option("--openings", a.openings, "Random plies before the players take over")
      ->check(CLI::Range(0, 20))
      ->capture_default_str();
  app.add_option("-j,--parallel", a.parallel, "Games played at the same time")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--threads", a.threads, "Search threads per engine player")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--hash", a.hash_mb, "Transposition table per engine player (MB)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--movetime", a.movetime, "External engines: milliseconds a move without a clock")
      ->check(CLI::Range(1, 3600000))
      ->capture_default_str();
  app.add_option("--grace", a.grace,
                 "External engines: milliseconds past their time limit before they count as hung")
      ->check(CLI::Range(0, 3600000))
      ->capture_default_str();
  app.add_option("--seed", a.seed, "Picks the openings")->capture_default_str();
  app.add_option("--records", a.records, "Append every game record to this file, one JSON a line");
  app.add_option("--config-dir", a.config_dir, "Directory with rules/ and ai.json")
      ->capture_default_str();
  app.add_flag("-q,--quiet", a.quiet, "Print only the summary");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return Unexpected(app.exit(e));
  }
  return a;
}

}  // namespace amazons::ai
