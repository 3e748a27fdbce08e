// A set of squares: one bit per square index (see types.h for the layout and its guard band).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "common/types.h"

namespace amazons {

class Bitboard {
 public:
  static constexpr int kWords = kSquareSpace / 64;

  constexpr Bitboard() = default;
  static constexpr Bitboard of(Square s) {
    Bitboard b;
    b.set(s);
    return b;
  }
  // Every square of a size x size board.
  static constexpr Bitboard board(int size) {
    Bitboard b;
    for (int rank = 0; rank < size; ++rank)
      for (int file = 0; file < size; ++file) b.set(Square::at(file, rank));
    return b;
  }

  constexpr bool test(Square s) const { return (w_[word(s)] >> bit(s)) & 1U; }
  constexpr void set(Square s) { w_[word(s)] |= std::uint64_t{1} << bit(s); }
  constexpr void reset(Square s) { w_[word(s)] &= ~(std::uint64_t{1} << bit(s)); }
  constexpr void toggle(Square s) { w_[word(s)] ^= std::uint64_t{1} << bit(s); }

  // The 64-bit words of the set, lowest square indices first: for code that repacks the set into
  // another layout (the engine's evaluation). Precondition: 0 <= i < kWords.
  constexpr std::uint64_t word(int i) const { return w_[static_cast<std::size_t>(i)]; }

  constexpr bool empty() const { return (w_[0] | w_[1] | w_[2]) == 0; }
  constexpr bool any() const { return !empty(); }
  constexpr int count() const {
    return std::popcount(w_[0]) + std::popcount(w_[1]) + std::popcount(w_[2]);
  }
  // Precondition: any().
  constexpr Square lowest() const {
    for (int i = 0; i < kWords; ++i)
      if (w_[i] != 0) return Square::from_index(i * 64 + std::countr_zero(w_[i]));
    return Square::none();
  }
  // Removes and returns the lowest square. Precondition: any().
  constexpr Square pop_lowest() {
    for (int i = 0; i < kWords; ++i) {
      if (w_[i] != 0) {
        const int b = std::countr_zero(w_[i]);
        w_[i] &= w_[i] - 1;
        return Square::from_index(i * 64 + b);
      }
    }
    return Square::none();
  }

  // Moves every square n indices up (n > 0) or down (n < 0); bits leaving the index space are
  // dropped. Squares that land in the guard band must be masked off by the caller.
  constexpr Bitboard shifted(int n) const { return n >= 0 ? shl(n) : shr(-n); }

  constexpr Bitboard operator&(const Bitboard& o) const {
    return Bitboard(w_[0] & o.w_[0], w_[1] & o.w_[1], w_[2] & o.w_[2]);
  }
  constexpr Bitboard operator|(const Bitboard& o) const {
    return Bitboard(w_[0] | o.w_[0], w_[1] | o.w_[1], w_[2] | o.w_[2]);
  }
  constexpr Bitboard operator^(const Bitboard& o) const {
    return Bitboard(w_[0] ^ o.w_[0], w_[1] ^ o.w_[1], w_[2] ^ o.w_[2]);
  }
  // Squares of *this that are not in o.
  constexpr Bitboard without(const Bitboard& o) const {
    return Bitboard(w_[0] & ~o.w_[0], w_[1] & ~o.w_[1], w_[2] & ~o.w_[2]);
  }
  constexpr Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  constexpr Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  constexpr Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  friend constexpr bool operator==(const Bitboard&, const Bitboard&) = default;

  class Iterator;
  constexpr Iterator begin() const;
  constexpr Iterator end() const;

 private:
  constexpr Bitboard(std::uint64_t a, std::uint64_t b, std::uint64_t c) : w_{a, b, c} {}
  static constexpr int word(Square s) { return s.index() >> 6; }
  static constexpr int bit(Square s) { return s.index() & 63; }

  constexpr Bitboard shl(int n) const {
    Bitboard r;
    const int words = n >> 6, bits = n & 63;
    for (int i = kWords - 1; i >= words; --i) {
      std::uint64_t v = w_[i - words] << bits;
      if (bits != 0 && i - words - 1 >= 0) v |= w_[i - words - 1] >> (64 - bits);
      r.w_[i] = v;
    }
    return r;
  }
  constexpr Bitboard shr(int n) const {
    Bitboard r;
    const int words = n >> 6, bits = n & 63;
    for (int i = 0; i + words < kWords; ++i) {
      std::uint64_t v = w_[i + words] >> bits;
      if (bits != 0 && i + words + 1 < kWords) v |= w_[i + words + 1] << (64 - bits);
      r.w_[i] = v;
    }
    return r;
  }

  std::array<std::uint64_t, kWords> w_{};
};

// Visits the squares in increasing index order.
class Bitboard::Iterator {
 public:
  constexpr explicit Iterator(Bitboard b) : rest_(b) {}
  constexpr Square operator*() const { return rest_.lowest(); }
  constexpr Iterator& operator++() {
    rest_.pop_lowest();
    return *this;
  }
  constexpr bool operator!=(const Iterator& o) const { return rest_ != o.rest_; }

 private:
  Bitboard rest_;
};
constexpr Bitboard::Iterator Bitboard::begin() const { return Iterator(*this); }
constexpr Bitboard::Iterator Bitboard::end() const { return Iterator(Bitboard()); }

// The eight queen/king directions as index deltas in the square layout.
enum class Direction : std::int8_t {
  North = kStride,
  South = -kStride,
  East = 1,
  West = -1,
  NorthEast = kStride + 1,
  NorthWest = kStride - 1,
  SouthEast = -kStride + 1,
  SouthWest = -kStride - 1,
};
inline constexpr std::array<Direction, 8> kAllDirections = {
    Direction::North,     Direction::South,     Direction::East,      Direction::West,
    Direction::NorthEast, Direction::NorthWest, Direction::SouthEast, Direction::SouthWest};

constexpr int delta(Direction d) { return static_cast<int>(d); }

// Squares one king step from any square of `from`, restricted to `within`.
// `within` must exclude the guard band (any subset of a board mask does).
constexpr Bitboard king_step(const Bitboard& from, const Bitboard& within) {
  Bitboard r;
  for (Direction d : kAllDirections) r |= from.shifted(delta(d));
  return r & within;
}

// Squares reached from `from` by sliding any distance in direction d through `empty`
// (the first step included, the starting squares not). `empty` must exclude the guard band.
constexpr Bitboard slide(Bitboard from, Direction d, Bitboard empty) {
  // Kogge-Stone occluded fill: log2 steps instead of one step per square.
  const int s = delta(d);
  Bitboard gen = from, pro = empty;
  gen |= pro & gen.shifted(s);
  pro &= pro.shifted(s);
  gen |= pro & gen.shifted(2 * s);
  pro &= pro.shifted(2 * s);
  gen |= pro & gen.shifted(4 * s);
  pro &= pro.shifted(4 * s);
  gen |= pro & gen.shifted(8 * s);
  return gen.shifted(s) & empty;
}

// Squares a queen on any square of `from` reaches in one move through `empty`.
constexpr Bitboard queen_step(const Bitboard& from, const Bitboard& empty) {
  Bitboard r;
  for (Direction d : kAllDirections) r |= slide(from, d, empty);
  return r;
}

}  // namespace amazons
