#include "common/movegen.h"

#include <array>
#include <bit>
#include <cassert>
#include <optional>

namespace amazons {

Bitboard queen_destinations(const Position& pos, Square from) {
  Bitboard b;
  for_each_slide(pos, from, Square::none(), [&](Square to) { b.set(to); });
  return b;
}

Bitboard arrow_targets(const Position& pos, Square from, Square to) {
  Bitboard b;
  for_each_slide(pos, to, from, [&](Square a) { b.set(a); });
  return b;
}

void generate_moves(const Position& pos, MoveList& out) {
  for (Square from : pos.queens(pos.side_to_move())) {
    for_each_slide(pos, from, Square::none(), [&](Square to) {
      for_each_slide(pos, to, from, [&](Square arrow) { out.push_back(Move(from, to, arrow)); });
    });
  }
}

Move nth_move(const Position& pos, std::uint64_t index) {
  // Whole destinations are skipped by their arrow counts; only the one holding `index` is
  // walked arrow by arrow, in generate_moves' order.
  for (Square from : pos.queens(pos.side_to_move())) {
    std::optional<Move> found;
    for_each_slide(pos, from, Square::none(), [&](Square to) {
      if (found) return;
      const auto arrows = static_cast<std::uint64_t>(slide_count(pos, to, from));
      if (index >= arrows) {
        index -= arrows;
        return;
      }
      for_each_slide(pos, to, from, [&](Square arrow) {
        if (!found && index == 0) found = Move(from, to, arrow);
        if (index > 0) --index;
      });
    });
    if (found) return *found;
  }
  assert(false && "nth_move: index out of range");
  return {};
}

namespace {

constexpr int kind_of_line(int line) {
  if (line < kMaxBoardSize) return 0;
  if (line < 2 * kMaxBoardSize) return 1;
  return line < 2 * kMaxBoardSize + 2 * kMaxBoardSize - 1 ? 2 : 3;
}

// The square at place 0 of each line (possibly outside the index space for diagonals; only
// places on the board are ever turned into squares).
constexpr std::array<int, kLineCount> make_line_origins() {
  std::array<int, kLineCount> origin{};
  for (int i = 0; i < kSquareSpace; ++i) {
    if (i % kStride >= kMaxBoardSize) continue;
    const auto& sl = kSquareLines[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < 4; ++k) origin[sl.line[k]] = i - sl.place[k] * kLineStep[k];
  }
  return origin;
}
constexpr std::array<int, kLineCount> kLineOrigin = make_line_origins();

}  // namespace

ReachTable::ReachTable(const Position& pos) {
  // Each square of a free run of length L reaches the other L - 1 squares of it.
  for (int line = 0; line < kLineCount; ++line) {
    unsigned free = ~static_cast<unsigned>(pos.line_mask(line)) & 0xFFFU;
    const int step = kLineStep[static_cast<std::size_t>(kind_of_line(line))];
    while (free != 0) {
      const int low = std::countr_zero(free);
      const int run = std::countr_one(free >> low);
      free &= ~(((1U << run) - 1U) << low);
      int s = kLineOrigin[static_cast<std::size_t>(line)] + low * step;
      for (int i = 0; i < run; ++i, s += step) {
        auto& r = reach_[static_cast<std::size_t>(s)];
        r = static_cast<std::uint8_t>(r + run - 1);
      }
    }
  }
}

int ReachTable::update(const Position& pos, Square s, int sign) {
  // On each line through s, with `down` free squares below it and `up` above: the squares
  // below are in a run with the `up` squares (and s) exactly when s is free.
  const auto& sl = kSquareLines[static_cast<std::size_t>(s.index())];
  int joined = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const unsigned mask = pos.line_mask(sl.line[k]);
    const int place = sl.place[k], step = kLineStep[k];
    const int up = free_above(mask, place), down = free_below(mask, place);
    joined += up + down;
    for (int i = 1; i <= up; ++i) {
      auto& r = reach_[static_cast<std::size_t>(s.index() + i * step)];
      r = static_cast<std::uint8_t>(r + sign * (down + 1));
    }
    for (int i = 1; i <= down; ++i) {
      auto& r = reach_[static_cast<std::size_t>(s.index() - i * step)];
      r = static_cast<std::uint8_t>(r + sign * (up + 1));
    }
  }
  return joined;
}

void ReachTable::unblock(const Position& pos, Square s) {
  reach_[static_cast<std::size_t>(s.index())] = static_cast<std::uint8_t>(update(pos, s, +1));
}

std::uint64_t count_moves(const Position& pos) { return count_moves(pos, ReachTable(pos)); }

std::uint64_t count_moves(const Position& pos, const ReachTable& table) {
  // A queen leaving `from` for a destination d on one of its lines: an arrow from d reaches
  // what the table says (with `from` still blocked), plus, on the line the queen moved along,
  // the vacated square and the free run beyond it. With `up` and `down` free squares on either
  // side of `from` there, each of the `up` destinations on one side gains down + 1 and each of
  // the `down` destinations on the other side gains up + 1.
  std::uint64_t total = 0;
  for (Square from : pos.queens(pos.side_to_move())) {
    const auto& fl = kSquareLines[static_cast<std::size_t>(from.index())];
    for (std::size_t k = 0; k < 4; ++k) {
      const unsigned mask = pos.line_mask(fl.line[k]);
      const int place = fl.place[k], step = kLineStep[k];
      const int up = free_above(mask, place), down = free_below(mask, place);
      int sum = up * (down + 1) + down * (up + 1);
      for (int i = 1; i <= up; ++i) sum += table.at(Square::from_index(from.index() + i * step));
      for (int i = 1; i <= down; ++i) sum += table.at(Square::from_index(from.index() - i * step));
      total += static_cast<std::uint64_t>(sum);
    }
  }
  return total;
}

}  // namespace amazons
