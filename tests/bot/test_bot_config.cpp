#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "bot/bot.h"
#include "bot/command_line.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::bot;
using amazons::test::TempDir;

namespace {

const std::filesystem::path kConfigDir = AMAZONS_CONFIG_DIR;

// Parses flags with `file` (JSON text) as the settings file.
Expected<CommandLine, std::string> parse(const TempDir& dir, const std::string& file,
                                         std::vector<std::string> flags) {
  const auto path = dir.path() / "bot.json";
  std::ofstream(path) << file;
  flags.insert(flags.begin(), {"--config", path.string()});
  return parse_command_line(flags, kConfigDir);
}

std::string error_of(const Expected<CommandLine, std::string>& r) {
  REQUIRE_MESSAGE(!r.has_value(), "expected an error");
  return r.error();
}

}  // namespace

TEST_CASE("bot config: server addresses") {
  CHECK(*parse_server_address("example.org:7000") ==
        std::pair<std::string, unsigned short>{"example.org", 7000});
  CHECK(*parse_server_address("example.org") ==
        std::pair<std::string, unsigned short>{"example.org", 7420});
  CHECK(*parse_server_address("[::1]:7421") == std::pair<std::string, unsigned short>{"::1", 7421});
  CHECK(*parse_server_address("[::1]") == std::pair<std::string, unsigned short>{"::1", 7420});
  CHECK(parse_server_address("::1:7420").error().find("in brackets") != std::string::npos);
  CHECK(parse_server_address("host:0").error().find("from 1 to 65535") != std::string::npos);
  CHECK(parse_server_address("host:99999").error().find("from 1 to 65535") != std::string::npos);
  CHECK(parse_server_address("host:").error().find("from 1 to 65535") != std::string::npos);
  CHECK(parse_server_address(":7420").error().find("host is missing") != std::string::npos);
  CHECK(parse_server_address("[::1").error().find("closing ']'") != std::string::npos);
}

TEST_CASE("bot config: the shipped config/bot.json is valid and the default without flags") {
  const auto r = parse_command_line({}, kConfigDir);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
  CHECK(r->config.name == "amazons-bot");
  CHECK(r->config.port == 7420);
  CHECK_FALSE(r->config.engine);
  CHECK(r->config.level == "medium");
  CHECK(r->config.join_open);
  CHECK(r->config.accept_challenges);
  CHECK_FALSE(r->config.seek);
  CHECK(r->config.ai_config == kConfigDir / "ai.json");
}

TEST_CASE("bot config: flags override the file") {
  TempDir dir;
  const std::string file =
      R"({"server":"10.0.0.1:9000","name":"from-file","max_games":3,"level":"easy",
          "accept":{"rated":"rated","min_seconds":60},"seek":{"rules":"standard","time":{"initial":300,"increment":5}}})";
  const auto from_file = parse(dir, file, {});
  REQUIRE(from_file);
  CHECK(from_file->config.host == "10.0.0.1");
  CHECK(from_file->config.port == 9000);
  CHECK(from_file->config.name == "from-file");
  CHECK(from_file->config.max_games == 3);
  CHECK(from_file->config.accept.rated == RatedFilter::Rated);
  CHECK(from_file->config.seek->time == TimeControl::fischer(Millis{300'000}, Millis{5000}));

  const auto flags =
      parse(dir, file,
            {"--server", "127.0.0.1:7001", "--name", "from-flags", "--engine", "my-engine --fast",
             "--accept-rated", "any", "--seek", "30/move", "--rated", "--lag-margin", "150"});
  REQUIRE_MESSAGE(flags, (flags ? "" : flags.error()));
  CHECK(flags->config.port == 7001);
  CHECK(flags->config.name == "from-flags");
  CHECK(flags->config.max_games == 3);  // from the file still
  CHECK(flags->config.engine == "my-engine --fast");
  CHECK(flags->config.accept.rated == RatedFilter::Any);
  CHECK(flags->config.accept.min_seconds == 60);
  CHECK(flags->config.seek->time == TimeControl::fixed_per_move(Millis{30'000}));
  CHECK(flags->config.seek->rated);
  CHECK(flags->config.lag_margin == Millis{150});

  // --level overrides an engine named in the file.
  const auto level = parse(dir, R"({"engine":"x"})", {"--level", "hard"});
  REQUIRE(level);
  CHECK_FALSE(level->config.engine);
  CHECK(level->config.level == "hard");
}

TEST_CASE("bot config: bad settings get clear errors") {
  TempDir dir;
  CHECK(error_of(parse(dir, R"({"max_game":2})", {})).find("max_game: unknown setting") !=
        std::string::npos);
  CHECK(error_of(parse(dir, R"({"max_games":"two"})", {})) ==
        std::string((dir.path() / "bot.json").string()) +
            ": max_games: expected a whole number from 1 to 64, got \"two\"");
  CHECK(error_of(parse(dir, R"({"accept":{"rated":"sometimes"}})", {}))
            .find("accept.rated: expected \"any\", \"rated\" or \"casual\"") != std::string::npos);
  CHECK(error_of(parse(dir, R"({"protocol":"uci"})", {})).find("protocol: expected") !=
        std::string::npos);
  CHECK(error_of(parse(dir, R"({"seek":{"time":{"initial":-1}}})", {})).find("seek.time") !=
        std::string::npos);
  CHECK(error_of(parse(dir, R"({"server":"a:b:c"})", {})).find("server \"a:b:c\"") !=
        std::string::npos);
  CHECK(error_of(parse(dir, "{nope", {})).find("not valid JSON") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--level", "easy", "--engine", "x"})) ==
        "--level and --engine: choose one of them");
  CHECK(error_of(parse(dir, "{}", {"--protocol", "botzone"})).find("--engine") !=
        std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--max-games", "0"})).find("--max-games") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--seek", "fast"})).find("--seek: ") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--rated"})).find("--seek") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--frobnicate"})).find("frobnicate") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--name", ""})).find("name:") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--min-time", "60", "--max-time", "30"}))
            .find("accept.max_seconds") != std::string::npos);
  CHECK(error_of(parse(dir, "{}",
                       {"--rules", "standard", "--seek", "60+0", "--engine", "x", "--protocol",
                        "botzone"}))
            .find("plays only the botzone8 variant") != std::string::npos);
  CHECK(
      error_of(parse_command_line({"--config", (dir.path() / "missing.json").string()}, kConfigDir))
          .find("cannot read") != std::string::npos);

  Log quiet(stderr, Log::Level::Error);
  BotConfig c;
  c.level = "grandmaster";
  c.ai_config = kConfigDir / "ai.json";
  const auto bot = Bot::create(c, quiet);
  REQUIRE_FALSE(bot);
  CHECK(bot.error() ==
        "level: no level named \"grandmaster\" (known: beginner, easy, medium, hard, max)");
}

TEST_CASE("bot config: a Botzone program is given the botzone8 variant to play and seek") {
  TempDir dir;
  const auto r = parse(dir, "{}", {"--engine", "bot", "--protocol", "botzone", "--seek", "60+1"});
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->config.accept.rules == std::vector<std::string>{"botzone8"});
  CHECK(r->config.seek->rules == "botzone8");
}

TEST_CASE("bot config: the filter says why a game does not fit") {
  GameFilter f;
  const protocol::PlayerRef human{"alice", 1500, false}, bot{"robo", 1500, true};
  const auto blitz = TimeControl::fischer(Millis{60'000}, Millis{0});
  CHECK_FALSE(refusal(f, "standard", {}, false, human));
  CHECK_FALSE(refusal(f, "standard", blitz, true, bot));

  f.rules = {"botzone8"};
  CHECK(refusal(f, "standard", {}, false, human) == "plays only botzone8, not standard");
  f.rules.clear();
  f.unlimited = false;
  CHECK(refusal(f, "standard", {}, false, human) == "plays only games with a clock");
  f.min_seconds = 120;
  CHECK(refusal(f, "standard", blitz, false, human) ==
        "time control 60+0 (about 60 s a side) is faster than the minimum 120 s");
  // 60 s + 40 x 2 s = 140 s: long enough.
  CHECK_FALSE(
      refusal(f, "standard", TimeControl::fischer(Millis{60'000}, Millis{2000}), false, human));
  f.max_seconds = 600;
  CHECK(refusal(f, "standard", TimeControl::fixed_per_move(Millis{30'000}), false, human) ==
        "time control 30/move (about 1200 s a side) is slower than the maximum 600 s");
  f = GameFilter{};
  f.rated = RatedFilter::Rated;
  CHECK(refusal(f, "standard", {}, false, human) == "plays only rated games");
  f.rated = RatedFilter::Casual;
  CHECK(refusal(f, "standard", {}, true, human) == "plays only casual games");
  f = GameFilter{};
  f.bots = false;
  CHECK(refusal(f, "standard", {}, false, bot) == "does not play other bots");
  CHECK_FALSE(refusal(f, "standard", {}, false, human));
}

TEST_CASE("bot config: --ponder and \"ponder\" turn pondering on, for the built-in engine only") {
  const auto off = parse_command_line({}, kConfigDir);
  REQUIRE(off);
  CHECK_FALSE(off->config.ponder);
  const auto on = parse_command_line({"--ponder"}, kConfigDir);
  REQUIRE(on);
  CHECK(on->config.ponder);
  TempDir dir;
  const auto from_file = parse(dir, R"({"ponder": true})", {});
  REQUIRE(from_file);
  CHECK(from_file->config.ponder);
  const auto bad = parse(dir, R"({"ponder": "yes"})", {});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("ponder") != std::string::npos);
  const auto engine = parse_command_line({"--ponder", "--engine", "./my-engine"}, kConfigDir);
  REQUIRE_FALSE(engine);
  CHECK(engine.error() ==
        "ponder: only the built-in engine (level) ponders, not an engine program");
}
