#include "ai/endgame.h"

#include <algorithm>

namespace amazons::ai {

namespace {

constexpr std::size_t kTableSize = std::size_t{1} << 16;  // entries per counter (1 MiB)
// How often the search looks at the stop flag, in nodes.
constexpr std::uint64_t kStopCheckInterval = 64;

constexpr std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xFF51AFD7ED558CCDULL;
  x ^= x >> 33;
  x *= 0xC4CEB9FE1A85EC53ULL;
  return x ^ (x >> 33);
}

std::uint64_t region_key(const Bitboard& empty, const Bitboard& queens) {
  std::uint64_t k = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < Bitboard::kWords; ++i) {
    k = mix(k ^ empty.word(i));
    k = mix(k ^ (queens.word(i) * 0x2545F4914F6CDD1DULL));
  }
  return k | 1U;  // 0 marks an unused entry
}

int empty_neighbours(Square s, const Bitboard& empty) {
  return king_step(Bitboard::of(s), empty).count();
}

struct Candidate {
  Square from, to, arrow;
  int order;  // smaller first
};

// Every move of the queens in `queens` through `empty`, the ones that fill dead ends first: a
// destination and an arrow square with few empty neighbours are the squares that would otherwise
// be cut off. The order only speeds up finding a complete fill; the search tries every move.
void candidates(const Bitboard& empty, const Bitboard& queens, std::vector<Candidate>& out) {
  out.clear();
  for (Square from : queens) {
    for (Square to : queen_step(Bitboard::of(from), empty)) {
      Bitboard after = empty;
      after.reset(to);
      after.set(from);
      const int to_order = empty_neighbours(to, after);
      for (Square arrow : queen_step(Bitboard::of(to), after)) {
        Bitboard burnt = after;
        burnt.reset(arrow);
        out.push_back({from, to, arrow, 16 * to_order + empty_neighbours(arrow, burnt)});
      }
    }
  }
  // Equal orders by the squares, so that every standard library sorts alike (std::sort leaves
  // ties in an order of its own choosing, and the WebAssembly build's is libc++).
  std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    if (a.order != b.order) return a.order < b.order;
    if (a.from != b.from) return a.from.index() < b.from.index();
    if (a.to != b.to) return a.to.index() < b.to.index();
    return a.arrow.index() < b.arrow.index();
  });
}

// The length of one line of play that always takes the first candidate: a lower bound.
int greedy_fill(Bitboard empty, Bitboard queens) {
  std::vector<Candidate> list;
  int moves = 0;
  for (;;) {
    candidates(empty, queens, list);
    if (list.empty()) return moves;
    const Candidate& c = list.front();
    empty.reset(c.to);
    empty.set(c.from);
    empty.reset(c.arrow);
    queens.reset(c.from);
    queens.set(c.to);
    ++moves;
  }
}

}  // namespace

Bitboard flood(Bitboard from, const Bitboard& empty) {
  Bitboard reached;
  Bitboard frontier = king_step(from, empty);
  while (frontier.any()) {
    reached |= frontier;
    frontier = king_step(frontier, empty).without(reached);
  }
  return reached;
}

EndgameCounter::EndgameCounter(std::uint64_t node_budget)
    : node_budget_(node_budget), table_(kTableSize) {}

EndgameCounter::Entry* EndgameCounter::find(std::uint64_t key) {
  return &table_[static_cast<std::size_t>(key) & (kTableSize - 1)];
}

MoveCount EndgameCounter::count(const Position& pos, Color side) {
  const Bitboard empty = pos.empty_squares();
  const Bitboard own = pos.queens_bitboard(side);
  MoveCount total;
  Bitboard left = own;
  while (left.any()) {
    // A region: everything king-connected to this queen through empty squares and own queens
    // (a queen that moves away frees its square for its neighbours, so they share a region).
    const Bitboard passable = empty | own;
    const Square q = left.lowest();
    const Bitboard component = flood(Bitboard::of(q), passable) | Bitboard::of(q);
    const Bitboard queens = component & own;
    left = left.without(queens);
    const MoveCount c = count_region(component & empty, queens);
    total.lower += c.lower;
    total.upper += c.upper;
  }
  return total;
}

MoveCount EndgameCounter::count_region(Bitboard empty, Bitboard queens) {
  // Asked to stop: the trivial bounds, at once (the caller is discarding its work anyway).
  if (interrupt_ && interrupt_()) return {0, empty.count()};
  nodes_ = 0;
  out_of_budget_ = false;
  const MoveCount c = solve(empty, queens, empty.count());
  total_nodes_ += nodes_;
  return c;
}

MoveCount EndgameCounter::solve(const Bitboard& empty, const Bitboard& queens, int upper) {
  // Steps: 1. trivial and remembered regions; 2. independent parts solved apart; 3. try moves,
  // dead ends first, until one reaches the upper bound (nothing can do better) or the budget
  // runs out, after which a greedy line gives the lower bound.
  if (upper == 0) return {0, 0};
  const std::uint64_t key = region_key(empty, queens);
  Entry* e = find(key);
  if (e->key == key && (e->lower == e->upper || out_of_budget_)) return {e->lower, e->upper};

  if (queens.count() > 1) {
    const Bitboard passable = empty | queens;
    const Square q = queens.lowest();
    const Bitboard part = flood(Bitboard::of(q), passable) | Bitboard::of(q);
    if ((queens & part) != queens) {
      const Bitboard part_empty = empty & part;
      const Bitboard rest_empty = empty.without(part);
      const MoveCount a = solve(part_empty, queens & part, part_empty.count());
      const MoveCount b = solve(rest_empty, queens.without(part), rest_empty.count());
      return {a.lower + b.lower, a.upper + b.upper};
    }
  }

  if (++nodes_ > node_budget_ ||
      (interrupt_ && (total_nodes_ + nodes_) % kStopCheckInterval == 0 && interrupt_())) {
    out_of_budget_ = true;
  }
  if (out_of_budget_) return {greedy_fill(empty, queens), upper};

  std::vector<Candidate> list;
  candidates(empty, queens, list);
  int best_lower = 0, best_upper = 0;
  bool complete = true;
  for (const Candidate& c : list) {
    Bitboard next_empty = empty;
    next_empty.reset(c.to);
    next_empty.set(c.from);
    next_empty.reset(c.arrow);
    Bitboard next_queens = queens;
    next_queens.reset(c.from);
    next_queens.set(c.to);
    // Squares no queen can reach any more are lost for good; they tighten the bound.
    const Bitboard reach = flood(next_queens, next_empty);
    const int child_upper = reach.count();
    if (1 + child_upper <= best_lower) continue;  // cannot raise either bound
    const MoveCount r = solve(reach, next_queens, child_upper);
    best_lower = std::max(best_lower, 1 + r.lower);
    best_upper = std::max(best_upper, 1 + r.upper);
    if (best_lower == upper) break;
    if (out_of_budget_) {
      complete = false;
      break;
    }
  }
  const MoveCount result{best_lower, best_lower == upper ? upper
                                     : complete          ? std::max(best_lower, best_upper)
                                                         : upper};
  if (e->key != key || result.exact() || result.lower > e->lower) {
    e->key = key;
    e->lower = static_cast<std::int16_t>(result.lower);
    e->upper = static_cast<std::int16_t>(result.upper);
  }
  return result;
}

}  // namespace amazons::ai
