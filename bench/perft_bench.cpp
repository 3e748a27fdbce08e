// Move generation speed: perft from the standard start with the production generator, against the
// naive baseline run in the same process. Usage: perft_bench [DEPTH] (default 3).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "common/perft.h"
#include "naive_perft.h"

namespace {

template <class F>
double seconds_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace amazons;
  const int depth = argc > 1 ? std::atoi(argv[1]) : 3;
  if (depth < 1 || depth > 4) {
    std::fprintf(stderr, "perft_bench: depth must be 1 to 4\n");
    return 2;
  }
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  std::printf("perft %d from the standard start, %u cores\n", depth, cores);

  std::uint64_t fast1 = 0, fastn = 0, naive = 0;
  const double t_fast1 =
      seconds_of([&] { fast1 = perft_parallel(Position(standard_variant()), depth, 1); });
  std::printf("%-34s %14llu moves %9.3f s %10.1f M/s\n", "reach table, 1 thread",
              static_cast<unsigned long long>(fast1), t_fast1,
              static_cast<double>(fast1) / t_fast1 / 1e6);
  const double t_fastn =
      seconds_of([&] { fastn = perft_parallel(Position(standard_variant()), depth, cores); });
  std::printf("%-34s %14llu moves %9.3f s %10.1f M/s\n", "reach table, all cores",
              static_cast<unsigned long long>(fastn), t_fastn,
              static_cast<double>(fastn) / t_fastn / 1e6);
  std::fflush(stdout);
  const double t_naive = seconds_of([&] { naive = bench::naive_perft_standard(depth); });
  std::printf("%-34s %14llu moves %9.3f s %10.1f M/s\n", "naive baseline, 1 thread",
              static_cast<unsigned long long>(naive), t_naive,
              static_cast<double>(naive) / t_naive / 1e6);
  if (naive != fast1 || fastn != fast1) {
    std::printf("MISMATCH: the counts differ\n");
    return 1;
  }
  std::printf("speed-up over the baseline: %.1fx on 1 thread, %.1fx on %u cores\n",
              t_naive / t_fast1, t_naive / t_fastn, cores);
  return 0;
}
