#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>

#include "client/move_input.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::client;
using test::mv;
using test::sq;

namespace {

Position start() { return Position(standard_variant()); }

// Every move that clicking can produce in `pos`: each selectable queen, each highlighted
// destination, each highlighted arrow square.
std::set<std::uint32_t> enterable_moves(const Position& pos) {
  std::set<std::uint32_t> out;
  MoveInput input;
  input.reset(pos, true);
  for (Square q : input.selectable()) {
    input.reset(pos, true);
    REQUIRE(input.press(q) == InputEffect::Changed);
    input.release(q);
    const Bitboard destinations = input.targets();
    for (Square to : destinations) {
      input.reset(pos, true);
      input.press(q);
      input.release(q);
      REQUIRE(input.press(to) == InputEffect::Changed);
      REQUIRE(input.stage() == InputStage::ChooseArrow);
      const Bitboard arrows = input.targets();
      for (Square a : arrows) {
        input.reset(pos, true);
        input.press(q);
        input.release(q);
        input.press(to);
        input.release(to);
        REQUIRE(input.press(a) == InputEffect::MoveReady);
        const Move m = input.take_move();
        CHECK_FALSE(pos.check(m));
        out.insert(m.raw());
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("clicking a queen, a destination and an arrow square enters the move") {
  MoveInput input;
  const Position pos = start();
  input.reset(pos, true);
  CHECK(input.stage() == InputStage::ChooseQueen);
  CHECK(input.selectable().count() == 4);

  CHECK(input.press(sq("d1")) == InputEffect::Changed);
  CHECK(input.release(sq("d1")) == InputEffect::Changed);
  CHECK(input.stage() == InputStage::ChooseDestination);
  CHECK(input.queen() == sq("d1"));
  CHECK(input.targets() == queen_destinations(pos, sq("d1")));

  CHECK(input.press(sq("d7")) == InputEffect::Changed);
  input.release(sq("d7"));
  CHECK(input.stage() == InputStage::ChooseArrow);
  CHECK(input.destination() == sq("d7"));
  CHECK(input.targets() == arrow_targets(pos, sq("d1"), sq("d7")));

  CHECK(input.press(sq("g7")) == InputEffect::MoveReady);
  REQUIRE(input.ready_move());
  CHECK(input.take_move() == mv("d1-d7/g7"));
  CHECK(input.stage() == InputStage::Disabled);
  CHECK_FALSE(input.ready_move());
  CHECK(input.press(sq("d1")) == InputEffect::None);
}

TEST_CASE("the arrow may go back to the square the queen left") {
  MoveInput input;
  input.reset(start(), true);
  input.press(sq("d1"));
  input.release(sq("d1"));
  input.press(sq("d2"));
  input.release(sq("d2"));
  CHECK(input.targets().test(sq("d1")));
  CHECK(input.accepts(sq("d1")));
  CHECK(input.press(sq("d1")) == InputEffect::MoveReady);
  CHECK(input.take_move() == mv("d1-d2/d1"));
}

TEST_CASE("exactly the legal moves can be entered") {
  std::mt19937_64 rng(7);
  for (const RuleVariant& v : {standard_variant(), botzone8_variant(), test::small_variant(6)}) {
    Position pos(v);
    for (int round = 0; round < 3; ++round) {
      auto moves = std::make_unique<MoveList>();
      generate_moves(pos, *moves);
      std::set<std::uint32_t> legal;
      for (Move m : *moves) legal.insert(m.raw());
      CHECK(enterable_moves(pos) == legal);
      test::random_game(pos, 6, rng);
      if (pos.is_game_over()) break;
    }
  }
}

TEST_CASE("presses that would make an illegal move are ignored") {
  MoveInput input;
  input.reset(start(), true);
  CHECK(input.press(sq("e5")) == InputEffect::None);  // an empty square
  CHECK(input.press(sq("a7")) == InputEffect::None);  // the opponent's queen
  CHECK(input.press(Square::none()) == InputEffect::None);
  CHECK(input.press(Square::at(11, 11)) == InputEffect::None);  // off this 10x10 board
  CHECK(input.stage() == InputStage::ChooseQueen);

  input.press(sq("d1"));
  input.release(sq("d1"));
  CHECK(input.press(sq("e3")) == InputEffect::None);   // not on a line from d1
  CHECK(input.press(sq("d10")) == InputEffect::None);  // occupied
  CHECK(input.stage() == InputStage::ChooseDestination);
  CHECK(input.queen() == sq("d1"));

  input.press(sq("d7"));
  input.release(sq("d7"));
  CHECK(input.press(sq("d10")) == InputEffect::None);  // a queen stands there
  CHECK(input.press(sq("e9")) == InputEffect::None);   // not on a line from d7
  CHECK(input.stage() == InputStage::ChooseArrow);
  CHECK_FALSE(input.ready_move());
}

TEST_CASE("back steps from the arrow to the destination to no selection") {
  MoveInput input;
  input.reset(start(), true);
  CHECK(input.back() == InputEffect::None);
  input.press(sq("g1"));
  input.release(sq("g1"));
  input.press(sq("g5"));
  input.release(sq("g5"));
  REQUIRE(input.stage() == InputStage::ChooseArrow);
  CHECK(input.back() == InputEffect::Changed);
  CHECK(input.stage() == InputStage::ChooseDestination);
  CHECK(input.queen() == sq("g1"));
  CHECK(input.destination() == Square::none());
  CHECK(input.targets() == queen_destinations(start(), sq("g1")));
  CHECK(input.back() == InputEffect::Changed);
  CHECK(input.stage() == InputStage::ChooseQueen);
  CHECK(input.targets().empty());
  CHECK(input.back() == InputEffect::None);
}

TEST_CASE("pressing another own queen selects it instead") {
  MoveInput input;
  input.reset(start(), true);
  input.press(sq("d1"));
  input.release(sq("d1"));
  CHECK(input.press(sq("g1")) == InputEffect::Changed);
  input.release(sq("g1"));
  CHECK(input.queen() == sq("g1"));
  CHECK(input.stage() == InputStage::ChooseDestination);

  input.press(sq("g5"));
  input.release(sq("g5"));
  REQUIRE(input.stage() == InputStage::ChooseArrow);
  CHECK(input.press(sq("a4")) == InputEffect::Changed);
  input.release(sq("a4"));
  CHECK(input.stage() == InputStage::ChooseDestination);
  CHECK(input.queen() == sq("a4"));
}

TEST_CASE("clicking the selected queen again puts it down") {
  MoveInput input;
  input.reset(start(), true);
  input.press(sq("j4"));
  input.release(sq("j4"));
  REQUIRE(input.stage() == InputStage::ChooseDestination);
  input.press(sq("j4"));
  CHECK(input.release(sq("j4")) == InputEffect::Changed);
  CHECK(input.stage() == InputStage::ChooseQueen);
}

TEST_CASE("drag and drop") {
  MoveInput input;
  input.reset(start(), true);
  SUBCASE("dropping on a legal destination chooses it") {
    input.press(sq("d1"));
    CHECK(input.drag_origin() == sq("d1"));
    CHECK(input.release(sq("d7")) == InputEffect::Changed);
    CHECK_FALSE(input.drag_origin());
    CHECK(input.stage() == InputStage::ChooseArrow);
    CHECK(input.destination() == sq("d7"));
    CHECK(input.press(sq("g7")) == InputEffect::MoveReady);
    CHECK(input.take_move() == mv("d1-d7/g7"));
  }
  SUBCASE("dropping on an illegal square puts the queen back, still selected") {
    input.press(sq("d1"));
    input.release(sq("e3"));
    CHECK(input.stage() == InputStage::ChooseDestination);
    CHECK(input.queen() == sq("d1"));
    input.press(sq("d1"));
    input.release(Square::none());  // dropped off the board
    CHECK(input.stage() == InputStage::ChooseDestination);
  }
  SUBCASE("the moved queen can be dragged on to another destination") {
    input.press(sq("d1"));
    input.release(sq("d7"));
    CHECK(input.accepts(sq("d7")));
    CHECK(input.press(sq("d7")) == InputEffect::Changed);
    CHECK(input.release(sq("d5")) == InputEffect::Changed);
    CHECK(input.destination() == sq("d5"));
    CHECK(input.targets() == arrow_targets(start(), sq("d1"), sq("d5")));
    input.press(sq("d7"));
    input.release(sq("d7"));
    CHECK(input.take_move() == mv("d1-d5/d7"));
  }
  SUBCASE("back during a drag drops the queen") {
    input.press(sq("d1"));
    input.back();
    CHECK_FALSE(input.drag_origin());
    CHECK(input.release(sq("d7")) == InputEffect::None);
    CHECK(input.stage() == InputStage::ChooseQueen);
  }
}

TEST_CASE("no input when it is not a local human's turn, or when the game is over") {
  MoveInput input;
  input.reset(start(), false);
  CHECK(input.stage() == InputStage::Disabled);
  CHECK(input.selectable().empty());
  CHECK_FALSE(input.accepts(sq("d1")));
  CHECK(input.press(sq("d1")) == InputEffect::None);

  // White to move, and both white queens are walled in.
  const Position over = *parse_position("Wx3B/xx4/6/6/4xx/B3xW w");
  REQUIRE(over.is_game_over());
  input.reset(over, true);
  CHECK(input.stage() == InputStage::Disabled);

  // A walled-in queen cannot be selected while another one can move.
  const Position boxed = *parse_position("Wx3B/xx4/6/6/6/W4B w");
  input.reset(boxed, true);
  CHECK(input.press(sq("a6")) == InputEffect::None);
  CHECK(input.selectable() == Bitboard::of(sq("a1")));

  input.press(sq("a1"));
  input.disable();
  CHECK(input.press(sq("a2")) == InputEffect::None);
}
