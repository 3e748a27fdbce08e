#include "tui/canvas.h"

#include <algorithm>

namespace amazons::tui {

Canvas::Canvas(int width, int height)
    : width_(std::max(width, 1)),
      height_(std::max(height, 1)),
      cells_(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_)) {}

void Canvas::put(int x, int y, char32_t ch, Paint paint) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  cells_[index(x, y)] = {ch, paint};
}

int Canvas::text(int x, int y, std::string_view utf8, Paint paint, int max_width) {
  int col = x;
  for (char32_t ch : decode_utf8(utf8)) {
    if (max_width >= 0 && col - x >= max_width) break;
    // Control characters from untrusted text (names, chat) would move the terminal's cursor.
    put(col++, y, ch < 0x20 || ch == 0x7F ? U'?' : ch, paint);
  }
  return col;
}

int Canvas::wrapped(int x, int y, std::string_view utf8, Paint paint, int width, int max_lines) {
  if (width <= 0 || max_lines <= 0) return 0;
  const std::u32string all = decode_utf8(utf8);
  std::size_t start = 0;
  int rows = 0;
  while (start < all.size() && rows < max_lines) {
    std::size_t end = std::min(all.size(), start + static_cast<std::size_t>(width));
    if (end < all.size()) {
      const std::size_t space = all.rfind(U' ', end);
      if (space != std::u32string::npos && space > start) end = space;
    }
    std::string line;
    for (std::size_t i = start; i < end; ++i) line += encode_utf8(all[i]);
    text(x, y + rows, line, paint, width);
    ++rows;
    start = end;
    while (start < all.size() && all[start] == U' ') ++start;
  }
  return rows;
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
  for (int x = 0; x <= last; ++x) out += encode_utf8(at(x, y).ch);
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

int text_width(std::string_view text) { return static_cast<int>(decode_utf8(text).size()); }

}  // namespace amazons::tui
