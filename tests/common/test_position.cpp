#include <doctest/doctest.h>

#include <random>
#include <set>

#include "common/movegen.h"
#include "common/position.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using amazons::test::mv;
using amazons::test::sq;

TEST_CASE("the standard start position") {
  const Position p(standard_variant());
  CHECK(p.size() == 10);
  CHECK(p.side_to_move() == Color::White);
  CHECK(p.queen_count() == 4);
  for (const char* s : {"a4", "d1", "g1", "j4"}) CHECK(p.piece_at(sq(s)) == Piece::WhiteQueen);
  for (const char* s : {"a7", "d10", "g10", "j7"}) CHECK(p.piece_at(sq(s)) == Piece::BlackQueen);
  CHECK(p.arrows().empty());
  CHECK(p.empty_squares().count() == 92);
  CHECK_FALSE(p.is_game_over());
}

TEST_CASE("the botzone 8x8 start: Black moves first") {
  const Position p(botzone8_variant());
  CHECK(p.size() == 8);
  CHECK(p.side_to_move() == Color::Black);
  CHECK(p.piece_at(sq("c8")) == Piece::BlackQueen);
  CHECK(p.piece_at(sq("f1")) == Piece::WhiteQueen);
}

TEST_CASE("a move places the queen and the arrow and passes the turn, undo restores everything") {
  Position p(standard_variant());
  const Position before = p;
  const Move m = mv("d1-d7/g7");
  REQUIRE_FALSE(p.try_play(m));
  CHECK(p.piece_at(sq("d1")) == Piece::Empty);
  CHECK(p.piece_at(sq("d7")) == Piece::WhiteQueen);
  CHECK(p.piece_at(sq("g7")) == Piece::Arrow);
  CHECK(p.side_to_move() == Color::Black);
  CHECK(p.hash() != before.hash());
  p.undo_move(m);
  CHECK(p == before);
  CHECK(p.hash() == before.hash());
  CHECK(to_text(p) == to_text(before));
}

TEST_CASE("the arrow may pass through or land on the square the queen just left") {
  Position p(standard_variant());
  CHECK_FALSE(p.check(mv("d1-d2/d1")));  // back onto the vacated square
  CHECK_FALSE(p.check(mv("d1-d3/d1")));  // back, one square further
  CHECK_FALSE(p.check(mv("a4-a2/a5")));  // north, through the vacated a4
  CHECK(p.check(mv("a4-a2/a4")) == std::nullopt);
  // The arrow cannot stay on the queen's own destination.
  CHECK(p.check(mv("d1-d2/d2")) == MoveError::ArrowNotOnLine);
}

TEST_CASE("every reason an untrusted move is refused") {
  Position p(standard_variant());
  CHECK(p.check(Move(Square::at(10, 0), sq("d2"), sq("d3"))) == MoveError::OffBoard);
  CHECK(p.check(Move(sq("d1"), sq("d2"), Square::at(3, 10))) == MoveError::OffBoard);
  CHECK(p.check(Move(sq("d1"), sq("d2"), Square::none())) == MoveError::OffBoard);
  CHECK(p.check(mv("a7-a6/a5")) == MoveError::NotOwnQueen);  // black queen, white to move
  CHECK(p.check(mv("e1-e2/e3")) == MoveError::NotOwnQueen);  // empty square
  CHECK(p.check(mv("d1-e3/e4")) == MoveError::NotOnQueenLine);
  CHECK(p.check(mv("d1-d1/d2")) == MoveError::NotOnQueenLine);
  CHECK(p.check(mv("a4-a7/a6")) == MoveError::DestinationOccupied);  // a black queen
  CHECK(p.check(mv("d1-g1/g2")) == MoveError::DestinationOccupied);  // own queen
  CHECK(p.check(mv("d1-h1/h2")) == MoveError::PathBlocked);          // over g1
  CHECK(p.check(mv("a4-a8/a9")) == MoveError::PathBlocked);          // over a7
  CHECK(p.check(mv("d1-d5/e7")) == MoveError::ArrowNotOnLine);
  CHECK(p.check(mv("d1-d7/a7")) == MoveError::ArrowOccupied);     // a queen on a7
  CHECK(p.check(mv("d1-d7/d10")) == MoveError::ArrowOccupied);    // a queen on d10
  CHECK(p.check(mv("d1-e1/h1")) == MoveError::ArrowPathBlocked);  // over the queen on g1
  REQUIRE_FALSE(p.try_play(mv("d1-d7/c7")));
  REQUIRE_FALSE(p.try_play(mv("a7-b7/b6")));
  CHECK(p.check(mv("d7-a7/a8")) == MoveError::PathBlocked);       // over the arrow on c7
  CHECK(p.check(mv("d7-d6/a6")) == MoveError::ArrowPathBlocked);  // over the arrow on b6
  const Position snapshot = p;
  CHECK(p.try_play(mv("g1-g9/g10")) == MoveError::ArrowOccupied);  // refused: nothing changes
  CHECK(p == snapshot);
}

TEST_CASE("every error code and description is distinct") {
  std::set<std::string_view> codes, texts;
  for (int e = 0; e <= static_cast<int>(MoveError::ArrowPathBlocked); ++e) {
    codes.insert(code(static_cast<MoveError>(e)));
    texts.insert(describe(static_cast<MoveError>(e)));
  }
  CHECK(codes.size() == 9);
  CHECK(texts.size() == 9);
}

TEST_CASE("game over: the side to move with no queen move loses, for either side") {
  // White's only queen on a1 is walled in by arrows; Black can still move.
  auto white_stuck = parse_position("6/6/6/B5/xx4/Wx4 w");
  REQUIRE(white_stuck);
  CHECK(white_stuck->is_game_over());
  CHECK(count_moves(*white_stuck) == 0);
  CHECK(white_stuck->check(mv("a1-a2/a3")) == MoveError::GameOver);
  auto black_stuck = parse_position("Bx4/xx4/6/6/6/5W b");
  REQUIRE(black_stuck);
  CHECK(black_stuck->is_game_over());
  // The same positions with the other side to move are not over.
  CHECK_FALSE(parse_position("6/6/6/B5/xx4/Wx4 b")->is_game_over());
  CHECK_FALSE(parse_position("Bx4/xx4/6/6/6/5W w")->is_game_over());
}

TEST_CASE("a queen with no moves does not end the game while another queen can move") {
  auto p = parse_position("B5/6/6/6/xx3B/Wx2W1 w");
  REQUIRE(p);
  CHECK(queen_destinations(*p, sq("a1")).empty());
  CHECK_FALSE(p->is_game_over());
  MoveList moves;
  generate_moves(*p, moves);
  for (Move m : moves) CHECK(m.from() == sq("e1"));
}

TEST_CASE("the hash kept incrementally equals the hash of the same position built from scratch") {
  std::mt19937_64 rng(7);
  for (const RuleVariant& v :
       {standard_variant(), botzone8_variant(), test::small_variant(6), test::small_variant(12)}) {
    Position p(v);
    MoveList moves;
    for (int ply = 0; ply < 40 && !p.is_game_over(); ++ply) {
      moves.clear();
      generate_moves(p, moves);
      p.do_move(moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)]);
      const auto rebuilt = parse_position(to_text(p));
      REQUIRE(rebuilt);
      CHECK(rebuilt->hash() == p.hash());
    }
  }
}

TEST_CASE("undoing a random game move by move restores every earlier position") {
  std::mt19937_64 rng(11);
  Position p(standard_variant());
  std::vector<Position> history{p};
  MoveList moves;
  std::vector<Move> played;
  while (!p.is_game_over()) {
    moves.clear();
    generate_moves(p, moves);
    const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
    p.do_move(m);
    played.push_back(m);
    history.push_back(p);
  }
  CHECK(played.size() <= 92);
  while (!played.empty()) {
    p.undo_move(played.back());
    played.pop_back();
    history.pop_back();
    CHECK(p == history.back());
  }
}

TEST_CASE("Position::make refuses inconsistent positions") {
  const std::vector<Square> one{sq("a1")}, two{sq("b1"), sq("c1")}, clash{sq("a1")};
  CHECK_FALSE(Position::make(5, one, one, {}, Color::White));
  CHECK_FALSE(Position::make(13, one, one, {}, Color::White));
  CHECK(Position::make(6, one, two, {}, Color::White).error().find("unequal") != std::string::npos);
  CHECK(Position::make(6, one, clash, {}, Color::White).error().find("two pieces") !=
        std::string::npos);
  CHECK_FALSE(Position::make(6, std::vector<Square>{sq("g1")}, std::vector<Square>{sq("a6")}, {},
                             Color::White));
  CHECK_FALSE(
      Position::make(6, one, std::vector<Square>{sq("b2")}, Bitboard::of(sq("a8")), Color::White));
  CHECK_FALSE(Position::make(6, {}, {}, {}, Color::White));
}
