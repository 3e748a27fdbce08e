// Zobrist keys, generated at compile time from a fixed seed: the same in every build and run,
// so hashes can be logged and compared across processes.
#pragma once

#include <array>
#include <cstdint>

#include "common/types.h"

namespace amazons::zobrist {

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Keys {
  std::array<std::array<std::uint64_t, kSquareSpace>, 3>
      piece{};  // white queen, black queen, arrow
  std::uint64_t black_to_move = 0;
};

constexpr Keys make_keys() {
  Keys k;
  std::uint64_t state = 0x416D617A6F6E7321ULL;  // "Amazons!"
  for (auto& table : k.piece)
    for (auto& key : table) key = splitmix64(state);
  k.black_to_move = splitmix64(state);
  return k;
}

inline constexpr Keys kKeys = make_keys();

// Precondition: p is not Piece::Empty.
constexpr std::uint64_t key(Piece p, Square s) {
  return kKeys.piece[static_cast<std::size_t>(p) - 1][static_cast<std::size_t>(s.index())];
}

}  // namespace amazons::zobrist
