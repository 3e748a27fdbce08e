#include <doctest/doctest.h>

#include <filesystem>
#include <mutex>

#include "ai/ai_player.h"
#include "ai/external_engine.h"
#include "common/local_game.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

const std::filesystem::path kEngine =
    std::filesystem::path(AMAZONS_BINARY_DIR) / "ai" / "amazons-engine";
const std::filesystem::path kBroken =
    std::filesystem::path(AMAZONS_SOURCE_DIR) / "tests" / "ai" / "data" / "broken_engine.sh";

std::string our_engine() { return kEngine.string() + " --config-dir " + AMAZONS_CONFIG_DIR; }

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
