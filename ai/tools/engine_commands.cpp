#include "ai/tools/engine_commands.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ai/analysis.h"
#include "ai/levels.h"
#include "ai/protocol.h"
#include "ai/tools/selfplay.h"
#include "common/game_record.h"
#include "common/notation.h"
#include "common/perft.h"
#include "common/position_text.h"
#include "common/variant.h"

namespace amazons::ai {

namespace {

int run_perft(const PerftArgs& opt, const std::filesystem::path& config_dir) {
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

Expected<AiConfig, std::string> load_config(const std::filesystem::path& config_dir) {
  return load_ai_config(config_dir / "ai.json");
}

int run_protocol(const std::filesystem::path& config_dir) {
  auto config = load_config(config_dir);
  if (!config) {
    std::cerr << "amazons-engine: " << config.error() << "\n";
    return 2;
  }
  EngineProtocol protocol(*config, config_dir / "rules",
                          [](std::string_view line) { std::cout << line << std::endl; });
  for (std::string line; std::getline(std::cin, line);)
    if (!protocol.handle(line)) return 0;
  protocol.finish();
  return 0;
}

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
  SelfplayOptions opt;
  opt.rules = *variant;
  opt.config = *config;
  const std::string level_name = args.level.empty() ? config->default_level : args.level;
  const Level* level = config->find(level_name);
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

  const AnalysisOptions options = analysis_options(*config, Millis{args.movetime_ms});
  auto analysed = analyse_game(*record, options, [](std::size_t done, std::size_t plies) {
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

struct Runner {
  const std::filesystem::path& config_dir;
  int operator()(const ProtocolArgs&) const { return run_protocol(config_dir); }
  int operator()(const BotzoneArgs& args) const {
    return botzone::run(std::cin, std::cout, std::cerr, args.options);
  }
  int operator()(const SelfplayArgs& args) const { return run_selfplay(args, config_dir); }
  int operator()(const AnalyseArgs& args) const { return run_analyse(args, config_dir); }
  int operator()(const PerftArgs& args) const { return run_perft(args, config_dir); }
};

}  // namespace

int run_engine(const EngineCommand& command) {
  return std::visit(Runner{command.config_dir}, command.mode);
}

}  // namespace amazons::ai
