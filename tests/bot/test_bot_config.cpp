#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <cstdlib>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

#include "bot/bot.h"
#include "bot/command_line.h"
#include "bot/known_servers.h"
#include "tests/client/catalogues.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::bot;
using amazons::test::TempDir;

namespace {

const std::filesystem::path kConfigDir = amazons::test::config_dir();

// Parses flags with `file` (JSON text) as the settings file.
Expected<CommandLine, std::string> parse(const TempDir& dir, const std::string& file,
                                         std::vector<std::string> flags) {
  const auto path = dir.path() / "bot.json";
  std::ofstream(path) << file;
  flags.insert(flags.begin(), {"--config", path.string()});
  return parse_command_line(flags, kConfigDir, test::english());
}

std::string error_of(const Expected<CommandLine, std::string>& r) {
  REQUIRE_MESSAGE(!r.has_value(), "expected an error");
  return r.error();
}

}  // namespace

TEST_CASE("bot config: tls:// servers, a pinned fingerprint and the known-servers file") {
  TempDir dir;
  const std::string fp =
      "9F:99:2A:92:3B:58:2E:79:B2:23:4A:FA:45:EF:D7:73:EF:D6:6A:94:A8:87:0D:48:F2:85:26:5E:9D:74:"
      "1C:4B";
  auto plain = parse(dir, "{}", {"--server", "example.org:7000"});
  REQUIRE(plain);
  CHECK(plain->config.host == "example.org");
  CHECK(plain->config.port == 7000);
  CHECK_FALSE(plain->config.tls);
  auto secure = parse(dir, "{}",
                      {"--server", "tls://[::1]:7421", "--tls-fingerprint",
                       "9f992a923b582e79b2234afa45efd773efd66a94a8870d48f285265e9d741c4b",
                       "--known-servers", (dir.path() / "ks").string()});
  REQUIRE_MESSAGE(secure, (secure ? "" : secure.error()));
  CHECK(secure->config.host == "::1");
  CHECK(secure->config.port == 7421);
  CHECK(secure->config.tls);
  CHECK(secure->config.tls_fingerprint == fp);  // normalised
  CHECK(secure->config.known_servers == dir.path() / "ks");
  auto from_file = parse(dir, R"({"server":"tls://h:9","tls_fingerprint":")" + fp + "\"}", {});
  REQUIRE_MESSAGE(from_file, (from_file ? "" : from_file.error()));
  CHECK(from_file->config.tls);
  CHECK(from_file->config.tls_fingerprint == fp);
  // The last --server counts (a test harness may add its own).
  CHECK(parse(dir, "{}", {"--server", "a:1", "--server", "tls://b:2"})->config.host == "b");
  CHECK(error_of(parse(dir, "{}", {"--server", "ws://h:1"})).find("tcp:// or tls://") !=
        std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--server", "h:0"})).find("from 1 to 65535") !=
        std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--server", "tls://h", "--tls-fingerprint", "AB:CD"}))
            .find("--tls-fingerprint: expected 32 bytes") != std::string::npos);
  CHECK(error_of(parse(dir, "{}", {"--server", "h", "--tls-fingerprint", fp}))
            .find("applies to a TLS server") != std::string::npos);
  CHECK(error_of(parse(dir, R"({"tls_fingerprint":"zz"})", {})).find("tls_fingerprint") !=
        std::string::npos);
}

TEST_CASE("bot config: the known-servers file: first fingerprints kept, bad lines refused") {
  TempDir dir;
  const auto file = dir.path() / "state" / "amazons" / "known_servers";
  auto hex = [](char c) {
    std::string out;
    for (int i = 0; i < 32; ++i) out += std::string(i ? ":" : "") + c + c;
    return out;
  };
  CHECK(load_known_servers(file)->empty());  // no file yet
  CHECK_FALSE(remember_server(file, "h:1", hex('A')));
  CHECK_FALSE(remember_server(file, "[::1]:2", hex('B')));
  auto known = load_known_servers(file);
  REQUIRE(known);
  CHECK(known->size() == 2);
  CHECK(known->at("h:1") == hex('A'));
  CHECK(known->at("[::1]:2") == hex('B'));
  std::ofstream(file, std::ios::app) << "h:3 not-a-fingerprint\n";
  CHECK(load_known_servers(file).error().find(":4: expected") != std::string::npos);
}

namespace {

// Sets or unsets an environment variable for one case, and puts it back.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~EnvVar() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  EnvVar(const EnvVar&) = delete;
  EnvVar& operator=(const EnvVar&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("bot config: the known-servers file: XDG_STATE_HOME, else HOME, else LOCALAPPDATA") {
  EnvVar state("XDG_STATE_HOME", "/s");
  EnvVar home("HOME", "/h");
  EnvVar local("LOCALAPPDATA", "/l");
  CHECK(default_known_servers() == std::filesystem::path("/s/amazons/known_servers"));
  {
    EnvVar no_state("XDG_STATE_HOME", nullptr);
    CHECK(default_known_servers() ==
          std::filesystem::path("/h/.local/state/amazons/known_servers"));
    EnvVar relative_home("HOME", "h");  // not absolute: skipped
    CHECK(default_known_servers() == std::filesystem::path("/l/amazons/known_servers"));
    EnvVar no_local("LOCALAPPDATA", nullptr);
    CHECK(default_known_servers().empty());
  }
}

TEST_CASE("bot config: the shipped config/bot.json is valid and the default without flags") {
  const auto r = parse_command_line({}, kConfigDir, test::english());
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
  CHECK(flags->config.more_servers.empty());

  // The nodes of a cluster, from the file and from the flag (which replaces the file's list).
  const auto nodes = parse(dir, R"({"server":"tls://n1:9000,n2:9001"})", {});
  REQUIRE_MESSAGE(nodes, (nodes ? "" : nodes.error()));
  CHECK(nodes->config.host == "n1");
  CHECK(nodes->config.tls);
  REQUIRE(nodes->config.more_servers.size() == 1);
  CHECK(nodes->config.more_servers[0].host == "n2");
  CHECK(nodes->config.more_servers[0].port == 9001);
  const auto flag_nodes = parse(dir, R"({"server":"n1,n2"})", {"--server", "x:1,y:2,z:3"});
  REQUIRE(flag_nodes);
  CHECK(flag_nodes->config.host == "x");
  REQUIRE(flag_nodes->config.more_servers.size() == 2);
  CHECK(flag_nodes->config.more_servers[1].host == "z");
  CHECK(error_of(parse(dir, "{}", {"--server", "ws://a,b"})).find("tcp:// or tls://") !=
        std::string::npos);

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
            .find("accept.rated: expected one of any, rated, casual, got \"sometimes\"") !=
        std::string::npos);
  CHECK(error_of(parse(dir, R"({"protocol":"xboard"})", {}))
            .find("protocol: expected one of amazons, uci, botzone") != std::string::npos);
  CHECK(error_of(parse(dir, R"({"seek":{"time":{"initial":-1}}})", {})).find("seek.time") !=
        std::string::npos);
  CHECK(error_of(parse(dir, R"({"server":"a:b:c"})", {})).find("server: \"a:b:c\"") !=
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
  CHECK(error_of(parse_command_line({"--config", (dir.path() / "missing.json").string()},
                                    kConfigDir, test::english()))
            .find("cannot read") != std::string::npos);

  Log quiet(stderr, Log::Level::Error);
  BotConfig c;
  c.level = "grandmaster";
  c.ai_config = kConfigDir / "ai.json";
  const auto bot = Bot::create(c, quiet, test::english());
  REQUIRE_FALSE(bot);
  CHECK(bot.error() ==
        "level: no level named \"grandmaster\" (known: beginner, easy, medium, hard, max)");
  const auto zh = Bot::create(c, quiet, test::chinese());
  REQUIRE_FALSE(zh);
  CHECK(zh.error() ==
        "level：没有名为“grandmaster”的级别（可用的有：beginner, easy, medium, hard, max）");
}

TEST_CASE("bot config: the settings file's errors in Chinese, from the real amazons-bot") {
  TempDir dir;
  // What amazons-bot says (stderr) about the settings file `file` (none when empty) with
  // LANG=zh_CN.UTF-8.
  const auto told = [&](const std::string& file, const std::string& flags = "") {
    const auto path = dir.path() / "bot.json";
    std::ofstream(path) << file;
    const std::string command = "env -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 " +
                                amazons::test::binary_dir() + "/bot/amazons-bot " +
                                (file.empty() ? "" : "--config " + path.string()) + " " + flags +
                                " 2>&1";
    std::FILE* out = ::popen(command.c_str(), "r");
    REQUIRE(out != nullptr);
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, out)) > 0;) text.append(buf, n);
    CHECK(::pclose(out) != 0);
    // The English of every sentence these settings could be refused with.
    for (const char* english : {"expected", "unknown setting", "got", "not valid", "cannot read",
                                "the bot connects", "no level", "a clock"})
      CHECK_MESSAGE(text.find(english) == std::string::npos, text);
    return text;
  };
  const std::string file = (dir.path() / "bot.json").string();
  CHECK(told(R"({"max_games":"two"})") ==
        "amazons-bot: " + file + "：max_games：应为 1 到 64 之间的整数，实际是 \"two\"\n");
  CHECK(told(R"({"max_game":2})").find("max_game：没有这项设置（可用的有：server,") !=
        std::string::npos);
  CHECK(told(R"({"accept":{"rated":"sometimes"}})")
            .find("accept.rated：应为 any, rated, casual 之一，实际是 \"sometimes\"") !=
        std::string::npos);
  CHECK(told(R"({"accept":{"min_seconds":-1}})")
            .find("accept.min_seconds：应为 0 到 2592000 之间的数，实际是 -1") !=
        std::string::npos);
  CHECK(told(R"({"ponder":"yes"})").find("ponder：应为 true 或 false") != std::string::npos);
  CHECK(told(R"({"seek":{"time":{"initial":-1}}})").find("seek.time：不是有效的用时") !=
        std::string::npos);
  CHECK(told(R"({"server":"ws://a:1"})").find("机器人只能用 tcp:// 或 tls:// 连接") !=
        std::string::npos);
  CHECK(told(R"({"server":"a:b:c"})").find("server：“a:b:c”：") != std::string::npos);
  CHECK(told("{nope").find("bot.json：不是有效的 JSON（出错位置在第 3 个字节）") !=
        std::string::npos);
  CHECK(told("{}", "--seek fast").find("--seek：无法识别用时“fast”") != std::string::npos);
  CHECK(told(R"({"level":"grandmaster"})").find("level：没有名为“grandmaster”的级别") !=
        std::string::npos);
  CHECK(told("", "--config /no/such/bot.json").find("无法读取 /no/such/bot.json") !=
        std::string::npos);
}

TEST_CASE("bot config: a Botzone program is given the botzone8 variant to play and seek") {
  TempDir dir;
  const auto r = parse(dir, "{}", {"--engine", "bot", "--protocol", "botzone", "--seek", "60+1"});
  REQUIRE_MESSAGE(r, (r ? "" : r.error()));
  CHECK(r->config.accept.rules == std::vector<std::string>{"botzone8"});
  CHECK(r->config.seek->rules == "botzone8");
}

TEST_CASE("bot config: --protocol uci and \"protocol\": \"uci\" choose a UCI engine program") {
  TempDir dir;
  const auto flag = parse(dir, "{}", {"--engine", "fsf", "--protocol", "uci"});
  REQUIRE_MESSAGE(flag, (flag ? "" : flag.error()));
  CHECK(flag->config.protocol == ai::ExternalProtocol::Uci);
  const auto file = parse(dir, R"({"engine":"fsf","protocol":"uci"})", {});
  REQUIRE_MESSAGE(file, (file ? "" : file.error()));
  CHECK(file->config.protocol == ai::ExternalProtocol::Uci);
  // Unlike a Botzone program, a UCI engine is not limited to one variant.
  CHECK(flag->config.accept.rules != std::vector<std::string>{"botzone8"});
}

TEST_CASE("bot config: the filter says why a game does not fit") {
  GameFilter f;
  const auto refusal = [](const GameFilter& filter, const std::string& rules,
                          const TimeControl& time, bool rated,
                          const protocol::PlayerRef& opponent) {
    return bot::refusal(filter, rules, time, rated, opponent, test::english());
  };
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

  // In Chinese, for a bot run in Chinese (its log says why it declines).
  f = GameFilter{};
  f.min_seconds = 120;
  CHECK(bot::refusal(f, "standard", blitz, false, human, test::chinese()) ==
        "用时 60+0（每方约 60 秒）快于下限 120 秒");
  f = GameFilter{};
  f.rules = {"botzone8"};
  CHECK(bot::refusal(f, "standard", {}, false, human, test::chinese()) ==
        "只下 botzone8，不下 standard");
}

TEST_CASE("bot config: --ponder and \"ponder\" turn pondering on, for the built-in engine only") {
  const auto off = parse_command_line({}, kConfigDir, test::english());
  REQUIRE(off);
  CHECK_FALSE(off->config.ponder);
  const auto on = parse_command_line({"--ponder"}, kConfigDir, test::english());
  REQUIRE(on);
  CHECK(on->config.ponder);
  TempDir dir;
  const auto from_file = parse(dir, R"({"ponder": true})", {});
  REQUIRE(from_file);
  CHECK(from_file->config.ponder);
  const auto bad = parse(dir, R"({"ponder": "yes"})", {});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("ponder") != std::string::npos);
  const auto engine =
      parse_command_line({"--ponder", "--engine", "./my-engine"}, kConfigDir, test::english());
  REQUIRE_FALSE(engine);
  CHECK(engine.error() ==
        "ponder: only the built-in engine (level) ponders, not an engine program");
}

TEST_CASE("bot command line: the help and the flags' errors in the catalogue's language") {
  const auto en = parse_command_line({"--help"}, kConfigDir, test::english());
  REQUIRE(en.has_value());
  REQUIRE(en->exit_message.has_value());
  CHECK(en->exit_message->find("Usage: amazons-bot [OPTIONS]") != std::string::npos);
  CHECK(en->exit_message->find("the bot's account name") != std::string::npos);
  const auto zh = parse_command_line({"--help"}, kConfigDir, test::chinese());
  REQUIRE(zh.has_value());
  REQUIRE(zh->exit_message.has_value());
  CHECK(zh->exit_message->find("用法: amazons-bot [选项]") != std::string::npos);
  CHECK(zh->exit_message->find("机器人的账号名") != std::string::npos);
  CHECK(zh->exit_message->find("显示本帮助并退出") != std::string::npos);
  CHECK(zh->exit_message->find("account name") == std::string::npos);
  // --language and --i18n-dir are read before parsing, and allowed by it.
  CHECK(parse_command_line({"--language", "zh-CN", "--help"}, kConfigDir, test::chinese()));
  CHECK(error_of(parse_command_line({"--level", "easy", "--engine", "x"}, kConfigDir,
                                    test::chinese())) == "--level 和 --engine：只能选一个");
  CHECK(error_of(parse_command_line({"--rated"}, kConfigDir, test::english())) ==
        "--rated: it applies to the games sought (--seek)");
  // The settings' own checks too.
  CHECK(error_of(parse_command_line({"--ponder", "--engine", "./my-engine"}, kConfigDir,
                                    test::chinese())) ==
        "ponder：只有内置引擎（level）会后台思考，引擎程序不会");
}
