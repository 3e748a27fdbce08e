// The syntax of SGF (FF[4], red-bean.com/sgf/sgf4.html): game trees of nodes of properties,
// read without knowing which game they describe. Only the main line is kept: at every fork the
// first variation, as SGF viewers show a game by default.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/expected.h"

namespace amazons::formats {

struct SgfProperty {
  std::string id;                   // upper-case letters, e.g. "B", "SZ"
  std::vector<std::string> values;  // unescaped; at least one
  std::size_t line = 0;             // where the identifier starts (1-based)
};

struct SgfNode {
  std::vector<SgfProperty> properties;
  const SgfProperty* find(std::string_view id) const;
};

// The nodes of the main line, root first. The text must hold exactly one game tree, with
// nothing but white space around it. Errors name the line and what was expected there, e.g.
// "line 3: property C: the value has no closing ']'".
Expected<std::vector<SgfNode>, std::string> parse_sgf_main_line(std::string_view text);

// A value with the characters SGF escapes ('\\', ']', and ':' in composed values) escaped.
std::string sgf_escape(std::string_view value);

}  // namespace amazons::formats
