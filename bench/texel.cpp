// Fits the evaluation's weights to the results of recorded games (ai/tools/texel.h):
//   texel GAMES.jsonl... --size 10 [--skip 4] [--l2 1e-4]
// reads game records, one JSON a line (amazons-match and tune write them with --records), keeps
// the games on boards of that size, and prints the logistic scale of today's weights for such
// boards, the fitted weights beside them, the loss before and after, and the fitted weights as
// `tune --b` settings, so that a match can check them.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ai/tools/texel.h"

using namespace amazons;
using namespace amazons::ai;

int main(int argc, char** argv) {
  CLI::App app{"texel: fits the evaluation's weights to the results of recorded games"};
  std::vector<std::string> files;
  int size = 10;
  SampleOptions sample_options;
  FitOptions fit_options;
  app.add_option("files", files, "Game records, one JSON a line")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--size", size, "The board size whose weights are fitted; other games are skipped")
      ->check(CLI::Range(kMinBoardSize, kMaxBoardSize))
      ->capture_default_str();
  app.add_option("--skip", sample_options.skip_plies, "Leave out each game's first plies")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--l2", fit_options.l2, "Pull towards today's weights")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const EvalParams params;
  std::vector<TuningSample> samples;
  int games = 0, skipped = 0;
  for (const std::string& file : files) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty()) continue;
      const auto record = parse_record_json(line);
      if (!record) {
        std::cerr << "texel: " << file << ":" << number << ": " << record.error() << "\n";
        return 2;
      }
      if (record->rules.size != size) {
        ++skipped;
        continue;
      }
      if (add_samples(*record, params, sample_options, samples) == 0) ++skipped;
      if (++games % 100 == 0)
        std::fprintf(stderr, "\rread %d games, %zu positions", games, samples.size());
    }
  }
  std::fprintf(stderr, "\rread %d games, %zu positions\n", games, samples.size());
  if (samples.empty()) {
    std::cerr << "texel: no positions to fit (" << skipped << " games left out)\n";
    return 2;
  }
  const TuningVector start = weight_vector(params, size);
  const char* board = size <= kSmallBoardLargest ? "small" : "large";
  fit_options.scale = fit_scale(samples, start);
  const FitResult fit = fit_weights(samples, start, fit_options);
  std::printf("%zu positions from %d games (%d left out); logistic scale %.6f per hundredth\n",
              samples.size(), games, skipped, fit_options.scale);
  std::printf("mean log loss: %.6f today, %.6f fitted (%d Newton steps)\n", fit.loss_before,
              fit.loss_after, fit.iterations);
  const char* anchors[] = {"opening", "middlegame", "endgame"};
  const char* terms[] = {"t1", "t2", "c1", "c2", "mob"};
  std::printf("%-12s %-4s %9s %9s\n", "phase", "term", "today", "fitted");
  std::string settings;
  for (std::size_t a = 0; a < kPhaseAnchors; ++a)
    for (std::size_t t = 0; t < kTermsPerPhase; ++t) {
      const std::size_t i = a * kTermsPerPhase + t;
      std::printf("%-12s %-4s %9.4f %9.4f\n", anchors[a], terms[t], start[i], fit.weights[i]);
      char item[96];
      std::snprintf(item, sizeof item, "%seval.%s.%s.%s=%.4f", settings.empty() ? "" : ",", board,
                    anchors[a], terms[t], fit.weights[i]);
      settings += item;
    }
  std::printf("tune --b \"%s\"\n", settings.c_str());
  return 0;
}
