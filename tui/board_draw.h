// The board in the terminal: how big its squares can be in the room there is, and drawing a
// position with the marks of the move being entered (the same highlights as the desktop
// client: the chosen queen, its destinations, the arrow targets, the last move), plus the
// keyboard cursor. Unicode pieces and colours, or plain ASCII. Pure.
#pragma once

#include <optional>

#include "common/bitboard.h"
#include "common/move.h"
#include "common/position.h"
#include "tui/canvas.h"

namespace amazons::tui {

// The size of the board's squares in columns and rows, and of the whole board with its
// coordinates (rank numbers on the left, file letters below).
struct BoardFit {
  int size = 10;
  int cell_w = 3, cell_h = 1;
  int width() const { return kRankGutter + size * cell_w; }
  int height() const { return size * cell_h + 1; }
  static constexpr int kRankGutter = 3;  // "10 "
};
// The largest squares (3x1, 5x2, 7x3) for which the board fits in max_w x max_h; 3x1 when
// none does (the board is then clipped).
BoardFit fit_board(int size, int max_w, int max_h);

struct BoardMarks {
  std::optional<Move> last_move;
  Square selected = Square::none();  // the chosen queen
  Square moved_to = Square::none();  // its chosen destination (arrow stage)
  Bitboard targets;                  // squares completing the current stage
  bool arrow_targets = false;        // the targets are arrow squares (ringed), not destinations
  Square cursor = Square::none();    // the keyboard cursor, when shown
};

struct BoardLook {
  bool ascii = false;
  bool flipped = false;  // Black at the bottom
};

// Draws with the top-left corner of the rank gutter at (x, y).
void draw_board(Canvas& c, int x, int y, const BoardFit& fit, const Position& pos,
                const BoardMarks& marks, const BoardLook& look);

// The square `steps` away from `s` in screen directions (dx right, dy up on the screen),
// clamped to the board; the cursor keys move by it.
Square step_square(Square s, int dx, int dy, int size, bool flipped);

}  // namespace amazons::tui
