#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "ai/ai_player.h"
#include "common/local_game.h"
#include "test_util.h"
#include "timing.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

Level quick_level(int movetime_ms) {
  Level l;
  l.name = "quick";
  l.movetime = Millis{movetime_ms};
  return l;
}

AiConfig one_thread() {
  AiConfig c = builtin_ai_config();
  c.threads = 1;
  c.hash_mb = 8;
  return c;
}

}  // namespace

TEST_CASE("AIPlayer plays a whole game through LocalGame") {
  AIPlayer white(quick_level(30), one_thread());
  AIPlayer black(quick_level(30), one_thread());
  LocalGameOptions options;
  options.rules = botzone8_variant();
  LocalGame game(options, white, black);
  const GameRecord record = game.play();
  REQUIRE(record.result);
  CHECK(record.result->winner.has_value());
  CHECK(record.result->reason == EndReason::NoMoves);  // not an illegal move
  CHECK(replay(record));
  REQUIRE(white.last_result());
  CHECK(white.last_result()->depth >= 1);
}

TEST_CASE("AIPlayer takes its time from the request's clock when that is shorter") {
  // The level would think for a second; the clock gives 150 ms a move.
  AIPlayer engine(quick_level(1000), one_thread());
  const Position pos(standard_variant());
  engine.on_game_start({standard_variant(), pos, {}, {}, {}, Color::White});
  const ClockState clock{TimeControl::fixed_per_move(Millis{150}), {}};
  std::mutex m;
  std::condition_variable cv;
  std::optional<PlayerAction> answer;
  const auto before = std::chrono::steady_clock::now();
  engine.request_move({pos, {}, clock}, [&](PlayerAction a) {
    std::lock_guard lock(m);
    answer = a;
    cv.notify_all();
  });
  std::unique_lock lock(m);
  REQUIRE(cv.wait_for(lock, std::chrono::seconds(5), [&] { return answer.has_value(); }));
  const auto took = std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - before);
  CHECK(took <= Millis{150} + test::deadline_slack());
  CHECK(answer->kind == PlayerAction::Kind::Play);
  CHECK_FALSE(pos.check(answer->move));
  REQUIRE(engine.time_limit({pos, {}, clock}));
  CHECK(*engine.time_limit({pos, {}, clock}) == Millis{150});
}

TEST_CASE("the engine beats a random mover") {
  // Limited by depth, not by time, so the game is the same on every machine: at a few
  // milliseconds a move the depth reached follows the machine's load, and so does the game.
  RandomPlayer random("random", 5);
  Level level = quick_level(5000);
  level.depth = 2;
  AIPlayer engine(level, one_thread());
  LocalGameOptions options;
  options.rules = test::small_variant(8);
  LocalGame game(options, engine, random);
  const GameRecord record = game.play();
  REQUIRE(record.result);
  CHECK(record.result->winner == Color::White);
}

TEST_CASE("the clock budget is respected under a Fischer control") {
  AIPlayer white(*builtin_ai_config().find("max"), one_thread());
  RandomPlayer black("random", 2);
  LocalGameOptions options;
  options.rules = botzone8_variant();
  options.time_control = TimeControl::fischer(Millis{1500}, Millis{50});
  LocalGame game(options, white, black);
  const GameRecord record = game.play();
  REQUIRE(record.result);
  CHECK(record.result->winner == Color::White);
  CHECK(record.result->reason == EndReason::NoMoves);
}

TEST_CASE("cancel_request stops the thinking at once") {
  Level slow = quick_level(60000);
  AIPlayer engine(slow, one_thread());
  const Position pos(standard_variant());
  engine.on_game_start({standard_variant(), pos, {}, {}, {}, Color::White});
  std::mutex m;
  std::condition_variable cv;
  bool replied = false;
  engine.request_move({pos, {}, {}}, [&](PlayerAction) {
    std::lock_guard lock(m);
    replied = true;
    cv.notify_all();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto before = std::chrono::steady_clock::now();
  engine.cancel_request();
  std::unique_lock lock(m);
  CHECK(cv.wait_for(lock, std::chrono::milliseconds(2000), [&] { return replied; }));
  const auto took = std::chrono::steady_clock::now() - before;
  CHECK(took < test::deadline_slack());
}

TEST_CASE("a pondering AIPlayer thinks on the expected reply and counts what came") {
  AIPlayer white(quick_level(40), one_thread());
  AIPlayer black(quick_level(40), one_thread());
  white.set_ponder(true);
  LocalGameOptions options;
  options.rules = botzone8_variant();
  LocalGame game(options, white, black);
  const GameRecord record = game.play();
  REQUIRE(record.result);
  CHECK(record.result->reason == EndReason::NoMoves);  // every move legal, no time loss
  CHECK(replay(record));
  const auto ponder = white.ponder_stats();
  const int white_moves = static_cast<int>(record.moves.size()) / 2;
  CAPTURE(ponder.hits);
  CAPTURE(ponder.misses);
  // The same engine on the other side often plays the reply this one expects.
  CHECK(ponder.hits >= 1);
  CHECK(ponder.hits + ponder.misses <= white_moves);
  CHECK(ponder.hits + ponder.misses >= white_moves / 2);
  // Without set_ponder nothing is pondered.
  CHECK(black.ponder_stats().hits == 0);
  CHECK(black.ponder_stats().misses == 0);
}
