// amazons-engine: the engine's command line. `perft N` counts move sequences.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"amazons-engine: the Game of the Amazons engine"};
  app.require_subcommand(1);
  std::string config_dir = default_config_dir().string();
  app.add_option("--config-dir", config_dir, "Directory with rules/ and ai.json")
      ->capture_default_str();

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
  return 0;
}
