// Dense bitboards for the evaluation. The rules core keeps every board in three 64-bit words with
// rows of 16 squares; the distance fills that dominate the evaluation's cost run two to three
// times faster when a board is packed into one word (up to 8x8) or one 128-bit integer (up to
// 10x10). Larger boards keep the core's layout. Each layout is a set of static functions over its
// `Bits` type so the evaluation is written once, as a template.
#pragma once

#include <bit>
#include <cstdint>

#include "common/bitboard.h"
#include "common/types.h"

namespace amazons::ai {

__extension__ using Uint128 = unsigned __int128;

// Where each of the eight directions moves a square, as a shift of the packed index, and whether
// it moves east (+1 file) or west (-1 file): those can wrap round the row edge when the board is
// as wide as the stride, so their results are masked.
struct DenseDirection {
  int rank_step;
  int file_step;
};
inline constexpr DenseDirection kDenseDirections[8] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                                       {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// A board packed in W with rows of Stride bits; 2^Doublings - 1 must be at least the longest
// slide (size - 1) so that a Kogge-Stone fill covers a whole line.
template <class W, int Stride, int Doublings>
struct DenseLayout {
  using Bits = W;
  static constexpr int kStride = Stride;
  static constexpr int kDoublings = Doublings;
  static constexpr int kMaxSize =
      Stride * Stride <= static_cast<int>(sizeof(W) * 8) ? Stride : Stride - 1;

  static constexpr int index(Square s) { return s.rank() * Stride + s.file(); }
  static constexpr Bits square(Square s) { return shifted_left(1, index(s)); }
  static constexpr Square square_at(int index) {
    return Square::at(index % Stride, index / Stride);
  }
  static constexpr bool any(Bits b) { return b != 0; }
  static constexpr Bits andnot(Bits a, Bits b) { return a & ~b; }
  static constexpr int count(Bits b) {
    if constexpr (sizeof(W) == 8) {
      return std::popcount(b);
    } else {
      return std::popcount(static_cast<std::uint64_t>(b)) +
             std::popcount(static_cast<std::uint64_t>(b >> 64));
    }
  }
  // Removes and returns the lowest square. Precondition: any(b).
  static constexpr Square pop_lowest(Bits& b) {
    int i;
    if constexpr (sizeof(W) == 8) {
      i = std::countr_zero(b);
    } else {
      const auto low = static_cast<std::uint64_t>(b);
      i = low != 0 ? std::countr_zero(low)
                   : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
    }
    b &= b - 1;
    return square_at(i);
  }
  // `word` << n, 0 <= n < bits of W. A 128-bit shift by a variable amount is a library call
  // where the target has no 128-bit shift (WebAssembly: __ashlti3, in the evaluation's hottest
  // function); as two 64-bit shifts it is a few instructions on every target.
  static constexpr Bits shifted_left(std::uint64_t word, int n) {
    if constexpr (sizeof(W) == 8) {
      return word << n;
    } else {
      if (n >= 64) return static_cast<Bits>(word << (n - 64)) << 64;
      const std::uint64_t high = n == 0 ? 0 : word >> (64 - n);
      return static_cast<Bits>(high) << 64 | (word << n);
    }
  }
  template <int N>
  static constexpr Bits shift(Bits b) {
    if constexpr (N >= 0) {
      return b << N;
    } else {
      return b >> -N;
    }
  }
  // The squares of a size x size board. Precondition: size <= kMaxSize.
  static constexpr Bits board(int size) {
    Bits b = 0;
    for (int r = 0; r < size; ++r)
      for (int f = 0; f < size; ++f) b |= square(Square::at(f, r));
    return b;
  }
  // Squares a step east (west) may land on: not the first (last) file of a row.
  static constexpr Bits not_first_file() {
    Bits b = 0;
    for (int i = 0; i < static_cast<int>(sizeof(W) * 8); ++i)
      if (i % Stride != 0) b |= Bits{1} << i;
    return b;
  }
  static constexpr Bits not_last_file() {
    Bits b = 0;
    for (int i = 0; i < static_cast<int>(sizeof(W) * 8); ++i)
      if (i % Stride != Stride - 1) b |= Bits{1} << i;
    return b;
  }
  // Repacks a rules-core set; precondition: every square lies on a size x size board.
  static constexpr Bits from(const Bitboard& b, int size) {
    Bits out = 0;
    for (int r = 0; r < size; ++r) {
      const std::uint64_t row = (b.word(r / 4) >> (16 * (r % 4))) & 0xFFFFU;
      out |= shifted_left(row, r * Stride);
    }
    return out;
  }
};

using Dense64 = DenseLayout<std::uint64_t, 8, 3>;  // boards up to 8x8
using Dense128 = DenseLayout<Uint128, 11, 4>;      // boards up to 10x10 (file 10 is a guard)

// The rules core's own layout, for boards the dense ones cannot hold (11x11, 12x12).
struct WideLayout {
  using Bits = Bitboard;
  static constexpr int kStride = amazons::kStride;
  static constexpr int kDoublings = 4;
  static constexpr int kMaxSize = kMaxBoardSize;

  static constexpr int index(Square s) { return s.index(); }
  static constexpr Bits square(Square s) { return Bitboard::of(s); }
  static constexpr bool any(const Bits& b) { return b.any(); }
  static constexpr Bits andnot(const Bits& a, const Bits& b) { return a.without(b); }
  static constexpr int count(const Bits& b) { return b.count(); }
  static constexpr Square pop_lowest(Bits& b) { return b.pop_lowest(); }
  template <int N>
  static constexpr Bits shift(const Bits& b) {
    return b.shifted(N);
  }
  static constexpr Bits board(int size) { return Bitboard::board(size); }
  // The guard band (files 12..15) is never on a board, so nothing wraps onto one.
  static constexpr Bits not_first_file() { return Bitboard::board(kMaxBoardSize); }
  static constexpr Bits not_last_file() { return Bitboard::board(kMaxBoardSize); }
  static constexpr Bits from(const Bitboard& b, int /*size*/) { return b; }
};

}  // namespace amazons::ai
