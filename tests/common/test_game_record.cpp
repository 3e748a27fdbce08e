#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/game_record.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using namespace std::chrono_literals;

namespace {

// A complete random game on `v` with every optional field filled in.
GameRecord finished_game(const RuleVariant& v, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  GameRecord r;
  r.rules = v;
  r.white = {"alice", false, 1612};
  r.black = {"deep \"thought\"", true, std::nullopt};
  r.time_control = TimeControl::fischer(300s, 5s);
  Position p(v);
  Millis clock = 300s;
  for (Move m : test::random_game(p, 200, rng)) {
    clock -= 700ms;
    r.moves.push_back({m, 700ms, clock});
  }
  r.result = GameResult{~p.side_to_move(), EndReason::NoMoves};
  r.started_at = *parse_timestamp("2026-11-29T14:25:19Z");
  r.ended_at = *parse_timestamp("2026-11-29T14:40:00.250Z");
  return r;
}

}  // namespace

TEST_CASE("a game record survives a JSON round trip") {
  for (const RuleVariant& v : {standard_variant(), botzone8_variant()}) {
    const GameRecord r = finished_game(v, 3);
    const auto back = parse_record_json(to_json(r).dump(2));
    REQUIRE(back);
    CHECK(*back == r);
  }
}

TEST_CASE("the text form keeps everything but per-move times") {
  GameRecord r = finished_game(botzone8_variant(), 4);
  const std::string text = to_text(r);
  CHECK(text.find("[Rules \"botzone8\"]") != std::string::npos);
  CHECK(text.find("[Black \"deep \\\"thought\\\"\"]") != std::string::npos);
  CHECK(text.find("\n1. ") != std::string::npos);
  CHECK(text.find("\n2. ") != std::string::npos);
  const auto back = parse_record_text(text);
  REQUIRE(back);
  for (auto& m : r.moves) m.elapsed = m.clock_left = std::nullopt;
  CHECK(*back == r);
}

// Found by fuzz_record_text: line breaks in a value were written as spaces, so a record read
// from JSON (or text with a lone CR) came back different. They are escaped now.
TEST_CASE("line breaks in names survive the text form") {
  GameRecord r = finished_game(standard_variant(), 3);
  r.white.name = "two\nlines";
  r.rules.description = "carriage\rreturn\r\n";
  for (auto& m : r.moves) m.elapsed = m.clock_left = std::nullopt;
  const std::string text = to_text(r);
  CHECK(text.find("[White \"two\\nlines\"]") != std::string::npos);
  const auto back = parse_record_text(text);
  REQUIRE(back);
  CHECK(*back == r);
  const auto lone_cr =
      parse_record_text("[Rules \"stand\rard\"]\n" + text.substr(text.find('\n') + 1));
  REQUIRE(lone_cr);
  CHECK(lone_cr->rules.name == "stand\rard");
  CHECK(parse_record_text(to_text(*lone_cr))->rules.name == "stand\rard");
}

TEST_CASE("numbered moves: each number covers one move of each side") {
  GameRecord r;
  r.white.name = "w";
  r.black.name = "b";
  for (const char* m : {"d1-d7/g7", "a7-b7/c7", "g1-g3/g1"})
    r.moves.push_back({test::mv(m), {}, {}});
  const std::string text = to_text(r);
  CHECK(text.find("1. d1-d7/g7 a7-b7/c7\n2. g1-g3/g1\n") != std::string::npos);
}

TEST_CASE("a record may start from any position") {
  GameRecord r;
  r.rules.size = 6;
  r.rules.name = "six";
  r.rules.white_queens = {test::sq("a1")};
  r.rules.black_queens = {test::sq("f6")};
  r.start_position = "5B/6/6/6/6/W5 w";
  r.moves.push_back({test::mv("a1-a6/a5"), {}, {}});
  const auto json_back = parse_record_json(to_json(r).dump());
  REQUIRE(json_back);
  CHECK(*json_back == r);
  const auto text_back = parse_record_text(to_text(r));
  REQUIRE(text_back);
  CHECK(*text_back == r);
  CHECK(to_text(*replay(r)) == "W4B/x5/6/6/6/6 b");
}

TEST_CASE("a record with an illegal move or an impossible result is refused") {
  GameRecord r;
  r.moves.push_back({test::mv("d1-d7/g7"), {}, {}});
  r.moves.push_back({test::mv("d10-d5/d4"), {}, {}});  // through the queen on d7
  nlohmann::json j = to_json(r);
  auto bad = record_from_json(j);
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "move 2 (d10-d5/d4): the path of the queen is blocked");
  CHECK_FALSE(parse_record_text(to_text(r)));

  r.moves.pop_back();
  r.result = GameResult{Color::White, EndReason::NoMoves};
  CHECK(record_from_json(to_json(r)).error().find("can still move") != std::string::npos);
  r.result = GameResult{std::nullopt, EndReason::Resign};
  CHECK(record_from_json(to_json(r)).error().find("a winner is required") != std::string::npos);
  r.result = GameResult{Color::Black, EndReason::Aborted};
  CHECK(record_from_json(to_json(r)).error().find("no winner") != std::string::npos);
  r.result = GameResult{std::nullopt, EndReason::Aborted};
  CHECK(record_from_json(to_json(r)));
}

TEST_CASE("bad record fields are named") {
  const nlohmann::json good = to_json(finished_game(standard_variant(), 5));
  auto refused = [&](void (*edit)(nlohmann::json&), const std::string& prefix) {
    nlohmann::json j = good;
    edit(j);
    const auto r = record_from_json(j);
    REQUIRE_FALSE(r);
    CAPTURE(r.error());
    CHECK(r.error().rfind(prefix, 0) == 0);
  };
  refused([](nlohmann::json& j) { j["extra"] = 1; }, "extra: unknown key");
  refused([](nlohmann::json& j) { j["rules"]["size"] = 20; }, "rules.size");
  refused([](nlohmann::json& j) { j["white"] = "alice"; }, "white:");
  refused([](nlohmann::json& j) { j["white"]["elo"] = 3; }, "white.elo: unknown key");
  refused([](nlohmann::json& j) { j["moves"][0] = "d1-d7"; }, "moves[0]: at character 6");
  refused([](nlohmann::json& j) { j["moves"][0]["elapsed_ms"] = -5; }, "moves[0].elapsed_ms");
  refused([](nlohmann::json& j) { j["time_control"] = {{"initial", -1}}; }, "time_control.initial");
  refused([](nlohmann::json& j) { j["result"]["reason"] = "boredom"; }, "result.reason");
  refused([](nlohmann::json& j) { j["started_at"] = "yesterday"; }, "started_at");
  refused([](nlohmann::json& j) { j["format"] = "other/2"; }, "format");
  CHECK_FALSE(parse_record_json("{not json"));
  // A number too large for a double is refused like any other bad JSON (it used to escape as
  // an exception: see fuzz/regressions/).
  const auto huge = parse_record_json(R"({"format":"amazons-game/1","moves":[],"x":1e999})");
  REQUIRE_FALSE(huge);
  CHECK(huge.error().find("not valid JSON") == 0);
}

TEST_CASE("bad record text is refused with the line") {
  CHECK(parse_record_text("[Rules \"standard\"\n").error().rfind("line 1:", 0) == 0);
  const std::string tags = to_text(GameRecord{});
  CHECK(parse_record_text(tags + "2. d1-d7/g7\n").error().find("expected the move number \"1.\"") !=
        std::string::npos);
  CHECK(parse_record_text(tags + "1. d1-d7/\n").error().find("move \"d1-d7/\"") !=
        std::string::npos);
  CHECK(parse_record_text(tags + "[Foo \"bar\"]\n").error() == "tag Foo: unknown tag");
  CHECK(parse_record_text("[Board \"x\"]\n").error().find("tag Board") != std::string::npos);
}

TEST_CASE("timestamps are UTC with optional milliseconds") {
  const auto t = parse_timestamp("2026-02-28T23:59:59.007Z");
  REQUIRE(t);
  CHECK(format_timestamp(*t) == "2026-02-28T23:59:59.007Z");
  CHECK(format_timestamp(*parse_timestamp("2000-01-01T00:00:00Z")) == "2000-01-01T00:00:00Z");
  for (const char* bad : {"2026-02-30T00:00:00Z", "2026-02-28 23:59:59Z", "2026-02-28T24:00:00Z",
                          "2026-02-28T23:59:59", "2026-02-28T23:59:59.1Z", ""})
    CHECK_FALSE(parse_timestamp(bad));
}

TEST_CASE("time controls in JSON and text") {
  CHECK(to_string(TimeControl::fischer(300s, 5s)) == "300+5");
  CHECK(to_string(TimeControl::fixed_per_move(1500ms)) == "1.5/move");
  CHECK(to_string(TimeControl::unlimited()) == "none");
  for (const TimeControl& tc : {TimeControl::fischer(300s, 5s), TimeControl::fixed_per_move(1500ms),
                                TimeControl::unlimited(), TimeControl::fischer(90s, 0s)}) {
    CHECK(*parse_time_control(to_string(tc)) == tc);
    CHECK(*time_control_from_json(to_json(tc)) == tc);
  }
  CHECK_FALSE(parse_time_control("300"));
  CHECK_FALSE(parse_time_control("0+5"));
  CHECK_FALSE(parse_time_control("abc/move"));
  CHECK_FALSE(time_control_from_json({{"initial", 300}, {"per_move", 5}}));
  CHECK_FALSE(time_control_from_json({{"increment", 5}}));
  CHECK_FALSE(time_control_from_json({{"initial", "300"}}));
  CHECK_FALSE(time_control_from_json({{"initial", 1e12}}));
}

TEST_CASE("time controls of days are written, read and recognised as correspondence") {
  using namespace std::chrono;
  const TimeControl per_day = TimeControl::fixed_per_move(hours(24));
  CHECK(to_string(per_day) == "1d/move");
  CHECK(*parse_time_control("1d/move") == per_day);
  CHECK(*parse_time_control("86400/move") == per_day);
  CHECK(*parse_time_control("24h/move") == per_day);
  const TimeControl fischer_days = TimeControl::fischer(hours(72), hours(24));
  CHECK(to_string(fischer_days) == "3d+1d");
  CHECK(*parse_time_control("3d+1d") == fischer_days);
  CHECK(*parse_time_control("0.5d/move") == TimeControl::fixed_per_move(hours(12)));
  CHECK(per_day.correspondence());
  CHECK(fischer_days.correspondence());
  CHECK_FALSE(TimeControl::fixed_per_move(hours(23)).correspondence());
  CHECK_FALSE(TimeControl::fischer(300s, 5s).correspondence());
  CHECK_FALSE(TimeControl::unlimited().correspondence());
  CHECK(*time_control_from_json(to_json(per_day)) == per_day);
  CHECK_FALSE(parse_time_control("31d/move"));
  CHECK_FALSE(parse_time_control("d/move"));
  CHECK_FALSE(parse_time_control("1x/move"));
}

namespace {

// finished_game with an analysis on every move: a best move on some, marks on others.
GameRecord annotated_game(std::uint64_t seed) {
  GameRecord r = finished_game(botzone8_variant(), seed);
  Position p = *initial_position(r);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    MoveAnnotation a;
    a.before = 0.25 * static_cast<double>(i) - 3;
    a.after = a.before - (i % 3 == 0 ? 6.5 : 0.5);
    MoveList legal;
    generate_moves(p, legal);
    if (i % 2 == 0) a.best = legal[0];
    a.mark = i % 3 == 0 ? MoveMark::Blunder : i % 5 == 0 ? MoveMark::Mistake : MoveMark::None;
    r.moves[i].annotation = a;
    p.do_move(r.moves[i].move);
  }
  return r;
}

std::vector<Move> moves_of(const GameRecord& r) {
  std::vector<Move> out;
  for (const RecordedMove& m : r.moves) out.push_back(m.move);
  return out;
}

}  // namespace

TEST_CASE("an annotated record parses back to the same moves and annotations, in JSON and text") {
  const GameRecord r = annotated_game(5);
  const auto json_back = parse_record_json(to_json(r).dump());
  REQUIRE(json_back);
  CHECK(moves_of(*json_back) == moves_of(r));
  CHECK(*json_back == r);
  const std::string text = to_text(r);
  CHECK(text.find("{before -3.00 after -9.50 best ") != std::string::npos);
  CHECK(text.find(" blunder}") != std::string::npos);
  const auto text_back = parse_record_text(text);
  REQUIRE(text_back);
  CHECK(moves_of(*text_back) == moves_of(r));
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    CAPTURE(i);
    REQUIRE(text_back->moves[i].annotation);
    const MoveAnnotation& a = *text_back->moves[i].annotation;
    const MoveAnnotation& b = *r.moves[i].annotation;
    CHECK(a == b);  // scores are kept to hundredths, what the text form writes
  }
}

TEST_CASE("the analysed game in docs/examples reads, replays and is written back as it stands") {
  // docs/ENGINE.md shows this file as what `amazons-engine analyse` and `amazons-record convert`
  // write: it must stay readable, legal and in the writer's exact form.
  std::ifstream in(amazons::test::source_dir() + "/docs/examples/analysed-game.txt");
  REQUIRE(in);
  std::stringstream file;
  file << in.rdbuf();
  const auto r = parse_record_text(file.str());
  REQUIRE(r);
  CHECK(r->moves.size() == 65);
  CHECK(replay(*r));
  int marked = 0;
  for (const RecordedMove& m : r->moves) {
    REQUIRE(m.annotation);
    const MoveAnnotation& a = *m.annotation;
    if (a.mark != MoveMark::None) ++marked;
    // None once the game is decided (MoveAnnotation::kDecisiveSquares).
    if (a.before <= -MoveAnnotation::kDecisiveSquares ||
        (a.before >= MoveAnnotation::kDecisiveSquares &&
         a.after >= MoveAnnotation::kDecisiveSquares))
      CHECK(a.mark == MoveMark::None);
  }
  CHECK(marked == 3);  // the 1 mistake and 2 blunders docs/ENGINE.md names
  CHECK(to_text(*r) == file.str());
}

TEST_CASE("free comments in the text form are skipped") {
  const GameRecord r = finished_game(botzone8_variant(), 6);
  std::string text = to_text(r);
  const auto first = text.find("\n1. ");
  REQUIRE(first != std::string::npos);
  text.insert(first + 1, "{a comment line for people}\n");
  const auto second = text.find("\n2. ");
  REQUIRE(second != std::string::npos);
  text.insert(second, " {good move!}");
  const auto back = parse_record_text(text);
  REQUIRE(back);
  CHECK(moves_of(*back) == moves_of(r));
}

TEST_CASE("a bad annotation is refused with where and why") {
  const GameRecord r = annotated_game(7);
  nlohmann::json j = to_json(r);
  auto refused = [](const nlohmann::json& bad) {
    const auto back = record_from_json(bad);
    REQUIRE_FALSE(back);
    return back.error();
  };
  {
    nlohmann::json bad = j;
    bad["moves"][0]["analysis"]["mark"] = "brilliant";
    CHECK(refused(bad) == "moves[0].analysis.mark: expected \"mistake\" or \"blunder\"");
  }
  {
    nlohmann::json bad = j;
    bad["moves"][1]["analysis"]["before"] = "lots";
    CHECK(refused(bad) == "moves[1].analysis.before: expected a number of squares, at most 10000");
  }
  {
    nlohmann::json bad = j;
    bad["moves"][0]["analysis"]["best"] = "nonsense";
    CHECK(refused(bad).find("moves[0].analysis.best") == 0);
  }
  {
    // The best move of the second position played in the first: not a legal move there.
    nlohmann::json bad = j;
    bad["moves"][0]["analysis"]["best"] = j["moves"][1]["move"];
    CHECK(refused(bad).find("move 1: the analysis's best move") == 0);
  }
  const std::string text = to_text(r);
  auto text_refused = [&](const std::string& from, const std::string& to) {
    std::string bad = text;
    const auto at = bad.find(from);
    REQUIRE(at != std::string::npos);
    bad.replace(at, from.size(), to);
    const auto back = parse_record_text(bad);
    REQUIRE_FALSE(back);
    return back.error();
  };
  CHECK(text_refused(" blunder}", " superb}").find("annotation: expected mistake or blunder") !=
        std::string::npos);
  CHECK(text_refused("{before -3.00", "{before lots").find("annotation: before and after") !=
        std::string::npos);
  CHECK(text_refused("}\n2. ", "\n2. ").find("without its closing '}'") != std::string::npos);
  CHECK(text_refused("1. ", "1. {before +1 after +1} ").find("must follow the move") !=
        std::string::npos);
}
