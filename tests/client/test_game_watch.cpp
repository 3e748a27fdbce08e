#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "client/game_watch.h"
#include "common/notation.h"

using namespace amazons;
using namespace amazons::client;
using nlohmann::json;

namespace {

json state(const std::vector<std::string>& moves) {
  return {{"type", "state"},
          {"game", "3"},
          {"variant", to_json(botzone8_variant())},
          {"white", {{"name", "easy-bot"}, {"rating", 1500}, {"bot", true}}},
          {"black", {{"name", "medium-bot"}, {"rating", 1500}, {"bot", true}}},
          {"moves", moves}};
}

json moved(int ply, const std::string& move) {
  return {{"type", "moved"}, {"game", "3"}, {"ply", ply}, {"move", move}};
}

}  // namespace

TEST_CASE("a watched game: the state's moves, then each move with the board, then the result") {
  GameWatch w;
  // botzone8: Black moves first.
  auto text = w.on_message(state({"c8-c4/c7"}));
  REQUIRE(text);
  CHECK(text->find("easy-bot (1500) (White) vs medium-bot (1500) (Black), botzone8 8x8") == 0);
  CHECK(text->find("1. Black c8-c4/c7\n") != std::string::npos);
  CHECK(w.moves().size() == 1);

  auto again = w.on_message(moved(1, "c8-c4/c7"));  // already in the state
  REQUIRE(again);
  CHECK(again->empty());

  auto second = w.on_message(moved(2, "c1-c3/c2"));
  REQUIRE(second);
  CHECK(second->starts_with("2. White c1-c3/c2\n"));
  CHECK(second->find("[W]") != std::string::npos);  // the board, the move marked
  CHECK(w.position().side_to_move() == Color::Black);

  auto end =
      w.on_message({{"type", "end"}, {"game", "3"}, {"winner", "black"}, {"reason", "resign"}});
  REQUIRE(end);
  CHECK(*end == "Result: Black wins (resign) after 2 moves\n");
  CHECK(w.finished());
  CHECK(w.result() == GameResult{Color::Black, EndReason::Resign});
}

TEST_CASE("a watched game refuses what contradicts the rules or the order of moves") {
  GameWatch w;
  CHECK_FALSE(w.on_message(moved(1, "c8-c4/c7")));  // before the state
  REQUIRE(w.on_message(state({})));
  auto illegal = w.on_message(moved(1, "c1-c3/c2"));  // White's queen, Black to move
  REQUIRE_FALSE(illegal);
  CHECK(illegal.error().find("illegal") != std::string::npos);
  CHECK(w.moves().empty());
  auto skipped = w.on_message(moved(3, "c8-c4/c7"));
  REQUIRE_FALSE(skipped);
  CHECK(skipped.error().find("ply 3") != std::string::npos);
  CHECK_FALSE(w.on_message(moved(1, "zz")));
  CHECK_FALSE(w.on_message({{"type", "end"}, {"reason", "bored"}}));
  CHECK_FALSE(w.on_message(json::array()));
  CHECK(w.on_message({{"type", "chat"}, {"text", "hi"}}).value().empty());
  GameWatch bad;
  CHECK_FALSE(bad.on_message({{"type", "state"}, {"variant", {{"size", 99}}}}));
}

TEST_CASE("a printed move line reads back as the move") {
  const Move m = *parse_move("d1-d7/g7");
  CHECK(watch_move_line(12, Color::Black, m) == "12. Black d1-d7/g7");
  CHECK(parse_watch_move("12. Black d1-d7/g7") == m);
  CHECK(parse_watch_move("3. White d1-d7/g7") == m);
  CHECK_FALSE(parse_watch_move("Result: White wins (no_moves) after 3 moves"));
  CHECK_FALSE(parse_watch_move("x. White d1-d7/g7"));
  CHECK_FALSE(parse_watch_move("3. Green d1-d7/g7"));
  CHECK_FALSE(parse_watch_move("3. White d1-d7"));
}
