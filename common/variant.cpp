#include "common/variant.h"

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/notation.h"

namespace amazons {

namespace {

std::vector<Square> squares(std::initializer_list<const char*> names) {
  std::vector<Square> out;
  for (const char* n : names) out.push_back(*parse_square(n));
  return out;
}

std::string type_name(const nlohmann::json& j) { return j.type_name(); }

Expected<std::vector<Square>, std::string> read_queens(const nlohmann::json& j,
                                                       const std::string& field) {
  if (!j.is_array())
    return Unexpected(field + ": expected an array of squares, got " + type_name(j));
  std::vector<Square> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string where = field + "[" + std::to_string(i) + "]";
    if (!j[i].is_string())
      return Unexpected(where + ": expected a square such as \"d1\", got " + type_name(j[i]));
    auto sq = parse_square(j[i].get<std::string>());
    if (!sq) return Unexpected(where + ": not a square (" + sq.error().message() + ")");
    out.push_back(*sq);
  }
  return out;
}

}  // namespace

RuleVariant standard_variant() {
  return RuleVariant{"standard",
                     "The standard game: 10x10, four queens each, White moves first.",
                     10,
                     squares({"a4", "d1", "g1", "j4"}),
                     squares({"a7", "d10", "g10", "j7"}),
                     Color::White};
}

RuleVariant botzone8_variant() {
  return RuleVariant{"botzone8",
                     "8x8 as played on the Botzone platform: Black moves first.",
                     8,
                     squares({"a3", "c1", "f1", "h3"}),
                     squares({"a6", "c8", "f8", "h6"}),
                     Color::Black};
}

Expected<RuleVariant, std::string> validate(RuleVariant v) {
  if (v.name.empty()) return Unexpected(std::string("name: must not be empty"));
  if (v.size < kMinBoardSize || v.size > kMaxBoardSize)
    return Unexpected("size: must be between " + std::to_string(kMinBoardSize) + " and " +
                      std::to_string(kMaxBoardSize) + ", got " + std::to_string(v.size));
  if (v.white_queens.size() != v.black_queens.size())
    return Unexpected("white, black: unequal queen counts (" +
                      std::to_string(v.white_queens.size()) + " and " +
                      std::to_string(v.black_queens.size()) + ")");
  if (v.white_queens.empty() || v.white_queens.size() > static_cast<std::size_t>(kMaxQueensPerSide))
    return Unexpected("white, black: each side needs 1 to " + std::to_string(kMaxQueensPerSide) +
                      " queens, got " + std::to_string(v.white_queens.size()));
  std::set<int> seen;
  for (Color c : {Color::White, Color::Black}) {
    const auto& qs = v.queens(c);
    for (std::size_t i = 0; i < qs.size(); ++i) {
      const std::string where = std::string(color_name(c)) + "[" + std::to_string(i) + "]";
      if (!qs[i].on_board(v.size))
        return Unexpected(where + ": " + to_string(qs[i]) + " is off the " +
                          std::to_string(v.size) + "x" + std::to_string(v.size) + " board");
      if (!seen.insert(qs[i].index()).second)
        return Unexpected(where + ": two queens on " + to_string(qs[i]));
    }
  }
  return v;
}

Expected<RuleVariant, std::string> variant_from_json(const nlohmann::json& j) {
  if (!j.is_object())
    return Unexpected("expected a JSON object describing a rule variant, got " + type_name(j));
  static const std::set<std::string> kKeys = {"name",  "description", "size",
                                              "white", "black",       "first"};
  for (const auto& [key, value] : j.items())
    if (!kKeys.count(key))
      return Unexpected(key +
                        ": unknown key (expected name, description, size, white, black, first)");
  for (const char* required : {"name", "size", "white", "black", "first"})
    if (!j.contains(required)) return Unexpected(std::string(required) + ": missing");

  RuleVariant v;
  if (!j["name"].is_string())
    return Unexpected("name: expected a string, got " + type_name(j["name"]));
  v.name = j["name"].get<std::string>();
  if (j.contains("description")) {
    if (!j["description"].is_string())
      return Unexpected("description: expected a string, got " + type_name(j["description"]));
    v.description = j["description"].get<std::string>();
  }
  if (!j["size"].is_number_integer())
    return Unexpected("size: expected an integer, got " + type_name(j["size"]));
  const auto size = j["size"].get<long long>();
  if (size < kMinBoardSize || size > kMaxBoardSize)
    return Unexpected("size: must be between " + std::to_string(kMinBoardSize) + " and " +
                      std::to_string(kMaxBoardSize) + ", got " + std::to_string(size));
  v.size = static_cast<int>(size);
  auto white = read_queens(j["white"], "white");
  if (!white) return Unexpected(white.error());
  auto black = read_queens(j["black"], "black");
  if (!black) return Unexpected(black.error());
  v.white_queens = std::move(*white);
  v.black_queens = std::move(*black);
  const auto& first = j["first"];
  if (!first.is_string())
    return Unexpected("first: expected \"white\" or \"black\", got " + type_name(first));
  if (first == "white") {
    v.first_to_move = Color::White;
  } else if (first == "black") {
    v.first_to_move = Color::Black;
  } else {
    return Unexpected("first: expected \"white\" or \"black\", got \"" + first.get<std::string>() +
                      "\"");
  }
  return validate(std::move(v));
}

Expected<RuleVariant, std::string> parse_variant(std::string_view json_text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    return Unexpected("not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double (1e999) is an out_of_range error, not a parse_error.
    return Unexpected(std::string("not valid JSON: ") + e.what());
  }
  return variant_from_json(j);
}

Expected<RuleVariant, std::string> load_variant_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Unexpected(path.string() + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  auto v = parse_variant(text.str());
  if (!v) return Unexpected(path.string() + ": " + v.error());
  return v;
}

nlohmann::json to_json(const RuleVariant& v) {
  nlohmann::json j;
  j["name"] = v.name;
  if (!v.description.empty()) j["description"] = v.description;
  j["size"] = v.size;
  for (Color c : {Color::White, Color::Black}) {
    auto& arr = j[std::string(color_name(c))] = nlohmann::json::array();
    for (Square s : v.queens(c)) arr.push_back(to_string(s));
  }
  j["first"] = std::string(color_name(v.first_to_move));
  return j;
}

Expected<RuleVariant, std::string> find_variant(std::string_view name,
                                                const std::filesystem::path& rules_dir) {
  const bool plain = !name.empty() && name.size() <= 64 &&
                     name.find_first_not_of(
                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789-_") == std::string_view::npos;
  if (!plain)
    return Unexpected("rules: \"" + std::string(name) +
                      "\" is not a variant name (letters, digits, '-' and '_' only)");
  const auto file = rules_dir / (std::string(name) + ".json");
  std::error_code ec;
  if (std::filesystem::is_regular_file(file, ec)) return load_variant_file(file);
  if (name == "standard") return standard_variant();
  if (name == "botzone8") return botzone8_variant();
  return Unexpected("rules: no variant named \"" + std::string(name) + "\" in " +
                    rules_dir.string());
}

Expected<RuleVariant, std::string> resolve_variant(std::string_view name_or_path,
                                                   const std::filesystem::path& rules_dir) {
  const bool looks_like_path =
      name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".json");
  if (looks_like_path) return load_variant_file(std::filesystem::path(name_or_path));
  return find_variant(name_or_path, rules_dir);
}

}  // namespace amazons
