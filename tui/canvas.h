// The screen as the terminal client's model draws it: a grid of cells, each one character with
// a foreground and a background ink. The screens draw into a Canvas; the curses view copies it
// to the terminal, and the tests read it as text. A character takes the columns a terminal
// gives it: two for Chinese and other East Asian wide characters, whose second cell holds
// kWideTail. Pure; single-threaded.
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

// The second column of a double-width character: no character of its own.
inline constexpr char32_t kWideTail = 0;

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

  // Writes UTF-8 `text` from column x on row y, each character in its display width, clipped
  // to the canvas and to `max_width` columns when given (>= 0): a wide character that does not
  // fit whole is left out, never cut. Returns the column after the text.
  int text(int x, int y, std::string_view text, Paint paint = {}, int max_width = -1);
  // Puts one character (two cells when it is wide and both fit; else nothing). A wide
  // character partly overwritten is blanked whole.
  void put(int x, int y, char32_t ch, Paint paint = {});
  // Writes `text` in lines of at most `width` columns from row y on, broken at spaces, or
  // anywhere between wide characters (Chinese has no spaces); at most `max_lines`. Returns the
  // number of rows used.
  int wrapped(int x, int y, std::string_view text, Paint paint, int width, int max_lines);
  // The same with the last line on row `bottom` (a footer above the row the notices take).
  int wrapped_above(int x, int bottom, std::string_view text, Paint paint, int width,
                    int max_lines);
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
// The columns a character takes in a terminal: 2 for East Asian wide and fullwidth characters,
// 0 for combining marks and other zero-width ones, else 1. From ICU's character properties, so
// it needs no locale.
int char_width(char32_t ch);
// The number of columns `text` takes.
int text_width(std::string_view text);
// `text` cut to at most `width` columns, at a character's edge.
std::string fit_width(std::string_view text, int width);
// `text` in lines of at most `width` columns, as Canvas::wrapped draws them; at most `max_lines`.
std::vector<std::string> wrap_text(std::string_view text, int width, int max_lines);
// `text` when it fits in `width` columns, else cut to fit with "…" at its end: a row of a list
// says that it goes on.
std::string elide(std::string_view text, int width);
// `text` followed by spaces up to `width` columns (nothing cut).
std::string pad_width(std::string_view text, int width);

}  // namespace amazons::tui
