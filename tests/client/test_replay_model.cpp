#include <doctest/doctest.h>

#include <fstream>

#include "client/replay_model.h"
#include "common/position_text.h"
#include "tests/client/temp_dir.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using test::mv;

namespace {

GameRecord sample_game() {
  GameRecord r;
  r.white = {"Ann", false, std::nullopt};
  r.black = {"Bob", false, std::nullopt};
  for (const char* m : {"d1-d7/g7", "a7-b7/c7", "d7-d6/d7", "b7-b8/b7"})
    r.moves.push_back({mv(m), std::nullopt, std::nullopt});
  r.result = GameResult{Color::Black, EndReason::Resign};
  return r;
}

}  // namespace

TEST_CASE("stepping forward and back, and jumping, show the right positions") {
  auto model = ReplayModel::make(sample_game());
  REQUIRE(model);
  CHECK(model->size() == 4);
  CHECK(model->ply() == 0);
  CHECK(model->position() == Position(standard_variant()));
  CHECK_FALSE(model->last_move());
  CHECK(model->progress() == "Start position");
  CHECK_FALSE(model->back());

  CHECK(model->forward());
  CHECK(model->last_move() == mv("d1-d7/g7"));
  CHECK(model->position().piece_at(test::sq("d7")) == Piece::WhiteQueen);
  CHECK(model->progress() == "Move 1 of 4");

  model->jump(3);
  Position expected(standard_variant());
  for (const char* m : {"d1-d7/g7", "a7-b7/c7", "d7-d6/d7"})
    REQUIRE_FALSE(expected.try_play(mv(m)));
  CHECK(model->position() == expected);
  CHECK(model->last_move() == mv("d7-d6/d7"));

  model->to_end();
  CHECK(model->ply() == 4);
  CHECK_FALSE(model->forward());
  model->jump(99);
  CHECK(model->ply() == 4);
  CHECK(model->back());
  CHECK(model->ply() == 3);
  model->to_start();
  CHECK(model->ply() == 0);
  CHECK(model->result_text() == "Black wins: White resigned.");
  CHECK(model->move_rows().size() == 2);
}

TEST_CASE("the export is the text notation, which reads back as the same game") {
  auto model = ReplayModel::make(sample_game());
  REQUIRE(model);
  const std::string text = model->export_text();
  CHECK(text.find("1. d1-d7/g7 a7-b7/c7") != std::string::npos);
  auto back = parse_record_text(text);
  REQUIRE(back);
  CHECK(back->moves == sample_game().moves);
  CHECK(back->result == sample_game().result);
}

TEST_CASE("a record whose moves do not replay is refused with the reason") {
  GameRecord r = sample_game();
  r.moves[2].move = mv("g1-g9/g8");  // through the arrow on g7
  auto model = ReplayModel::make(r);
  REQUIRE_FALSE(model);
  CHECK(model.error() == "move 3 (g1-g9/g8): the path of the queen is blocked");
}

TEST_CASE("replay opens SGF, LittleGolem and move-list files, and exports SGF") {
  test::TempDir dir;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir.path() / name, std::ios::binary) << text;
    return dir.path() / name;
  };
  // The SGF Amazons page's example, and the same opening as LittleGolem and a move list.
  auto sgf = ReplayModel::open(write("a.sgf", "(;FF[4]GM[18]PB[Ann]PW[Bob];B[djddgd];W[addgad])"));
  REQUIRE_MESSAGE(sgf, (sgf ? "" : sgf.error()));
  CHECK(sgf->size() == 2);
  CHECK(sgf->record().white.name == "Ann");
  sgf->to_end();
  CHECK(sgf->last_move() == mv("a7-d4/a7"));
  auto lg =
      ReplayModel::open(write("b.sgf",
                              "(;FF[4]EV[amazons.ch.1]PB[Bob]PW[Ann]SO[http://www.littlegolem.com]"
                              ";W[d1-d7-g7];B[a7-d4-a7];W[resign])"));
  REQUIRE_MESSAGE(lg, (lg ? "" : lg.error()));
  CHECK(lg->size() == 2);
  CHECK(lg->result_text().find("resign") != std::string::npos);
  auto moves = ReplayModel::open(write("c.moves", "d1d7,d7g7 a7d4,d4a7\n"));
  REQUIRE(moves);
  CHECK(moves->size() == 2);
  for (const auto* m : {&*sgf, &*lg, &*moves}) CHECK(m->record().moves[1].move == mv("a7-d4/a7"));

  // The SGF export reads back as the same game.
  const std::string exported = lg->export_sgf();
  CHECK(exported.starts_with("(;FF[4]GM[18]"));
  auto again = ReplayModel::open(write("d.sgf", exported));
  REQUIRE_MESSAGE(again, (again ? "" : again.error()));
  CHECK(again->record() == lg->record());

  // Bad files are refused with the file, the move and the reason.
  auto bad = ReplayModel::open(write("bad.sgf", "(;GM[18];B[djddgd];W[dadggd])"));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("bad.sgf") != std::string::npos);
  CHECK(bad.error().find("move 2") != std::string::npos);
  CHECK(bad.error().find("the path of the queen is blocked") != std::string::npos);
  auto missing = ReplayModel::open(dir.path() / "missing.sgf");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("no such file") != std::string::npos);
  auto unknown = ReplayModel::open(write("x.pgn", "1. e4"));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().find("unknown file extension") != std::string::npos);

  // The imports the replay list offers: the other programs' files only, sorted.
  write("ours.json", "{}");
  const auto files = importable_files(dir.path());
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.filename().string());
  CHECK(names == std::vector<std::string>{"a.sgf", "b.sgf", "bad.sgf", "c.moves", "d.sgf"});
  CHECK(importable_files(dir.path() / "nowhere").empty());
}
