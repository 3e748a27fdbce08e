#include "tests/tui/screen_board.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "tui/canvas.h"

namespace amazons::test {

Position ScreenBoard::position(Color to_move) const {
  auto p = Position::make(size, white, black, arrows, to_move);
  if (!p) throw std::runtime_error("the board on the screen is no position: " + p.error());
  return *p;
}

std::optional<ScreenBoard> read_board(const std::string& screen, int size, bool ascii) {
  std::vector<std::u32string> rows;
  std::istringstream in(screen);
  for (std::string line; std::getline(in, line);) rows.push_back(tui::decode_utf8(line));
  // The row of file letters: a, b, c, ... each alone, evenly spaced.
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const std::u32string& r = rows[y];
    // a..j from the left, or j..a when the board is flipped (Black at the bottom).
    std::vector<int> xs;
    bool flipped = false;
    for (std::size_t x = 0; x < r.size(); ++x) {
      if (r[x] == U' ') continue;
      if (xs.empty()) flipped = r[x] == static_cast<char32_t>(U'a' + size - 1) && size > 1;
      const int n = static_cast<int>(xs.size());
      const char32_t want = static_cast<char32_t>(flipped ? U'a' + size - 1 - n : U'a' + n);
      if (r[x] != want) break;
      xs.push_back(static_cast<int>(x));
    }
    if (static_cast<int>(xs.size()) != size) continue;
    if (flipped) std::reverse(xs.begin(), xs.end());  // xs[file] is the column of that file
    ScreenBoard b;
    b.size = size;
    b.cell_w = std::abs(xs[1] - xs[0]);
    // Rank labels stand left of the squares, in the rows above.
    for (int rank = 0; rank < size; ++rank) {
      const std::u32string label = tui::decode_utf8(std::to_string(rank + 1));
      int found = -1;
      for (int yy = static_cast<int>(y) - 1; yy >= 0 && found < 0; --yy) {
        const std::u32string& row = rows[static_cast<std::size_t>(yy)];
        const std::size_t start =
            static_cast<std::size_t>(std::min(xs.front(), xs.back()) - b.cell_w / 2 - 3);
        if (row.size() <= start) continue;  // trailing spaces are not captured
        std::u32string gutter = row.substr(start, 3);
        while (!gutter.empty() && gutter.front() == U' ') gutter.erase(0, 1);
        while (!gutter.empty() && gutter.back() == U' ') gutter.pop_back();
        if (gutter == label) found = yy;
      }
      if (found < 0) return std::nullopt;
      const std::u32string& row = rows[static_cast<std::size_t>(found)];
      for (int file = 0; file < size; ++file) {
        const auto x = static_cast<std::size_t>(xs[static_cast<std::size_t>(file)]);
        const char32_t g = x < row.size() ? row[x] : U' ';
        const Square s = Square::at(file, rank);
        if (g == (ascii ? U'W' : U'\u2655')) b.white.push_back(s);
        if (g == (ascii ? U'B' : U'\u265B')) b.black.push_back(s);
        if (g == (ascii ? U'#' : U'\u25CF')) b.arrows.set(s);
        if (g == (ascii ? U'+' : U'\u00B7')) b.dots.set(s);
        if (g == (ascii ? U'*' : U'\u25CB')) b.rings.set(s);
        const std::size_t left = x - static_cast<std::size_t>(b.cell_w / 2);
        if (left < row.size() && row[left] == U'[') b.cursor = s;
      }
    }
    return b;
  }
  return std::nullopt;
}

}  // namespace amazons::test
