#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/variant.h"

using namespace amazons;
namespace fs = std::filesystem;

namespace {

const fs::path kRulesDir = fs::path(amazons::test::config_dir()) / "rules";

// The standard variant as JSON, with one field changed by `edit`.
std::string edited(void (*edit)(nlohmann::json&)) {
  nlohmann::json j = to_json(standard_variant());
  edit(j);
  return j.dump();
}

void check_refused(const std::string& text, const std::string& field, const std::string& problem) {
  CAPTURE(text);
  const auto v = parse_variant(text);
  REQUIRE_FALSE(v);
  CHECK(v.error().rfind(field, 0) == 0);
  CHECK(v.error().find(problem) != std::string::npos);
}

}  // namespace

TEST_CASE("the variant files in config/rules equal the built-in variants") {
  const auto standard = load_variant_file(kRulesDir / "standard.json");
  REQUIRE(standard);
  CHECK(*standard == standard_variant());
  const auto botzone = load_variant_file(kRulesDir / "botzone8.json");
  REQUIRE(botzone);
  CHECK(*botzone == botzone8_variant());
}

TEST_CASE("every variant file in config/rules is valid") {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kRulesDir)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    const auto v = load_variant_file(entry.path());
    CHECK(v);
    if (v) CHECK(v->name == entry.path().stem().string());
    ++files;
  }
  CHECK(files >= 2);
}

TEST_CASE("a variant survives a JSON round trip") {
  for (const RuleVariant& v : {standard_variant(), botzone8_variant()}) {
    const auto back = parse_variant(to_json(v).dump());
    REQUIRE(back);
    CHECK(*back == v);
  }
}

TEST_CASE("a bad rule file is refused with the field and the problem") {
  check_refused(edited([](nlohmann::json& j) { j["size"] = 14; }), "size",
                "between 6 and 12, got 14");
  check_refused(edited([](nlohmann::json& j) { j["size"] = 5; }), "size", "got 5");
  check_refused(edited([](nlohmann::json& j) { j["size"] = "10"; }), "size", "expected an integer");
  check_refused(edited([](nlohmann::json& j) { j["size"] = 10.5; }), "size", "expected an integer");
  check_refused(edited([](nlohmann::json& j) { j["white"][1] = "k1"; }), "white[1]",
                "k1 is off the 10x10 board");
  check_refused(edited([](nlohmann::json& j) { j["black"][0] = "a4"; }), "black[0]",
                "two queens on a4");
  check_refused(edited([](nlohmann::json& j) { j["white"][3] = "g1"; }), "white[3]",
                "two queens on g1");
  check_refused(edited([](nlohmann::json& j) { j["black"].erase(3); }), "white, black",
                "unequal queen counts (4 and 3)");
  check_refused(edited([](nlohmann::json& j) {
                  j["white"] = nlohmann::json::array();
                  j["black"] = nlohmann::json::array();
                }),
                "white, black", "1 to 4 queens");
  check_refused(edited([](nlohmann::json& j) { j["colour"] = "red"; }), "colour", "unknown key");
  check_refused(edited([](nlohmann::json& j) { j["white"] = "a4"; }), "white", "expected an array");
  check_refused(edited([](nlohmann::json& j) { j["white"][0] = 4; }), "white[0]",
                "expected a square");
  check_refused(edited([](nlohmann::json& j) { j["white"][0] = "a44"; }), "white[0]",
                "not a square");
  check_refused(edited([](nlohmann::json& j) { j["first"] = "red"; }), "first",
                "expected \"white\" or \"black\"");
  check_refused(edited([](nlohmann::json& j) { j["first"] = true; }), "first", "expected");
  check_refused(edited([](nlohmann::json& j) { j.erase("size"); }), "size", "missing");
  check_refused(edited([](nlohmann::json& j) { j["name"] = ""; }), "name", "must not be empty");
  check_refused(edited([](nlohmann::json& j) { j["name"] = 3; }), "name", "expected a string");
  check_refused("[1, 2]", "expected a JSON object", "got array");
  check_refused("{\"size\": ", "not valid JSON", "byte");
}

// Found by fuzz/variant_fuzz.cpp: the JSON library reports a number too large for a double as
// out_of_range, which escaped the parser and ended the program.
TEST_CASE("a rule file with a number too large for a double is refused, not a crash") {
  check_refused("{\"size\": 1e999}", "not valid JSON", "number overflow");
  check_refused("{\"name\": \"x\", \"size\": 10, \"white\": [-1e400]}", "not valid JSON",
                "number overflow");
}

TEST_CASE("variants are found by name, names are never paths") {
  CHECK(find_variant("standard", kRulesDir)->size == 10);
  CHECK(find_variant("botzone8", kRulesDir)->size == 8);
  CHECK(find_variant("standard", "/nonexistent")->name == "standard");  // built in
  CHECK_FALSE(find_variant("nosuch", kRulesDir));
  CHECK(find_variant("../etc/passwd", kRulesDir).error().find("not a variant name") !=
        std::string::npos);
  CHECK_FALSE(find_variant("", kRulesDir));
}

TEST_CASE("a variant given on a command line may be a file path") {
  const fs::path dir = fs::temp_directory_path() / "amazons-variant-test";
  fs::create_directories(dir);
  const fs::path file = dir / "tiny.json";
  std::ofstream(file)
      << R"({"name":"tiny","size":6,"white":["a1"],"black":["f6"],"first":"black"})";
  const auto v = resolve_variant(file.string(), kRulesDir);
  REQUIRE(v);
  CHECK(v->size == 6);
  CHECK(v->first_to_move == Color::Black);
  const auto missing = resolve_variant((dir / "missing.json").string(), kRulesDir);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("cannot open") != std::string::npos);
  fs::remove_all(dir);
}
