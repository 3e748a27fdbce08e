// A few retained widgets (buttons, text fields, option selectors, switches) and the drawing
// helpers they share. Each widget has an id and a rectangle that the screen sets in its layout;
// the state dump lists both, so scripted tests can click by id.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <SFML/Graphics/RenderTarget.hpp>
#include <SFML/Window/Event.hpp>
#include <nlohmann/json.hpp>

#include "client/board_geometry.h"
#include "client/catalogue.h"
#include "client/ui/theme.h"

namespace amazons::client::ui {

// What drawing needs besides the target: fonts and the size unit (1 at a 800 px high window).
struct Style {
  const Fonts* fonts = nullptr;
  const Catalogue* tr = nullptr;  // the words (catalogue.h); set by the App
  float unit = 1;
  unsigned px(float base) const { return static_cast<unsigned>(base * unit + 0.5f); }
  float f(float base) const { return base * unit; }
};

enum class Align { Left, Center, Right };

// Characters `primary` lacks (Chinese, Japanese, Korean) are drawn and measured in `fallback`
// by draw_text, text_width and elide: mixed text such as "白方 Ann" renders whole. Set when the
// fonts are loaded, before anything is drawn; both fonts outlive every drawing.
void set_fallback_font(const sf::Font& primary, const sf::Font* fallback);

// While `log` is set (not null), every text draw_text draws is appended to it: scripted tests
// read what a screen shows. Render thread only; the caller owns the vector.
void record_drawn_texts(std::vector<std::string>* log);

// Text whose left, centre or right (by `align`) is at x and whose line is centred on y.
void draw_text(sf::RenderTarget& target, const sf::Font& font, const std::string& utf8,
               unsigned size, float x, float y, sf::Color color, Align align = Align::Left);
float text_width(const sf::Font& font, const std::string& utf8, unsigned size);
// Cuts a text with "..." so it fits `width`.
std::string elide(const sf::Font& font, const std::string& utf8, unsigned size, float width);
// The largest size from `size` down to `smallest` at which the text fits `width` (`smallest`
// when none does): longer words (German, the pseudo-locale) are drawn smaller before cut.
unsigned fitting_size(const sf::Font& font, const std::string& utf8, unsigned size,
                      unsigned smallest, float width);
// draw_text of a text made to fit `width`: down to `smallest`, then cut.
void draw_fitted(sf::RenderTarget& target, const sf::Font& font, const std::string& utf8,
                 unsigned size, unsigned smallest, float x, float y, float width, sf::Color color,
                 Align align = Align::Left);
// The lines of a paragraph that fit `width`: broken at spaces, and between any two characters of
// Chinese, Japanese or Korean (written without spaces); a word longer than a line where it fills
// the line.
std::vector<std::string> wrap(const sf::Font& font, const std::string& utf8, unsigned size,
                              float width);
void fill_rounded(sf::RenderTarget& target, Rect r, float radius, sf::Color fill,
                  sf::Color outline = sf::Color::Transparent, float thickness = 0);

class Widget {
 public:
  explicit Widget(std::string id) : id_(std::move(id)) {}
  virtual ~Widget() = default;
  const std::string& id() const { return id_; }

  Rect rect;
  bool visible = true;
  bool enabled = true;

  virtual void draw(sf::RenderTarget& target, const Style& style, bool hovered) const = 0;
  // A left press inside rect; returns true when it did something.
  virtual bool press(float x, float y) = 0;
  virtual bool focusable() const { return false; }
  virtual void set_focus(bool) {}
  // Keyboard input while focused.
  virtual bool key(const sf::Event&) { return false; }
  virtual void describe(nlohmann::json& out) const;

 private:
  std::string id_;
};

enum class ButtonStyle { Normal, Primary, Danger, Quiet };

class Button final : public Widget {
 public:
  Button(std::string id, std::string text, ButtonStyle look = ButtonStyle::Normal)
      : Widget(std::move(id)), label(std::move(text)), style(look) {}
  std::string label;
  ButtonStyle style;
  Align align = Align::Center;
  // The width that shows the whole label at its full size, padding included.
  float natural_width(const Style& s) const;
  std::function<void()> on_click;

  void draw(sf::RenderTarget& target, const Style& style, bool hovered) const override;
  bool press(float x, float y) override;
  void describe(nlohmann::json& out) const override;
};

class TextField final : public Widget {
 public:
  TextField(std::string id, std::string caption, std::size_t max_chars)
      : Widget(std::move(id)), label(std::move(caption)), max_length(max_chars) {}
  std::string label;
  std::string text;  // UTF-8
  std::size_t max_length;
  bool secret = false;  // drawn as dots (passwords); the state dump gives only its length
  std::function<void()> on_change;

  void draw(sf::RenderTarget& target, const Style& style, bool hovered) const override;
  bool press(float x, float y) override;
  bool focusable() const override { return true; }
  void set_focus(bool f) override {
    focused_ = f;
    all_selected_ = false;
  }
  bool key(const sf::Event& e) override;
  void describe(nlohmann::json& out) const override;

 private:
  bool focused_ = false;
  // Ctrl+A: the whole text selected, so that what is typed next replaces it (a prefilled name
  // or address) and Backspace clears it.
  bool all_selected_ = false;
};

// One of a list of options, stepped with the arrows at its ends (or by clicking its middle).
class Selector final : public Widget {
 public:
  Selector(std::string id, std::string caption, std::vector<std::string> choices)
      : Widget(std::move(id)), label(std::move(caption)), options(std::move(choices)) {}
  std::string label;
  std::vector<std::string> options;
  std::size_t index = 0;
  std::function<void()> on_change;

  Rect prev_rect() const;
  Rect next_rect() const;
  void step(int delta);
  void draw(sf::RenderTarget& target, const Style& style, bool hovered) const override;
  bool press(float x, float y) override;
  void describe(nlohmann::json& out) const override;
};

class Toggle final : public Widget {
 public:
  Toggle(std::string id, std::string caption) : Widget(std::move(id)), label(std::move(caption)) {}
  std::string label;
  bool value = false;
  std::function<void()> on_change;

  void draw(sf::RenderTarget& target, const Style& style, bool hovered) const override;
  bool press(float x, float y) override;
  void describe(nlohmann::json& out) const override;
};

// The widgets of one screen: hover, focus, clicks and the keyboard go through here.
class WidgetSet {
 public:
  void add(Widget& w) { items_.push_back(&w); }
  // Returns true when a widget used the event.
  bool handle(const sf::Event& e);
  void draw(sf::RenderTarget& target, const Style& style) const;
  nlohmann::json describe() const;
  // Whether the mouse is over a widget that reacts to clicks (for the cursor).
  bool hovering() const;

 private:
  Widget* at(float x, float y) const;
  std::vector<Widget*> items_;
  float mouse_x_ = -1, mouse_y_ = -1;
  Widget* focus_ = nullptr;
};

}  // namespace amazons::client::ui
