// UCI engines (Fairy-Stockfish's dialect for the Amazons) as external players, against a small
// UCI engine the tests build (uci_test_engine.cpp), run as a real child process.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <filesystem>
#include <mutex>

#include "ai/tools/external_engine.h"
#include "ai/tools/match.h"
#include "common/local_game.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

const std::filesystem::path kUciEngine =
    std::filesystem::path(amazons::test::binary_dir()) / "tests" / "amazons-uci-test-engine";

ExternalEngineOptions uci(const std::string& mode) {
  ExternalEngineOptions o;
  o.command = kUciEngine.string() + " " + mode;
  o.protocol = ExternalProtocol::Uci;
  o.name = "uci-" + mode;
  o.movetime = Millis{50};
  o.grace = Millis{300};
  o.startup_timeout = Millis{1000};
  o.quiet_stderr = true;
  return o;
}

struct UciOutcome {
  GameRecord record;
  std::optional<EngineFailure> failure;
  std::vector<EngineFailure> reported;
};

// The UCI engine plays White on the standard board against a random mover.
UciOutcome play_uci(ExternalEngineOptions o, TimeControl tc = TimeControl::unlimited()) {
  ExternalEnginePlayer engine(std::move(o));
  UciOutcome out;
  std::mutex m;
  engine.set_failure_callback([&](const EngineFailure& f) {
    std::lock_guard lock(m);
    out.reported.push_back(f);
  });
  RandomPlayer random("random", 5);
  LocalGameOptions game;
  game.rules = standard_variant();
  game.time_control = tc;
  LocalGame local(game, engine, random);
  out.record = local.play();
  out.failure = engine.failure();
  return out;
}

}  // namespace

TEST_CASE("uci: protocol names") {
  CHECK(code(ExternalProtocol::Uci) == "uci");
  CHECK(external_protocol_from_code("uci") == ExternalProtocol::Uci);
  CHECK(external_protocol_from_code("amazons") == ExternalProtocol::Engine);
  CHECK(external_protocol_from_code("botzone") == ExternalProtocol::Botzone);
  CHECK_FALSE(external_protocol_from_code("xboard"));
}

TEST_CASE("uci: an engine with variants plays a whole legal game after UCI_Variant amazons") {
  // The test engine answers with a chess move unless it was told the variant, so a finished
  // legal game shows the setoption was sent; and every move went through the FEN it was given.
  for (const TimeControl tc :
       {TimeControl::unlimited(), TimeControl::fischer(Millis{20000}, Millis{100})}) {
    const UciOutcome o = play_uci(uci("good"), tc);
    CAPTURE(o.failure ? o.failure->message : "");
    CHECK_FALSE(o.failure);
    CHECK(o.reported.empty());
    REQUIRE(o.record.result);
    CHECK(o.record.result->reason == EndReason::NoMoves);
    CHECK(replay(o.record));
    CHECK(o.record.moves.size() > 20);
  }
}

TEST_CASE("uci: a plain UCI engine without a variant option plays too") {
  const UciOutcome o = play_uci(uci("plain"));
  CHECK_FALSE(o.failure);
  REQUIRE(o.record.result);
  CHECK(o.record.result->reason == EndReason::NoMoves);
}

TEST_CASE("uci: broken engines are reported clearly, within bounded time, and lose") {
  struct Case {
    const char* mode;
    EngineFailure::Kind kind;
    const char* says;
    EndReason reason;
  };
  const Case cases[] = {
      {"chess", EngineFailure::Kind::Start, "does not offer the variant amazons",
       EndReason::Resign},
      {"no-uciok", EngineFailure::Kind::Start, "did not answer uci with uciok", EndReason::Resign},
      {"crash", EngineFailure::Kind::Crash, "exited with code 3", EndReason::Resign},
      {"hang", EngineFailure::Kind::Timeout, "no move within 350 ms", EndReason::Resign},
      {"deaf", EngineFailure::Kind::Timeout, "no move within", EndReason::Resign},
      {"garbage", EngineFailure::Kind::Garbage,
       "printed \"I am thinking very hard about this\" instead of bestmove", EndReason::Resign},
      {"bad-move", EngineFailure::Kind::Garbage,
       "bestmove \"d1d7g7\": expected a move such as d1d7,d7g7", EndReason::Resign},
      {"none", EngineFailure::Kind::Garbage, "(no move)", EndReason::Resign},
      {"illegal", EngineFailure::Kind::Illegal, "played the illegal move e5e6,e6e7 (e5-e6/e7)",
       EndReason::IllegalMove},
  };
  for (const Case& c : cases) {
    CAPTURE(c.mode);
    const auto started = std::chrono::steady_clock::now();
    const UciOutcome out = play_uci(uci(c.mode));
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    REQUIRE(out.failure);
    CAPTURE(out.failure->message);
    CHECK(out.failure->kind == c.kind);
    CHECK(out.failure->message.find(c.says) != std::string::npos);
    CHECK(out.failure->message.find(std::string("uci-") + c.mode) != std::string::npos);
    REQUIRE(out.record.result);
    CHECK(out.record.result->winner == Color::Black);
    CHECK(out.record.result->reason == c.reason);
  }
}

TEST_CASE("uci: a crashing engine is restarted with the handshake again") {
  // Our test engine crashes on every go, so each restart goes through uci/uciok/isready again
  // and crashes again; the restarts are counted and the engine then resigns.
  ExternalEngineOptions o = uci("crash");
  o.max_restarts = 2;
  const UciOutcome out = play_uci(o);
  REQUIRE(out.reported.size() == 3);
  CHECK(out.reported[0].restarting);
  CHECK(out.reported[1].restarting);
  CHECK_FALSE(out.reported[2].restarting);
  REQUIRE(out.record.result);
  CHECK(out.record.result->reason == EndReason::Resign);
}

TEST_CASE("uci: the match runner takes uci:COMMAND players") {
  const AiConfig config = builtin_ai_config();
  const auto spec = parse_player_spec("uci:" + kUciEngine.string() + " good", config);
  REQUIRE(spec);
  CHECK(spec->kind == PlayerSpec::Kind::External);
  CHECK(spec->external.protocol == ExternalProtocol::Uci);
  CHECK(spec->external.command == kUciEngine.string() + " good");
  const auto bad = parse_player_spec("uci:", config);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("uci: give the command") != std::string::npos);
}

TEST_CASE("uci: amazons-match plays a UCI engine as a process and reports a broken one") {
  const auto match = std::filesystem::path(amazons::test::binary_dir()) / "ai" / "amazons-match";
  const auto run = [&](const std::string& mode) {
    const std::string command = match.string() + " --config-dir " + amazons::test::config_dir() +
                                " 'uci:" + kUciEngine.string() + " " + mode +
                                "' random -n 2 --rules botzone8 --movetime 50 2>&1";
    auto child = ChildProcess::start(command);
    REQUIRE(child);
    std::string output;
    const auto deadline = ChildProcess::Clock::now() + std::chrono::seconds(60);
    for (std::string line; (*child)->read_line(line, deadline) == ChildProcess::Read::Line;)
      output += line + "\n";
    CHECK((*child)->exit_status(std::chrono::seconds(5)) ==
          std::optional<std::string>("exited with code 0"));
    return output;
  };
  const std::string good = run("good");
  CAPTURE(good);
  CHECK(good.find("over 2 games") != std::string::npos);
  CHECK(good.find("! game") == std::string::npos);  // no engine failure
  const std::string garbage = run("garbage");
  CAPTURE(garbage);
  CHECK(garbage.find("printed \"I am thinking very hard about this\" instead of bestmove") !=
        std::string::npos);
  CHECK(garbage.find("garbage 0, random 2") != std::string::npos);
}
