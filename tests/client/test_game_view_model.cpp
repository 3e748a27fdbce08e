#include <doctest/doctest.h>

#include "client/game_view_model.h"
#include "common/notation.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using namespace std::chrono_literals;
using test::mv;

namespace {

GameStart make_start(TimeControl tc = TimeControl::unlimited()) {
  return {standard_variant(),
          Position(standard_variant()),
          {"Ann", false, std::nullopt},
          {"Bob", false, 1500},
          tc,
          Color::White};
}

// Plays `m` in the model as the game driver would report it.
void play(GameViewModel& vm, Move m, SteadyTime at, std::optional<Millis> clock_left = {}) {
  Position after = vm.position();
  const Color mover = after.side_to_move();
  REQUIRE_FALSE(after.try_play(m));
  vm.on_move(after, {m, std::nullopt, clock_left}, mover, at);
}

}  // namespace

TEST_CASE("the view model follows the game: position, last move, move list, turn") {
  GameViewModel vm(make_start(), {true, true});
  const SteadyTime t0{};
  CHECK(vm.player(Color::Black).name == "Bob");
  CHECK(vm.player(Color::Black).rating == 1500);
  CHECK_FALSE(vm.last_move());
  CHECK(vm.status() == "White to move");
  CHECK(vm.human_to_move());
  CHECK_FALSE(vm.has_clock());

  vm.on_turn(Color::White, {}, t0);
  play(vm, mv("d1-d7/g7"), t0);
  CHECK(vm.last_move() == mv("d1-d7/g7"));
  CHECK(vm.to_move() == Color::Black);
  CHECK(vm.position().piece_at(test::sq("d7")) == Piece::WhiteQueen);
  CHECK(vm.status() == "Black to move");
  play(vm, mv("a7-b7/c7"), t0);
  play(vm, mv("d7-d6/d7"), t0);
  const auto rows = vm.move_rows();
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] == MoveRow{1, "d1-d7/g7", "a7-b7/c7"});
  CHECK(rows[1] == MoveRow{2, "d7-d6/d7", ""});
}

TEST_CASE("a program to move is shown thinking, and a person cannot enter a move then") {
  GameViewModel vm(make_start(), {true, false});
  CHECK(vm.human_to_move());
  CHECK_FALSE(vm.thinking(Color::White));
  play(vm, mv("d1-d7/g7"), {});
  CHECK(vm.thinking(Color::Black));
  CHECK_FALSE(vm.human_to_move());
  CHECK(vm.status() == "Black is thinking...");
  CHECK(vm.actions() == std::vector{GameAction::Abort, GameAction::Leave});
}

TEST_CASE("clocks run down for the side to move and warn when time is low") {
  const SteadyTime t0{};
  GameViewModel vm(make_start(TimeControl::fischer(60s, 2s)), {true, true});
  CHECK(vm.has_clock());
  CHECK(vm.clock(Color::White, t0) == 60s);
  vm.on_turn(Color::White, {TimeControl::fischer(60s, 2s), {60s, 60s}}, t0);
  CHECK(vm.clock(Color::White, t0 + 5s) == 55s);
  CHECK(vm.clock(Color::Black, t0 + 5s) == 60s);
  CHECK(vm.clock_text(Color::White, t0 + 5s) == "0:55");
  CHECK(low_time_threshold(TimeControl::fischer(60s, 2s)) == 15s);
  CHECK_FALSE(vm.low_time(Color::White, t0 + 44s));
  CHECK(vm.low_time(Color::White, t0 + 46s));
  CHECK(vm.clock(Color::White, t0 + 90s) == 0s);  // never negative

  play(vm, mv("d1-d7/g7"), t0 + 10s, 52s);
  CHECK(vm.clock(Color::White, t0 + 20s) == 52s);  // stopped after the move
  vm.on_turn(Color::Black, {TimeControl::fischer(60s, 2s), {52s, 60s}}, t0 + 10s);
  CHECK(vm.clock(Color::Black, t0 + 20s) == 50s);
  CHECK(vm.clock(Color::White, t0 + 20s) == 52s);

  vm.on_end({Color::White, EndReason::Resign}, "", t0 + 30s);
  CHECK(vm.clock(Color::Black, t0 + 100s) == 40s);  // frozen at the end
}

TEST_CASE("a fixed time per move restarts every turn, losing on time shows zero") {
  const SteadyTime t0{};
  const TimeControl tc = TimeControl::fixed_per_move(30s);
  GameViewModel vm(make_start(tc), {true, true});
  vm.on_turn(Color::White, {tc, {}}, t0);
  CHECK(vm.clock(Color::White, t0 + 25s) == 5s);
  CHECK(vm.low_time(Color::White, t0 + 25s));
  CHECK(vm.clock_text(Color::White, t0 + 25s) == "0:05.0");
  vm.on_end({Color::Black, EndReason::Time}, "", t0 + 30s);
  CHECK(vm.clock(Color::White, t0 + 40s) == 0s);
  CHECK(vm.result_reason() == "White ran out of time.");
}

TEST_CASE("the result says who won and why, the buttons change with the state") {
  GameViewModel vm(make_start(), {true, true});
  CHECK(vm.actions() == std::vector{GameAction::Resign, GameAction::Abort, GameAction::Leave});
  play(vm, mv("d1-d7/g7"), {});
  play(vm, mv("a7-b7/c7"), {});
  CHECK(vm.actions() == std::vector{GameAction::Resign, GameAction::Leave});
  vm.on_end({Color::White, EndReason::NoMoves}, "", {});
  CHECK_FALSE(vm.running());
  CHECK_FALSE(vm.human_to_move());
  CHECK(vm.status() == "White wins");
  CHECK(vm.result_title() == "White wins");
  CHECK(vm.result_reason() == "Black has no legal move left.");
  CHECK(vm.actions() == std::vector{GameAction::Rematch, GameAction::Replay, GameAction::Leave});

  GameViewModel aborted(make_start(), {true, true});
  aborted.on_end({std::nullopt, EndReason::Aborted}, "", {});
  CHECK(aborted.result_title() == "Game aborted");
  CHECK(aborted.actions() == std::vector{GameAction::Rematch, GameAction::Leave});
}

TEST_CASE("result sentences and clock texts") {
  CHECK(result_reason({Color::Black, EndReason::Resign}) == "White resigned.");
  CHECK(result_reason({Color::White, EndReason::Abandon}) == "Black left the game.");
  CHECK(result_reason({Color::White, EndReason::IllegalMove}, "black played a1-a2/a3: x") ==
        "Illegal move: black played a1-a2/a3: x.");
  CHECK(format_clock(300s) == "5:00");
  CHECK(format_clock(3723s) == "1:02:03");
  CHECK(format_clock(10001ms) == "0:11");  // rounded up: never 0:00 with time left
  CHECK(format_clock(9400ms) == "0:09.4");
  CHECK(format_clock(-5s) == "0:00.0");
  CHECK(move_rows({}).empty());
}
