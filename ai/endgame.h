// Counting the moves each side has left once the queens are separated: when no empty square is
// reachable by both sides, each side plays alone in its own regions and the side that can make
// more moves wins. A region of n empty squares gives at most n moves (every move burns one); a
// "defective" shape gives fewer, so small regions are solved exactly by search.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/bitboard.h"
#include "common/position.h"
#include "common/types.h"

namespace amazons::ai {

// Bounds on the number of moves a side can still make. exact() when they meet.
struct MoveCount {
  int lower = 0;
  int upper = 0;
  bool exact() const { return lower == upper; }
};

class EndgameCounter {
 public:
  // node_budget bounds the search spent on one region before settling for bounds.
  explicit EndgameCounter(std::uint64_t node_budget = 4000);

  // The moves `side` can make in the regions its queens reach, counting each region alone.
  // Meaningful when no square of those regions is reachable by the other side (then the bounds
  // are true bounds for the rest of the game); otherwise it counts as if the opponent were gone.
  MoveCount count(const Position& pos, Color side);

  // The bounds for one region: `empty` holds the region's empty squares, `queens` the side's
  // queens in it (at least one, each next to or inside it).
  MoveCount count_region(Bitboard empty, Bitboard queens);

  void set_node_budget(std::uint64_t nodes) { node_budget_ = nodes; }
  // Asked every few hundred nodes whether to give up; when it says yes, the running count ends
  // early with the bounds found so far. Called on the counting thread.
  void set_interrupt(std::function<bool()> interrupt) { interrupt_ = std::move(interrupt); }
  // Search nodes spent since construction, for statistics.
  std::uint64_t nodes() const { return total_nodes_; }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::int16_t lower = -1;
    std::int16_t upper = -1;
  };
  MoveCount solve(const Bitboard& empty, const Bitboard& queens, int upper);
  Entry* find(std::uint64_t key);

  std::uint64_t node_budget_;
  std::uint64_t nodes_ = 0;  // in the current region
  std::uint64_t total_nodes_ = 0;
  bool out_of_budget_ = false;
  std::function<bool()> interrupt_;
  std::vector<Entry> table_;
};

// The empty squares a king-step flood from `from` reaches through `empty`.
Bitboard flood(Bitboard from, const Bitboard& empty);

}  // namespace amazons::ai
