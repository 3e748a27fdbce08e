#include "tui/form.h"

#include <algorithm>

namespace amazons::tui {

std::size_t Form::add(Field f) {
  fields_.push_back(std::move(f));
  return fields_.size() - 1;
}

bool Form::key(const Key& k) {
  if (fields_.empty()) return false;
  Field& f = fields_[focus_];
  using C = Key::Code;
  switch (k.code) {
    case C::Up:
    case C::BackTab:
      focus_ = (focus_ + fields_.size() - 1) % fields_.size();
      return true;
    case C::Down:
    case C::Tab:
      focus_ = (focus_ + 1) % fields_.size();
      return true;
    case C::Left:
    case C::Right:
      if (f.kind != Field::Kind::Choice || f.options.empty()) return false;
      f.index = (f.index + (k.code == C::Right ? 1 : f.options.size() - 1)) % f.options.size();
      return true;
    case C::Backspace:
      if (f.kind != Field::Kind::Text && f.kind != Field::Kind::Secret) return false;
      if (!f.text.empty()) {
        // Drop the whole last UTF-8 character.
        std::size_t n = f.text.size() - 1;
        while (n > 0 && (static_cast<unsigned char>(f.text[n]) & 0xC0) == 0x80) --n;
        f.text.resize(n);
      }
      return true;
    case C::Char:
      if (f.kind != Field::Kind::Text && f.kind != Field::Kind::Secret) return false;
      if (k.ch >= 0x20 && k.ch != 0x7F &&
          static_cast<std::size_t>(text_width(f.text)) < f.max_length)
        f.text += encode_utf8(k.ch);
      return true;
    case C::Enter:
      if (f.kind == Field::Kind::Button) {
        if (f.on_press) f.on_press();
        return true;
      }
      for (Field& b : fields_)
        if (b.kind == Field::Kind::Button && b.on_press) {
          b.on_press();
          return true;
        }
      return false;
    default:
      return false;
  }
}

int Form::draw(Canvas& c, int x, int y) const {
  int label_w = 0;
  for (const Field& f : fields_)
    if (f.kind != Field::Kind::Button) label_w = std::max(label_w, text_width(f.label));
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    const bool focused = i == focus_;
    const Paint label{focused ? Ink::Accent : Ink::Muted, Ink::Default, focused};
    c.text(x, y, focused ? ">" : " ", label);
    if (f.kind == Field::Kind::Button) {
      c.text(x + 2, y, "[ " + f.label + " ]",
             {focused ? Ink::Accent : Ink::Text, Ink::Default, focused, focused});
      y += 1;
      continue;
    }
    c.text(x + 2, y, f.label, label, label_w);
    const int vx = x + 2 + label_w + 1;
    const Paint value{Ink::Text, Ink::Default, focused};
    if (f.kind == Field::Kind::Choice) {
      const std::string shown = f.options.empty() ? "" : f.options[f.index];
      c.text(vx, y, "< " + shown + " >", value);
    } else {
      const std::string shown = f.kind == Field::Kind::Secret
                                    ? std::string(static_cast<std::size_t>(text_width(f.text)), '*')
                                    : f.text;
      int end = c.text(vx, y, shown, value);
      if (focused) c.put(end, y, U'_', {Ink::Accent, Ink::Default, true});
    }
    y += 1;
  }
  return y;
}

}  // namespace amazons::tui
