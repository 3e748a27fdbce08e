// What the game and the replay screens share: the board on the left and a panel on the right,
// and the move list drawn in that panel.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <SFML/Graphics/RenderTarget.hpp>

#include "client/board_geometry.h"
#include "client/game_text.h"
#include "client/ui/widgets.h"

namespace amazons::client::ui {

struct BoardAndPanel {
  BoardGeometry board;
  Rect panel;
};
// The largest board for a window of width x height, beside a panel of about a third of it.
BoardAndPanel board_and_panel(const Style& style, float width, float height, int board_size);

// One move shown in the list and where it is, for clicks.
struct MoveCell {
  Rect rect;
  std::size_t ply;  // 1-based: the move that leads to the position after it
};

// Draws the move list in `area`: the two sides as column headings, then numbered rows. The move
// `current` (1-based; 0 for none) is kept in view and marked.
std::vector<MoveCell> draw_move_list(sf::RenderTarget& target, const Style& style, Rect area,
                                     const std::vector<MoveRow>& rows, Color first_mover,
                                     std::size_t current);

}  // namespace amazons::client::ui
