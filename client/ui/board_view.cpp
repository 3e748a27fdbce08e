#include "client/ui/board_view.h"

#include <cmath>
#include <map>
#include <memory>

#include <SFML/Graphics/CircleShape.hpp>
#include <SFML/Graphics/RectangleShape.hpp>
#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/Graphics/Sprite.hpp>
#include <SFML/Graphics/Text.hpp>

namespace amazons::client::ui {

namespace {

void fill(sf::RenderTarget& target, Rect r, sf::Color c) {
  sf::RectangleShape shape({r.w, r.h});
  shape.setPosition(r.x, r.y);
  shape.setFillColor(c);
  target.draw(shape);
}

void frame(sf::RenderTarget& target, Rect r, float thickness, sf::Color c) {
  sf::RectangleShape shape({r.w - 2 * thickness, r.h - 2 * thickness});
  shape.setPosition(r.x + thickness, r.y + thickness);
  shape.setFillColor(sf::Color::Transparent);
  shape.setOutlineThickness(thickness);
  shape.setOutlineColor(c);
  target.draw(shape);
}

void disc(sf::RenderTarget& target, float cx, float cy, float radius, sf::Color c,
          sf::Color outline = sf::Color::Transparent, float thickness = 0) {
  sf::CircleShape shape(radius, 40);
  shape.setOrigin(radius, radius);
  shape.setPosition(cx, cy);
  shape.setFillColor(c);
  shape.setOutlineColor(outline);
  shape.setOutlineThickness(thickness);
  target.draw(shape);
}

sf::Color darker(sf::Color c, float t) {
  auto m = [t](sf::Uint8 x) { return static_cast<sf::Uint8>(std::lround(x * (1 - t))); };
  return {m(c.r), m(c.g), m(c.b), c.a};
}

// A burned square: the same charcoal on light and dark squares, with an ember-edged stone, so
// it reads as "gone" at a glance and looks like no queen.
void draw_arrow(sf::RenderTarget& target, Rect r) {
  fill(target, r, colors::kBurned);
  const float side = r.w * 0.42f;
  sf::RectangleShape stone({side, side});
  stone.setOrigin(side / 2, side / 2);
  stone.setPosition(r.x + r.w / 2, r.y + r.h / 2);
  stone.setRotation(45);
  stone.setFillColor(colors::kArrow);
  stone.setOutlineColor(colors::kArrowEdge);
  stone.setOutlineThickness(std::max(1.f, std::round(r.w * 0.035f)));
  target.draw(stone);
}

}  // namespace

namespace {

// The round things on the board. They are drawn once per size at twice that size into a texture
// and shrunk with smoothing: antialiased edges without multisampling, which software OpenGL (Xvfb,
// many virtual machines) renders several times slower.
enum class Round : std::uint8_t { WhiteQueen, BlackQueen, Dot, Ring };

sf::Color opaque(sf::Color c) { return {c.r, c.g, c.b, 255}; }

// Markers are painted opaque and made see-through when drawn, so their colour is not darkened by
// blending into the texture's transparent black; the texture around them is their own colour.
sf::Color marker_color(Round kind) {
  return kind == Round::Dot ? colors::kDestination : colors::kArrowTarget;
}

void paint_round(sf::RenderTarget& target, const Style& style, Round kind, float size) {
  const float x = size / 2, y = size / 2;
  switch (kind) {
    case Round::WhiteQueen:
    case Round::BlackQueen: {
      // Every queen sits on a round token, so the two sides differ by token and by figure.
      const bool white = kind == Round::WhiteQueen;
      const float r = size * 0.40f;
      disc(target, x, y + size * 0.03f, r, sf::Color(0, 0, 0, 60));  // shadow
      disc(target, x, y, r, white ? colors::kWhiteQueen : colors::kBlackQueen,
           white ? colors::kWhiteQueenEdge : colors::kBlackQueenEdge, size * 0.03f);
      sf::Text glyph(sf::String(U'\u265B'), style.fonts->regular,
                     static_cast<unsigned>(std::lround(size * 0.56f)));
      glyph.setFillColor(white ? colors::kWhiteQueenEdge : colors::kBlackQueenEdge);
      const sf::FloatRect b = glyph.getLocalBounds();
      glyph.setOrigin(b.left + b.width / 2, b.top + b.height / 2);
      glyph.setPosition(x, y);
      target.draw(glyph);
      break;
    }
    case Round::Dot:
      disc(target, x, y, size * 0.17f, opaque(colors::kDestination));
      break;
    case Round::Ring:
      disc(target, x, y, size * 0.2f, sf::Color::Transparent, opaque(colors::kArrowTarget),
           std::max(2.f, size * 0.07f));
      break;
  }
}

// Render thread only, like all drawing.
const sf::Texture& round_texture(const Style& style, Round kind, unsigned size) {
  using Key = std::pair<Round, unsigned>;
  static std::map<Key, std::unique_ptr<sf::RenderTexture>> cache;
  auto& slot = cache[Key{kind, size}];
  if (!slot) {
    if (cache.size() > 64) {  // window resized many times: start over
      cache.clear();
      return round_texture(style, kind, size);
    }
    slot = std::make_unique<sf::RenderTexture>();
    slot->create(2 * size, 2 * size);
    const bool marker = kind == Round::Dot || kind == Round::Ring;
    const sf::Color around = marker ? marker_color(kind) : sf::Color::Black;
    slot->clear({around.r, around.g, around.b, 0});
    paint_round(*slot, style, kind, 2.f * static_cast<float>(size));
    slot->display();
    slot->setSmooth(true);
  }
  return slot->getTexture();
}

void draw_round(sf::RenderTarget& target, const Style& style, Round kind, float x, float y,
                float size, sf::Uint8 alpha = 255) {
  const unsigned px = std::max(1U, static_cast<unsigned>(std::lround(size)));
  sf::Sprite sprite(round_texture(style, kind, px));
  sprite.setScale(0.5f, 0.5f);
  if (kind == Round::Dot || kind == Round::Ring)
    sprite.setColor({255, 255, 255, marker_color(kind).a});
  else if (alpha != 255)
    sprite.setColor({255, 255, 255, alpha});
  sprite.setPosition(std::round(x - static_cast<float>(px) / 2),
                     std::round(y - static_cast<float>(px) / 2));
  target.draw(sprite);
}

}  // namespace

void draw_queen(sf::RenderTarget& target, const Style& style, Color c, float x, float y,
                float size) {
  draw_round(target, style, c == Color::White ? Round::WhiteQueen : Round::BlackQueen, x, y, size);
}

void draw_board(sf::RenderTarget& target, const Style& style, const BoardGeometry& g,
                const BoardScene& scene) {
  const Position& pos = *scene.position;
  const sf::Color light = to_sf(scene.light), dark = to_sf(scene.dark);
  const float border = std::max(2.f, std::round(g.square * 0.08f));
  fill_rounded(target, {g.x - border, g.y - border, g.side() + 2 * border, g.side() + 2 * border},
               border, darker(dark, 0.45f));

  for (int rank = 0; rank < g.size; ++rank)
    for (int file = 0; file < g.size; ++file) {
      const Square s = Square::at(file, rank);
      const Rect r = g.square_rect(s);
      const sf::Color base = (file + rank) % 2 == 0 ? dark : light;
      fill(target, r, base);
      if (pos.piece_at(s) == Piece::Arrow) draw_arrow(target, r);
    }

  // Territory: a square marker in the owner's colour, as in Go scoring, with an outline in
  // the other colour so it reads on light and dark squares of every theme alike.
  for (Color c : {Color::White, Color::Black}) {
    const bool white = c == Color::White;
    const sf::Color body = white ? sf::Color(248, 246, 238, 215) : sf::Color(28, 28, 34, 205);
    const sf::Color edge = white ? sf::Color(30, 30, 36, 170) : sf::Color(235, 232, 225, 150);
    const float inset = std::round(g.square * 0.3f);
    for (Square s : scene.territory[static_cast<std::size_t>(index_of(c))]) {
      const Rect r = g.square_rect(s);
      const Rect inner{r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset};
      fill(target, inner, body);
      frame(target, inner, std::max(1.f, std::round(g.square * 0.025f)), edge);
    }
  }

  if (scene.last_move) {
    for (Square s : {scene.last_move->from(), scene.last_move->to()})
      fill(target, g.square_rect(s), colors::kLastMove);
    frame(target, g.square_rect(scene.last_move->arrow()), std::max(2.f, g.square * 0.06f),
          sf::Color(250, 220, 90, 200));
  }
  if (scene.premove) {
    for (Square s : {scene.premove->from(), scene.premove->to()})
      fill(target, g.square_rect(s), colors::kPremove);
    const Rect a = g.square_rect(scene.premove->arrow());
    fill(target, a, colors::kPremove);
    frame(target, a, std::max(2.f, g.square * 0.07f), colors::kPremoveEdge);
  }
  if (!scene.selected.is_none()) fill(target, g.square_rect(scene.selected), colors::kSelected);
  if (!scene.hover.is_none()) fill(target, g.square_rect(scene.hover), colors::kHover);

  if (scene.coordinates) {
    const unsigned size = static_cast<unsigned>(std::max(9.f, g.square * 0.26f));
    const float gap = std::max(border + 2, g.square * 0.28f);
    for (int i = 0; i < g.size; ++i) {
      const Rect file_rect = g.square_rect(Square::at(i, g.flipped ? g.size - 1 : 0));
      const std::string file(1, static_cast<char>('a' + i));
      draw_text(target, style.fonts->regular, file, size, file_rect.x + file_rect.w / 2,
                g.y + g.side() + gap, colors::kMuted, Align::Center);
      const Rect rank_rect = g.square_rect(Square::at(g.flipped ? g.size - 1 : 0, i));
      draw_text(target, style.fonts->regular, std::to_string(i + 1), size, g.x - gap,
                rank_rect.y + rank_rect.h / 2, colors::kMuted, Align::Center);
    }
  }

  for (Color c : {Color::White, Color::Black})
    for (Square q : pos.queens(c)) {
      if (scene.dragging == q && scene.moved_to.is_none()) continue;
      if (!scene.moved_to.is_none() && q == scene.selected) continue;
      const Rect r = g.square_rect(q);
      draw_queen(target, style, c, r.x + r.w / 2, r.y + r.h / 2, g.square);
    }
  if (scene.premove && pos.piece_at(scene.premove->to()) == Piece::Empty) {
    constexpr sf::Uint8 kGhost = 120;  // faint enough to read as "not played yet"
    const Rect r = g.square_rect(scene.premove->to());
    const Piece mover = pos.piece_at(scene.premove->from());
    draw_round(target, style, mover == Piece::BlackQueen ? Round::BlackQueen : Round::WhiteQueen,
               r.x + r.w / 2, r.y + r.h / 2, g.square, kGhost);
  }
  if (!scene.moved_to.is_none() && scene.dragging != scene.moved_to) {
    const Rect r = g.square_rect(scene.moved_to);
    draw_queen(target, style, pos.side_to_move(), r.x + r.w / 2, r.y + r.h / 2, g.square);
  }

  for (Square s : scene.targets) {
    const Rect r = g.square_rect(s);
    const float cx = r.x + r.w / 2, cy = r.y + r.h / 2;
    draw_round(target, style, scene.arrow_targets ? Round::Ring : Round::Dot, cx, cy, g.square);
  }

  if (scene.dragging) {
    const Color c = pos.piece_at(*scene.dragging) == Piece::BlackQueen   ? Color::Black
                    : pos.piece_at(*scene.dragging) == Piece::WhiteQueen ? Color::White
                                                                         : pos.side_to_move();
    draw_queen(target, style, c, scene.mouse_x, scene.mouse_y, g.square * 1.08f);
  }
}

}  // namespace amazons::client::ui
