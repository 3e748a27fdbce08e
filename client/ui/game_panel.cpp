#include "client/ui/game_panel.h"

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
  draw_text(t, s.fonts->bold, side_name(first_mover), s.px(14), c1, y, colors::kMuted);
  draw_text(t, s.fonts->bold, side_name(~first_mover), s.px(14), c2, y, colors::kMuted);
  sf::RectangleShape rule({area.w - 2 * pad, 1});
  rule.setPosition(c0, std::round(y + row_h / 2 + s.f(2)));
  rule.setFillColor(colors::kBorder);
  t.draw(rule);
  y += row_h + s.f(8);
  if (rows.empty()) {
    draw_text(t, s.fonts->regular, "No moves yet.", s.px(15), c0, y, colors::kMuted);
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

}  // namespace amazons::client::ui
