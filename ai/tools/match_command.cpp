#include "ai/tools/match_command.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "ai/tools/interrupt.h"
#include "ai/tools/match.h"
#include "ai/tools/match_report.h"
#include "common/notation.h"

namespace amazons::ai {

namespace {

// A match ready to play: the two players and the options, from the command line. Fails with the
// message for stderr.
struct MatchSetup {
  PlayerSpec specs[2];
  MatchOptions options;
};

Expected<MatchSetup, std::string> set_up(const MatchArgs& args) {
  auto config = load_ai_config(std::filesystem::path(args.config_dir) / "ai.json");
  if (!config) return Unexpected(config.error());
  config->threads = args.threads;
  config->hash_mb = static_cast<std::size_t>(args.hash_mb);
  auto variant = resolve_variant(args.rules, std::filesystem::path(args.config_dir) / "rules");
  if (!variant) return Unexpected("--rules: " + variant.error());
  auto control = parse_time_control(args.tc);
  if (!control) return Unexpected("--tc: " + control.error());
  MatchSetup setup;
  for (int i = 0; i < 2; ++i) {
    auto s = parse_player_spec(i == 0 ? args.spec_a : args.spec_b, *config);
    if (!s) return Unexpected("player " + std::string(i == 0 ? "A" : "B") + ": " + s.error());
    setup.specs[i] = *s;
    setup.specs[i].external.movetime = Millis{args.movetime};
    setup.specs[i].external.grace = Millis{args.grace};
  }
  if (setup.specs[0].label == setup.specs[1].label) {
    setup.specs[0].label += " (A)";
    setup.specs[1].label += " (B)";
  }
  setup.options.rules = *variant;
  setup.options.games = args.games;
  setup.options.opening_plies = args.openings;
  setup.options.seed = args.seed;
  setup.options.parallel = args.parallel;
  setup.options.time_control = *control;
  setup.options.config = *config;
  return setup;
}

}  // namespace

int run_match_command(const MatchArgs& args) {
  auto setup = set_up(args);
  if (!setup) {
    std::cerr << "amazons-match: " << setup.error() << "\n";
    return 2;
  }
  std::ofstream record_file;
  if (!args.records.empty()) {
    record_file.open(args.records, std::ios::app);
    if (!record_file) {
      std::cerr << "amazons-match: --records: cannot write " << args.records << "\n";
      return 2;
    }
  }
  const MatchOptions& options = setup->options;
  MatchReport report(std::cout, setup->specs[0].label, setup->specs[1].label,
                     args.games + args.games % 2, args.quiet);
  Match match(setup->specs[0], setup->specs[1], options);
  // Ctrl-C ends the running games (their engines are stopped) and still prints the summary.
  on_interrupt([&match] {
    std::cerr << "\namazons-match: stopping the games in progress\n";
    match.abort();
  });

  report.header(options.rules, args.openings, options.time_control, args.parallel);
  const auto started = std::chrono::steady_clock::now();
  const MatchSummary summary = match.run([&](const GameOutcome& g, const MatchSummary& s) {
    if (record_file) record_file << to_json(g.record).dump() << std::endl;
    report.game(g, s);
  });
  report.summary(summary, std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::steady_clock::now() - started));
  return 0;
}

}  // namespace amazons::ai
