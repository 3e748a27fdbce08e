// The replay screen's analysis view in the real amazons-client under Xvfb: a saved game is
// analysed in the background with progress, the graph appears, a click on it jumps the board,
// the annotated game is exported and opens with its analysis shown at once, and an analysis is
// cancelled by Esc and by its button with the replay still usable. Screenshots go to
// build/<preset>/screenshots/ (analysis-*.png).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <random>

#include "ai/search.h"
#include "common/game_record.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/position_text.h"
#include "tests/client/temp_dir.h"
#include "tests/gui/gui_driver.h"

using namespace amazons;
using namespace amazons::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kPlies = 30;

// A real game on the 10x10 board: the engine at depth 1, with a random move now and then so
// that the analysis finds something to mark.
GameRecord sample_game() {
  GameRecord r;
  r.white = {"Ann", false, std::nullopt};
  r.black = {"Bob", false, std::nullopt};
  Position pos(r.rules);
  auto search = ai::make_search();
  ai::SearchLimits limits;
  limits.depth = 1;
  std::mt19937_64 rng(15);
  for (std::size_t ply = 0; ply < kPlies; ++ply) {
    Move m = ai::search_now(*search, pos, limits).best;
    if (ply % 7 == 5) {
      MoveList moves;
      generate_moves(pos, moves);
      m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
    }
    REQUIRE_FALSE(m.is_none());
    r.moves.push_back({m, std::nullopt, std::nullopt});
    pos.do_move(m);
  }
  return r;
}

std::string position_after(const GameRecord& r, std::size_t ply) {
  Position pos = *initial_position(r);
  for (std::size_t i = 0; i < ply; ++i) pos.do_move(r.moves[i].move);
  return to_text(pos);
}

// Clicks the graph's point for `ply`, as the state reports the graph's place.
void click_graph(ClientDriver& c, std::size_t ply) {
  const json g = c.state()["analysis"]["graph"];
  const double x = g["x"].get<double>() +
                   g["w"].get<double>() * static_cast<double>(ply) / static_cast<double>(kPlies);
  c.click_at(static_cast<int>(std::lround(x)),
             static_cast<int>(std::lround(g["y"].get<double>() + g["h"].get<double>() / 2)));
}

json wait_analysis(ClientDriver& c, const std::string& state) {
  return c.wait_for("the analysis to be " + state,
                    [&](const json& s) { return s["analysis"]["state"] == state; });
}

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE("the replay screen analyses a game in the background, draws it and can cancel") {
    TempDir home;
    const GameRecord game = sample_game();
    const fs::path file = home.path() / "game.json";
    std::ofstream(file) << to_json(game).dump();
    VirtualDisplay display(1200, 800, home.path() / "xvfb.log");
    {
      ClientDriver c(display, home.path(), kClientExe);
      c.start({"--replay", file.string(), "--analysis-movetime", "60"}, "replay");
      json s = c.state();
      CHECK(s["analysis"]["state"] == "idle");
      CHECK(s["analysis"]["points"] == 0);
      CHECK(s["widgets"].contains("analyse"));

      // Progress while it runs, then the graph.
      c.click("analyse");
      s = c.wait_for("progress", [](const json& st) {
        return st["analysis"]["state"] == "running" && st["analysis"]["done"].get<int>() >= 1;
      });
      CHECK(s["analysis"]["status"].get<std::string>().rfind("Analysing ply ", 0) == 0);
      CHECK(s["analysis"]["status"].get<std::string>().find(" of 30") != std::string::npos);
      CHECK(s["widgets"].contains("analysis_cancel"));
      c.screenshot(kShotDir, "analysis-progress");
      s = c.wait_for(
          "the graph", [](const json& st) { return st["analysis"]["points"] == kPlies + 1; },
          std::chrono::seconds(20));
      CHECK(s["analysis"]["state"] == "done");
      CHECK_FALSE(s["widgets"].contains("analysis_cancel"));
      // Random moves in an engine game: the analysis marks some of them.
      const auto marks = s["analysis"]["marks"].get<std::vector<std::string>>();
      REQUIRE(marks.size() == kPlies);
      CHECK(std::count_if(marks.begin(), marks.end(),
                          [](const std::string& m) { return !m.empty(); }) >= 1);

      // A click on the graph jumps the board to that ply.
      click_graph(c, 7);
      s = c.wait_for("ply 7", [](const json& st) { return st["ply"] == 7; });
      CHECK(s["position"] == position_after(game, 7));
      click_graph(c, 0);
      s = c.wait_for("ply 0", [](const json& st) { return st["ply"] == 0; });
      CHECK(s["position"] == position_after(game, 0));

      // Where the engine preferred another move, it is drawn on the board: jump to the first
      // position whose next move is marked (else to the first with another engine move).
      const auto best = s["analysis"]["best_moves"].get<std::vector<std::string>>();
      REQUIRE(best.size() == kPlies);
      auto first = [&](bool marked) {
        for (std::size_t i = 0; i < kPlies; ++i)
          if (!best[i].empty() && (!marked || !marks[i].empty())) return i;
        return kPlies;
      };
      const std::size_t shown = first(true) < kPlies ? first(true) : first(false);
      REQUIRE(shown < kPlies);
      click_graph(c, shown);
      s = c.wait_for("the ply with a better move",
                     [&](const json& st) { return st["ply"] == shown; });
      CHECK(s["analysis"]["best_move"] == best[shown]);
      CHECK(s["analysis"]["comment"].get<std::string>().find("engine " + best[shown]) !=
            std::string::npos);
      CHECK(parse_move(best[shown]).has_value());
      c.screenshot(kShotDir, "analysis");

      // Export writes the game with its analysis.
      c.click("export");
      s = c.wait_for("the export", [](const json& st) { return st["exported"] != ""; });
      std::ifstream in(s["exported"].get<std::string>());
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      const auto back = parse_record_text(text);
      REQUIRE_MESSAGE(back, (back ? "" : back.error()));
      REQUIRE(back->moves.size() == kPlies);
      for (const RecordedMove& m : back->moves) CHECK(m.annotation.has_value());
      std::ofstream(home.path() / "annotated.txt") << text;
      c.click("back");
      c.wait_screen("menu");
    }
    {
      // An annotated record shows its analysis at once; an analysis (slow here: 5 s a
      // position) is cancelled by Esc and by its button, and the replay stays usable.
      ClientDriver c(display, home.path(), kClientExe);
      c.start({"--replay", (home.path() / "annotated.txt").string(), "--analysis-movetime", "5000"},
              "replay");
      json s = c.state();
      CHECK(s["analysis"]["points"] == kPlies + 1);
      CHECK(s["analysis"]["state"] == "idle");
      CHECK(s["widgets"]["analyse"]["label"] == "Analyse again");

      c.click("analyse");
      wait_analysis(c, "running");
      c.key("Escape");
      s = wait_analysis(c, "cancelled");
      CHECK(s["analysis"]["status"] == "Analysis cancelled");
      CHECK(s["screen"] == "replay");
      CHECK(s["analysis"]["points"] == kPlies + 1);  // the earlier analysis stays
      c.click("replay_back");
      s = c.wait_for("one ply back", [](const json& st) { return st["ply"] == kPlies - 1; });
      CHECK(s["position"] == position_after(game, kPlies - 1));

      c.click("analyse");
      wait_analysis(c, "running");
      c.click("analysis_cancel");
      s = wait_analysis(c, "cancelled");
      CHECK(s["widgets"].contains("analyse"));
      click_graph(c, 3);
      c.wait_for("ply 3", [](const json& st) { return st["ply"] == 3; });
      // Nothing keeps running: leaving and quitting are prompt.
      c.key("Escape");
      c.wait_screen("menu");
    }
  }
}
