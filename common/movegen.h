// Move generation on the line masks of a Position. Everything here assumes a consistent
// Position (as every constructor and do/undo keep it) and is safe to call on a finished game
// (it then finds no moves).
#pragma once

#include <array>
#include <cstdint>

#include "common/bitboard.h"
#include "common/lines.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons {

// Calls visit(to) for every square a queen on `from` can move to, given `vacated` is treated as
// empty (pass Square::none() for the plain board). Order: by line kind, then outwards.
template <class Visit>
inline void for_each_slide(const Position& pos, Square from, Square vacated, Visit&& visit) {
  const auto& fl = kSquareLines[static_cast<std::size_t>(from.index())];
  const SquareLines* vl =
      vacated.is_none() ? nullptr : &kSquareLines[static_cast<std::size_t>(vacated.index())];
  for (std::size_t k = 0; k < 4; ++k) {
    unsigned mask = pos.line_mask(fl.line[k]);
    if (vl != nullptr && vl->line[k] == fl.line[k]) mask &= ~(1U << vl->place[k]);
    const int place = fl.place[k], step = kLineStep[k];
    const int up = free_above(mask, place), down = free_below(mask, place);
    for (int i = 1; i <= up; ++i) visit(Square::from_index(from.index() + i * step));
    for (int i = 1; i <= down; ++i) visit(Square::from_index(from.index() - i * step));
  }
}

// How many squares a queen on `from` can reach, with `vacated` treated as empty.
inline int slide_count(const Position& pos, Square from, Square vacated) {
  const auto& fl = kSquareLines[static_cast<std::size_t>(from.index())];
  const SquareLines* vl =
      vacated.is_none() ? nullptr : &kSquareLines[static_cast<std::size_t>(vacated.index())];
  int n = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    unsigned mask = pos.line_mask(fl.line[k]);
    if (vl != nullptr && vl->line[k] == fl.line[k]) mask &= ~(1U << vl->place[k]);
    n += free_above(mask, fl.place[k]) + free_below(mask, fl.place[k]);
  }
  return n;
}

// Squares the queen on `from` can move to.
Bitboard queen_destinations(const Position& pos, Square from);
// Squares an arrow can be shot to from `to` after the queen left `from` (which counts as empty).
Bitboard arrow_targets(const Position& pos, Square from, Square to);

// For every empty square, how many squares an arrow shot from it would reach. Built in one pass
// over the lines, then kept up to date square by square: blocking or freeing a square only
// splits or joins the free runs through it, which is what makes counting the replies to many
// sibling moves cheap (see perft).
class ReachTable {
 public:
  explicit ReachTable(const Position& pos);
  // s becomes blocked (a queen arrives, an arrow lands). Call with pos as it is just before or
  // just after the change: s itself is ignored, every other square must match the table.
  void block(const Position& pos, Square s) { update(pos, s, -1); }
  // s becomes empty (a queen leaves, an arrow is taken back); the same rule for pos.
  void unblock(const Position& pos, Square s);
  // Valid for squares that are empty in the position the table describes.
  int at(Square s) const { return reach_[static_cast<std::size_t>(s.index())]; }

 private:
  // Adds sign * (the other side's run + 1) to the squares on either side of s, on its 4 lines;
  // returns the total length of those runs.
  int update(const Position& pos, Square s, int sign);
  // Per square, modulo 256 (entries of occupied squares are meaningless).
  std::array<std::uint8_t, kSquareSpace> reach_{};
};

// Appends every legal move of the side to move.
void generate_moves(const Position& pos, MoveList& out);

// The move generate_moves would list at `index`, without listing the others (precondition:
// index < count_moves(pos)): a uniformly random legal move for the price of a count and a walk.
Move nth_move(const Position& pos, std::uint64_t index);

// The number of legal moves of the side to move, without listing them.
std::uint64_t count_moves(const Position& pos);
// The same with a table already built for pos (precondition: it describes pos exactly).
std::uint64_t count_moves(const Position& pos, const ReachTable& table);

}  // namespace amazons
