#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <random>

#include "client/computer_game.h"
#include "client/eval_bar.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "tests/client/session_util.h"
#include "tests/client/temp_dir.h"

using namespace amazons;
using namespace amazons::client;
using namespace std::chrono_literals;

namespace {

constexpr auto kEngineWait = 20s;  // the beginner answers in about 50 ms; room for a busy machine

ai::AiConfig test_config() {
  auto loaded =
      load_computer_config(std::filesystem::path(amazons::test::config_dir()) / "ai.json");
  REQUIRE_FALSE(loaded.problem);
  loaded.config.threads = 1;
  loaded.config.hash_mb = 4;
  return loaded.config;
}

GameRecord computer_game(Color computer, std::string level = "beginner") {
  GameRecord r;
  r.rules = botzone8_variant();
  PlayerInfo person{"Ann", false, std::nullopt};
  PlayerInfo engine{computer_name(level), true, std::nullopt};
  r.white = computer == Color::White ? engine : person;
  r.black = computer == Color::White ? person : engine;
  return r;
}

using test::random_move;
std::unique_ptr<GameSession> start_computer_game(SessionSetup setup) {
  return test::start_session(std::move(setup));
}

// Plays random moves for the person until the game ends or `stop_after` moves (both sides) are
// on the board; checks every move against a position kept here. Returns the moves seen.
std::vector<Move> play(GameSession& s, Color person, std::mt19937_64& rng, Position& pos,
                       std::size_t stop_after, std::optional<GameEndEvent>* end) {
  std::vector<Move> seen;
  while (seen.size() < stop_after) {
    auto event = s.events().wait_pop(kEngineWait);
    REQUIRE(event);
    if (auto* e = std::get_if<GameEndEvent>(&*event)) {
      *end = *e;
      break;
    }
    if (auto* turn = std::get_if<HumanTurnEvent>(&*event)) {
      REQUIRE(turn->color == person);
      REQUIRE(s.play(person, turn->request, random_move(pos, rng)));
    }
    if (auto* moved = std::get_if<MoveEvent>(&*event)) {
      REQUIRE_FALSE(pos.check(moved->move.move));
      pos.do_move(moved->move.move);
      CHECK(moved->after == pos);
      seen.push_back(moved->move.move);
    }
  }
  return seen;
}

}  // namespace

TEST_CASE("a computer player's record names its level, people and other programs name none") {
  CHECK(computer_name("hard") == "Computer (hard)");
  CHECK(computer_level({"Computer (hard)", true, std::nullopt}) == "hard");
  CHECK(computer_level({"Computer (hard)", false, std::nullopt}) == std::nullopt);  // a person
  CHECK(computer_level({"bot-7", true, std::nullopt}) == std::nullopt);
  CHECK(computer_level({"Computer ()", true, std::nullopt}) == std::nullopt);
  CHECK(has_computer(computer_game(Color::Black)));
  GameRecord people = computer_game(Color::Black);
  people.black = {"Bob", false, std::nullopt};
  CHECK_FALSE(has_computer(people));
}

TEST_CASE("the client's engine settings: the file's levels, one core left for the window") {
  const auto loaded =
      load_computer_config(std::filesystem::path(amazons::test::config_dir()) / "ai.json");
  CHECK_FALSE(loaded.problem);
  CHECK(loaded.config.find("beginner") != nullptr);
  CHECK(loaded.config.threads >= 1);
  const auto missing = load_computer_config("/nonexistent/ai.json");
  REQUIRE(missing.problem);
  CHECK(missing.problem->find("built-in") != std::string::npos);
  CHECK(missing.config.levels == ai::builtin_ai_config().levels);
}

TEST_CASE("an unknown level is refused and nothing is set up") {
  SessionSetup setup;
  setup.game = computer_game(Color::White, "grandmaster");
  const auto problem = add_computer_players(setup, test_config(), 1);
  REQUIRE(problem);
  CHECK(problem->find("grandmaster") != std::string::npos);
  CHECK_FALSE(setup.programs[0]);
  CHECK_FALSE(setup.programs[1]);
}

TEST_CASE("a game against the beginner runs to its end, resumed, it meets the same level") {
  test::TempDir dir;
  GameStore store(dir.path());
  const ai::AiConfig config = test_config();
  std::mt19937_64 rng(3);
  Position pos(botzone8_variant());
  std::vector<Move> moves;
  {
    SessionSetup setup;
    setup.game = computer_game(Color::White);
    setup.store = store;
    REQUIRE_FALSE(add_computer_players(setup, config, 1));
    REQUIRE(setup.programs[0]);
    CHECK_FALSE(setup.programs[1]);
    auto s = start_computer_game(std::move(setup));
    CHECK(s->humans() == std::array<bool, 2>{false, true});
    std::optional<GameEndEvent> end;
    moves = play(*s, Color::Black, rng, pos, 6, &end);
    REQUIRE_FALSE(end);
    s->leave();
  }
  auto saved = store.load_unfinished();
  REQUIRE(saved);
  REQUIRE(*saved);
  CHECK((*saved)->white == PlayerInfo{"Computer (beginner)", true, std::nullopt});
  CHECK((*saved)->moves.size() == moves.size());

  SessionSetup setup;
  setup.game = **saved;
  setup.store = store;
  REQUIRE_FALSE(add_computer_players(setup, config, 2));
  REQUIRE(setup.programs[0]);
  auto s = start_computer_game(std::move(setup));
  CHECK(s->humans() == std::array<bool, 2>{false, true});
  // The resumed moves come back first; replay them on a fresh position.
  pos = Position(botzone8_variant());
  std::optional<GameEndEvent> end;
  play(*s, Color::Black, rng, pos, 1000, &end);
  REQUIRE(end);
  CHECK(end->result.reason == EndReason::NoMoves);
  CHECK(end->result.winner == ~pos.side_to_move());
  CHECK(end->record.white.name == "Computer (beginner)");
  REQUIRE(replay(end->record));
  CHECK(*replay(end->record) == pos);
  CHECK_FALSE(store.load_unfinished());
}

TEST_CASE("the evaluation bar: White's share grows with White's score, and says who wins") {
  const EvalBar even = eval_bar(0);
  CHECK(even.white_share == doctest::Approx(0.5));
  CHECK(even.label == "0.0");
  CHECK(eval_bar(-3).label == "0.0");  // no "-0.0"
  const EvalBar ahead = eval_bar(250);
  CHECK(ahead.label == "+2.5");
  CHECK(ahead.white_share > 0.5);
  CHECK(eval_bar(-250).label == "-2.5");
  CHECK(eval_bar(-250).white_share == doctest::Approx(1 - ahead.white_share));
  CHECK(eval_bar(800).white_share > ahead.white_share);
  // A large but undecided lead never fills the bar.
  CHECK(eval_bar(ai::kMaxHeuristic).white_share == doctest::Approx(kEvalBarMaxShare));
  CHECK(eval_bar(-ai::kMaxHeuristic).white_share == doctest::Approx(1 - kEvalBarMaxShare));
  // Counted endgames and proven results fill it.
  const EvalBar counted = eval_bar(ai::kKnownWin + 10 * 3);
  CHECK(counted.white_share == 1.0);
  CHECK(counted.label == "White wins by 3 moves");
  CHECK(eval_bar(-ai::kKnownWin - 10).label == "Black wins by 1 move");
  CHECK(eval_bar(-ai::kKnownWin - 10).white_share == 0.0);
  CHECK(eval_bar(ai::kWin - 5).label == "White wins");
  CHECK(eval_bar(-ai::kWin).label == "Black wins");
}

TEST_CASE("the evaluation is turned to White's point of view") {
  ai::Evaluator evaluator;
  // White's queen on a1 is nearly shut in, Black's is free: Black is ahead whoever moves.
  const Position white_to_move = *parse_position("8/8/8/8/3B4/8/xx6/W1x5 w");
  const Position black_to_move = *parse_position("8/8/8/8/3B4/8/xx6/W1x5 b");
  CHECK(white_score(evaluator, white_to_move) < -300);
  CHECK(white_score(evaluator, black_to_move) < -300);
  // A finished game: White cannot move and has lost.
  CHECK(eval_bar(white_score(evaluator, *parse_position("6/6/6/B5/xx4/Wx4 w"))).label ==
        "Black wins");
}
