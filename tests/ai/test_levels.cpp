#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ai/levels.h"

using namespace amazons;
using namespace amazons::ai;

TEST_CASE("config/ai.json holds the built-in levels") {
  auto loaded = load_ai_config(std::filesystem::path(amazons::test::config_dir()) / "ai.json");
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error()));
  CHECK(*loaded == builtin_ai_config());
  for (std::size_t i = 0; i < std::size(kStandardLevels); ++i)
    CHECK(loaded->levels[i].name == kStandardLevels[i]);
}

TEST_CASE("the config survives a round trip through JSON") {
  const AiConfig c = builtin_ai_config();
  auto back = ai_config_from_json(to_json(c));
  REQUIRE(back);
  CHECK(*back == c);
}

TEST_CASE("a bad config file gets an error that names the field") {
  struct Case {
    const char* json;
    const char* expected;
  };
  const Case cases[] = {
      {"{", "not valid JSON"},
      {"[]", "expected an object"},
      {R"({"levels": {}})", "levels: missing the standard level \"beginner\""},
      {R"({"default_level": "medium"})", "levels: missing"},
      {R"({"levels": 3})", "levels: expected an object"},
      {R"({"colour": 1})", "colour: unknown key"},
      {R"({"threads": -1})", "threads: must be between 0 and 256"},
      {R"({"hash_mb": "lots"})", "hash_mb: expected a whole number"},
      // A number too large for a double used to escape as an exception and end the engine.
      {R"({"threads": 1e999})", "not valid JSON"},
  };
  for (const Case& c : cases) {
    auto r = parse_ai_config(c.json);
    REQUIRE_FALSE(r);
    CAPTURE(std::string(c.json));
    CAPTURE(r.error());
    CHECK(r.error().find(c.expected) != std::string::npos);
  }

  nlohmann::json good = to_json(builtin_ai_config());
  auto broken = [&](const char* level, const char* key, nlohmann::json value) {
    nlohmann::json j = good;
    j["levels"][level][key] = value;
    auto r = ai_config_from_json(j);
    REQUIRE_FALSE(r);
    return r.error();
  };
  CHECK(broken("hard", "movetime", "fast").find("levels.hard.movetime: expected a number") == 0);
  CHECK(broken("hard", "movetime", 0).find("levels.hard.movetime: must be more than 0") == 0);
  CHECK(broken("easy", "depth", 0).find("levels.easy.depth: must be between 1 and 100") == 0);
  CHECK(broken("easy", "width", 9).find("levels.easy.width: must be") == 0);
  CHECK(broken("easy", "noise", 1.5).find("levels.easy.noise: expected a whole number") == 0);
  CHECK(broken("max", "speed", 1).find("levels.max.speed: unknown key") == 0);
  CHECK(broken("hard", "search", "minimax") ==
        "levels.hard.search: expected \"alphabeta\", \"mcts\" or \"auto\", got \"minimax\"");
  CHECK(broken("hard", "search", 1).find("levels.hard.search: expected") == 0);

  nlohmann::json no_limit = good;
  no_limit["levels"]["medium"] = {{"description", "thinks forever"}};
  auto r = ai_config_from_json(no_limit);
  REQUIRE_FALSE(r);
  CHECK(r.error() == "levels.medium: needs a limit: movetime, clock, depth or nodes");

  nlohmann::json bad_default = good;
  bad_default["default_level"] = "grandmaster";
  auto d = ai_config_from_json(bad_default);
  REQUIRE_FALSE(d);
  CHECK(d.error() == "default_level: no level named \"grandmaster\"");
}

TEST_CASE("a missing file is reported with its path") {
  auto r = load_ai_config("/nonexistent/ai.json");
  REQUIRE_FALSE(r);
  CHECK(r.error() == "/nonexistent/ai.json: cannot be read");
}

TEST_CASE("extra levels are kept after the standard ones") {
  nlohmann::json j = to_json(builtin_ai_config());
  j["levels"]["blitz"] = {{"movetime", 0.02}};
  auto c = ai_config_from_json(j);
  REQUIRE(c);
  REQUIRE(c->levels.size() == 6);
  CHECK(c->levels[5].name == "blitz");
  CHECK(c->find("blitz")->movetime == Millis{20});
}

TEST_CASE("a level's limits are tightened by the game clock") {
  const AiConfig config = builtin_ai_config();
  const Level& hard = *config.find("hard");
  const Level& max = *config.find("max");

  SearchLimits none = limits_for(hard, nullptr, Color::White);
  CHECK(none.movetime == Millis{1000});
  CHECK_FALSE(none.time_left);

  ClockState per_move{TimeControl::fixed_per_move(Millis{300}), {}};
  CHECK(limits_for(hard, &per_move, Color::White).movetime == Millis{300});

  ClockState fischer{TimeControl::fischer(Millis{60000}, Millis{2000}),
                     {Millis{5000}, Millis{7000}}};
  const SearchLimits f = limits_for(hard, &fischer, Color::Black);
  CHECK(f.movetime == Millis{1000});
  CHECK(f.time_left == Millis{7000});
  CHECK(f.increment == Millis{2000});
  // max spends the clock and does not cap itself at its movetime
  const SearchLimits m = limits_for(max, &fischer, Color::White);
  CHECK_FALSE(m.movetime);
  CHECK(m.time_left == Millis{5000});

  const SearchSettings beginner = settings_for(*config.find("beginner"), config);
  CHECK(beginner.eval.noise > 0);
  CHECK(beginner.selectivity.scale < 1.0);
  CHECK(settings_for(hard, config).eval.noise == 0);
}

TEST_CASE("a level's search kind is read from the config and reaches its search settings") {
  const AiConfig builtin = builtin_ai_config();
  // The full-strength levels pick the search by the board; the weak ones keep alpha-beta, whose
  // depth limits their strength was measured with (bench/level_matches.sh).
  CHECK(builtin.find("hard")->search == SearchKind::Auto);
  CHECK(builtin.find("max")->search == SearchKind::Auto);
  CHECK(builtin.find("medium")->search == SearchKind::AlphaBeta);
  for (const char* kind : {"alphabeta", "mcts", "auto"}) {
    nlohmann::json j = to_json(builtin);
    j["levels"]["medium"]["search"] = kind;
    auto c = ai_config_from_json(j);
    REQUIRE(c);
    const Level& medium = *c->find("medium");
    CHECK(to_string(medium.search) == kind);
    CHECK(settings_for(medium, *c).kind == medium.search);
    auto back = ai_config_from_json(to_json(*c));
    REQUIRE(back);
    CHECK(*back == *c);
  }
}
