// Helpers shared by the rules-core tests.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/position.h"
#include "common/variant.h"

namespace amazons::test {

inline Square sq(const char* name) { return *parse_square(name); }
inline Move mv(const char* text) { return *parse_move(text); }

// A uniformly random legal move. Precondition: the game is not over.
inline Move random_move(const Position& pos, std::mt19937_64& rng) {
  MoveList moves;
  generate_moves(pos, moves);
  return moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
}

// Plays up to `plies` uniformly random legal moves (fewer if the game ends first).
inline std::vector<Move> random_game(Position& pos, int plies, std::mt19937_64& rng) {
  std::vector<Move> played;
  MoveList moves;
  for (int i = 0; i < plies; ++i) {
    moves.clear();
    generate_moves(pos, moves);
    if (moves.empty()) break;
    const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
    pos.do_move(m);
    played.push_back(m);
  }
  return played;
}

// Every move of the side to move, found by asking Position::check() about every triple of
// squares: slow, but independent of the line-mask generator it is compared with.
inline std::vector<Move> brute_force_moves(const Position& pos) {
  std::vector<Move> out;
  const int n = pos.size();
  for (Square from : pos.queens(pos.side_to_move()))
    for (int t = 0; t < n * n; ++t)
      for (int a = 0; a < n * n; ++a) {
        const Move m(from, Square::at(t % n, t / n), Square::at(a % n, a / n));
        if (!pos.check(m)) out.push_back(m);
      }
  return out;
}

inline RuleVariant small_variant(int size) {
  // Queens in the middle of each side's half: a shape that exists on every size.
  RuleVariant v;
  v.name = "test" + std::to_string(size);
  v.size = size;
  v.white_queens = {Square::at(0, 1), Square::at(size - 1, 1)};
  v.black_queens = {Square::at(0, size - 2), Square::at(size - 1, size - 2)};
  v.first_to_move = Color::White;
  return v;
}

}  // namespace amazons::test
