// The engine's speed: evaluations per second in the dense layouts against the rules core's layout
// (the baseline, same process), then nodes per second and the depth reached from the start
// position in a fixed time on 8x8 and 10x10, with one and two threads.
//   search_bench [MILLISECONDS]   (default 1000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "ai/evaluate.h"
#include "ai/search.h"
#include "common/movegen.h"
#include "common/variant.h"

using namespace amazons;
using Clock = std::chrono::steady_clock;

namespace {

// Positions from the opening to the middle game: 30 games, 40 plies of random play each.
std::vector<Position> sample_positions(const RuleVariant& v) {
  std::mt19937_64 rng(42);
  std::vector<Position> out;
  MoveList moves;
  for (int g = 0; g < 30; ++g) {
    Position pos(v);
    for (int ply = 0; ply < 40 && !pos.is_game_over(); ++ply) {
      moves.clear();
      generate_moves(pos, moves);
      pos.do_move(moves[rng() % moves.size()]);
      out.push_back(pos);
    }
  }
  return out;
}

double evals_per_second(ai::Evaluator& eval, const std::vector<Position>& positions) {
  long sum = 0;
  std::size_t n = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (seconds < 0.5) {
    for (const Position& p : positions) sum += eval.evaluate(p);
    n += positions.size();
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  if (sum == 42) std::puts("");  // keeps the work from being optimised away
  return static_cast<double>(n) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const int ms = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (ms <= 0) {
    std::fprintf(stderr, "usage: search_bench [MILLISECONDS]\n");
    return 2;
  }
  std::printf("evaluation (positions from random play, plies 1-40)\n");
  std::printf("%-6s %14s %14s %8s\n", "board", "dense evals/s", "core evals/s", "speed-up");
  for (const RuleVariant& v : {botzone8_variant(), standard_variant()}) {
    const auto positions = sample_positions(v);
    ai::EvalParams wide_params;
    wide_params.wide_layout = true;
    ai::Evaluator dense, wide(wide_params);
    const double d = evals_per_second(dense, positions);
    const double w = evals_per_second(wide, positions);
    std::printf("%dx%-4d %14.0f %14.0f %7.2fx\n", v.size, v.size, d, w, d / w);
  }

  std::printf("\nsearch from the start position, %d ms\n", ms);
  std::printf("%-6s %7s %6s %12s %12s  %s\n", "board", "threads", "depth", "nodes", "nodes/s",
              "best move");
  for (const RuleVariant& v : {botzone8_variant(), standard_variant()}) {
    for (int threads : {1, 2}) {
      ai::SearchSettings s;
      s.threads = threads;
      auto search = ai::make_search(s);
      ai::SearchLimits limits;
      limits.movetime = Millis{ms};
      const ai::SearchResult r = ai::search_now(*search, Position(v), limits);
      std::printf("%dx%-4d %7d %6d %12llu %12llu  %s\n", v.size, v.size, threads, r.depth,
                  static_cast<unsigned long long>(r.nodes), static_cast<unsigned long long>(r.nps),
                  ai::pv_string({r.best}).c_str());
    }
  }
  return 0;
}
