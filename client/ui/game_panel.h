// What the game and the replay screens share: the board on the left and a panel on the right,
// and the move list drawn in that panel.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <SFML/Graphics/RenderTarget.hpp>
#include <SFML/Window/Event.hpp>
#include <nlohmann/json.hpp>

#include "client/board_geometry.h"
#include "client/game_text.h"
#include "client/game_view_model.h"
#include "client/move_input.h"
#include "client/ui/board_view.h"
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

// ---- what the live game screens (local and online) share ----

// Shows on `scene` what the move being entered marks: the chosen queen, where it goes, the
// squares a press completes the stage on, the hovered one, a dragged queen under the mouse.
void show_input(BoardScene& scene, const MoveInput& input, const BoardGeometry& geometry,
                float mouse_x, float mouse_y);

// The board's place and size for the state dump (tests click squares with it).
nlohmann::json board_json(const BoardGeometry& geometry);
// Passes a mouse or Esc event on the board to the move input (press, release, right click and
// Esc step back) and keeps the mouse position; true when a complete move is ready to take.
bool board_input_event(const sf::Event& e, MoveInput& input, const BoardGeometry& geometry,
                       float& mouse_x, float& mouse_y);
// Lays the visible buttons out side by side, equally wide, across `area`.
void place_button_row(const Style& s, const std::vector<Button*>& buttons, Rect area, float gap);

// A player's card: the queen of colour c, the name, a line below it (`sub`, in `sub_color`), and
// the clock when the game has one. Highlighted while c is to move.
void draw_player_card(sf::RenderTarget& target, const Style& style, const GameViewModel& vm,
                      Color c, Rect r, SteadyTime now, const std::string& name,
                      const std::string& sub, sf::Color sub_color);
// What the two cards' clocks show at `now` (the texts and whether each is low): a card is drawn
// again when this changes, and not 60 times a second while a clock runs.
std::string clock_ticks(const GameViewModel& vm, SteadyTime now);
// The result over the middle of the board.
void draw_result_banner(sf::RenderTarget& target, const Style& style, const BoardGeometry& board,
                        const std::string& title, const std::string& reason);

}  // namespace amazons::client::ui
