#include "client/ui/game_panel.h"

#include "client/words.h"

#include <algorithm>
#include <cmath>

#include <SFML/Graphics/RectangleShape.hpp>

namespace amazons::client::ui {

BoardAndPanel board_and_panel(const Style& s, float width, float height, int board_size) {
  const float margin = s.f(24);
  const float panel_w = std::clamp(width * 0.3f, s.f(270), s.f(380));
  BoardAndPanel out;
  out.panel = {width - panel_w - margin, margin, panel_w, height - 2 * margin};
  out.board = BoardGeometry::fit(
      board_size, {margin, margin, out.panel.x - 2 * margin, height - 2 * margin}, 0.45f);
  return out;
}

std::vector<MoveCell> draw_move_list(sf::RenderTarget& t, const Style& s, Rect area,
                                     const std::vector<MoveRow>& rows, Color first_mover,
                                     std::size_t current) {
  fill_rounded(t, area, s.f(10), colors::kPanel, colors::kBorder, 1);
  const float pad = s.f(14), row_h = s.f(26);
  const float c0 = area.x + pad, c1 = c0 + s.f(40), c2 = c1 + (area.w - 2 * pad - s.f(40)) / 2;
  float y = area.y + pad + row_h / 2;
  draw_text(t, s.fonts->bold, side_name(*s.tr, first_mover), s.px(14), c1, y, colors::kMuted);
  draw_text(t, s.fonts->bold, side_name(*s.tr, ~first_mover), s.px(14), c2, y, colors::kMuted);
  sf::RectangleShape rule({area.w - 2 * pad, 1});
  rule.setPosition(c0, std::round(y + row_h / 2 + s.f(2)));
  rule.setFillColor(colors::kBorder);
  t.draw(rule);
  y += row_h + s.f(8);
  if (rows.empty()) {
    draw_text(t, s.fonts->regular, (*s.tr)("game.no_moves"), s.px(15), c0, y, colors::kMuted);
    return {};
  }
  const int fit = std::max(1, static_cast<int>((area.bottom() - y - pad) / row_h) + 1);
  const int current_row = current == 0 ? 0 : static_cast<int>((current - 1) / 2);
  const int first =
      std::clamp(current_row - fit / 2, 0, std::max(0, static_cast<int>(rows.size()) - fit));
  std::vector<MoveCell> cells;
  for (int i = first; i < static_cast<int>(rows.size()) && i < first + fit; ++i, y += row_h) {
    const MoveRow& row = rows[static_cast<std::size_t>(i)];
    draw_text(t, s.fonts->regular, std::to_string(row.number) + ".", s.px(15), c0, y,
              colors::kMuted);
    for (int half = 0; half < 2; ++half) {
      const std::string& text = half == 0 ? row.first : row.second;
      if (text.empty()) continue;
      const auto ply = static_cast<std::size_t>(2 * i + half + 1);
      const float x = half == 0 ? c1 : c2;
      const Rect cell{x - s.f(4), y - row_h / 2, (c2 - c1) - s.f(6), row_h};
      if (ply == current) fill_rounded(t, cell, s.f(4), colors::kPanelRaised);
      draw_text(t, s.fonts->regular, text, s.px(15), x, y,
                ply == current ? colors::kAccent : colors::kText);
      cells.push_back({cell, ply});
    }
  }
  return cells;
}

void show_input(BoardScene& scene, const MoveInput& input, const BoardGeometry& geometry,
                float mouse_x, float mouse_y) {
  if (input.stage() == InputStage::ChooseDestination || input.stage() == InputStage::ChooseArrow)
    scene.selected = input.queen();
  if (input.stage() == InputStage::ChooseArrow) scene.moved_to = input.destination();
  scene.targets = input.targets();
  scene.arrow_targets = input.stage() == InputStage::ChooseArrow;
  const Square hovered = geometry.square_at(mouse_x, mouse_y);
  if (input.accepts(hovered)) scene.hover = hovered;
  scene.dragging = input.drag_origin();
  scene.mouse_x = mouse_x;
  scene.mouse_y = mouse_y;
}

nlohmann::json board_json(const BoardGeometry& g) {
  return {{"x", g.x}, {"y", g.y}, {"square", g.square}, {"size", g.size}, {"flipped", g.flipped}};
}

bool board_input_event(const sf::Event& e, MoveInput& input, const BoardGeometry& geometry,
                       float& mouse_x, float& mouse_y) {
  switch (e.type) {
    case sf::Event::MouseMoved:
      mouse_x = static_cast<float>(e.mouseMove.x);
      mouse_y = static_cast<float>(e.mouseMove.y);
      return false;
    case sf::Event::MouseButtonPressed:
      mouse_x = static_cast<float>(e.mouseButton.x);
      mouse_y = static_cast<float>(e.mouseButton.y);
      if (e.mouseButton.button == sf::Mouse::Right) input.back();
      return e.mouseButton.button == sf::Mouse::Left &&
             input.press(geometry.square_at(mouse_x, mouse_y)) == InputEffect::MoveReady;
    case sf::Event::MouseButtonReleased:
      return e.mouseButton.button == sf::Mouse::Left &&
             input.release(geometry.square_at(static_cast<float>(e.mouseButton.x),
                                              static_cast<float>(e.mouseButton.y))) ==
                 InputEffect::MoveReady;
    case sf::Event::KeyPressed:
      if (e.key.code == sf::Keyboard::Escape) input.back();
      return false;
    default:
      return false;
  }
}

void place_button_row(const Style& s, const std::vector<Button*>& buttons, Rect area, float gap) {
  std::vector<Button*> row;
  for (Button* b : buttons)
    if (b->visible) row.push_back(b);
  if (row.empty()) return;
  // Each as wide as its words need, the room left shared out evenly; when the words need more
  // than there is, in proportion to them (a long label does not squeeze into an equal share).
  const float n = static_cast<float>(row.size());
  const float room = area.w - gap * (n - 1);
  std::vector<float> widths;
  float needed = 0;
  for (const Button* b : row) needed += widths.emplace_back(b->natural_width(s));
  float x = area.x;
  for (std::size_t i = 0; i < row.size(); ++i) {
    const float w = needed <= room ? widths[i] + (room - needed) / n : widths[i] * room / needed;
    row[i]->rect = {std::round(x), area.y, std::round(w), area.h};
    x += w + gap;
  }
}

void draw_player_card(sf::RenderTarget& t, const Style& s, const GameViewModel& vm, Color c, Rect r,
                      SteadyTime now, const std::string& name, const std::string& sub,
                      sf::Color sub_color) {
  const bool active = vm.running() && vm.to_move() == c;
  fill_rounded(t, r, s.f(10), active ? colors::kPanelRaised : colors::kPanel,
               active ? colors::kAccent : colors::kBorder, active ? 2.f : 1.f);
  const float icon = std::min(s.f(46), r.h * 0.56f);
  draw_queen(t, s, c, r.x + s.f(14) + icon / 2, r.y + r.h / 2, icon);
  const float text_x = r.x + s.f(24) + icon;
  float clock_w = 0;
  if (vm.has_clock()) {
    const bool low = vm.low_time(c, now);
    clock_w = s.f(104);
    const float box_h = std::min(s.f(46), r.h - s.f(20));
    const Rect box{r.right() - clock_w - s.f(12), r.y + (r.h - box_h) / 2, clock_w, box_h};
    fill_rounded(t, box, s.f(6),
                 low      ? sf::Color(110, 40, 36)
                 : active ? colors::kBackground
                          : colors::kPanel,
                 low ? colors::kDanger : colors::kBorder, 1);
    draw_text(t, s.fonts->bold, vm.clock_text(c, now), s.px(24), box.x + box.w / 2,
              box.y + box.h / 2,
              low      ? sf::Color(255, 200, 190)
              : active ? colors::kText
                       : colors::kMuted,
              Align::Center);
  }
  const float name_w = r.right() - text_x - clock_w - s.f(24);
  draw_fitted(t, s.fonts->bold, name, s.px(19), s.px(14), text_x, r.y + r.h * 0.36f, name_w,
              active ? colors::kText : colors::kMuted);
  draw_text(t, s.fonts->regular, elide(s.fonts->regular, sub, s.px(14), name_w), s.px(14), text_x,
            r.y + r.h * 0.68f, sub_color);
}

std::string clock_ticks(const GameViewModel& vm, SteadyTime now) {
  if (!vm.has_clock()) return {};
  std::string out;
  for (const Color c : {Color::White, Color::Black})
    out += vm.clock_text(c, now) + (vm.low_time(c, now) ? "!" : "") + ' ';
  return out;
}

void draw_result_banner(sf::RenderTarget& t, const Style& s, const BoardGeometry& board,
                        const std::string& title, const std::string& reason) {
  const Rect b = board.bounds();
  const float w = std::min(b.w * 0.82f, s.f(480)), h = s.f(132);
  const Rect r{std::round(b.x + (b.w - w) / 2), std::round(b.y + (b.h - h) / 2), w, h};
  fill_rounded(t, r, s.f(14), sf::Color(24, 28, 35, 236), colors::kAccent, 2);
  draw_text(t, s.fonts->bold, title, s.px(34), r.x + r.w / 2, r.y + h * 0.36f, colors::kAccent,
            Align::Center);
  draw_text(t, s.fonts->regular, elide(s.fonts->regular, reason, s.px(17), r.w - s.f(24)), s.px(17),
            r.x + r.w / 2, r.y + h * 0.70f, colors::kText, Align::Center);
}

}  // namespace amazons::client::ui
