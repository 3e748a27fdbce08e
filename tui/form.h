// A form of fields one below the other: choices (Left/Right), text (typed) and buttons
// (Enter). Up/Down or Tab move between them. Pure; drawn into a Canvas.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tui/app.h"
#include "tui/canvas.h"

namespace amazons::tui {

struct Field {
  enum class Kind : std::uint8_t { Choice, Text, Secret, Button };
  Kind kind = Kind::Button;
  std::string label;
  std::vector<std::string> options;  // Choice
  std::size_t index = 0;             // Choice
  std::string text;                  // Text, Secret
  std::size_t max_length = 64;       // Text, Secret
  std::function<void()> on_press;    // Button (Enter on any field presses the first button)

  static Field choice(std::string label, std::vector<std::string> options = {}) {
    Field f;
    f.kind = Kind::Choice;
    f.label = std::move(label);
    f.options = std::move(options);
    return f;
  }
  static Field input(std::string label, std::string text, std::size_t max_length,
                     bool secret = false) {
    Field f;
    f.kind = secret ? Kind::Secret : Kind::Text;
    f.label = std::move(label);
    f.text = std::move(text);
    f.max_length = max_length;
    return f;
  }
  static Field button(std::string label, std::function<void()> on_press) {
    Field f;
    f.label = std::move(label);
    f.on_press = std::move(on_press);
    return f;
  }
};

class Form {
 public:
  // Returns the field's index.
  std::size_t add(Field f);
  Field& operator[](std::size_t i) { return fields_[i]; }
  const Field& operator[](std::size_t i) const { return fields_[i]; }
  std::size_t focus() const { return focus_; }
  void set_focus(std::size_t i) { focus_ = i < fields_.size() ? i : focus_; }

  // True when the key was used.
  bool key(const Key& k);
  // Draws the fields from row y, labels in a column as wide as the widest label (in display
  // columns); returns the next row.
  int draw(Canvas& c, int x, int y) const;

 private:
  std::vector<Field> fields_;
  std::size_t focus_ = 0;
};

}  // namespace amazons::tui
