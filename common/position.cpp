#include "common/position.h"

#include <cassert>
#include <cstdlib>
#include <set>

#include "common/notation.h"
#include "common/zobrist.h"

namespace amazons {

std::string_view code(MoveError e) {
  switch (e) {
    case MoveError::GameOver:
      return "game_over";
    case MoveError::OffBoard:
      return "off_board";
    case MoveError::NotOwnQueen:
      return "not_own_queen";
    case MoveError::NotOnQueenLine:
      return "not_on_queen_line";
    case MoveError::DestinationOccupied:
      return "destination_occupied";
    case MoveError::PathBlocked:
      return "path_blocked";
    case MoveError::ArrowNotOnLine:
      return "arrow_not_on_line";
    case MoveError::ArrowOccupied:
      return "arrow_occupied";
    case MoveError::ArrowPathBlocked:
      return "arrow_path_blocked";
  }
  return "unknown";
}

std::string_view describe(MoveError e) {
  switch (e) {
    case MoveError::GameOver:
      return "the game is already over";
    case MoveError::OffBoard:
      return "a square of the move is off the board";
    case MoveError::NotOwnQueen:
      return "there is no queen of the side to move on the from-square";
    case MoveError::NotOnQueenLine:
      return "the destination is not on a straight or diagonal line from the queen";
    case MoveError::DestinationOccupied:
      return "the destination square is occupied";
    case MoveError::PathBlocked:
      return "the path of the queen is blocked";
    case MoveError::ArrowNotOnLine:
      return "the arrow square is not on a straight or diagonal line from the destination";
    case MoveError::ArrowOccupied:
      return "the arrow square is occupied";
    case MoveError::ArrowPathBlocked:
      return "the path of the arrow is blocked";
  }
  return "unknown error";
}

namespace {

constexpr std::size_t idx(Color c) { return static_cast<std::size_t>(index_of(c)); }

// A mask per line with exactly the places that are on a size x size board free.
std::array<LineMask, kLineCount> empty_lines(int size) {
  std::array<LineMask, kLineCount> lines;
  lines.fill(kAllBlocked);
  for (int r = 0; r < size; ++r)
    for (int f = 0; f < size; ++f) {
      const auto& sl = kSquareLines[static_cast<std::size_t>(Square::at(f, r).index())];
      for (std::size_t k = 0; k < 4; ++k)
        lines[sl.line[k]] = static_cast<LineMask>(lines[sl.line[k]] & ~(1U << sl.place[k]));
    }
  return lines;
}

bool aligned(Square a, Square b) {
  const int df = b.file() - a.file(), dr = b.rank() - a.rank();
  if (df == 0 && dr == 0) return false;
  return df == 0 || dr == 0 || std::abs(df) == std::abs(dr);
}

}  // namespace

Position::Position(const RuleVariant& variant)
    : size_(static_cast<std::int8_t>(variant.size)),
      queen_count_(static_cast<std::int8_t>(variant.white_queens.size())),
      side_(variant.first_to_move),
      board_(Bitboard::board(variant.size)),
      lines_(empty_lines(variant.size)) {
  assert(validate(variant));
  for (Color c : {Color::White, Color::Black}) {
    const auto& qs = variant.queens(c);
    for (std::size_t i = 0; i < qs.size(); ++i) {
      queens_[idx(c)][i] = qs[i];
      put(qs[i], queen_of(c));
    }
  }
  if (side_ == Color::Black) hash_ ^= zobrist::kKeys.black_to_move;
}

Expected<Position, std::string> Position::make(int size, std::span<const Square> white,
                                               std::span<const Square> black, Bitboard arrows,
                                               Color side_to_move) {
  if (size < kMinBoardSize || size > kMaxBoardSize)
    return Unexpected("board size must be between " + std::to_string(kMinBoardSize) + " and " +
                      std::to_string(kMaxBoardSize) + ", got " + std::to_string(size));
  if (white.size() != black.size())
    return Unexpected("unequal queen counts: " + std::to_string(white.size()) + " white and " +
                      std::to_string(black.size()) + " black");
  if (white.empty() || white.size() > static_cast<std::size_t>(kMaxQueensPerSide))
    return Unexpected("each side needs 1 to " + std::to_string(kMaxQueensPerSide) +
                      " queens, got " + std::to_string(white.size()));
  const Bitboard board = Bitboard::board(size);
  if (arrows.without(board).any())
    return Unexpected("an arrow is off the " + std::to_string(size) + "x" + std::to_string(size) +
                      " board");
  Position p;
  p.size_ = static_cast<std::int8_t>(size);
  p.queen_count_ = static_cast<std::int8_t>(white.size());
  p.side_ = side_to_move;
  p.board_ = board;
  p.lines_ = empty_lines(size);
  for (Square a : arrows) p.put(a, Piece::Arrow);
  for (Color c : {Color::White, Color::Black}) {
    const auto qs = c == Color::White ? white : black;
    for (std::size_t i = 0; i < qs.size(); ++i) {
      if (!qs[i].on_board(size))
        return Unexpected(std::string(color_name(c)) + " queen on " + to_string(qs[i]) +
                          " is off the board");
      if (p.piece_at(qs[i]) != Piece::Empty) return Unexpected("two pieces on " + to_string(qs[i]));
      p.queens_[idx(c)][i] = qs[i];
      p.put(qs[i], queen_of(c));
    }
  }
  if (side_to_move == Color::Black) p.hash_ ^= zobrist::kKeys.black_to_move;
  return p;
}

Piece Position::piece_at(Square s) const {
  if (arrows_.test(s)) return Piece::Arrow;
  if (queen_bb_[0].test(s)) return Piece::WhiteQueen;
  if (queen_bb_[1].test(s)) return Piece::BlackQueen;
  return Piece::Empty;
}

void Position::put(Square s, Piece p) {
  const auto& sl = kSquareLines[static_cast<std::size_t>(s.index())];
  for (std::size_t k = 0; k < 4; ++k)
    lines_[sl.line[k]] |= static_cast<LineMask>(1U << sl.place[k]);
  if (p == Piece::Arrow) {
    arrows_.set(s);
  } else {
    queen_bb_[p == Piece::WhiteQueen ? 0 : 1].set(s);
  }
  hash_ ^= zobrist::key(p, s);
}

void Position::remove(Square s, Piece p) {
  const auto& sl = kSquareLines[static_cast<std::size_t>(s.index())];
  for (std::size_t k = 0; k < 4; ++k)
    lines_[sl.line[k]] = static_cast<LineMask>(lines_[sl.line[k]] & ~(1U << sl.place[k]));
  if (p == Piece::Arrow) {
    arrows_.reset(s);
  } else {
    queen_bb_[p == Piece::WhiteQueen ? 0 : 1].reset(s);
  }
  hash_ ^= zobrist::key(p, s);
}

void Position::move_queen(Color c, Square from, Square to) {
  remove(from, queen_of(c));
  put(to, queen_of(c));
  auto& qs = queens_[idx(c)];
  for (int i = 0; i < queen_count_; ++i) {
    if (qs[static_cast<std::size_t>(i)] == from) {
      qs[static_cast<std::size_t>(i)] = to;
      return;
    }
  }
  assert(false && "move_queen: no queen on the from-square");
}

bool Position::is_game_over() const {
  const Bitboard own = queen_bb_[idx(side_)];
  return king_step(own, empty_squares()).empty();
}

bool Position::path_clear(Square from, Square to, Square vacated) const {
  const int df = (to.file() > from.file()) - (to.file() < from.file());
  const int dr = (to.rank() > from.rank()) - (to.rank() < from.rank());
  int f = from.file() + df, r = from.rank() + dr;
  for (; f != to.file() || r != to.rank(); f += df, r += dr) {
    const Square s = Square::at(f, r);
    if (s != vacated && piece_at(s) != Piece::Empty) return false;
  }
  return true;
}

std::optional<MoveError> Position::check(Move m) const {
  if (is_game_over()) return MoveError::GameOver;
  const int n = size_;
  if (!m.from().on_board(n) || !m.to().on_board(n) || !m.arrow().on_board(n))
    return MoveError::OffBoard;
  if (piece_at(m.from()) != queen_of(side_)) return MoveError::NotOwnQueen;
  if (!aligned(m.from(), m.to())) return MoveError::NotOnQueenLine;
  if (piece_at(m.to()) != Piece::Empty) return MoveError::DestinationOccupied;
  if (!path_clear(m.from(), m.to(), Square::none())) return MoveError::PathBlocked;
  if (!aligned(m.to(), m.arrow())) return MoveError::ArrowNotOnLine;
  if (m.arrow() != m.from() && piece_at(m.arrow()) != Piece::Empty) return MoveError::ArrowOccupied;
  if (!path_clear(m.to(), m.arrow(), m.from())) return MoveError::ArrowPathBlocked;
  return std::nullopt;
}

std::optional<MoveError> Position::try_play(Move m) {
  if (auto e = check(m)) return e;
  do_move(m);
  return std::nullopt;
}

void Position::do_arrow(Square arrow) {
  put(arrow, Piece::Arrow);
  side_ = ~side_;
  hash_ ^= zobrist::kKeys.black_to_move;
}

void Position::undo_arrow(Square arrow) {
  side_ = ~side_;
  hash_ ^= zobrist::kKeys.black_to_move;
  remove(arrow, Piece::Arrow);
}

bool operator==(const Position& a, const Position& b) {
  if (a.size_ != b.size_ || a.side_ != b.side_ || a.arrows_ != b.arrows_ ||
      a.queen_bb_ != b.queen_bb_)
    return false;
  return a.hash_ == b.hash_;
}

}  // namespace amazons
