// amazons-match: plays games between two players and scores them.
#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "ai/tools/match.h"
#include "common/notation.h"

namespace {

using namespace amazons;

std::string elo_text(double e) {
  if (std::isinf(e)) return e > 0 ? "+inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f", e);
  return buf;
}

std::string overrun_text(const std::optional<Millis>& o) {
  if (!o) return "no time limit";
  if (o->count() <= 0) return std::to_string(-o->count()) + " ms early at the latest";
  return std::to_string(o->count()) + " ms late";
}

std::string duration_text(std::chrono::seconds s) {
  const long m = s.count() / 60;
  return (m > 0 ? std::to_string(m) + "m " : std::string()) + std::to_string(s.count() % 60) + "s";
}

std::string ending(const GameRecord& r, const std::string& loser) {
  if (!r.result) return "unfinished";
  switch (r.result->reason) {
    case EndReason::NoMoves:
      return loser + " cannot move";
    case EndReason::Resign:
      return loser + " resigned";
    case EndReason::Time:
      return loser + " ran out of time";
    case EndReason::IllegalMove:
      return loser + " played an illegal move";
    case EndReason::Abandon:
      return loser + " left";
    case EndReason::Adjudicated:
      return "adjudicated against " + loser;
    case EndReason::Aborted:
      break;
  }
  return "aborted";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "amazons-match: plays games between two players and scores them.\n"
      "A player is a level (beginner, easy, medium, hard, max), limits:movetime=MS,depth=N,"
      "width=W,noise=N,search=alphabeta|mcts|auto, engine:COMMAND (our engine protocol), "
      "uci:COMMAND (UCI as Fairy-Stockfish plays the Amazons), botzone:COMMAND (Botzone format, "
      "8x8 only) or random. A level or limits ending in +ponder thinks on the opponent's time."};
  std::string spec_a, spec_b;
  std::string config_dir = ai::default_config_dir().string();
  std::string rules = "standard";
  std::string tc = "none";
  std::string records;
  int games = 20, openings = 2, parallel = 1, threads = 1, hash_mb = 32, movetime = 1000;
  int grace = 500;
  std::uint64_t seed = 1;
  bool quiet = false;
  app.add_option("A", spec_a, "First player")->required();
  app.add_option("B", spec_b, "Second player")->required();
  app.add_option("-n,--games", games, "Games (rounded up to even: each opening twice)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--rules", rules, "Variant name or JSON file")->capture_default_str();
  app.add_option("--tc", tc, "Time control: none, 300+5 (seconds) or 1/move")
      ->capture_default_str();
  app.add_option("--openings", openings, "Random plies before the players take over")
      ->check(CLI::Range(0, 20))
      ->capture_default_str();
  app.add_option("-j,--parallel", parallel, "Games played at the same time")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--threads", threads, "Search threads per engine player")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--hash", hash_mb, "Transposition table per engine player (MB)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--movetime", movetime, "External engines: milliseconds a move without a clock")
      ->check(CLI::Range(1, 3600000))
      ->capture_default_str();
  app.add_option("--grace", grace,
                 "External engines: milliseconds past their time limit before they count as hung")
      ->check(CLI::Range(0, 3600000))
      ->capture_default_str();
  app.add_option("--seed", seed, "Picks the openings")->capture_default_str();
  app.add_option("--records", records, "Append every game record to this file, one JSON a line");
  app.add_option("--config-dir", config_dir, "Directory with rules/ and ai.json")
      ->capture_default_str();
  app.add_flag("-q,--quiet", quiet, "Print only the summary");
  CLI11_PARSE(app, argc, argv);

  auto config = ai::load_ai_config(std::filesystem::path(config_dir) / "ai.json");
  if (!config) {
    std::cerr << "amazons-match: " << config.error() << "\n";
    return 2;
  }
  config->threads = threads;
  config->hash_mb = static_cast<std::size_t>(hash_mb);
  auto variant = resolve_variant(rules, std::filesystem::path(config_dir) / "rules");
  if (!variant) {
    std::cerr << "amazons-match: --rules: " << variant.error() << "\n";
    return 2;
  }
  auto control = parse_time_control(tc);
  if (!control) {
    std::cerr << "amazons-match: --tc: " << control.error() << "\n";
    return 2;
  }
  ai::PlayerSpec specs[2];
  for (int i = 0; i < 2; ++i) {
    auto s = ai::parse_player_spec(i == 0 ? spec_a : spec_b, *config);
    if (!s) {
      std::cerr << "amazons-match: player " << (i == 0 ? "A" : "B") << ": " << s.error() << "\n";
      return 2;
    }
    specs[i] = *s;
    specs[i].external.movetime = Millis{movetime};
    specs[i].external.grace = Millis{grace};
  }
  if (specs[0].label == specs[1].label) {
    specs[0].label += " (A)";
    specs[1].label += " (B)";
  }
  std::ofstream record_file;
  if (!records.empty()) {
    record_file.open(records, std::ios::app);
    if (!record_file) {
      std::cerr << "amazons-match: --records: cannot write " << records << "\n";
      return 2;
    }
  }

  ai::MatchOptions options;
  options.rules = *variant;
  options.games = games;
  options.opening_plies = openings;
  options.seed = seed;
  options.parallel = parallel;
  options.time_control = *control;
  options.config = *config;
  const std::string names[2] = {specs[0].label, specs[1].label};
  ai::Match match(specs[0], specs[1], options);

  // Ctrl-C ends the running games (their engines are stopped) and still prints the summary.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([&match, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    std::cerr << "\namazons-match: stopping the games in progress\n";
    match.abort();
  }).detach();

  const int total = games + games % 2;
  std::cout << names[0] << " vs " << names[1] << " on " << variant->name << " (" << variant->size
            << "x" << variant->size << "), " << total << " games, " << openings
            << " random opening plies, time control " << to_string(*control) << ", " << parallel
            << " at a time" << std::endl;
  const auto started = std::chrono::steady_clock::now();
  const ai::MatchSummary summary = match.run([&](const ai::GameOutcome& g,
                                                 const ai::MatchSummary& s) {
    if (record_file) record_file << to_json(g.record).dump() << std::endl;
    for (const std::string& f : g.failures)
      std::cout << "  ! game " << g.index + 1 << ": " << f << "\n";
    if (quiet) return;
    const int a_color = g.a_is_white ? 0 : 1;
    std::cout << "game " << g.index + 1 << "/" << total << "  " << names[0] << " ("
              << (g.a_is_white ? "white" : "black") << ") vs " << names[1] << ": ";
    if (g.winner) {
      const int w = *g.winner;
      std::cout << names[w] << " wins, "
                << ending(g.record, std::string(color_name(w == 0 ? static_cast<Color>(1 - a_color)
                                                                  : static_cast<Color>(a_color))));
    } else {
      std::cout << "no result";
    }
    std::cout << " after " << g.record.moves.size() << " plies  [" << s.a_wins << "-" << s.b_wins
              << "]" << std::endl;
  });
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);

  const int played = summary.a_wins + summary.b_wins;
  std::cout << "\nresult: " << names[0] << " " << summary.a_wins << ", " << names[1] << " "
            << summary.b_wins;
  if (summary.unfinished > 0) std::cout << ", unfinished " << summary.unfinished;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * summary.elo.score);
  std::cout << " (" << pct << " for " << names[0] << " over " << played << " games)\n"
            << "Elo difference: " << elo_text(summary.elo.elo)
            << " (95%: " << elo_text(summary.elo.low) << " .. " << elo_text(summary.elo.high)
            << ")\n"
            << "largest deadline overrun: " << names[0] << " "
            << overrun_text(summary.max_overrun[0]) << ", " << names[1] << " "
            << overrun_text(summary.max_overrun[1]) << "\n";
  for (int s = 0; s < 2; ++s) {
    const auto& p = summary.ponder[s];
    if (p.hits + p.misses > 0)
      std::cout << "pondering: " << names[s] << " expected the reply " << p.hits << " times of "
                << p.hits + p.misses << "\n";
  }
  std::cout << "time: " << duration_text(elapsed) << std::endl;
  return 0;
}
