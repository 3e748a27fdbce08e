// Where the board sits in the window and which square a pixel is on. Pure arithmetic, shared by
// the drawing code, the mouse handling and the state dump that scripted tests read.
#pragma once

#include "common/types.h"

namespace amazons::client {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  bool contains(float px, float py) const { return px >= x && px < x + w && py >= y && py < y + h; }
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  friend bool operator==(const Rect&, const Rect&) = default;
};

struct BoardGeometry {
  int size = 10;         // squares per side
  float x = 0, y = 0;    // top-left corner of the board (not of the coordinates around it)
  float square = 0;      // side of one square, a whole number of pixels so edges stay crisp
  bool flipped = false;  // Black at the bottom

  // The largest board that fits `area` with a margin of `gutter` squares on every side for the
  // coordinates, centred in it. The square side is a whole number of pixels, at least 1.
  static BoardGeometry fit(int size, Rect area, float gutter = 0.5f);

  float side() const { return square * static_cast<float>(size); }
  Rect bounds() const { return {x, y, side(), side()}; }
  Rect square_rect(Square s) const;
  // The square under a pixel, or Square::none() off the board.
  Square square_at(float px, float py) const;
};

}  // namespace amazons::client
