#include <doctest/doctest.h>

#include <fstream>

#include "client/game_store.h"
#include "tests/client/temp_dir.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using namespace std::chrono_literals;
using test::mv;
namespace fs = std::filesystem;

namespace {

GameRecord game(std::vector<const char*> moves, std::optional<GameResult> result = {},
                int minute = 0) {
  GameRecord r;
  r.white = {"Ann Lee", false, std::nullopt};
  r.black = {"Bob/../x", false, std::nullopt};
  r.started_at = *parse_timestamp("2026-11-29T14:0" + std::to_string(minute) + ":00Z");
  for (const char* m : moves) r.moves.push_back({mv(m), 1500ms, std::nullopt});
  r.result = result;
  return r;
}

}  // namespace

TEST_CASE("the unfinished game is saved, loaded back and discarded") {
  test::TempDir dir;
  GameStore store(dir.path());
  CHECK_FALSE(store.load_unfinished());
  const GameRecord r = game({"d1-d7/g7", "a7-b7/c7"});
  REQUIRE_FALSE(store.save_unfinished(r));
  auto loaded = store.load_unfinished();
  REQUIRE(loaded);
  REQUIRE(*loaded);
  CHECK(**loaded == r);
  store.discard_unfinished();
  CHECK_FALSE(store.load_unfinished());
}

TEST_CASE("a corrupt or finished unfinished-game file is reported, not used") {
  test::TempDir dir;
  GameStore store(dir.path());
  std::ofstream(store.unfinished_path()) << "{\"moves\": [";
  auto loaded = store.load_unfinished();
  REQUIRE(loaded);
  REQUIRE_FALSE(*loaded);
  CHECK(loaded->error().find("not valid JSON") != std::string::npos);

  REQUIRE_FALSE(
      store.save_unfinished(game({"d1-d7/g7"}, GameResult{Color::White, EndReason::Resign})));
  loaded = store.load_unfinished();
  REQUIRE_FALSE(*loaded);
  CHECK(loaded->error().find("already over") != std::string::npos);
}

TEST_CASE("finished games are kept under games/, listed newest first, with bad files named") {
  test::TempDir dir;
  GameStore store(dir.path());
  REQUIRE_FALSE(store.save_unfinished(game({"d1-d7/g7"})));
  auto first = store.finish(game({"d1-d7/g7"}, GameResult{Color::White, EndReason::Resign}, 1));
  REQUIRE(first);
  REQUIRE(*first);
  CHECK(fs::exists(**first));
  CHECK((*first)->filename() == "2026-11-29T14-01-00_Ann_Lee_vs_Bob_x.json");
  CHECK_FALSE(fs::exists(store.unfinished_path()));

  auto second =
      store.finish(game({"d1-d7/g7", "a7-b7/c7"}, GameResult{Color::Black, EndReason::Resign}, 2));
  REQUIRE(second);
  auto again = store.finish(game({"g1-g2/g1"}, GameResult{Color::Black, EndReason::Resign}, 2));
  REQUIRE(again);
  CHECK(**again != **second);  // same start time and names: a new file all the same

  // Aborted before any move: nothing worth keeping.
  auto empty = store.finish(game({}, GameResult{std::nullopt, EndReason::Aborted}, 3));
  REQUIRE(empty);
  CHECK_FALSE(*empty);

  std::ofstream(store.games_dir() / "0000-broken.json") << "not json";
  const auto list = store.list();
  REQUIRE(list.size() == 4);
  CHECK(list[0].file.filename().string().rfind("2026-11-29T14-02-00", 0) == 0);
  REQUIRE(list[2].record);
  CHECK(list[2].record->moves.size() == 1);
  CHECK_FALSE(list[3].record);
  CHECK(list[3].problem.find("0000-broken.json") != std::string::npos);
  CHECK(describe_game(*list[2].record) ==
        "Ann Lee vs Bob/../x, 2026-11-29 14:01 - White wins, 1 move");
}

TEST_CASE("the clocks after a record's last move come from each side's last recorded clock") {
  GameRecord r;
  r.time_control = TimeControl::fischer(60s, 0s);
  CHECK(clocks_after(r) == std::array<Millis, 2>{60s, 60s});
  r.moves.push_back({mv("d1-d7/g7"), 1s, 59s});
  CHECK(clocks_after(r) == std::array<Millis, 2>{59s, 60s});
  r.moves.push_back({mv("a7-b7/c7"), 5s, 55s});
  r.moves.push_back({mv("d7-d6/d7"), 9s, 50s});
  CHECK(clocks_after(r) == std::array<Millis, 2>{50s, 55s});
  r.rules = botzone8_variant();  // Black moves first there
  r.moves.clear();
  r.moves.push_back({mv("a6-a5/a4"), 1s, 40s});
  CHECK(clocks_after(r) == std::array<Millis, 2>{60s, 40s});
}

TEST_CASE("a new game shelves the unfinished one among the saved games instead of losing it") {
  test::TempDir dir;
  GameStore store(dir.path());
  auto none = store.shelve_unfinished();
  REQUIRE(none);
  CHECK_FALSE(*none);

  const GameRecord r = game({"d1-d7/g7", "a7-b7/c7"});
  REQUIRE_FALSE(store.save_unfinished(r));
  auto shelved = store.shelve_unfinished();
  REQUIRE(shelved);
  REQUIRE(*shelved);
  CHECK_FALSE(store.load_unfinished());
  const auto list = store.list();
  REQUIRE(list.size() == 1);
  REQUIRE(list[0].record);
  CHECK(*list[0].record == r);
  CHECK(describe_game(r).find("unfinished") != std::string::npos);

  std::ofstream(store.unfinished_path()) << "garbage";
  auto bad = store.shelve_unfinished();
  REQUIRE(bad);
  CHECK(**bad == dir.path() / "unfinished-game.json.bad");
  CHECK_FALSE(fs::exists(store.unfinished_path()));
}
