#include <doctest/doctest.h>

#include "client/board_geometry.h"

using namespace amazons;
using namespace amazons::client;

TEST_CASE("the board fits its area with whole-pixel squares and room for coordinates") {
  const BoardGeometry g = BoardGeometry::fit(10, {20, 10, 700, 605});
  CHECK(g.square == 55);  // floor(605 / 11)
  CHECK(g.side() == 550);
  CHECK(g.x == 95);                                         // centred: 20 + (700 - 550) / 2
  CHECK(g.y == 38);                                         // 10 + (605 - 550) / 2, rounded
  CHECK(BoardGeometry::fit(12, {0, 0, 5, 5}).square == 1);  // never zero
}

TEST_CASE("every square's centre maps back to the square, flipped or not, off the board is none") {
  for (bool flipped : {false, true}) {
    BoardGeometry g = BoardGeometry::fit(8, {0, 0, 400, 300});
    g.flipped = flipped;
    for (int f = 0; f < 8; ++f)
      for (int r = 0; r < 8; ++r) {
        const Rect rc = g.square_rect(Square::at(f, r));
        CHECK(g.square_at(rc.x + rc.w / 2, rc.y + rc.h / 2) == Square::at(f, r));
        CHECK(g.square_at(rc.x, rc.y) == Square::at(f, r));
      }
    CHECK(g.square_at(g.x - 1, g.y) == Square::none());
    CHECK(g.square_at(g.x, g.y + g.side()) == Square::none());
  }
  const BoardGeometry g = BoardGeometry::fit(8, {0, 0, 400, 300});
  // a1 is bottom left unless flipped.
  CHECK(g.square_rect(Square::at(0, 0)).y == g.y + 7 * g.square);
  CHECK(g.square_rect(Square::at(0, 0)).x == g.x);
}
