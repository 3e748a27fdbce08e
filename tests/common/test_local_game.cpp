#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/local_game.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using namespace std::chrono_literals;

namespace {

// Plays the given moves in order, then resigns.
class ScriptedPlayer final : public Player {
 public:
  explicit ScriptedPlayer(std::vector<Move> moves) : moves_(std::move(moves)) {}
  PlayerInfo info() const override { return {"script", false, std::nullopt}; }
  void request_move(const MoveRequest&, ReplyFn reply) override {
    if (next_ < moves_.size()) {
      reply(PlayerAction::play(moves_[next_++]));
    } else {
      reply(PlayerAction::resign());
    }
  }

 private:
  std::vector<Move> moves_;
  std::size_t next_ = 0;
};

// Answers with a random legal move from another thread after `delay`; or never, if told so.
class SlowPlayer final : public Player {
 public:
  SlowPlayer(Millis delay, bool never = false) : delay_(delay), never_(never) {}
  ~SlowPlayer() override {
    for (auto& t : threads_) t.join();
  }
  PlayerInfo info() const override { return {"slow", true, std::nullopt}; }
  void request_move(const MoveRequest& request, ReplyFn reply) override {
    if (never_) {
      pending_ = std::move(reply);  // kept, and called late by the test
      return;
    }
    threads_.emplace_back([this, request, reply = std::move(reply)] {
      std::this_thread::sleep_for(delay_);
      RandomPlayer random("r", 3);
      random.request_move(request, reply);
    });
  }
  void cancel_request() override { ++cancels; }
  int cancels = 0;
  ReplyFn pending_;

 private:
  Millis delay_;
  bool never_;
  std::vector<std::thread> threads_;
};

class RecordingObserver final : public GameObserver {
 public:
  void on_move(const Position& after, const RecordedMove& m, Color mover) override {
    moves.push_back(m.move);
    movers.push_back(mover);
    last_text = to_text(after);
  }
  void on_end(const GameResult& r, const std::string& d) override {
    result = r;
    detail = d;
  }
  std::vector<Move> moves;
  std::vector<Color> movers;
  std::string last_text;
  std::optional<GameResult> result;
  std::string detail;
};

}  // namespace

TEST_CASE("two random players finish a game that the record replays to the same end") {
  for (const RuleVariant& v : {standard_variant(), botzone8_variant()}) {
    RandomPlayer a("a", 1), b("b", 2);
    RecordingObserver obs;
    LocalGameOptions opt;
    opt.rules = v;
    LocalGame game(opt, a, b);
    const GameRecord r = game.play(&obs);
    REQUIRE(r.result);
    CHECK(r.result->reason == EndReason::NoMoves);
    const auto final_pos = replay(r);
    REQUIRE(final_pos);
    CHECK(final_pos->is_game_over());
    CHECK(*r.result->winner == ~final_pos->side_to_move());
    CHECK(obs.moves.size() == r.moves.size());
    CHECK(obs.last_text == to_text(*final_pos));
    CHECK(obs.movers.front() == v.first_to_move);
    CHECK(record_from_json(to_json(r)));  // a valid record
  }
}

TEST_CASE("an illegal move loses the game for its player, and says why") {
  ScriptedPlayer white({test::mv("d1-d7/g7")});
  ScriptedPlayer black({test::mv("d10-d5/d4")});  // through the white queen on d7
  RecordingObserver obs;
  LocalGame game({}, white, black);
  const GameRecord r = game.play(&obs);
  CHECK(r.result == GameResult{Color::White, EndReason::IllegalMove});
  CHECK(r.moves.size() == 1);
  CHECK(obs.detail == "black played d10-d5/d4: the path of the queen is blocked");
}

TEST_CASE("a resignation ends the game") {
  ScriptedPlayer white({test::mv("d1-d7/g7"), test::mv("d7-d6/d7")});
  ScriptedPlayer black({test::mv("a7-b7/c7")});
  LocalGame game({}, white, black);
  const GameRecord r = game.play();
  CHECK(r.result == GameResult{Color::White, EndReason::Resign});
  CHECK(r.moves.size() == 3);
}

TEST_CASE("a player who does not answer in time loses on time") {
  SUBCASE("a fixed time per move") {
    RandomPlayer white("w", 1);
    SlowPlayer black(0ms, /*never=*/true);
    LocalGameOptions opt;
    opt.time_control = TimeControl::fixed_per_move(100ms);
    LocalGame game(opt, white, black);
    const auto start = std::chrono::steady_clock::now();
    const GameRecord r = game.play();
    CHECK(r.result == GameResult{Color::White, EndReason::Time});
    CHECK(black.cancels == 1);
    CHECK(std::chrono::steady_clock::now() - start < 2s);
    black.pending_(PlayerAction::resign());  // a late answer is ignored, and safe
  }
  SUBCASE("Fischer: the clock runs down over several slow moves") {
    RandomPlayer white("w", 1);
    SlowPlayer black(60ms);
    LocalGameOptions opt;
    opt.time_control = TimeControl::fischer(150ms, 0ms);
    LocalGame game(opt, white, black);
    const GameRecord r = game.play();
    CHECK(r.result == GameResult{Color::White, EndReason::Time});
    const std::size_t black_moves = r.moves.size() / 2;
    CHECK(black_moves >= 1);
    CHECK(black_moves <= 2);
    // The clock after each move is recorded for the mover.
    CHECK(r.moves[1].clock_left.value() < 150ms);
  }
  SUBCASE("the increment is added after each move") {
    SlowPlayer white(10ms), black(10ms);
    LocalGameOptions opt;
    opt.rules = botzone8_variant();
    opt.time_control = TimeControl::fischer(100ms, 50ms);
    LocalGame game(opt, white, black);
    const GameRecord r = game.play();
    CHECK(r.result->reason == EndReason::NoMoves);  // 10 ms a move never runs out
    CHECK(r.moves[0].clock_left.value() > 100ms);
  }
}

TEST_CASE("abort stops a game that is waiting for a player") {
  RandomPlayer white("w", 1);
  SlowPlayer black(0ms, /*never=*/true);
  LocalGame game({}, white, black);
  std::thread stopper([&] {
    std::this_thread::sleep_for(50ms);
    game.abort();
  });
  const GameRecord r = game.play();
  stopper.join();
  CHECK(r.result == GameResult{std::nullopt, EndReason::Aborted});
  CHECK(r.moves.size() == 1);
}

TEST_CASE("opening moves are played before anyone is asked, a start position may be given") {
  RandomPlayer a("a", 5), b("b", 6);
  LocalGameOptions opt;
  opt.opening = {test::mv("d1-d7/g7"), test::mv("a7-b7/c7")};
  LocalGame game(opt, a, b);
  const GameRecord r = game.play();
  CHECK(r.moves[0].move == opt.opening[0]);
  CHECK(r.moves[1].move == opt.opening[1]);
  CHECK_FALSE(r.moves[0].elapsed);

  LocalGameOptions from_position;
  from_position.rules = test::small_variant(6);
  from_position.start = *parse_position("B5/xx4/6/6/W5/W4B w");
  RandomPlayer c("c", 1), d("d", 2);
  const GameRecord r2 = LocalGame(from_position, c, d).play();
  CHECK(r2.start_position == "B5/xx4/6/6/W5/W4B w");
  CHECK(replay(r2));
}

TEST_CASE("a resumed game starts with the clocks it was given") {
  class TurnObserver final : public GameObserver {
   public:
    void on_turn(Color c, const ClockState& clock) override {
      if (turns.empty()) first = clock;
      turns.push_back(c);
    }
    std::vector<Color> turns;
    ClockState first;
  } obs;
  ScriptedPlayer white({test::mv("d7-d6/d7")});
  ScriptedPlayer black({});  // resigns when asked
  LocalGameOptions opt;
  opt.time_control = TimeControl::fischer(10s, 1s);
  opt.opening = {test::mv("d1-d7/g7"), test::mv("a7-b7/c7")};
  opt.clock = std::array<Millis, 2>{3s, 7s};
  const GameRecord r = LocalGame(opt, white, black).play(&obs);
  CHECK(obs.first.left(Color::White) == 3s);
  CHECK(obs.first.left(Color::Black) == 7s);
  // White's clock goes on from 3 s, not from the initial 10 s: at most 3 s + 1 s increment.
  CHECK(r.moves[2].clock_left.value() <= 4s);
  CHECK(r.moves[2].clock_left.value() > 3s);
  CHECK(r.result == GameResult{Color::White, EndReason::Resign});
}
