#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "client/analysis_model.h"
#include "client/replay_model.h"
#include "common/notation.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using test::mv;
using Clock = std::chrono::steady_clock;

namespace {

// Four moves of the standard game, annotated by hand: White's second move a blunder.
GameRecord annotated_game() {
  GameRecord r;
  r.white = {"Ann", false, std::nullopt};
  r.black = {"Bob", false, std::nullopt};
  for (const char* m : {"d1-d7/g7", "a7-b7/c7", "d7-d6/d7", "b7-b8/b7"})
    r.moves.push_back({mv(m), std::nullopt, std::nullopt});
  // Scores from the mover's point of view.
  r.moves[0].annotation = MoveAnnotation{1.0, 1.0, std::nullopt, MoveMark::None};
  r.moves[1].annotation = MoveAnnotation{-1.0, -3.5, mv("a7-a6/a7"), MoveMark::Mistake};
  r.moves[2].annotation = MoveAnnotation{3.5, -2.0, mv("d7-e7/d7"), MoveMark::Blunder};
  r.moves[3].annotation = MoveAnnotation{2.0, 2.0, mv("b7-b8/b7"), MoveMark::None};
  return r;
}

// A real game on 8x8: the engine at depth 1 for both sides, `plies` moves.
GameRecord engine_game(std::size_t plies) {
  GameRecord r;
  r.rules = botzone8_variant();
  Position pos(r.rules);
  auto search = ai::make_search();
  ai::SearchLimits limits;
  limits.depth = 1;
  for (std::size_t i = 0; i < plies; ++i) {
    const Move m = ai::search_now(*search, pos, limits).best;
    REQUIRE_FALSE(m.is_none());
    r.moves.push_back({m, std::nullopt, std::nullopt});
    pos.do_move(m);
  }
  return r;
}

// Polls `job` until `pred` holds, for at most `limit`.
template <class Pred>
bool wait_until(Pred pred, std::chrono::milliseconds limit) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

ai::AnalysisOptions movetime(int ms) {
  ai::AnalysisOptions o;
  o.movetime = Millis{ms};
  return o;
}

}  // namespace

TEST_CASE("the graph has a point per position, from White's point of view") {
  const GameRecord r = annotated_game();
  const auto points = graph_points(r);
  REQUIRE(points.size() == 5);
  // Before each move: its `before`, turned to White's view; the end: the last move's `after`.
  const double expected[] = {1.0, 1.0, 3.5, -2.0, -2.0};
  for (std::size_t i = 0; i < points.size(); ++i) {
    CAPTURE(i);
    CHECK(points[i].ply == i);
    CHECK(points[i].white_squares == doctest::Approx(expected[i]));
    CHECK(points[i].y == doctest::Approx(std::tanh(expected[i] / kGraphScale)));
  }
  // A decided game reaches the edge.
  GameRecord won = r;
  won.moves[3].annotation->after = MoveAnnotation::kDecidedSquares;
  CHECK(graph_points(won).back().y == doctest::Approx(-1.0));
  // A score that is not a number (a hand-written record) is drawn level, not off the graph.
  GameRecord odd = r;
  odd.moves[2].annotation->before = std::nan("");
  CHECK(graph_points(odd)[2].y == 0.0);

  // Without an analysis of every move there is no graph.
  GameRecord partial = r;
  partial.moves[2].annotation.reset();
  CHECK_FALSE(fully_annotated(partial));
  CHECK(graph_points(partial).empty());
  CHECK(graph_points(GameRecord{}).empty());
}

TEST_CASE("a click on the graph picks the nearest point, and none off it") {
  const Rect area{100, 50, 400, 80};
  CHECK(graph_x(area, 5, 0) == doctest::Approx(100));
  CHECK(graph_x(area, 5, 4) == doctest::Approx(500));
  CHECK(graph_x(area, 5, 2) == doctest::Approx(300));
  CHECK(graph_ply_at(area, 5, 100, 60) == 0u);
  CHECK(graph_ply_at(area, 5, 249, 60) == 1u);  // 1.49 steps
  CHECK(graph_ply_at(area, 5, 251, 60) == 2u);
  CHECK(graph_ply_at(area, 5, 499, 129) == 4u);
  CHECK_FALSE(graph_ply_at(area, 5, 99, 60));
  CHECK_FALSE(graph_ply_at(area, 5, 300, 131));
  CHECK_FALSE(graph_ply_at(area, 0, 300, 60));
  CHECK(graph_ply_at(area, 1, 450, 60) == 0u);
}

TEST_CASE("marks, the engine's best move and the comment on the next move") {
  const GameRecord r = annotated_game();
  CHECK(mark_suffix(r, 0) == "");
  CHECK(mark_suffix(r, 1) == "");
  CHECK(mark_suffix(r, 2) == "?");
  CHECK(mark_suffix(r, 3) == "??");
  CHECK(mark_suffix(r, 9) == "");
  // The best move is shown on the board the move was made from; not where it was the move played
  // (even if the annotation names it) nor where there is none.
  CHECK_FALSE(best_move_at(r, 0));
  CHECK(best_move_at(r, 1) == mv("a7-a6/a7"));
  CHECK(best_move_at(r, 2) == mv("d7-e7/d7"));
  CHECK_FALSE(best_move_at(r, 3));
  CHECK_FALSE(best_move_at(r, 4));
  CHECK(next_move_comment(r, 0) == "Next: d1-d7/g7, the engine's move");
  CHECK(next_move_comment(r, 2) == "Next: d7-d6/d7?? loses 5.5; engine d7-e7/d7");
  CHECK(next_move_comment(r, 4) == "");

  // The replay's move list carries the marks.
  auto model = ReplayModel::make(r);
  REQUIRE(model);
  const auto rows = model->move_rows();
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].first == "d1-d7/g7");
  CHECK(rows[0].second == "a7-b7/c7?");
  CHECK(rows[1].first == "d7-d6/d7??");
  CHECK(rows[1].second == "b7-b8/b7");
}

TEST_CASE("the replay takes the annotations of the same game only") {
  GameRecord plain = annotated_game();
  for (auto& m : plain.moves) m.annotation.reset();
  auto model = ReplayModel::make(plain);
  REQUIRE(model);
  model->jump(3);
  CHECK(model->move_rows()[1].first == "d7-d6/d7");

  GameRecord other = annotated_game();
  other.moves.pop_back();
  CHECK_FALSE(model->annotate(other));
  other = annotated_game();
  other.moves[3].move = mv("b7-b6/b7");
  CHECK_FALSE(model->annotate(other));
  CHECK_FALSE(fully_annotated(model->record()));

  CHECK(model->annotate(annotated_game()));
  CHECK(model->ply() == 3);  // the shown position stays
  CHECK(model->move_rows()[1].first == "d7-d6/d7??");
  CHECK(fully_annotated(model->record()));
}

TEST_CASE("an analysis in the background shows its progress and ends with the annotated game") {
  const GameRecord game = engine_game(8);
  AnalysisJob job(movetime(60));  // about 40 ms of search a position
  CHECK(job.state() == AnalysisJob::State::Idle);
  CHECK(job.status_text() == "");
  REQUIRE(job.start(game));
  CHECK(job.state() == AnalysisJob::State::Running);
  CHECK(job.total() == 8);
  CHECK_FALSE(job.start(game));  // one at a time
  CHECK_FALSE(job.take_result());

  // Progress moves on while it runs, one ply at a time.
  std::vector<std::size_t> seen;
  std::vector<std::string> texts;
  REQUIRE(wait_until(
      [&] {
        const std::size_t done = job.done();
        const std::string text = job.status_text();
        if (job.state() != AnalysisJob::State::Running) return true;
        if (seen.empty() || seen.back() != done) {
          seen.push_back(done);
          texts.push_back(text);
        }
        return false;
      },
      std::chrono::seconds(15)));
  REQUIRE(seen.size() >= 3);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.back() <= 8);
  for (const std::string& t : texts) {
    CAPTURE(t);
    CHECK(t.rfind("Analysing ply ", 0) == 0);
    CHECK(t.find(" of 8") != std::string::npos);
  }
  CHECK(job.state() == AnalysisJob::State::Done);
  CHECK(job.done() == 8);
  auto result = job.take_result();
  REQUIRE(result);
  CHECK(fully_annotated(*result));
  CHECK(graph_points(*result).size() == 9);
  CHECK_FALSE(job.take_result());  // once
}

TEST_CASE("a cancelled analysis stops at once, and another may start") {
  const GameRecord game = engine_game(8);
  AnalysisJob job(movetime(20000));  // each search would take 20 s
  REQUIRE(job.start(game));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto before = Clock::now();
  job.cancel();
  CHECK(job.state() == AnalysisJob::State::Cancelled);
  CHECK(job.status_text() == "Analysis cancelled");
  CHECK(job.done() == 0);
  CHECK_FALSE(job.take_result());
  // Starting again waits for the cancelled worker, which has left its search already.
  REQUIRE(job.start(game));
  CHECK(Clock::now() - before < std::chrono::seconds(2));
  CHECK(job.state() == AnalysisJob::State::Running);
  CHECK(job.done() == 0);
  // Destroying a running job cancels it and returns promptly too.
  const auto destroy = Clock::now();
  {
    AnalysisJob other(movetime(20000));
    REQUIRE(other.start(game));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  CHECK(Clock::now() - destroy < std::chrono::seconds(2));
  job.cancel();
  CHECK(job.state() == AnalysisJob::State::Cancelled);
}

TEST_CASE("the client analyses with the hard level's settings on one thread by alpha-beta") {
  ai::AiConfig config = ai::builtin_ai_config();
  const ai::Level* hard = config.find("hard");
  REQUIRE(hard);
  const ai::AnalysisOptions o = ai::analysis_options(config, Millis{250});
  CHECK(o.movetime == Millis{250});
  CHECK(o.settings.threads == 1);
  ai::SearchSettings expected = ai::settings_for(*hard, config);
  CHECK(o.settings.kind == ai::SearchKind::AlphaBeta);  // the marks compare territory scores
  CHECK(o.settings.hash_mb == expected.hash_mb);
  CHECK(o.settings.selectivity.scale == doctest::Approx(expected.selectivity.scale));
  CHECK(o.cancel == nullptr);
}

TEST_CASE("an analysis of a game that does not replay fails with the reason") {
  GameRecord bad = engine_game(4);
  std::swap(bad.moves[0], bad.moves[1]);
  AnalysisJob job(movetime(20));
  REQUIRE(job.start(bad));
  REQUIRE(wait_until([&] { return job.state() != AnalysisJob::State::Running; },
                     std::chrono::seconds(5)));
  CHECK(job.state() == AnalysisJob::State::Failed);
  CHECK(job.status_text().rfind("Analysis failed: move 1 (", 0) == 0);
  CHECK_FALSE(job.take_result());
}
