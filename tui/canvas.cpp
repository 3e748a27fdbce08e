#include "tui/canvas.h"

#include <algorithm>

#include <unicode/uchar.h>

namespace amazons::tui {

Canvas::Canvas(int width, int height)
    : width_(std::max(width, 1)),
      height_(std::max(height, 1)),
      cells_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_)) {}

void Canvas::put(int x, int y, char32_t ch, Paint paint) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  const int w = ch == kWideTail ? 1 : char_width(ch);
  if (w == 0) return;
  if (w == 2 && x + 1 >= width_) return;
  // A wide character whose half is overwritten would leave the other half on the terminal.
  auto clear_cell = [&](int cx) {
    Cell& cell = cells_[index(cx, y)];
    if (cell.ch == kWideTail && cx > 0)
      cells_[index(cx - 1, y)].ch = U' ';
    else if (cx + 1 < width_ && cells_[index(cx + 1, y)].ch == kWideTail)
      cells_[index(cx + 1, y)].ch = U' ';
    cell.ch = U' ';
  };
  clear_cell(x);
  if (w == 2) clear_cell(x + 1);
  cells_[index(x, y)] = {ch, paint};
  if (w == 2) cells_[index(x + 1, y)] = {kWideTail, paint};
}

int Canvas::text(int x, int y, std::string_view utf8, Paint paint, int max_width) {
  int col = x;
  for (char32_t ch : decode_utf8(utf8)) {
    // Control characters from untrusted text (names, chat) would move the terminal's cursor.
    if (ch < 0x20 || ch == 0x7F) ch = U'?';
    const int w = char_width(ch);
    if (w == 0) continue;
    if (max_width >= 0 && col - x + w > max_width) break;
    if (col + w > width_) break;
    put(col, y, ch, paint);
    col += w;
  }
  return col;
}

int Canvas::wrapped(int x, int y, std::string_view utf8, Paint paint, int width, int max_lines) {
  const std::vector<std::string> lines = wrap_text(utf8, width, max_lines);
  for (std::size_t i = 0; i < lines.size(); ++i)
    text(x, y + static_cast<int>(i), lines[i], paint, width);
  return static_cast<int>(lines.size());
}

int Canvas::wrapped_above(int x, int bottom, std::string_view utf8, Paint paint, int width,
                          int max_lines) {
  const int rows = static_cast<int>(wrap_text(utf8, width, max_lines).size());
  return wrapped(x, bottom - rows + 1, utf8, paint, width, max_lines);
}

std::string elide(std::string_view text, int width) {
  if (text_width(text) <= width) return std::string(text);
  if (width <= 0) return {};
  return fit_width(text, width - 1) + "\u2026";
}

std::vector<std::string> wrap_text(std::string_view utf8, int width, int max_lines) {
  std::vector<std::string> out;
  if (width <= 0 || max_lines <= 0) return out;
  const std::u32string all = decode_utf8(utf8);
  std::size_t start = 0;
  while (start < all.size() && static_cast<int>(out.size()) < max_lines) {
    std::size_t end = start;
    int used = 0;
    while (end < all.size() && used + char_width(all[end]) <= width) used += char_width(all[end++]);
    if (end == start) ++end;  // a character wider than the line: shown clipped, not looped on
    if (end < all.size() && all[end] != U' ') {
      // Break at the last space, or after the last wide character (between two Chinese
      // characters), whichever is later; else cut the word.
      std::size_t cut = end;
      while (cut > start + 1 && all[cut - 1] != U' ' && char_width(all[cut - 1]) < 2 &&
             char_width(all[cut]) < 2)
        --cut;
      if (cut > start + 1) end = all[cut - 1] == U' ' ? cut - 1 : cut;
    }
    std::string line;
    for (std::size_t i = start; i < end; ++i) line += encode_utf8(all[i]);
    out.push_back(std::move(line));
    start = end;
    while (start < all.size() && all[start] == U' ') ++start;
  }
  return out;
}

void Canvas::fill(int x, int y, int w, int h, Paint paint) {
  for (int r = y; r < y + h; ++r)
    for (int c = x; c < x + w; ++c) put(c, r, U' ', paint);
}

std::string Canvas::row_text(int y) const {
  std::string out;
  if (y < 0 || y >= height_) return out;
  int last = width_ - 1;
  while (last >= 0 && at(last, y).ch == U' ') --last;
  for (int x = 0; x <= last; ++x)
    if (at(x, y).ch != kWideTail) out += encode_utf8(at(x, y).ch);
  return out;
}

std::string Canvas::text() const {
  std::string out;
  for (int y = 0; y < height_; ++y) {
    out += row_text(y);
    out += '\n';
  }
  return out;
}

int Canvas::find_row(std::string_view needle) const {
  for (int y = 0; y < height_; ++y)
    if (row_text(y).find(needle) != std::string::npos) return y;
  return -1;
}

std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t extra = b < 0x80             ? 0
                              : (b & 0xE0) == 0xC0 ? 1
                              : (b & 0xF0) == 0xE0 ? 2
                              : (b & 0xF8) == 0xF0 ? 3
                                                   : 4;
    char32_t cp = extra == 0 ? b : static_cast<char32_t>(b & (0x3F >> extra));
    bool ok = extra < 4 && i + extra < s.size();
    for (std::size_t k = 1; ok && k <= extra; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c & 0xC0) == 0x80;
      cp = (cp << 6) | (c & 0x3F);
    }
    if (!ok) {
      out += U'\uFFFD';
      ++i;
      continue;
    }
    out += cp;
    i += extra + 1;
  }
  return out;
}

std::string encode_utf8(char32_t c) {
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

int char_width(char32_t ch) {
  if (ch < 0x7F) return 1;
  const auto c = static_cast<UChar32>(ch);
  const auto category = static_cast<UCharCategory>(u_charType(c));
  if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_FORMAT_CHAR ||
      ch == 0x200B)
    return 0;
  const auto east_asian =
      static_cast<UEastAsianWidth>(u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH));
  return east_asian == U_EA_WIDE || east_asian == U_EA_FULLWIDTH ? 2 : 1;
}

int text_width(std::string_view text) {
  int w = 0;
  for (char32_t ch : decode_utf8(text)) w += char_width(ch);
  return w;
}

std::string fit_width(std::string_view text, int width) {
  std::string out;
  int used = 0;
  for (char32_t ch : decode_utf8(text)) {
    used += char_width(ch);
    if (used > width) break;
    out += encode_utf8(ch);
  }
  return out;
}

std::string pad_width(std::string_view text, int width) {
  std::string out(text);
  out.append(static_cast<std::size_t>(std::max(0, width - text_width(text))), ' ');
  return out;
}

}  // namespace amazons::tui
