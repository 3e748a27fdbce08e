// Reads the board back from a captured terminal screen: pieces, arrows, the marked squares and
// the cursor, wherever the layout put the board and however large its squares are.
#pragma once

#include <optional>
#include <string>

#include "common/bitboard.h"
#include "common/position.h"

namespace amazons::test {

struct ScreenBoard {
  int size = 0;
  int cell_w = 0;  // columns per square, from the spacing of the file letters
  std::vector<Square> white, black;
  Bitboard arrows;
  Bitboard dots;   // destination targets
  Bitboard rings;  // arrow targets
  Square cursor = Square::none();
  // The position, with `to_move` to move.
  Position position(Color to_move) const;
};

// nullopt when no board of `size` is on the screen. `ascii`: W, B, #, + and * instead of the
// Unicode glyphs.
std::optional<ScreenBoard> read_board(const std::string& screen, int size, bool ascii = false);

}  // namespace amazons::test
