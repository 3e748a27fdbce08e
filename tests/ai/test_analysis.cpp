#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "ai/analysis.h"
#include "ai/evaluate.h"
#include "ai/tools/child_process.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "tests/ai/engine_path.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

using amazons::test::kEngine;

constexpr std::size_t kBadPly = 6;  // 0-based: the seventh move of the game is thrown away

// The worst move by the static evaluation: the mover leaves the opponent best placed.
Move worst_move(const Position& pos) {
  Evaluator eval;
  MoveList moves;
  generate_moves(pos, moves);
  Move worst = moves[0];
  Score worst_for_opponent = std::numeric_limits<Score>::min();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Position after = pos;
    after.do_move(moves[i]);
    const Score s = eval.evaluate(after);  // the opponent's view
    if (s > worst_for_opponent) {
      worst_for_opponent = s;
      worst = moves[i];
    }
  }
  return worst;
}

// A real game of ten plies on 8x8: the engine at depth 2 for both sides, except ply kBadPly.
GameRecord short_game_with_a_bad_move() {
  GameRecord r;
  r.rules = botzone8_variant();
  r.white = {"depth 2", true, std::nullopt};
  r.black = {"depth 2", true, std::nullopt};
  Position pos(r.rules);
  auto search = make_search();
  SearchLimits limits;
  limits.depth = 2;
  for (std::size_t ply = 0; ply < 10; ++ply) {
    const Move m = ply == kBadPly ? worst_move(pos) : search_now(*search, pos, limits).best;
    REQUIRE_FALSE(m.is_none());
    r.moves.push_back({m, std::nullopt, std::nullopt});
    pos.do_move(m);
  }
  return r;
}

// A real game on 8x8 to its end, decided early: both sides at depth 2 for ten plies, then White
// goes on at depth 2 while Black plays the worst move by the evaluation every time.
GameRecord game_thrown_away() {
  GameRecord r;
  r.rules = botzone8_variant();
  r.white = {"depth 2", true, std::nullopt};
  r.black = {"worst", true, std::nullopt};
  Position pos(r.rules);
  auto search = make_search();
  SearchLimits limits;
  limits.depth = 2;
  for (std::size_t ply = 0; ply < 64 && !pos.is_game_over(); ++ply) {
    const bool thrown = ply >= 10 && pos.side_to_move() == Color::Black;
    const Move m = thrown ? worst_move(pos) : search_now(*search, pos, limits).best;
    r.moves.push_back({m, std::nullopt, std::nullopt});
    pos.do_move(m);
  }
  REQUIRE(pos.is_game_over());
  return r;
}

bool proven(double squares) { return std::abs(squares) >= MoveAnnotation::kDecidedSquares; }

AnalysisOptions quick() {
  AnalysisOptions o;
  o.movetime = Millis{60};
  return o;
}

struct Run {
  std::string output;  // stdout and stderr together
  std::string status;
};

// Runs `amazons-engine ARGS` through the shell and collects what it prints, within 60 s.
Run run_engine(const std::string& args) {
  const std::string command =
      kEngine.string() + " --config-dir " + amazons::test::config_dir() + " " + args + " 2>&1";
  auto child = ChildProcess::start(command);
  REQUIRE(child);
  Run run;
  const auto deadline = ChildProcess::Clock::now() + std::chrono::seconds(60);
  for (std::string line;;) {
    const auto r = (*child)->read_line(line, deadline);
    if (r != ChildProcess::Read::Line) break;
    run.output += line + "\n";
  }
  run.status = (*child)->exit_status(std::chrono::seconds(5)).value_or("still running");
  return run;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("amazons-analyse-" + std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path / name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

}  // namespace

TEST_CASE("analysis searches by alpha-beta on one thread whatever the hard level plays with") {
  AiConfig config = builtin_ai_config();
  for (SearchKind kind : {SearchKind::Auto, SearchKind::Mcts, SearchKind::AlphaBeta}) {
    for (Level& l : config.levels)
      if (l.name == "hard") l.search = kind;
    const AnalysisOptions o = analysis_options(config, Millis{300});
    CHECK(o.settings.kind == SearchKind::AlphaBeta);
    CHECK(o.settings.threads == 1);
    CHECK(o.movetime == Millis{300});
  }
}

TEST_CASE("scores are read in squares as the evaluation bar reads them, results as decided") {
  CHECK(score_squares(125) == doctest::Approx(1.25));
  CHECK(score_squares(-40) == doctest::Approx(-0.4));
  CHECK(score_squares(kWin - 3) == MoveAnnotation::kDecidedSquares);
  CHECK(score_squares(-kKnownWin - 20) == -MoveAnnotation::kDecidedSquares);
  CHECK(mark_for_loss(kMistakeSquares - 0.01) == MoveMark::None);
  CHECK(mark_for_loss(kMistakeSquares) == MoveMark::Mistake);
  CHECK(mark_for_loss(kBlunderSquares) == MoveMark::Blunder);
}

TEST_CASE("a move is marked only where the choice mattered") {
  constexpr double kDecisive = MoveAnnotation::kDecisiveSquares;
  constexpr double kDecided = MoveAnnotation::kDecidedSquares;
  // A balanced game: the loss decides, as before.
  CHECK(mark_for(1, 0) == MoveMark::None);
  CHECK(mark_for(1, -1) == MoveMark::Mistake);
  CHECK(mark_for(3, -2) == MoveMark::Blunder);
  CHECK(mark_for(3, -kDecided) == MoveMark::Blunder);
  // Lost already: nothing the mover plays is a mistake.
  CHECK(mark_for(-kDecisive, -kDecisive - 30) == MoveMark::None);
  CHECK(mark_for(-kDecided, -kDecided) == MoveMark::None);
  CHECK(mark_for(-kDecisive + 1, -kDecisive - 30) == MoveMark::Blunder);
  // Won before and still won after: a smaller lead, or a win not proven again, is no mistake.
  CHECK(mark_for(kDecided, kDecisive) == MoveMark::None);
  CHECK(mark_for(kDecisive + 10, kDecisive) == MoveMark::None);
  // Won before, not after: the win thrown away is.
  CHECK(mark_for(kDecided, kDecisive - 1) == MoveMark::Blunder);
  CHECK(mark_for(kDecisive + 3, kDecisive - 1) == MoveMark::Mistake);
}

TEST_CASE("a proof found on either side of a position is given to the other") {
  MoveAnnotation previous{.before = 3, .after = 2, .best = Move{}, .mark = MoveMark::None};
  MoveAnnotation next{.before = MoveAnnotation::kDecidedSquares, .after = 50, .best = {}};
  // The next mover proved a win: the move before it lost, and is judged again.
  CHECK(share_proof(previous, next));
  CHECK(previous.after == -MoveAnnotation::kDecidedSquares);
  CHECK(previous.before == 3);
  CHECK(previous.mark == MoveMark::Blunder);
  CHECK(next.before == MoveAnnotation::kDecidedSquares);
  CHECK(next.after == 50);
  CHECK_FALSE(share_proof(previous, next));  // they agree now
  // A proof of the position after a move, missed by the next ply's own search.
  MoveAnnotation won{.before = 40, .after = MoveAnnotation::kDecidedSquares, .best = Move{}};
  MoveAnnotation missed{.before = -30, .after = -35, .best = Move{}, .mark = MoveMark::Blunder};
  CHECK(share_proof(won, missed));
  CHECK(missed.before == -MoveAnnotation::kDecidedSquares);
  CHECK(missed.mark == MoveMark::None);  // lost whatever it played
  CHECK(won.after == MoveAnnotation::kDecidedSquares);
  // Neither proven: nothing changes.
  MoveAnnotation a{.before = 1, .after = 4, .best = {}}, b{.before = -2, .after = -3, .best = {}};
  CHECK_FALSE(share_proof(a, b));
  CHECK(a.after == 4);
  CHECK(b.before == -2);
}

TEST_CASE("a game thrown away is not marked once decided, and proofs agree across plies") {
  const GameRecord game = game_thrown_away();
  const auto analysed = analyse_game(game, quick());
  REQUIRE(analysed);
  int decided_plies = 0, proofs = 0, marked_before_decided = 0;
  for (std::size_t i = 0; i < analysed->moves.size(); ++i) {
    CAPTURE(i);
    const MoveAnnotation& a = *analysed->moves[i].annotation;
    CAPTURE(a.before);
    CAPTURE(a.after);
    const bool lost = a.before <= -MoveAnnotation::kDecisiveSquares;
    const bool still_won =
        a.before >= MoveAnnotation::kDecisiveSquares && a.after >= MoveAnnotation::kDecisiveSquares;
    if (lost || still_won) {
      ++decided_plies;
      CHECK(a.mark == MoveMark::None);
    } else if (a.mark != MoveMark::None) {
      ++marked_before_decided;
    }
    proofs += proven(a.before);
    if (i > 0 && (proven(a.before) || proven(analysed->moves[i - 1].annotation->after)))
      CHECK(a.before == -analysed->moves[i - 1].annotation->after);
  }
  MESSAGE(game.moves.size() << " plies, " << decided_plies << " decided, " << proofs << " proven, "
                            << marked_before_decided << " marked before");
  // The game is decided long before its end, and the search proves it somewhere.
  CHECK(decided_plies >= 5);
  CHECK(proofs >= 1);
  // Black's worst moves while the game was still open are marked.
  CHECK(marked_before_decided >= 1);
}

TEST_CASE("analysing a real game marks the deliberately bad move and names a better one") {
  const GameRecord game = short_game_with_a_bad_move();
  std::vector<std::size_t> progress;
  const auto analysed = analyse_game(game, quick(), [&](std::size_t done, std::size_t total) {
    CHECK(total == game.moves.size());
    progress.push_back(done);
  });
  REQUIRE(analysed);
  REQUIRE(progress.size() == game.moves.size() + 1);
  for (std::size_t i = 0; i < progress.size(); ++i) CHECK(progress[i] == i);
  REQUIRE(analysed->moves.size() == game.moves.size());
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    CAPTURE(i);
    CHECK(analysed->moves[i].move == game.moves[i].move);
    REQUIRE(analysed->moves[i].annotation);
    const MoveAnnotation& a = *analysed->moves[i].annotation;
    // The engine's own move is not judged: it keeps the score, unless the next ply's search
    // proved the position after it.
    if (!a.best) {
      CHECK(a.mark == MoveMark::None);
      if (!proven(a.after)) CHECK(a.after == a.before);
    }
  }
  const MoveAnnotation& bad = *analysed->moves[kBadPly].annotation;
  CAPTURE(bad.before);
  CAPTURE(bad.after);
  CHECK(bad.mark == MoveMark::Blunder);
  REQUIRE(bad.best);
  CHECK(*bad.best != game.moves[kBadPly].move);
  CHECK(bad.before - bad.after >= kBlunderSquares);
  // The annotated record reads back in both forms.
  const auto json_back = parse_record_json(to_json(*analysed).dump());
  const auto text_back = parse_record_text(to_text(*analysed));
  REQUIRE(json_back);
  REQUIRE(text_back);
  CHECK(*json_back == *analysed);
  CHECK(*text_back == *analysed);
}

TEST_CASE("a record that does not replay is refused by analyse_game") {
  GameRecord r = short_game_with_a_bad_move();
  std::swap(r.moves[0], r.moves[1]);
  const auto analysed = analyse_game(r, quick());
  REQUIRE_FALSE(analysed);
  CHECK(analysed.error().find("move 1 (") == 0);
}

TEST_CASE("a cancelled analysis stops within its search and starts no further one") {
  const GameRecord game = short_game_with_a_bad_move();
  {
    // Cancelled between searches (from the progress callback): no further search starts.
    AnalysisCancel cancel;
    AnalysisOptions o = quick();
    o.cancel = &cancel;
    std::size_t last = 0;
    const auto analysed = analyse_game(game, o, [&](std::size_t done, std::size_t) {
      last = done;
      if (done == 2) cancel.cancel();
    });
    REQUIRE_FALSE(analysed);
    CHECK(analysed.error() == kAnalysisCancelled);
    CHECK(last == 2);
  }
  {
    // Cancelled from another thread in the middle of a long search: it ends at once, not after
    // the movetime.
    AnalysisCancel cancel;
    AnalysisOptions o;
    o.movetime = Millis{20000};
    o.cancel = &cancel;
    const auto start = std::chrono::steady_clock::now();
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      cancel.cancel();
    });
    const auto analysed = analyse_game(game, o);
    const auto took = std::chrono::steady_clock::now() - start;
    canceller.join();
    REQUIRE_FALSE(analysed);
    CHECK(analysed.error() == kAnalysisCancelled);
    CHECK(took < std::chrono::seconds(2));
    CHECK(cancel.cancelled());
  }
  {
    // Cancelled before it began: nothing is searched.
    AnalysisCancel cancel;
    cancel.cancel();
    AnalysisOptions o = quick();
    o.cancel = &cancel;
    CHECK_FALSE(analyse_game(game, o));
  }
}

TEST_CASE("amazons-engine analyse annotates a text record and a JSON record, showing progress") {
  TempDir dir;
  GameRecord game = short_game_with_a_bad_move();
  game.moves.resize(kBadPly + 2);
  const std::string text_in = dir.write("game.txt", to_text(game));
  const Run text_run =
      run_engine("analyse " + text_in + " --movetime 40 --out " + (dir.path / "out.txt").string());
  CAPTURE(text_run.output);
  CHECK(text_run.status == "exited with code 0");
  CHECK(text_run.output.find("ply 0/8\n") != std::string::npos);
  CHECK(text_run.output.find("ply 8/8\n") != std::string::npos);
  CHECK(text_run.output.find("analysed 8 plies: ") != std::string::npos);
  const auto text_out = parse_record_text(dir.read("out.txt"));
  REQUIRE(text_out);
  CHECK(text_out->moves.size() == game.moves.size());
  for (const RecordedMove& m : text_out->moves) CHECK(m.annotation);
  CHECK(text_out->moves[kBadPly].annotation->mark == MoveMark::Blunder);
  CHECK(dir.read("out.txt").find(" blunder}") != std::string::npos);

  const std::string json_in = dir.write("game.json", to_json(game).dump(2));
  const Run json_run = run_engine("analyse " + json_in + " --movetime 40");
  CAPTURE(json_run.output);
  CHECK(json_run.status == "exited with code 0");
  // Without --out the record goes to standard output (here mixed with the progress lines).
  const auto begin = json_run.output.find('{'), end = json_run.output.rfind('}');
  REQUIRE(begin != std::string::npos);
  const auto json_out = parse_record_json(json_run.output.substr(begin, end - begin + 1));
  REQUIRE(json_out);
  CHECK(json_out->moves[kBadPly].annotation->mark == MoveMark::Blunder);
}

TEST_CASE("amazons-engine analyse refuses bad input with a message and a non-zero exit") {
  TempDir dir;
  GameRecord game = short_game_with_a_bad_move();
  game.moves.resize(4);
  std::string illegal = to_text(game);
  // The first move played twice: its queen is no longer on the from-square.
  const std::string first = to_string(game.moves[0].move);
  illegal.replace(illegal.find(" " + to_string(game.moves[2].move)), first.size() + 1, " " + first);
  const struct {
    std::string args;
    std::string says;
  } cases[] = {
      {"analyse " + (dir.path / "missing.json").string(), "missing.json: no such file"},
      {"analyse " + dir.path.string(), "not a regular file"},
      {"analyse " + dir.write("bad.json", "{\"format\": \"amazons-game/1\", \"moves\": [1,"),
       "not a game record (JSON form): not valid JSON"},
      {"analyse " + dir.write("bad.txt", "[Rules \"botzone8\"]\n1. a1-a2\n"),
       "not a game record (text form)"},
      {"analyse " + dir.write("illegal.txt", illegal), "move 3 ("},
      {"analyse " + dir.write("ok.txt", to_text(game)) + " --movetime 0", "--movetime"},
      {"analyse " + dir.write("ok2.txt", to_text(game)) + " --movetime soon", "--movetime"},
      {"analyse " + dir.write("ok3.txt", to_text(game)) + " --movetime 10 --out " +
           (dir.path / "no" / "such" / "dir.txt").string(),
       "cannot be written"},
      {"analyse", "GAME is required"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const Run run = run_engine(c.args);
    CAPTURE(run.output);
    CHECK(run.status.rfind("exited with code ", 0) == 0);
    CHECK(run.status != "exited with code 0");
    CHECK(run.output.find(c.says) != std::string::npos);
  }
}
