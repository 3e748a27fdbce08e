#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <filesystem>
#include <mutex>

#include "ai/ai_player.h"
#include "ai/tools/external_engine.h"
#include "common/local_game.h"
#include "test_util.h"
#include "tests/ai/engine_path.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

using amazons::test::kEngine;
const std::filesystem::path kBroken = std::filesystem::path(amazons::test::source_dir()) / "tests" /
                                      "ai" / "data" / "broken_engine.sh";

std::string our_engine() {
  return kEngine.string() + " --config-dir " + amazons::test::config_dir();
}

ExternalEngineOptions options(const std::string& command, ExternalProtocol protocol) {
  ExternalEngineOptions o;
  o.command = command;
  o.protocol = protocol;
  o.movetime = Millis{60};
  o.grace = Millis{3000};
  o.startup_timeout = Millis{5000};
  return o;
}

struct Outcome {
  GameRecord record;
  std::optional<EngineFailure> failure;
  std::vector<EngineFailure> reported;
};

// The external engine plays White against a random mover, on the Botzone board.
Outcome play(ExternalEngineOptions o, std::uint64_t seed = 3) {
  ExternalEnginePlayer engine(std::move(o));
  Outcome out;
  std::mutex m;
  engine.set_failure_callback([&](const EngineFailure& f) {
    std::lock_guard lock(m);
    out.reported.push_back(f);
  });
  RandomPlayer random("random", seed);
  LocalGameOptions game;
  game.rules = botzone8_variant();
  LocalGame local(game, random, engine);  // Black (the engine) moves first on this board
  out.record = local.play();
  out.failure = engine.failure();
  return out;
}

}  // namespace

TEST_CASE("our own engine plays through the engine protocol as an external program") {
  const Outcome o = play(options(our_engine(), ExternalProtocol::Engine));
  REQUIRE(o.record.result);
  CHECK_FALSE(o.failure);
  CHECK(o.reported.empty());
  CHECK(o.record.result->winner == Color::Black);
  CHECK(o.record.result->reason == EndReason::NoMoves);
  CHECK(replay(o.record));
}

TEST_CASE("our own engine plays through the Botzone format as an external program") {
  for (const char* extra : {"", " --once"}) {
    const Outcome o =
        play(options(our_engine() + " --botzone --movetime 50 --first-movetime 80" + extra,
                     ExternalProtocol::Botzone));
    CAPTURE(extra);
    REQUIRE(o.record.result);
    CHECK_FALSE(o.failure);
    CHECK(o.record.result->winner == Color::Black);
    CHECK(replay(o.record));
  }
}

TEST_CASE("an external engine as White, after opening moves played for it") {
  RandomPlayer random("random", 9);
  LocalGameOptions game;
  game.rules = botzone8_variant();
  game.opening = {test::mv("c8-c3/b4"), test::mv("a3-b3/b2")};
  ExternalEnginePlayer bz(
      options(our_engine() + " --botzone --movetime 40", ExternalProtocol::Botzone));
  LocalGame local(game, bz, random);
  const GameRecord r = local.play();
  REQUIRE(r.result);
  CHECK_FALSE(bz.failure());
  CHECK(r.result->winner == Color::White);
}

TEST_CASE("broken engines are reported clearly and lose the game") {
  struct Case {
    const char* mode;
    ExternalProtocol protocol;
    EngineFailure::Kind kind;
    const char* says;
    EndReason reason;
  };
  const Case cases[] = {
      {"crash", ExternalProtocol::Engine, EngineFailure::Kind::Crash, "exited with code 3",
       EndReason::Resign},
      {"segv", ExternalProtocol::Engine, EngineFailure::Kind::Crash, "killed by signal 11",
       EndReason::Resign},
      {"hang", ExternalProtocol::Engine, EngineFailure::Kind::Timeout, "no move within",
       EndReason::Resign},
      {"garbage", ExternalProtocol::Engine, EngineFailure::Kind::Garbage, "is not a move",
       EndReason::Resign},
      {"chatter", ExternalProtocol::Engine, EngineFailure::Kind::Garbage,
       "printed \"thinking hard...\" instead of bestmove", EndReason::Resign},
      {"illegal", ExternalProtocol::Engine, EngineFailure::Kind::Illegal,
       "played the illegal move a1-a1/a1", EndReason::IllegalMove},
      {"silent", ExternalProtocol::Engine, EngineFailure::Kind::Start, "did not answer isready",
       EndReason::Resign},
      {"bz-crash", ExternalProtocol::Botzone, EngineFailure::Kind::Crash, "exited with code 3",
       EndReason::Resign},
      {"bz-hang", ExternalProtocol::Botzone, EngineFailure::Kind::Timeout, "no move within",
       EndReason::Resign},
      {"bz-garbage", ExternalProtocol::Botzone, EngineFailure::Kind::Garbage,
       "expected six integers", EndReason::Resign},
      {"bz-illegal", ExternalProtocol::Botzone, EngineFailure::Kind::Illegal,
       "played the illegal move 0 0 0 0 0 0", EndReason::IllegalMove},
  };
  for (const Case& c : cases) {
    ExternalEngineOptions o = options(kBroken.string() + " " + c.mode, c.protocol);
    o.grace = Millis{300};
    o.startup_timeout = Millis{500};
    o.quiet_stderr = true;
    const Outcome out = play(o);
    CAPTURE(c.mode);
    REQUIRE(out.failure);
    CHECK(out.failure->kind == c.kind);
    CAPTURE(out.failure->message);
    CHECK(out.failure->message.find(c.says) != std::string::npos);
    CHECK(out.failure->message.find(c.mode) != std::string::npos);  // names the engine
    CHECK_FALSE(out.reported.empty());
    REQUIRE(out.record.result);
    CHECK(out.record.result->winner == Color::White);
    CHECK(out.record.result->reason == c.reason);
  }
}

TEST_CASE("a command that does not exist fails to start with a clear error") {
  ExternalEngineOptions o = options("/nonexistent/engine --fast", ExternalProtocol::Engine);
  o.startup_timeout = Millis{2000};
  o.quiet_stderr = true;
  const Outcome out = play(o);
  REQUIRE(out.failure);
  CHECK(out.failure->kind == EngineFailure::Kind::Start);
  CHECK(out.failure->message.find("exited with code 127 (command not found?)") !=
        std::string::npos);
}

TEST_CASE("a Botzone bot refuses other variants") {
  ExternalEnginePlayer bz(options(our_engine() + " --botzone", ExternalProtocol::Botzone));
  RandomPlayer random("random", 1);
  LocalGameOptions game;
  game.rules = standard_variant();
  LocalGame local(game, bz, random);
  const GameRecord r = local.play();
  REQUIRE(bz.failure());
  CHECK(bz.failure()->message.find("only from the start of the 8x8 Botzone variant") !=
        std::string::npos);
  CHECK(r.result->winner == Color::Black);
}

TEST_CASE("a program that crashes once is restarted and the game goes on") {
  const auto flaky = std::filesystem::path(amazons::test::source_dir()) / "tests" / "ai" / "data" /
                     "flaky_engine.sh";
  struct Case {
    ExternalProtocol protocol;
    const char* pattern;  // which input lines the script counts
    const char* engine;   // what it runs
  };
  const Case cases[] = {
      {ExternalProtocol::Engine, "go*", ""},
      {ExternalProtocol::Botzone, "*", " --botzone --movetime 40 --first-movetime 60"},
  };
  for (const Case& c : cases) {
    const auto marker = std::filesystem::temp_directory_path() /
                        ("amazons-flaky-" + std::to_string(::getpid()) + "-" +
                         std::to_string(static_cast<int>(c.protocol)));
    std::filesystem::remove(marker);
    ExternalEngineOptions o = options(flaky.string() + " " + marker.string() + " 4 '" + c.pattern +
                                          "' " + our_engine() + c.engine,
                                      c.protocol);
    o.max_restarts = 2;
    const Outcome out = play(o);
    std::filesystem::remove(marker);
    std::filesystem::remove(marker.string() + ".fifo");
    CAPTURE(static_cast<int>(c.protocol));
    REQUIRE(out.failure);
    CHECK(out.failure->kind == EngineFailure::Kind::Crash);
    CHECK(out.failure->restarting);
    CHECK(out.failure->message.find("exited with code 3 (restarting it: 1 of 2)") !=
          std::string::npos);
    CHECK(out.reported.size() == 1);
    REQUIRE(out.record.result);
    CHECK(out.record.result->winner == Color::Black);  // the engine beat the random mover
    CHECK(out.record.result->reason == EndReason::NoMoves);
    CHECK(out.record.moves.size() > 8);
  }
}

TEST_CASE("a program that keeps crashing resigns once its restarts are used up") {
  ExternalEngineOptions o = options(kBroken.string() + " crash", ExternalProtocol::Engine);
  o.quiet_stderr = true;
  o.max_restarts = 2;
  const Outcome out = play(o);
  REQUIRE(out.reported.size() == 3);
  CHECK(out.reported[0].restarting);
  CHECK(out.reported[1].message.find("restarting it: 2 of 2") != std::string::npos);
  CHECK_FALSE(out.reported[2].restarting);
  CHECK(out.reported[2].kind == EngineFailure::Kind::Crash);
  REQUIRE(out.record.result);
  CHECK(out.record.result->reason == EndReason::Resign);
  CHECK(out.record.result->winner == Color::White);
}

TEST_CASE("a restart gets only the time left on the clock, and none when too little is left") {
  // It crashes after 0.95 s of the 2 s it has for the move, leaving less than the 1.5 s a
  // restart needs: it resigns with the rest of its time still on the clock.
  ExternalEngineOptions o = options(kBroken.string() + " slowcrash", ExternalProtocol::Engine);
  o.quiet_stderr = true;
  o.max_restarts = 3;
  o.min_restart_time = Millis{1500};
  ExternalEnginePlayer engine(o);
  std::vector<EngineFailure> reported;
  std::mutex m;
  engine.set_failure_callback([&](const EngineFailure& f) {
    std::lock_guard lock(m);
    reported.push_back(f);
  });
  RandomPlayer random("random", 3);
  LocalGameOptions game;
  game.rules = botzone8_variant();
  game.time_control = TimeControl::fixed_per_move(Millis{2000});
  LocalGame local(game, random, engine);
  const GameRecord r = local.play();
  REQUIRE(reported.size() == 2);
  CHECK(reported[0].kind == EngineFailure::Kind::Crash);
  CHECK(reported[0].restarting);
  CHECK(reported[1].kind == EngineFailure::Kind::Timeout);
  CHECK(reported[1].message.find("too little time left on the clock to restart it") !=
        std::string::npos);
  REQUIRE(r.result);
  CHECK(r.result->winner == Color::White);
  CHECK(r.result->reason == EndReason::Resign);
}
