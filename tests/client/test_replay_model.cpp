#include <doctest/doctest.h>

#include "client/replay_model.h"
#include "common/position_text.h"
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
