// A complete Amazons move: a queen goes from one square to another, then shoots an arrow.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/types.h"

namespace amazons {

// Packs into 32 bits. A Move says nothing about legality: Position::check() decides that.
class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, Square arrow)
      : bits_(static_cast<std::uint32_t>(from.index()) |
              static_cast<std::uint32_t>(to.index()) << 8 |
              static_cast<std::uint32_t>(arrow.index()) << 16) {}
  static constexpr Move none() { return Move(); }

  constexpr Square from() const { return Square::from_index(static_cast<int>(bits_ & 0xFF)); }
  constexpr Square to() const { return Square::from_index(static_cast<int>((bits_ >> 8) & 0xFF)); }
  constexpr Square arrow() const {
    return Square::from_index(static_cast<int>((bits_ >> 16) & 0xFF));
  }
  constexpr bool is_none() const { return bits_ == kNoneBits; }
  constexpr std::uint32_t raw() const { return bits_; }
  static constexpr Move from_raw(std::uint32_t bits) {
    Move m;
    m.bits_ = bits;
    return m;
  }
  friend constexpr bool operator==(Move, Move) = default;

 private:
  static constexpr std::uint32_t kNoneBits = 0xFFFFFF;
  std::uint32_t bits_ = kNoneBits;
};

// A vector with its storage inline: no heap allocation inside search or generation.
template <class T, std::size_t Capacity>
class FixedVector {
 public:
  constexpr void push_back(const T& v) { items_[size_++] = v; }  // Precondition: size() < Capacity
  constexpr void clear() { size_ = 0; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  constexpr T* begin() { return items_; }
  constexpr T* end() { return items_ + size_; }
  constexpr const T* begin() const { return items_; }
  constexpr const T* end() const { return items_ + size_; }
  static constexpr std::size_t capacity() { return Capacity; }

 private:
  T items_[Capacity];
  std::size_t size_ = 0;
};

// Enough for any position of any supported board: at most kMaxQueensPerSide queens, each with
// at most 4 * (kMaxBoardSize - 1) destinations, each with at most as many arrow targets.
inline constexpr std::size_t kMaxMoves = static_cast<std::size_t>(
    kMaxQueensPerSide * (4 * (kMaxBoardSize - 1)) * (4 * (kMaxBoardSize - 1)));
using MoveList = FixedVector<Move, kMaxMoves>;

}  // namespace amazons
