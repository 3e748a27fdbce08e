// amazons-engine: the engine's command line. Without a subcommand it speaks the engine protocol
// on stdin/stdout; --botzone speaks Botzone's format; `selfplay` shows a game; `analyse GAME`
// annotates a game record; `perft N` counts move sequences.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "ai/analysis.h"
#include "ai/botzone.h"
#include "ai/levels.h"
#include "ai/protocol.h"
#include "ai/tools/selfplay.h"
#include "common/game_record.h"
#include "common/notation.h"
#include "common/perft.h"
#include "common/position_text.h"
#include "common/variant.h"

namespace {

using namespace amazons;

struct PerftOptions {
  int depth = 1;
  std::string rules = "standard";
  std::string position;
  unsigned threads = 0;
  bool divide = false;
};

int run_perft(const PerftOptions& opt, const std::filesystem::path& config_dir) {
  auto variant = resolve_variant(opt.rules, config_dir / "rules");
  if (!variant) {
    std::cerr << "amazons-engine: " << variant.error() << "\n";
    return 2;
  }
  Position pos(*variant);
  if (!opt.position.empty()) {
    auto parsed = parse_position(opt.position);
    if (!parsed) {
      std::cerr << "amazons-engine: --position: " << parsed.error().message() << "\n";
      return 2;
    }
    pos = *parsed;
  }
  std::cout << "position: " << to_text(pos) << " (" << variant->name << ", " << pos.size() << "x"
            << pos.size() << ")\n";
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (opt.divide && opt.depth >= 1) {
    for (const auto& d : perft_divide(pos, opt.depth)) {
      std::cout << to_string(d.move) << " " << d.count << "\n";
      total += d.count;
    }
  } else {
    const bool show_progress = opt.depth >= 3 && isatty(STDERR_FILENO);
    PerftProgress progress;
    if (show_progress)
      progress = [](std::size_t done, std::size_t all) {
        std::fprintf(stderr, "\r%zu/%zu root moves (%zu%%)", done, all, done * 100 / all);
        std::fflush(stderr);
      };
    total = perft_parallel(pos, opt.depth, opt.threads, progress);
    if (show_progress) std::fputs("\r\033[K", stderr);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "perft " << opt.depth << ": " << total << "\n";
  std::printf("time: %.3f s, %.1f million moves/s\n", seconds,
              seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0);
  return 0;
}

Expected<ai::AiConfig, std::string> load_config(const std::filesystem::path& config_dir) {
  return ai::load_ai_config(config_dir / "ai.json");
}

int run_protocol(const std::filesystem::path& config_dir) {
  auto config = load_config(config_dir);
  if (!config) {
    std::cerr << "amazons-engine: " << config.error() << "\n";
    return 2;
  }
  ai::EngineProtocol protocol(*config, config_dir / "rules",
                              [](std::string_view line) { std::cout << line << std::endl; });
  for (std::string line; std::getline(std::cin, line);)
    if (!protocol.handle(line)) return 0;
  protocol.finish();
  return 0;
}

struct SelfplayArgs {
  std::string rules = "standard";
  std::string level;
  int movetime_ms = 0;
  int depth = 0;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

int run_selfplay(const SelfplayArgs& args, const std::filesystem::path& config_dir) {
  auto config = load_config(config_dir);
  if (!config) {
    std::cerr << "amazons-engine: " << config.error() << "\n";
    return 2;
  }
  auto variant = resolve_variant(args.rules, config_dir / "rules");
  if (!variant) {
    std::cerr << "amazons-engine: --rules: " << variant.error() << "\n";
    return 2;
  }
  ai::SelfplayOptions opt;
  opt.rules = *variant;
  opt.config = *config;
  const std::string level_name = args.level.empty() ? config->default_level : args.level;
  const ai::Level* level = config->find(level_name);
  if (!level) {
    std::cerr << "amazons-engine: --level: no level named '" << level_name << "'\n";
    return 2;
  }
  opt.level = *level;
  if (args.movetime_ms > 0 || args.depth > 0) {
    opt.level.name = "custom";
    opt.level.movetime =
        args.movetime_ms > 0 ? std::optional<Millis>(Millis{args.movetime_ms}) : std::nullopt;
    opt.level.depth = args.depth;
    opt.level.clock = false;
  }
  opt.seed =
      args.seed_given
          ? args.seed
          : static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  ai::run_selfplay(opt, std::cout);
  return 0;
}

struct AnalyseArgs {
  std::string game;
  std::string out;
  int movetime_ms = 1000;
};

// Reads the whole file; nullopt (and the reason in `why`) when it cannot.
std::optional<std::string> read_file(const std::string& path, std::string& why) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    why = std::filesystem::exists(path, ec) ? "not a regular file" : "no such file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    why = "cannot be read";
    return std::nullopt;
  }
  return text.str();
}

int run_analyse(const AnalyseArgs& args, const std::filesystem::path& config_dir) {
  auto fail = [](const std::string& message) {
    std::cerr << "amazons-engine analyse: " << message << "\n";
    return 2;
  };
  auto config = load_config(config_dir);
  if (!config) return fail(config.error());
  std::string why;
  const auto text = read_file(args.game, why);
  if (!text) return fail(args.game + ": " + why);
  // The JSON form is an object; the text form starts with tags or moves.
  const auto first = text->find_first_not_of(" \t\r\n");
  const bool json = first != std::string::npos && (*text)[first] == '{';
  auto record = json ? parse_record_json(*text) : parse_record_text(*text);
  if (!record)
    return fail(args.game + ": not a game record (" + std::string(json ? "JSON" : "text") +
                " form): " + record.error());

  const ai::AnalysisOptions options = ai::analysis_options(*config, Millis{args.movetime_ms});
  auto analysed = ai::analyse_game(*record, options, [](std::size_t done, std::size_t plies) {
    std::cerr << "ply " << done << "/" << plies << std::endl;
  });
  if (!analysed) return fail(args.game + ": " + analysed.error());

  int mistakes = 0, blunders = 0;
  for (const RecordedMove& m : analysed->moves) {
    mistakes += m.annotation->mark == MoveMark::Mistake;
    blunders += m.annotation->mark == MoveMark::Blunder;
  }
  const std::string result = json ? to_json(*analysed).dump(2) + "\n" : to_text(*analysed);
  if (args.out.empty()) {
    std::cout << result << std::flush;
  } else {
    std::ofstream out(args.out, std::ios::binary | std::ios::trunc);
    out << result;
    out.close();
    if (!out) return fail(args.out + ": cannot be written");
  }
  std::cerr << "analysed " << analysed->moves.size() << " plies: " << mistakes
            << (mistakes == 1 ? " mistake, " : " mistakes, ") << blunders
            << (blunders == 1 ? " blunder" : " blunders") << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "amazons-engine: the Game of the Amazons engine.\n"
      "Without a subcommand it reads engine protocol commands on stdin (docs/ENGINE_PROTOCOL.md)."};
  app.require_subcommand(0, 1);
  std::string config_dir = ai::default_config_dir().string();
  app.add_option("--config-dir", config_dir, "Directory with rules/ and ai.json")
      ->capture_default_str();

  bool botzone = false;
  ai::botzone::Options bz;
  int bz_movetime = static_cast<int>(bz.movetime.count());
  int bz_first = static_cast<int>(bz.first_movetime.count());
  bool bz_once = false;
  app.add_flag("--botzone", botzone, "Speak Botzone's Amazons format (8x8) on stdin/stdout");
  app.add_option("--movetime", bz_movetime, "--botzone: milliseconds per move")
      ->check(CLI::Range(10, 600000))
      ->capture_default_str();
  app.add_option("--first-movetime", bz_first, "--botzone: milliseconds for the first move")
      ->check(CLI::Range(10, 600000))
      ->capture_default_str();
  app.add_flag("--once", bz_once, "--botzone: answer one turn and exit (no keep-running)");
  app.add_option("--threads", bz.threads, "--botzone: search threads")
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

  PerftOptions perft;
  auto* perft_cmd = app.add_subcommand("perft", "Count the move sequences of length N");
  perft_cmd->add_option("N", perft.depth, "Depth")->required()->check(CLI::Range(0, 6));
  perft_cmd->add_option("--rules", perft.rules, "Variant name or JSON file")->capture_default_str();
  perft_cmd->add_option("--position", perft.position, "Start from this position text");
  perft_cmd->add_option("--threads", perft.threads, "Worker threads (0: one per core)")
      ->capture_default_str();
  perft_cmd->add_flag("--divide", perft.divide, "Print the count below each root move");

  CLI11_PARSE(app, argc, argv);
  if (*perft_cmd) return run_perft(perft, config_dir);
  if (*analyse_cmd) return run_analyse(analyse, config_dir);
  if (*selfplay_cmd) return run_selfplay(selfplay, config_dir);
  if (botzone) {
    bz.movetime = Millis{bz_movetime};
    bz.first_movetime = Millis{bz_first};
    bz.keep_running = !bz_once;
    return ai::botzone::run(std::cin, std::cout, std::cerr, bz);
  }
  return run_protocol(config_dir);
}
