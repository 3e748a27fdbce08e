// Draws a board: squares, coordinates, queens, burned squares, the last move, highlights, a
// queen being dragged. Stateless: everything it shows is in BoardScene.
#pragma once

#include <array>
#include <optional>

#include <SFML/Graphics/RenderTarget.hpp>

#include "client/board_geometry.h"
#include "client/settings.h"
#include "client/ui/widgets.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons::client::ui {

struct BoardScene {
  const Position* position = nullptr;
  std::optional<Move> last_move;
  // A premove waiting for the opponent's move: its squares tinted, a faint queen on its
  // destination, its arrow square framed.
  std::optional<Move> premove;
  Square selected = Square::none();  // the chosen queen, drawn highlighted
  // While the arrow is chosen the queen is drawn on its destination and its square is empty.
  Square moved_to = Square::none();
  Bitboard targets;            // squares a press completes the stage on
  bool arrow_targets = false;  // targets are arrow squares (else queen destinations)
  Square hover = Square::none();
  std::optional<Square> dragging;  // the queen's square while it follows the mouse
  float mouse_x = 0, mouse_y = 0;
  bool coordinates = true;
  Rgb light, dark;
  // The territory view: empty squares each side reaches first, tinted in that side's colour.
  std::array<Bitboard, 2> territory{};  // [index_of(c)]
};

void draw_board(sf::RenderTarget& target, const Style& style, const BoardGeometry& geometry,
                const BoardScene& scene);
// A queen of colour c centred on (x, y), `size` pixels high.
void draw_queen(sf::RenderTarget& target, const Style& style, Color c, float x, float y,
                float size);

}  // namespace amazons::client::ui
