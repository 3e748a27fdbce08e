// Line occupancy: every row, column and diagonal of the board as a 16-bit mask, so that sliding
// reach along a line is a couple of bit operations instead of a walk (the idea of rotated
// bitboards, at the size of a 12-square line).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "common/types.h"

namespace amazons {

// The four kinds of line through a square, each with the step that moves one place "up" it.
enum class LineKind : std::uint8_t { Row, Column, Diagonal, AntiDiagonal };
inline constexpr std::array<LineKind, 4> kLineKinds = {LineKind::Row, LineKind::Column,
                                                       LineKind::Diagonal, LineKind::AntiDiagonal};
inline constexpr std::array<int, 4> kLineStep = {1, kStride, kStride + 1, 1 - kStride};

// Lines are numbered: rows 0..11, columns 12..23, diagonals (file - rank constant) 24..46,
// anti-diagonals (file + rank constant) 47..69.
inline constexpr int kLineCount = 2 * kMaxBoardSize + 2 * (2 * kMaxBoardSize - 1);

// In a line mask, bit p is set when place p of the line is blocked: occupied, off the board, or
// (for diagonals, where the place is the file) not on that diagonal. Bits kMaxBoardSize..15 are
// always set, so every scan stops.
using LineMask = std::uint16_t;
inline constexpr LineMask kAllBlocked = 0xFFFF;

struct SquareLines {
  std::array<std::uint8_t, 4> line;   // line number for each LineKind
  std::array<std::uint8_t, 4> place;  // position of the square along that line
};

constexpr std::array<SquareLines, kSquareSpace> make_square_lines() {
  std::array<SquareLines, kSquareSpace> t{};
  for (int i = 0; i < kSquareSpace; ++i) {
    const int f = i % kStride, r = i / kStride;
    if (f >= kMaxBoardSize) continue;  // guard band: never asked about
    t[i].line = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(kMaxBoardSize + f),
                 static_cast<std::uint8_t>(2 * kMaxBoardSize + (f - r + kMaxBoardSize - 1)),
                 static_cast<std::uint8_t>(2 * kMaxBoardSize + 2 * kMaxBoardSize - 1 + f + r)};
    t[i].place = {static_cast<std::uint8_t>(f), static_cast<std::uint8_t>(r),
                  static_cast<std::uint8_t>(f), static_cast<std::uint8_t>(f)};
  }
  return t;
}
inline constexpr std::array<SquareLines, kSquareSpace> kSquareLines = make_square_lines();

// Free places above `place` before the first blocked one.
constexpr int free_above(unsigned mask, int place) { return std::countr_zero(mask >> (place + 1)); }
// Free places below `place` before the first blocked one (or the line's start).
constexpr int free_below(unsigned mask, int place) {
  const unsigned below = ((mask & ((1U << place) - 1U)) << 1) | 1U;
  return place - (std::bit_width(below) - 1);
}

}  // namespace amazons
