#include "tui/board_draw.h"

#include <algorithm>
#include <array>
#include <string>

namespace amazons::tui {

BoardFit fit_board(int size, int max_w, int max_h) {
  constexpr std::array<std::pair<int, int>, 3> kCells = {{{7, 3}, {5, 2}, {3, 1}}};
  for (auto [w, h] : kCells) {
    BoardFit f{size, w, h};
    if (f.width() <= max_w && f.height() <= max_h) return f;
  }
  return BoardFit{size, 3, 1};
}

Square step_square(Square s, int dx, int dy, int size, bool flipped) {
  if (flipped) {
    dx = -dx;
    dy = -dy;
  }
  const int file = std::clamp(s.file() + dx, 0, size - 1);
  const int rank = std::clamp(s.rank() + dy, 0, size - 1);
  return Square::at(file, rank);
}

void draw_board(Canvas& c, int x, int y, const BoardFit& fit, const Position& pos,
                const BoardMarks& marks, const BoardLook& look) {
  const int n = fit.size;
  auto last_squares = [&](Square s) {
    return marks.last_move && (marks.last_move->from() == s || marks.last_move->to() == s ||
                               marks.last_move->arrow() == s);
  };
  for (int row = 0; row < n; ++row) {
    const int rank = look.flipped ? row : n - 1 - row;
    const int top = y + row * fit.cell_h;
    const std::string label = std::to_string(rank + 1);
    c.text(x + (label.size() == 1 ? 1 : 0), top + fit.cell_h / 2, label, {Ink::Muted});
    for (int col = 0; col < n; ++col) {
      const int file = look.flipped ? n - 1 - col : col;
      const Square s = Square::at(file, rank);
      const int left = x + BoardFit::kRankGutter + col * fit.cell_w;
      const bool dark = (file + rank) % 2 == 0;  // a1 is dark, as on a chess board
      Paint square{Ink::Text, dark ? Ink::DarkSquare : Ink::LightSquare};
      if (last_squares(s)) square.bg = Ink::LastMove;
      if (s == marks.selected || s == marks.moved_to) square.bg = Ink::Selected;
      if (look.ascii) square = {Ink::Text, Ink::Default};
      c.fill(left, top, fit.cell_w, fit.cell_h, square);

      // What stands on the square; in the arrow stage the queen is shown where it goes.
      Piece piece = pos.piece_at(s);
      if (!marks.moved_to.is_none()) {
        if (s == marks.selected) piece = Piece::Empty;
        if (s == marks.moved_to) piece = pos.piece_at(marks.selected);
      }
      char32_t glyph = look.ascii ? (dark ? U'.' : U' ') : U' ';
      Paint ink = square;
      ink.bold = true;
      if (piece == Piece::WhiteQueen) {
        glyph = look.ascii ? U'W' : U'\u2655';
        ink.fg = Ink::WhiteQueen;
      } else if (piece == Piece::BlackQueen) {
        glyph = look.ascii ? U'B' : U'\u265B';
        ink.fg = Ink::BlackQueen;
      } else if (piece == Piece::Arrow) {
        glyph = look.ascii ? U'#' : U'\u25CF';
        ink.fg = Ink::Arrow;
      } else if (marks.targets.test(s)) {
        glyph =
            marks.arrow_targets ? (look.ascii ? U'*' : U'\u25CB') : (look.ascii ? U'+' : U'\u00B7');
        ink.fg = Ink::Target;
      }
      const int mid_x = left + fit.cell_w / 2, mid_y = top + fit.cell_h / 2;
      if (!look.ascii && (piece == Piece::WhiteQueen || piece == Piece::BlackQueen)) {
        // A queen is a token across the square's middle row (5 cells of a 7-wide square, 3 of a
        // 5-wide one, 1 of a 3-wide one) in its own colour, its glyph in the other colour: alone,
        // White's glyph was faint on the light squares. The square's own colour, and with it the
        // selection and the last move, still shows around the token.
        const bool white = piece == Piece::WhiteQueen;
        ink = {white ? Ink::BlackQueen : Ink::WhiteQueen, white ? Ink::WhiteQueen : Ink::BlackQueen,
               true};
        const int half = (fit.cell_w - 2) / 2;
        c.fill(mid_x - half, mid_y, 2 * half + 1, 1, ink);
      }
      c.put(mid_x, mid_y, glyph, ink);
      if (look.ascii) {
        if (s == marks.selected || s == marks.moved_to) {
          c.put(mid_x - 1, mid_y, U'(', ink);
          c.put(mid_x + 1, mid_y, U')', ink);
        } else if (last_squares(s)) {
          c.put(mid_x + 1, mid_y, U'\'', ink);
        }
      }
      if (s == marks.cursor) {
        const Paint cursor{Ink::Cursor, square.bg, true};
        c.put(left, mid_y, U'[', cursor);
        c.put(left + fit.cell_w - 1, mid_y, U']', cursor);
      }
    }
  }
  const int files_y = y + n * fit.cell_h;
  for (int col = 0; col < n; ++col) {
    const int file = look.flipped ? n - 1 - col : col;
    c.put(x + BoardFit::kRankGutter + col * fit.cell_w + fit.cell_w / 2, files_y,
          static_cast<char32_t>(U'a' + file), {Ink::Muted});
  }
}

}  // namespace amazons::tui
