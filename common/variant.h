// Rule variants: board size, where each side's queens start, and who moves first.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"
#include "common/types.h"

namespace amazons {

struct RuleVariant {
  std::string name;
  std::string description;
  int size = 10;
  std::vector<Square> white_queens;
  std::vector<Square> black_queens;
  Color first_to_move = Color::White;

  const std::vector<Square>& queens(Color c) const {
    return c == Color::White ? white_queens : black_queens;
  }
  friend bool operator==(const RuleVariant&, const RuleVariant&) = default;
};

// The two variants every build knows without reading a file. config/rules/ holds the same
// definitions as JSON (a test keeps them identical).
RuleVariant standard_variant();  // 10x10, White a4 d1 g1 j4, Black a7 d10 g10 j7, White first
RuleVariant botzone8_variant();  // 8x8, Black a6 c8 f8 h6 moves first, White a3 c1 f1 h3

// Checks the invariants a variant must hold; the message names the field and the problem.
Expected<RuleVariant, std::string> validate(RuleVariant v);

// Reads a variant from JSON: {"name", "description"?, "size", "white", "black", "first"}.
// Every problem (syntax, unknown key, wrong type, bad value) is reported as "field: problem".
Expected<RuleVariant, std::string> variant_from_json(const nlohmann::json& j);
Expected<RuleVariant, std::string> parse_variant(std::string_view json_text);
Expected<RuleVariant, std::string> load_variant_file(const std::filesystem::path& path);

nlohmann::json to_json(const RuleVariant& v);

// Finds a variant by name: `<dir>/<name>.json` in rules_dir, else a built-in one.
// A name may only contain letters, digits, '-' and '_' (it is never treated as a path).
Expected<RuleVariant, std::string> find_variant(std::string_view name,
                                                const std::filesystem::path& rules_dir);

// A variant given on a command line: a known name, or a path to a JSON file.
Expected<RuleVariant, std::string> resolve_variant(std::string_view name_or_path,
                                                   const std::filesystem::path& rules_dir);

}  // namespace amazons
