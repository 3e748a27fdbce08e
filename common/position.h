// The board of one game: queens, arrows, side to move, and a Zobrist hash kept incrementally.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/bitboard.h"
#include "common/expected.h"
#include "common/lines.h"
#include "common/move.h"
#include "common/types.h"
#include "common/variant.h"

namespace amazons {

// Why an untrusted move was refused, in the order the checks are made.
enum class MoveError : std::uint8_t {
  GameOver,             // the side to move has no move left
  OffBoard,             // a square of the move is not on this board
  NotOwnQueen,          // no queen of the side to move on the from-square
  NotOnQueenLine,       // destination not on a row, column or diagonal of the queen (or equal)
  DestinationOccupied,  // destination holds a queen or an arrow
  PathBlocked,          // something stands between the queen and its destination
  ArrowNotOnLine,       // arrow square not on a line from the destination (or equal to it)
  ArrowOccupied,        // arrow square holds a queen or an arrow (after the queen moved)
  ArrowPathBlocked,     // something stands between the destination and the arrow square
};

// A stable identifier such as "path_blocked", for protocols and logs.
std::string_view code(MoveError e);
// A sentence for people, such as "the path of the queen is blocked".
std::string_view describe(MoveError e);

class Position {
 public:
  // The start position of a variant. Precondition: the variant passed validate().
  explicit Position(const RuleVariant& variant);

  // Any position: queens of both sides, arrows and the side to move. Checks that every square is
  // on the board and used once, and that both sides have the same number of queens (1..4).
  static Expected<Position, std::string> make(int size, std::span<const Square> white,
                                              std::span<const Square> black, Bitboard arrows,
                                              Color side_to_move);

  int size() const { return size_; }
  Color side_to_move() const { return side_; }
  std::uint64_t hash() const { return hash_; }
  int queen_count() const { return queen_count_; }
  std::span<const Square> queens(Color c) const {
    return {queens_[static_cast<std::size_t>(index_of(c))].data(),
            static_cast<std::size_t>(queen_count_)};
  }
  Piece piece_at(Square s) const;

  Bitboard board_mask() const { return board_; }
  Bitboard arrows() const { return arrows_; }
  Bitboard queens_bitboard(Color c) const {
    return queen_bb_[static_cast<std::size_t>(index_of(c))];
  }
  Bitboard blocked() const { return arrows_ | queen_bb_[0] | queen_bb_[1]; }
  Bitboard empty_squares() const { return board_.without(blocked()); }
  LineMask line_mask(int line) const { return lines_[static_cast<std::size_t>(line)]; }

  // True when the side to move cannot move, and so has lost. O(1) in practice: a queen can move
  // exactly when one of its neighbours is empty (it can always shoot back where it came from).
  bool is_game_over() const;

  // Checks an untrusted move against the rules; nullopt means legal.
  std::optional<MoveError> check(Move m) const;
  // Plays the move if it is legal; otherwise changes nothing and says why.
  std::optional<MoveError> try_play(Move m);

  // Trusted fast path. Precondition: check(m) would return nullopt.
  void do_move(Move m) {
    do_queen_step(m.from(), m.to());
    do_arrow(m.arrow());
  }
  // Takes back the last move done. Precondition: moves are undone in strict reverse order.
  void undo_move(Move m) {
    undo_arrow(m.arrow());
    undo_queen_step(m.from(), m.to());
  }

  // The two halves of a move, for search and counting that take the queen step and the arrow
  // one at a time. do_queen_step moves a queen of the side to move and leaves the turn as it
  // is; do_arrow then places the arrow and passes the turn. Preconditions: the step and the
  // arrow are legal in that order; each is undone in strict reverse order.
  void do_queen_step(Square from, Square to) { move_queen(side_, from, to); }
  void undo_queen_step(Square from, Square to) { move_queen(side_, to, from); }
  void do_arrow(Square arrow);
  void undo_arrow(Square arrow);

  friend bool operator==(const Position& a, const Position& b);

 private:
  Position() = default;
  void put(Square s, Piece p);     // precondition: s empty
  void remove(Square s, Piece p);  // precondition: p stands on s
  void move_queen(Color c, Square from, Square to);
  bool path_clear(Square from, Square to, Square vacated) const;

  std::int8_t size_ = 0;
  std::int8_t queen_count_ = 0;
  Color side_ = Color::White;
  std::uint64_t hash_ = 0;
  Bitboard board_;
  Bitboard arrows_;
  std::array<Bitboard, 2> queen_bb_{};
  std::array<std::array<Square, kMaxQueensPerSide>, 2> queens_{};
  std::array<LineMask, kLineCount> lines_{};
};

}  // namespace amazons
