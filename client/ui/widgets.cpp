#include "client/ui/widgets.h"

#include <cmath>
#include <map>

#include <SFML/Graphics/ConvexShape.hpp>
#include <SFML/Graphics/RectangleShape.hpp>
#include <SFML/Graphics/Text.hpp>

namespace amazons::client::ui {

namespace {

constexpr float kPi = 3.14159265f;

sf::Color mix(sf::Color a, sf::Color b, float t) {
  auto m = [t](sf::Uint8 x, sf::Uint8 y) {
    return static_cast<sf::Uint8>(
        std::lround(static_cast<float>(x) * (1 - t) + static_cast<float>(y) * t));
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a)};
}

}  // namespace

namespace {

// The fonts that stand in for others' missing characters (set_fallback_font).
std::map<const sf::Font*, const sf::Font*>& fallbacks() {
  static std::map<const sf::Font*, const sf::Font*> table;
  return table;
}

// DejaVu Sans has no CJK ideographs, kana, Hangul, CJK punctuation or fullwidth forms: all of
// them lie from the CJK radicals (U+2E80) up, apart from the replacement character it has.
bool needs_cjk(sf::Uint32 cp) { return cp >= 0x2E80 && cp != 0xFFFD; }

struct Run {
  sf::String text;
  const sf::Font* font;
};

// `utf8` cut where the font changes.
std::vector<Run> font_runs(const sf::Font& font, const std::string& utf8) {
  const sf::String all = sf::String::fromUtf8(utf8.begin(), utf8.end());
  const auto it = fallbacks().find(&font);
  const sf::Font* fallback = it == fallbacks().end() ? nullptr : it->second;
  std::vector<Run> runs;
  for (sf::Uint32 cp : all) {
    const sf::Font* f = fallback && needs_cjk(cp) ? fallback : &font;
    if (runs.empty() || runs.back().font != f) runs.push_back({sf::String(), f});
    runs.back().text += cp;
  }
  return runs;
}

// How far the pen moves over the run (to where the next run starts).
float advance(const sf::Text& text) {
  return text.findCharacterPos(text.getString().getSize()).x - text.getPosition().x;
}

}  // namespace

void set_fallback_font(const sf::Font& primary, const sf::Font* fallback) {
  fallbacks()[&primary] = fallback;
}

namespace {
std::vector<std::string>* g_drawn_texts = nullptr;
}  // namespace

void record_drawn_texts(std::vector<std::string>* log) { g_drawn_texts = log; }

void draw_text(sf::RenderTarget& target, const sf::Font& font, const std::string& utf8,
               unsigned size, float x, float y, sf::Color color, Align align) {
  if (g_drawn_texts && !utf8.empty()) g_drawn_texts->push_back(utf8);
  const float width = text_width(font, utf8, size);
  float left = x;
  if (align == Align::Center) left = x - width / 2;
  if (align == Align::Right) left = x - width;
  // Centre the capitals on y, the same for every text of a size. SFML puts the baseline of the
  // first line at characterSize below the position, in every font, so runs in two fonts share
  // it; bounds.top is minus the cap height.
  const sf::Glyph& cap = font.getGlyph(U'H', size, false);
  const float top = std::round(y - static_cast<float>(size) - cap.bounds.top / 2);
  float pen = std::round(left);
  for (const Run& run : font_runs(font, utf8)) {
    sf::Text text(run.text, *run.font, size);
    text.setFillColor(color);
    text.setPosition(pen, top);
    target.draw(text);
    pen += advance(text);
  }
}

float text_width(const sf::Font& font, const std::string& utf8, unsigned size) {
  const std::vector<Run> runs = font_runs(font, utf8);
  float width = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const sf::Text text(runs[i].text, *runs[i].font, size);
    // The last run ends where its ink does, as a single-font text always has.
    width += i + 1 < runs.size() ? advance(text)
                                 : text.getLocalBounds().width + text.getLocalBounds().left;
  }
  return width;
}

std::string elide(const sf::Font& font, const std::string& utf8, unsigned size, float width) {
  if (text_width(font, utf8, size) <= width) return utf8;
  sf::String s = sf::String::fromUtf8(utf8.begin(), utf8.end());
  while (!s.isEmpty()) {
    s.erase(s.getSize() - 1);
    auto bytes = s.toUtf8();
    std::string candidate(bytes.begin(), bytes.end());
    candidate += "...";
    if (text_width(font, candidate, size) <= width) return candidate;
  }
  return "...";
}

unsigned fitting_size(const sf::Font& font, const std::string& utf8, unsigned size,
                      unsigned smallest, float width) {
  while (size > smallest && text_width(font, utf8, size) > width) --size;
  return size;
}

void draw_fitted(sf::RenderTarget& target, const sf::Font& font, const std::string& utf8,
                 unsigned size, unsigned smallest, float x, float y, float width, sf::Color color,
                 Align align) {
  const unsigned fitted = fitting_size(font, utf8, size, smallest, width);
  draw_text(target, font, elide(font, utf8, fitted, width), fitted, x, y, color, align);
}

std::vector<std::string> wrap(const sf::Font& font, const std::string& utf8, unsigned size,
                              float width) {
  // CJK ideographs, kana, hangul and their punctuation: a line may break before any of them.
  auto wide = [](sf::Uint32 c) { return c >= 0x2E80 && c <= 0xFFEF; };
  auto to_utf8 = [](const sf::String& s) {
    const auto bytes = s.toUtf8();
    return std::string(bytes.begin(), bytes.end());
  };
  const sf::String text = sf::String::fromUtf8(utf8.begin(), utf8.end());
  std::vector<std::string> lines;
  sf::String line;
  std::size_t i = 0;
  const std::size_t n = text.getSize();
  while (i < n) {
    // The next piece: one wide character, or a word with the spaces before it.
    std::size_t j = i;
    while (j < n && text[j] == ' ') ++j;
    if (j < n && wide(text[j])) {
      ++j;
    } else {
      while (j < n && text[j] != ' ' && !wide(text[j])) ++j;
    }
    sf::String piece = text.substring(i, j - i);
    i = j;
    if (text_width(font, to_utf8(line + piece), size) <= width) {
      line += piece;
      continue;
    }
    if (!line.isEmpty()) lines.push_back(to_utf8(line));
    while (!piece.isEmpty() && piece[0] == ' ') piece.erase(0);
    line.clear();
    // A word longer than a line is broken where the line is full.
    for (std::size_t k = 0; k < piece.getSize(); ++k) {
      if (!line.isEmpty() && text_width(font, to_utf8(line + piece[k]), size) > width) {
        lines.push_back(to_utf8(line));
        line.clear();
      }
      line += piece[k];
    }
  }
  if (!line.isEmpty()) lines.push_back(to_utf8(line));
  return lines;
}

void fill_rounded(sf::RenderTarget& target, Rect r, float radius, sf::Color fill, sf::Color outline,
                  float thickness) {
  radius = std::min({radius, r.w / 2, r.h / 2});
  constexpr int kCornerPoints = 6;
  sf::ConvexShape shape(4 * kCornerPoints);
  const float cx[4] = {r.x + r.w - radius, r.x + radius, r.x + radius, r.x + r.w - radius};
  const float cy[4] = {r.y + radius, r.y + radius, r.y + r.h - radius, r.y + r.h - radius};
  for (int corner = 0; corner < 4; ++corner)
    for (int i = 0; i < kCornerPoints; ++i) {
      const float a =
          (static_cast<float>(corner) * 90.f + 90.f * static_cast<float>(i) / (kCornerPoints - 1)) *
          kPi / 180.f;
      shape.setPoint(static_cast<std::size_t>(corner * kCornerPoints + i),
                     {cx[corner] + radius * std::cos(a), cy[corner] - radius * std::sin(a)});
    }
  shape.setFillColor(fill);
  shape.setOutlineColor(outline);
  shape.setOutlineThickness(thickness);
  target.draw(shape);
}

void Widget::describe(nlohmann::json& out) const {
  out = {{"x", rect.x}, {"y", rect.y}, {"w", rect.w}, {"h", rect.h}, {"enabled", enabled}};
}

// ---- Button ----

void Button::draw(sf::RenderTarget& target, const Style& s, bool hovered) const {
  sf::Color fill = colors::kPanelRaised, text = colors::kText, edge = colors::kBorder;
  switch (style) {
    case ButtonStyle::Primary:
      fill = hovered ? colors::kAccentHover : colors::kAccent;
      text = colors::kBackground;
      edge = sf::Color::Transparent;
      break;
    case ButtonStyle::Danger:
      fill = hovered ? mix(colors::kPanelRaised, colors::kDanger, 0.35f) : colors::kPanelRaised;
      text = hovered ? colors::kText : mix(colors::kText, colors::kDanger, 0.55f);
      break;
    case ButtonStyle::Quiet:
      fill = hovered ? colors::kPanelRaised : sf::Color::Transparent;
      text = hovered ? colors::kText : colors::kMuted;
      edge = sf::Color::Transparent;
      break;
    case ButtonStyle::Normal:
      if (hovered) fill = mix(colors::kPanelRaised, colors::kText, 0.12f);
      break;
  }
  if (!enabled) {
    fill = mix(fill, colors::kPanel, 0.6f);
    text = mix(text, colors::kPanel, 0.6f);
  }
  fill_rounded(target, rect, s.f(8), fill, edge, edge == sf::Color::Transparent ? 0 : 1);
  const sf::Font& font = style == ButtonStyle::Primary ? s.fonts->bold : s.fonts->regular;
  const float pad = s.f(align == Align::Left ? 16 : 6);
  const unsigned size = fitting_size(font, label, s.px(17), s.px(13), rect.w - 2 * pad);
  const std::string shown = elide(font, label, size, rect.w - 2 * pad);
  const float x = align == Align::Left ? rect.x + pad : rect.x + rect.w / 2;
  draw_text(target, font, shown, size, x, rect.y + rect.h / 2, text, align);
}

float Button::natural_width(const Style& s) const {
  const sf::Font& font = style == ButtonStyle::Primary ? s.fonts->bold : s.fonts->regular;
  return text_width(font, label, s.px(17)) + 2 * s.f(align == Align::Left ? 16 : 12);
}

bool Button::press(float, float) {
  if (!enabled) return false;
  if (on_click) on_click();
  return true;
}

void Button::describe(nlohmann::json& out) const {
  Widget::describe(out);
  out["label"] = label;
}

// ---- TextField ----

void TextField::draw(sf::RenderTarget& target, const Style& s, bool hovered) const {
  draw_fitted(target, s.fonts->regular, label, s.px(14), s.px(12), rect.x, rect.y - s.f(14), rect.w,
              colors::kMuted);
  const sf::Color edge = focused_ ? colors::kAccent : hovered ? colors::kMuted : colors::kBorder;
  fill_rounded(target, rect, s.f(6), colors::kBackground, edge, focused_ ? 2.f : 1.f);
  const float pad = s.f(12);
  std::string plain = text;
  if (secret) {
    plain.clear();
    for (std::size_t i = 0, n = sf::String::fromUtf8(text.begin(), text.end()).getSize(); i < n;
         ++i)
      plain += "\u2022";
  }
  const std::string shown = elide(s.fonts->regular, plain, s.px(18), rect.w - 2 * pad);
  if (all_selected_ && focused_ && !shown.empty()) {
    sf::RectangleShape mark({text_width(s.fonts->regular, shown, s.px(18)), rect.h * 0.6f});
    mark.setPosition(std::round(rect.x + pad), std::round(rect.y + rect.h * 0.2f));
    mark.setFillColor(colors::kBorder);
    target.draw(mark);
  }
  draw_text(target, s.fonts->regular, shown, s.px(18), rect.x + pad, rect.y + rect.h / 2,
            colors::kText);
  if (focused_) {
    const float caret = rect.x + pad + text_width(s.fonts->regular, shown, s.px(18)) + 2;
    sf::RectangleShape bar({2, rect.h * 0.55f});
    bar.setPosition(std::round(caret), std::round(rect.y + rect.h * 0.225f));
    bar.setFillColor(colors::kAccent);
    target.draw(bar);
  }
}

bool TextField::press(float, float) { return enabled; }

bool TextField::key(const sf::Event& e) {
  if (e.type == sf::Event::KeyPressed) {
    if (e.key.control && e.key.code == sf::Keyboard::A) {
      all_selected_ = true;
      return true;
    }
    // Moving the caret's keys end the selection (there is no caret to move: it stays at the end).
    if (e.key.code == sf::Keyboard::Left || e.key.code == sf::Keyboard::Right ||
        e.key.code == sf::Keyboard::Home || e.key.code == sf::Keyboard::End)
      all_selected_ = false;
    return false;
  }
  if (e.type == sf::Event::TextEntered) {
    const sf::Uint32 c = e.text.unicode;
    const bool typed = c >= 32 && c != 127;
    if (c != 8 && !typed) return c < 32;  // Enter, Tab, Escape, Ctrl+A's own: not typed
    sf::String s = sf::String::fromUtf8(text.begin(), text.end());
    if (all_selected_) s.clear();  // replaced by what is typed, or cleared by Backspace
    if (c == 8 && !all_selected_) {
      if (!s.isEmpty()) s.erase(s.getSize() - 1);
    } else if (typed && s.getSize() < max_length) {
      s += c;
    }
    all_selected_ = false;
    auto bytes = s.toUtf8();
    text.assign(bytes.begin(), bytes.end());
    if (on_change) on_change();
    return true;
  }
  return false;
}

void TextField::describe(nlohmann::json& out) const {
  Widget::describe(out);
  if (secret)
    out["length"] = text.size();
  else
    out["text"] = text;
  out["focused"] = focused_;
  out["all_selected"] = all_selected_;
}

// ---- Selector ----

Rect Selector::prev_rect() const { return {rect.x, rect.y, rect.h, rect.h}; }
Rect Selector::next_rect() const { return {rect.right() - rect.h, rect.y, rect.h, rect.h}; }

void Selector::step(int delta) {
  if (options.empty()) return;
  const auto n = static_cast<long>(options.size());
  index = static_cast<std::size_t>(((static_cast<long>(index) + delta) % n + n) % n);
  if (on_change) on_change();
}

void Selector::draw(sf::RenderTarget& target, const Style& s, bool hovered) const {
  draw_fitted(target, s.fonts->regular, label, s.px(14), s.px(12), rect.x, rect.y - s.f(14), rect.w,
              colors::kMuted);
  fill_rounded(target, rect, s.f(6), colors::kBackground,
               hovered ? colors::kMuted : colors::kBorder, 1);
  for (const auto& [r, glyph] : {std::pair{prev_rect(), "\xE2\x80\xB9"},     // ‹
                                 std::pair{next_rect(), "\xE2\x80\xBA"}}) {  // ›
    draw_text(target, s.fonts->bold, glyph, s.px(26), r.x + r.w / 2, r.y + r.h / 2 - s.f(2),
              colors::kAccent, Align::Center);
  }
  const std::string value = options.empty() ? std::string() : options[index];
  const float room = rect.w - 2 * rect.h;  // between the arrows
  const unsigned size = fitting_size(s.fonts->regular, value, s.px(18), s.px(14), room);
  draw_text(target, s.fonts->regular, elide(s.fonts->regular, value, size, room), size,
            rect.x + rect.w / 2, rect.y + rect.h / 2, colors::kText, Align::Center);
}

bool Selector::press(float x, float y) {
  if (!enabled || options.empty()) return false;
  step(prev_rect().contains(x, y) ? -1 : 1);
  return true;
}

void Selector::describe(nlohmann::json& out) const {
  Widget::describe(out);
  out["value"] = options.empty() ? std::string() : options[index];
  out["index"] = index;
  const Rect p = prev_rect(), n = next_rect();
  out["prev"] = {{"x", p.x}, {"y", p.y}, {"w", p.w}, {"h", p.h}};
  out["next"] = {{"x", n.x}, {"y", n.y}, {"w", n.w}, {"h", n.h}};
}

// ---- Toggle ----

void Toggle::draw(sf::RenderTarget& target, const Style& s, bool hovered) const {
  const float h = std::min(rect.h, s.f(28)), w = h * 1.8f;
  // The label left of the switch, smaller or cut when it does not fit there.
  const float room = rect.w - w - s.f(12);
  const unsigned size = fitting_size(s.fonts->regular, label, s.px(18), s.px(13), room);
  draw_text(target, s.fonts->regular, elide(s.fonts->regular, label, size, room), size, rect.x,
            rect.y + rect.h / 2,
            hovered ? colors::kText : mix(colors::kText, colors::kMuted, 0.3f));
  const Rect track{rect.right() - w, rect.y + (rect.h - h) / 2, w, h};
  fill_rounded(target, track, h / 2, value ? colors::kAccent : colors::kBorder);
  const float knob = h - 6;
  const float kx = value ? track.right() - knob - 3 : track.x + 3;
  fill_rounded(target, {kx, track.y + 3, knob, knob}, knob / 2, colors::kText);
}

bool Toggle::press(float, float) {
  if (!enabled) return false;
  value = !value;
  if (on_change) on_change();
  return true;
}

void Toggle::describe(nlohmann::json& out) const {
  Widget::describe(out);
  out["value"] = value;
}

// ---- WidgetSet ----

Widget* WidgetSet::at(float x, float y) const {
  for (Widget* w : items_)
    if (w->visible && w->rect.contains(x, y)) return w;
  return nullptr;
}

bool WidgetSet::hovering() const {
  const Widget* w = at(mouse_x_, mouse_y_);
  return w != nullptr && w->enabled;
}

bool WidgetSet::handle(const sf::Event& e) {
  switch (e.type) {
    case sf::Event::MouseMoved:
      mouse_x_ = static_cast<float>(e.mouseMove.x);
      mouse_y_ = static_cast<float>(e.mouseMove.y);
      return false;
    case sf::Event::MouseLeft:
      mouse_x_ = mouse_y_ = -1;
      return false;
    case sf::Event::MouseButtonPressed: {
      if (e.mouseButton.button != sf::Mouse::Left) return false;
      mouse_x_ = static_cast<float>(e.mouseButton.x);
      mouse_y_ = static_cast<float>(e.mouseButton.y);
      Widget* w = at(mouse_x_, mouse_y_);
      if (focus_ != w) {
        if (focus_) focus_->set_focus(false);
        focus_ = w != nullptr && w->focusable() && w->enabled ? w : nullptr;
        if (focus_) focus_->set_focus(true);
      }
      return w != nullptr && w->press(mouse_x_, mouse_y_);
    }
    case sf::Event::TextEntered:
      return focus_ != nullptr && focus_->key(e);
    case sf::Event::KeyPressed:
      if (focus_ && focus_->key(e)) return true;  // the field's own keys (Ctrl+A)
      if (focus_ && (e.key.code == sf::Keyboard::Escape || e.key.code == sf::Keyboard::Enter ||
                     e.key.code == sf::Keyboard::Tab)) {
        focus_->set_focus(false);
        focus_ = nullptr;
        return e.key.code != sf::Keyboard::Escape;  // Esc also goes on to the screen
      }
      return focus_ != nullptr;  // typing into a field is not a shortcut
    default:
      return false;
  }
}

void WidgetSet::draw(sf::RenderTarget& target, const Style& style) const {
  const Widget* hovered = at(mouse_x_, mouse_y_);
  for (const Widget* w : items_)
    if (w->visible) w->draw(target, style, w == hovered && w->enabled);
}

nlohmann::json WidgetSet::describe() const {
  nlohmann::json out = nlohmann::json::object();
  for (const Widget* w : items_) {
    if (!w->visible) continue;
    nlohmann::json j;
    w->describe(j);
    out[w->id()] = std::move(j);
  }
  return out;
}

}  // namespace amazons::client::ui
