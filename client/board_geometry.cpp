#include "client/board_geometry.h"

#include <algorithm>
#include <cmath>

namespace amazons::client {

BoardGeometry BoardGeometry::fit(int size, Rect area, float gutter) {
  BoardGeometry g;
  g.size = size;
  const float cells = static_cast<float>(size) + 2 * gutter;
  g.square = std::max(1.0f, std::floor(std::min(area.w, area.h) / cells));
  g.x = std::round(area.x + (area.w - g.side()) / 2);
  g.y = std::round(area.y + (area.h - g.side()) / 2);
  return g;
}

Rect BoardGeometry::square_rect(Square s) const {
  const int col = flipped ? size - 1 - s.file() : s.file();
  const int row = flipped ? s.rank() : size - 1 - s.rank();
  return {x + static_cast<float>(col) * square, y + static_cast<float>(row) * square, square,
          square};
}

Square BoardGeometry::square_at(float px, float py) const {
  if (!bounds().contains(px, py)) return Square::none();
  const int col = std::clamp(static_cast<int>((px - x) / square), 0, size - 1);
  const int row = std::clamp(static_cast<int>((py - y) / square), 0, size - 1);
  return flipped ? Square::at(size - 1 - col, row) : Square::at(col, size - 1 - row);
}

}  // namespace amazons::client
