#include "common/perft.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "common/movegen.h"

namespace amazons {

namespace {

// Perft 2: the replies to every move, counted with one reach table kept up to date through
// every queen step and arrow instead of rebuilt for each of the thousands of moves.
std::uint64_t perft2(Position& pos) {
  std::uint64_t total = 0;
  ReachTable table(pos);
  for (Square from : pos.queens(pos.side_to_move())) {
    for_each_slide(pos, from, Square::none(), [&](Square to) {
      table.unblock(pos, from);
      pos.do_queen_step(from, to);
      table.block(pos, to);
      for_each_slide(pos, to, Square::none(), [&](Square arrow) {
        table.block(pos, arrow);
        pos.do_arrow(arrow);
        total += count_moves(pos, table);
        pos.undo_arrow(arrow);
        table.unblock(pos, arrow);
      });
      table.unblock(pos, to);
      pos.undo_queen_step(from, to);
      table.block(pos, from);
    });
  }
  return total;
}

}  // namespace

std::uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return count_moves(pos);
  if (depth == 2) return perft2(pos);
  auto moves = std::make_unique<MoveList>();
  generate_moves(pos, *moves);
  std::uint64_t total = 0;
  for (Move m : *moves) {
    pos.do_move(m);
    total += perft(pos, depth - 1);
    pos.undo_move(m);
  }
  return total;
}

std::uint64_t perft_parallel(const Position& root, int depth, unsigned threads,
                             const PerftProgress& progress) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  if (depth <= 1) {
    Position p = root;
    return perft(p, depth);
  }
  auto moves = std::make_unique<MoveList>();
  generate_moves(root, *moves);
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> total{0};
  std::mutex progress_mutex;
  std::size_t done = 0;
  const auto work = [&] {
    Position p = root;
    std::uint64_t local = 0;
    for (std::size_t i = next++; i < moves->size(); i = next++) {
      p.do_move((*moves)[i]);
      local += perft(p, depth - 1);
      p.undo_move((*moves)[i]);
      if (progress) {
        std::lock_guard lock(progress_mutex);
        progress(++done, moves->size());
      }
    }
    total += local;
  };
  // One thread is this one (and a build without threads asks for one).
  if (threads == 1) {
    work();
    return total;
  }
  std::vector<std::thread> workers;  // std::thread: Emscripten's libc++ has no jthread
  for (unsigned t = 0; t < threads; ++t) workers.emplace_back(work);
  for (auto& worker : workers) worker.join();
  return total;
}

std::vector<PerftDivide> perft_divide(Position& pos, int depth) {
  auto moves = std::make_unique<MoveList>();
  generate_moves(pos, *moves);
  std::vector<PerftDivide> out;
  out.reserve(moves->size());
  for (Move m : *moves) {
    pos.do_move(m);
    out.push_back({m, perft(pos, depth - 1)});
    pos.undo_move(m);
  }
  return out;
}

}  // namespace amazons
