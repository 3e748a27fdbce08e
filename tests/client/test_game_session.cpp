#include <doctest/doctest.h>

#include <random>

#include "client/game_session.h"
#include "common/movegen.h"
#include "tests/client/session_util.h"
#include "tests/client/temp_dir.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using namespace std::chrono_literals;

namespace {

constexpr auto kWait = 5s;  // generous: the game thread answers within microseconds

// Takes events until one of type E arrives; fails the test if none comes. Every event taken
// is also appended to `seen`.
template <class E>
E next(GameSession& s, std::vector<GameEvent>* seen = nullptr) {
  for (;;) {
    auto event = s.events().wait_pop(kWait);
    REQUIRE(event);
    if (seen) seen->push_back(*event);
    if (auto* e = std::get_if<E>(&*event)) return *e;
  }
}

GameRecord new_game(RuleVariant rules = botzone8_variant()) {
  GameRecord r;
  r.rules = std::move(rules);
  r.white = {"Ann", false, std::nullopt};
  r.black = {"Bob", false, std::nullopt};
  return r;
}

using test::random_move;
std::unique_ptr<GameSession> start(SessionSetup setup) {
  return test::start_session(std::move(setup));
}

}  // namespace

TEST_CASE("a rematch changes colours and starts afresh with the same rules and clock") {
  GameRecord played;
  played.rules = botzone8_variant();
  played.white = {"Ann", false, std::nullopt};
  played.black = {"Computer (easy)", true, std::nullopt};
  played.time_control = TimeControl::fischer(std::chrono::seconds(60), std::chrono::seconds(1));
  played.started_at = Timestamp{};
  played.moves.push_back({});
  played.result = GameResult{Color::White, EndReason::Resign};
  const GameRecord r = rematch_record(played);
  CHECK(r.white.name == "Computer (easy)");
  CHECK(r.white.bot);
  CHECK(r.black.name == "Ann");
  CHECK(r.rules == played.rules);
  CHECK(r.time_control == played.time_control);
  CHECK(r.moves.empty());
  CHECK(!r.result);
  CHECK(!r.started_at);
}

TEST_CASE("a hot-seat game runs to its end through the events, it is saved as it goes") {
  test::TempDir dir;
  SessionSetup setup;
  setup.game = new_game();
  setup.store = GameStore(dir.path());
  auto session = GameSession::start(std::move(setup));
  REQUIRE(session);
  GameSession& s = **session;
  CHECK(s.humans() == std::array<bool, 2>{true, true});

  const GameStartedEvent started = next<GameStartedEvent>(s);
  Position pos = started.start.start;
  std::mt19937_64 rng(11);
  std::vector<Move> played;
  for (;;) {
    std::vector<GameEvent> seen;
    auto event = s.events().wait_pop(kWait);
    REQUIRE(event);
    if (auto* end = std::get_if<GameEndEvent>(&*event)) {
      CHECK(end->result.reason == EndReason::NoMoves);
      CHECK(end->result.winner == ~pos.side_to_move());
      CHECK(end->record.moves.size() == played.size());
      CHECK(end->record.result == end->result);
      REQUIRE(end->saved);
      auto stored = GameStore::load(*end->saved);
      REQUIRE(stored);
      CHECK(*stored == end->record);
      CHECK_FALSE(GameStore(dir.path()).load_unfinished());
      break;
    }
    if (auto* turn = std::get_if<HumanTurnEvent>(&*event)) {
      CHECK(turn->color == pos.side_to_move());
      CHECK_FALSE(s.play(~turn->color, turn->request, Move::none()));  // not that side's turn
      const Move m = random_move(pos, rng);
      REQUIRE(s.play(turn->color, turn->request, m));
      CHECK_FALSE(s.play(turn->color, turn->request, m));  // answered already
      const MoveEvent moved = next<MoveEvent>(s);
      CHECK(moved.move.move == m);
      CHECK(moved.mover == pos.side_to_move());
      pos.do_move(m);
      played.push_back(m);
      CHECK(moved.after == pos);
      if (played.size() == 3) {
        auto saved = GameStore(dir.path()).load_unfinished();
        REQUIRE(saved);
        REQUIRE(*saved);
        CHECK((*saved)->moves.size() == 3);
      }
    }
  }
}

TEST_CASE("leaving keeps the game saved, resuming goes on with its moves and clocks") {
  test::TempDir dir;
  GameStore store(dir.path());
  std::mt19937_64 rng(5);
  Position pos(botzone8_variant());
  {
    SessionSetup setup;
    setup.game = new_game();
    setup.game.time_control = TimeControl::fischer(600s, 0s);
    setup.store = store;
    auto s = start(std::move(setup));
    for (int i = 0; i < 3; ++i) {
      const HumanTurnEvent turn = next<HumanTurnEvent>(*s);
      const Move m = random_move(pos, rng);
      REQUIRE(s->play(turn.color, turn.request, m));
      pos.do_move(m);
    }
    next<HumanTurnEvent>(*s);
    s->leave();
    for (const GameEvent& e : s->poll()) CHECK_FALSE(std::holds_alternative<GameEndEvent>(e));
  }
  auto saved = store.load_unfinished();
  REQUIRE(saved);
  REQUIRE(*saved);
  const GameRecord before = **saved;
  REQUIRE(before.moves.size() == 3);
  CHECK(before.moves[0].clock_left.has_value());

  SessionSetup setup;
  setup.game = before;
  setup.store = store;
  auto s = start(std::move(setup));
  std::vector<GameEvent> seen;
  const HumanTurnEvent turn = next<HumanTurnEvent>(*s, &seen);
  CHECK(turn.color == pos.side_to_move());
  int moves_seen = 0;
  for (const GameEvent& e : seen) moves_seen += std::holds_alternative<MoveEvent>(e);
  CHECK(moves_seen == 3);  // the moves so far, for the board and the move list
  const TurnEvent* clock = nullptr;
  for (const GameEvent& e : seen)
    if (auto* t = std::get_if<TurnEvent>(&e)) clock = t;
  REQUIRE(clock);
  CHECK(clock->clock.remaining == clocks_after(before));

  REQUIRE(s->resign(turn.color));
  const GameEndEvent end = next<GameEndEvent>(*s);
  CHECK(end.result == GameResult{~turn.color, EndReason::Resign});
  CHECK(end.record.moves == before.moves);  // times of the earlier moves kept
  CHECK(end.record.started_at == before.started_at);
  CHECK_FALSE(store.load_unfinished());
  CHECK(store.list().size() == 1);
}

TEST_CASE("abort ends the game as aborted, a game without moves is not kept") {
  test::TempDir dir;
  SessionSetup setup;
  setup.game = new_game();
  setup.store = GameStore(dir.path());
  auto s = start(std::move(setup));
  next<HumanTurnEvent>(*s);
  s->abort();
  const GameEndEvent end = next<GameEndEvent>(*s);
  CHECK(end.result == GameResult{std::nullopt, EndReason::Aborted});
  CHECK_FALSE(end.saved);
  CHECK(GameStore(dir.path()).list().empty());
}

TEST_CASE("a person against a program: only the person's turns ask the screen") {
  SessionSetup setup;
  setup.game = new_game(standard_variant());
  setup.programs[1] = std::make_unique<RandomPlayer>("random", 3);
  auto s = start(std::move(setup));
  CHECK(s->humans() == std::array<bool, 2>{true, false});
  std::mt19937_64 rng(1);
  Position pos(standard_variant());
  for (int i = 0; i < 3; ++i) {
    const HumanTurnEvent turn = next<HumanTurnEvent>(*s);
    CHECK(turn.color == Color::White);
    const Move m = random_move(pos, rng);
    REQUIRE(s->play(Color::White, turn.request, m));
    pos.do_move(m);
    const MoveEvent reply = next<MoveEvent>(*s);  // our own move first
    CHECK(reply.move.move == m);
    const MoveEvent program = next<MoveEvent>(*s);
    CHECK(program.mover == Color::Black);
    pos.do_move(program.move.move);
  }
  CHECK_FALSE(s->resign(Color::Black));  // no person plays Black here
}

TEST_CASE("a person who does not move in time loses on time") {
  SessionSetup setup;
  setup.game = new_game();
  setup.game.time_control = TimeControl::fixed_per_move(100ms);
  auto s = start(std::move(setup));
  const HumanTurnEvent turn = next<HumanTurnEvent>(*s);
  const GameEndEvent end = next<GameEndEvent>(*s);
  CHECK(end.result == GameResult{~turn.color, EndReason::Time});
  CHECK_FALSE(s->play(turn.color, turn.request, Move::none()));  // too late: ignored
}

TEST_CASE("a finished or broken record cannot be resumed") {
  GameRecord done = new_game();
  done.result = GameResult{Color::White, EndReason::Resign};
  auto a = GameSession::start({done, {}, std::nullopt});
  REQUIRE_FALSE(a);
  CHECK(a.error() == "the game is already over");

  GameRecord broken = new_game(standard_variant());
  broken.moves.push_back({test::mv("d1-d1/d2"), std::nullopt, std::nullopt});
  auto b = GameSession::start({broken, {}, std::nullopt});
  REQUIRE_FALSE(b);
  CHECK(b.error().rfind("move 1 (d1-d1/d2)", 0) == 0);
}
