#include "formats/sgf_tree.h"

namespace amazons::formats {

const SgfProperty* SgfNode::find(std::string_view id) const {
  for (const auto& p : properties)
    if (p.id == id) return &p;
  return nullptr;
}

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Expected<std::vector<SgfNode>, std::string> run() {
    if (text_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark
    skip_space();
    if (at_end()) return fail("the file is empty: expected an SGF game tree '(;'");
    if (peek() != '(') return fail("expected '(' to start an SGF game tree");
    // One entry per open game tree: whether it is on the main line, and whether it already
    // holds a sub-tree (after which no more nodes may follow in it).
    struct Open {
      bool main;
      bool has_child;
    };
    std::vector<Open> open;
    std::vector<SgfNode> main_line;
    int trees = 0;
    while (true) {
      skip_space();
      if (at_end()) {
        if (!open.empty()) return fail("the game tree is not closed: expected ')'");
        break;
      }
      const char c = peek();
      if (c == '(') {
        if (open.empty() && trees > 0)
          return fail("the file holds more than one game; convert one at a time");
        bool main = open.empty();
        if (!open.empty()) {
          main = open.back().main && !open.back().has_child;
          open.back().has_child = true;
        }
        ++pos_;
        skip_space();
        if (at_end() || peek() != ';')
          return fail("expected ';' to start the first node of a game tree");
        open.push_back({main, false});
      } else if (c == ')') {
        if (open.empty()) return fail("')' without a matching '('");
        ++pos_;
        open.pop_back();
        if (open.empty()) ++trees;
      } else if (c == ';') {
        if (open.empty()) return fail("expected '(' to start an SGF game tree");
        if (open.back().has_child) return fail("a node after a variation: expected '(' or ')'");
        ++pos_;
        auto node = read_node();
        if (!node) return Unexpected(node.error());
        if (open.back().main) main_line.push_back(std::move(*node));
      } else {
        if (open.empty()) return fail("unexpected text after the game tree");
        return fail(std::string("unexpected character '") + printable(c) +
                    "': expected ';', '(' or ')'");
      }
    }
    return main_line;
  }

 private:
  Expected<SgfNode, std::string> read_node() {
    SgfNode node;
    while (true) {
      skip_space();
      if (at_end() || !(is_upper(peek()) || is_lower(peek()))) return node;
      SgfProperty prop;
      prop.line = line_;
      // FF[3] allowed lower-case letters inside identifiers ("GaMe" for GM); they are dropped.
      while (!at_end() && (is_upper(peek()) || is_lower(peek()))) {
        if (is_upper(peek())) prop.id += peek();
        ++pos_;
        if (prop.id.size() > kMaxIdentifier) return fail("a property identifier is too long");
      }
      if (prop.id.empty()) return fail("a property identifier needs an upper-case letter");
      skip_space();
      while (!at_end() && peek() == '[') {
        ++pos_;
        std::string value;
        const std::size_t start_line = line_;
        while (true) {
          if (at_end())
            return Unexpected("line " + std::to_string(start_line) + ": property " + prop.id +
                              ": the value has no closing ']'");
          char ch = text_[pos_++];
          if (ch == '\n') ++line_;
          if (ch == ']') break;
          if (ch == '\\') {
            if (at_end()) continue;
            ch = text_[pos_++];
            if (ch == '\n') {
              ++line_;
              continue;  // a soft line break
            }
            if (ch == '\r') {
              if (!at_end() && peek() == '\n') {
                ++pos_;
                ++line_;
              }
              continue;
            }
          }
          value += ch;
        }
        prop.values.push_back(std::move(value));
        skip_space();
      }
      if (prop.values.empty()) return fail("property " + prop.id + ": expected a value in '[' ']'");
      node.properties.push_back(std::move(prop));
    }
  }

  static constexpr std::size_t kMaxIdentifier = 8;

  static char printable(char c) { return c >= 32 && c < 127 ? c : '?'; }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!at_end() && is_space(peek())) {
      if (peek() == '\n') ++line_;
      ++pos_;
    }
  }
  Unexpected<std::string> fail(const std::string& what) const {
    return Unexpected("line " + std::to_string(line_) + ": " + what);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

Expected<std::vector<SgfNode>, std::string> parse_sgf_main_line(std::string_view text) {
  return Reader(text).run();
}

std::string sgf_escape(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == ']' || c == ':') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace amazons::formats
