// amazons-engine: the engine's command line. Without a subcommand it speaks the engine protocol
// on stdin/stdout; --botzone speaks Botzone's format; `selfplay` shows a game; `perft N` counts
// move sequences.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "ai/botzone.h"
#include "ai/levels.h"
#include "ai/protocol.h"
#include "ai/selfplay.h"
#include "common/notation.h"
#include "common/perft.h"
#include "common/position_text.h"
#include "common/variant.h"

namespace {

using namespace amazons;

std::filesystem::path default_config_dir() {
  if (const char* env = std::getenv("AMAZONS_CONFIG_DIR")) return env;
  return AMAZONS_CONFIG_DIR;
}

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "amazons-engine: the Game of the Amazons engine.\n"
      "Without a subcommand it reads engine protocol commands on stdin (docs/ENGINE_PROTOCOL.md)."};
  app.require_subcommand(0, 1);
  std::string config_dir = default_config_dir().string();
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
  if (*selfplay_cmd) return run_selfplay(selfplay, config_dir);
  if (botzone) {
    bz.movetime = Millis{bz_movetime};
    bz.first_movetime = Millis{bz_first};
    bz.keep_running = !bz_once;
    return ai::botzone::run(std::cin, std::cout, std::cerr, bz);
  }
  return run_protocol(config_dir);
}
