// Basic value types of the rules core: colours, squares, board limits.
#pragma once

#include <cstdint>
#include <string_view>

namespace amazons {

enum class Color : std::uint8_t { White, Black };

constexpr Color operator~(Color c) { return c == Color::White ? Color::Black : Color::White; }
constexpr int index_of(Color c) { return static_cast<int>(c); }
constexpr std::string_view color_name(Color c) { return c == Color::White ? "white" : "black"; }

inline constexpr int kMinBoardSize = 6;
inline constexpr int kMaxBoardSize = 12;
inline constexpr int kMaxQueensPerSide = 4;

// Squares are numbered rank * kStride + file. The files kMaxBoardSize..kStride-1 of every rank
// are never on the board: they are a guard band, so shifting a bitboard one file east or west
// can never carry a square onto the neighbouring rank.
inline constexpr int kStride = 16;
inline constexpr int kSquareSpace = kStride * kMaxBoardSize;  // 192 square indices

// A square on some board of up to kMaxBoardSize x kMaxBoardSize, or no square at all.
// Whether it lies on a particular (smaller) board is a question for that board.
class Square {
 public:
  constexpr Square() = default;
  static constexpr Square at(int file, int rank) {
    return Square(static_cast<std::uint8_t>(rank * kStride + file));
  }
  static constexpr Square from_index(int index) { return Square(static_cast<std::uint8_t>(index)); }
  static constexpr Square none() { return Square(); }

  constexpr int file() const { return index_ % kStride; }
  constexpr int rank() const { return index_ / kStride; }
  constexpr int index() const { return index_; }
  constexpr bool is_none() const { return index_ == kNone; }
  constexpr bool on_board(int size) const { return !is_none() && file() < size && rank() < size; }
  friend constexpr bool operator==(Square, Square) = default;

 private:
  static constexpr std::uint8_t kNone = 0xFF;
  explicit constexpr Square(std::uint8_t index) : index_(index) {}
  std::uint8_t index_ = kNone;
};

// What stands on a square.
enum class Piece : std::uint8_t { Empty, WhiteQueen, BlackQueen, Arrow };

constexpr Piece queen_of(Color c) {
  return c == Color::White ? Piece::WhiteQueen : Piece::BlackQueen;
}

}  // namespace amazons
