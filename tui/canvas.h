// The screen as the terminal client's model draws it: a grid of cells, each one character with
// a foreground and a background ink. The screens draw into a Canvas; the curses view copies it
// to the terminal, and the tests read it as text. Every glyph the client draws is one column
// wide. Pure; single-threaded.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace amazons::tui {

// Colours by meaning; the view maps them to what the terminal has (256, 8 or no colours).
enum class Ink : std::uint8_t {
  Default,  // the terminal's own colour
  Text,     // ordinary text
  Muted,    // hints, headings
  Accent,   // the selected line, whose turn it is
  Danger,   // errors, low time, illegal moves
  Good,     // success, a win
  LightSquare,
  DarkSquare,
  WhiteQueen,
  BlackQueen,
  Arrow,
  Selected,  // the chosen queen's square
  LastMove,  // the squares of the last move
  Target,    // squares that complete the current stage
  Cursor,    // the keyboard cursor's square
};

struct Paint {
  Ink fg = Ink::Text;
  Ink bg = Ink::Default;
  bool bold = false;
  bool reverse = false;
  friend bool operator==(const Paint&, const Paint&) = default;
};

struct Cell {
  char32_t ch = U' ';
  Paint paint;
  friend bool operator==(const Cell&, const Cell&) = default;
};

class Canvas {
 public:
  Canvas(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  const Cell& at(int x, int y) const { return cells_[index(x, y)]; }

  // Writes UTF-8 `text` from column x on row y, one column per code point, clipped to the
  // canvas and to `max_width` columns when given (>= 0). Returns the column after the text.
  int text(int x, int y, std::string_view text, Paint paint = {}, int max_width = -1);
  void put(int x, int y, char32_t ch, Paint paint = {});
  // Writes `text` in lines of at most `width` columns, broken at spaces, from row y on; at most
  // `max_lines`. Returns the number of rows used.
  int wrapped(int x, int y, std::string_view text, Paint paint, int width, int max_lines);
  // Fills a rectangle with spaces of `paint`.
  void fill(int x, int y, int w, int h, Paint paint = {});

  // Row y as UTF-8 with trailing spaces removed (what a screen capture shows).
  std::string row_text(int y) const;
  // Every row, joined by newlines.
  std::string text() const;
  // The first row containing `needle`, or -1.
  int find_row(std::string_view needle) const;

 private:
  std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_) +
           static_cast<std::size_t>(x);
  }
  int width_, height_;
  std::vector<Cell> cells_;
};

// Decodes UTF-8 (a bad byte becomes U+FFFD); encodes one code point.
std::u32string decode_utf8(std::string_view text);
std::string encode_utf8(char32_t ch);
// The number of columns `text` takes (code points).
int text_width(std::string_view text);

}  // namespace amazons::tui
