#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ai/evaluate.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

constexpr int kFar = std::numeric_limits<int>::max();

// Distance to every square by breadth-first search over single moves, square by square: the
// slow, obvious definition the bitboard fills are checked against.
std::vector<int> distances(const Position& pos, Color c, bool queen_moves) {
  std::vector<int> dist(kSquareSpace, kFar);
  std::vector<Square> frontier(pos.queens(c).begin(), pos.queens(c).end());
  for (Square q : frontier) dist[static_cast<std::size_t>(q.index())] = 0;
  const Bitboard empty = pos.empty_squares();
  for (int d = 1; !frontier.empty(); ++d) {
    std::vector<Square> next;
    for (Square from : frontier) {
      for (Direction dir : kAllDirections) {
        for (int s = from.index() + delta(dir);; s += delta(dir)) {
          const Square to = Square::from_index(s);
          if (s < 0 || s >= kSquareSpace || !empty.test(to)) break;
          if (dist[static_cast<std::size_t>(s)] == kFar) {
            dist[static_cast<std::size_t>(s)] = d;
            next.push_back(to);
          }
          if (!queen_moves) break;
        }
      }
    }
    frontier = next;
  }
  return dist;
}

EvalTerms naive_terms(const Position& pos, double tempo) {
  const Color me = pos.side_to_move();
  const auto qm = distances(pos, me, true), qo = distances(pos, ~me, true);
  const auto km = distances(pos, me, false), ko = distances(pos, ~me, false);
  EvalTerms t;
  bool shared = false;
  for (Square s : pos.empty_squares()) {
    const auto i = static_cast<std::size_t>(s.index());
    auto territory = [&](int a, int b) {
      if (a < b) return 1.0;
      if (a > b) return -1.0;
      return a == kFar ? 0.0 : tempo;
    };
    t.queen_territory += territory(qm[i], qo[i]);
    t.king_territory += territory(km[i], ko[i]);
    auto inv = [](int d) { return d == kFar ? 0.0 : std::ldexp(1.0, -d); };
    t.queen_position += 2 * (inv(qm[i]) - inv(qo[i]));
    if (km[i] != kFar || ko[i] != kFar) {
      const double diff = km[i] == kFar ? -6 : ko[i] == kFar ? 6 : ko[i] - km[i];
      t.king_position += std::clamp(diff / 6.0, -1.0, 1.0);
    }
    if (qm[i] != kFar && qo[i] != kFar) shared = true;
  }
  t.separated = !shared;
  return t;
}

}  // namespace

TEST_CASE("the bitboard distance terms equal a square-by-square search on every board size") {
  std::mt19937_64 rng(7);
  Evaluator eval;
  for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
    for (int game = 0; game < 6; ++game) {
      Position pos(test::small_variant(size));
      test::random_game(pos, game * size, rng);
      const EvalTerms fast = eval.terms(pos);
      const EvalTerms slow = naive_terms(pos, eval.params().tempo);
      CAPTURE(to_text(pos));
      CHECK(fast.queen_territory == doctest::Approx(slow.queen_territory));
      CHECK(fast.king_territory == doctest::Approx(slow.king_territory));
      CHECK(fast.queen_position == doctest::Approx(slow.queen_position));
      CHECK(fast.king_position == doctest::Approx(slow.king_position));
      CHECK(fast.separated == slow.separated);
    }
  }
}

TEST_CASE("the dense layouts give exactly what the rules core's layout gives") {
  std::mt19937_64 rng(17);
  EvalParams wide_params;
  wide_params.wide_layout = true;
  Evaluator dense, wide(wide_params);
  for (int size = kMinBoardSize; size <= kMaxBoardSize; ++size) {
    for (int game = 0; game < 8; ++game) {
      Position pos(test::small_variant(size));
      test::random_game(pos, game * size / 2, rng);
      CAPTURE(to_text(pos));
      CHECK(dense.evaluate(pos) == wide.evaluate(pos));
    }
  }
}

TEST_CASE("the evaluation is symmetric: swapping the colours negates it") {
  // Mirror the board top to bottom and swap the colours: the side to move has the same game.
  const Position a = *parse_position("2B2B2/8/B6B/3x4/8/W6W/8/2W2W2 b");
  const Position b = *parse_position("2B2B2/8/B6B/8/3x4/W6W/8/2W2W2 w");
  Evaluator eval;
  CHECK(eval.evaluate(a) == eval.evaluate(b));
}

TEST_CASE("a side with no move scores as lost") {
  Evaluator eval;
  CHECK(eval.evaluate(*parse_position("6/6/6/B5/xx4/Wx4 w")) == -kWin);
}

TEST_CASE("a shut-in queen is worth less than a free one") {
  Evaluator eval;
  // White's queen on a1 has one square left; Black's is free.
  const Score s = eval.evaluate(*parse_position("8/8/8/8/3B4/8/xx6/W1x5 w"));
  CHECK(s < -500);
}

TEST_CASE("the territory map holds the distances a square-by-square search finds") {
  std::mt19937_64 rng(23);
  for (int size = kMinBoardSize; size <= kMaxBoardSize; size += 2) {
    for (int game = 0; game < 4; ++game) {
      Position pos(test::small_variant(size));
      test::random_game(pos, game * size, rng);
      CAPTURE(to_text(pos));
      const TerritoryMap map = territory_map(pos);
      CHECK(map.size == size);
      for (Color c : {Color::White, Color::Black}) {
        const auto queen = distances(pos, c, true), king = distances(pos, c, false);
        for (Square s : Bitboard::board(size)) {
          const auto i = static_cast<std::size_t>(s.index());
          auto expected = [](int d) { return d == kFar ? int{TerritoryMap::kUnreached} : d; };
          CAPTURE(to_string(s));
          CHECK(map.queen_distance(c, s) == expected(queen[i]));
          CHECK(map.king_distance(c, s) == expected(king[i]));
        }
      }
    }
  }
}

TEST_CASE("the territory map's owner is the side nearer by queen moves, nobody on a tie") {
  // White a1, Black f6 on an empty 6x6 board; an arrow on c3.
  const Position pos = *parse_position("5B/6/6/2x3/6/W5 w");
  const TerritoryMap map = territory_map(pos);
  auto sq = [](const char* text) { return *parse_square(text); };
  CHECK(map.owner(sq("a2")) == Color::White);  // white 1 move, black 2
  CHECK(map.owner(sq("f5")) == Color::Black);
  CHECK(map.owner(sq("a6")) == std::nullopt);  // one move for each
  CHECK(map.owner(sq("b6")) == Color::Black);  // black 1, white 2
  CHECK(map.owner(sq("c3")) == std::nullopt);  // the arrow
  CHECK(map.owner(sq("a1")) == std::nullopt);  // a queen
  CHECK(map.queen_distance(Color::White, sq("a1")) == 0);
  CHECK(map.queen_distance(Color::Black, sq("a1")) == TerritoryMap::kUnreached);
  CHECK(map.king_distance(Color::White, sq("c2")) == 2);
  CHECK(map.queen_distance(Color::White, sq("c2")) == 2);  // off every line through a1
  CHECK(map.queen_distance(Color::Black, sq("c3")) == TerritoryMap::kUnreached);  // the arrow
}

TEST_CASE("the mobility term is the documented 8 m / (m + 6) per queen, mine less theirs") {
  // White's queen on a1 reaches only b1; Black's on d4 reaches 25 squares (the arrows on a2, b2
  // and c1 block nothing of its lines).
  const Position pos = *parse_position("8/8/8/8/3B4/8/xx6/W1x5 b");
  Evaluator eval;
  const EvalTerms t = eval.terms(pos);
  auto mobility = [](int reach) { return 8.0 * reach / (reach + 6.0); };
  int black_reach = 0;
  for (Square q : pos.queens(Color::Black)) black_reach += slide_count(pos, q, Square::none());
  REQUIRE(black_reach == 25);
  CHECK(t.mobility == doctest::Approx(mobility(25) - mobility(1)));
  CHECK(t.mobility > 4);
}

TEST_CASE("the mobility term follows mobility_scale and mobility_half") {
  const Position pos = *parse_position("8/8/8/8/3B4/8/xx6/W1x5 b");
  EvalParams p;
  p.mobility_scale = 4.0;
  p.mobility_half = 1.0;
  Evaluator eval(p);
  CHECK(eval.terms(pos).mobility == doctest::Approx(4.0 * 25 / 26 - 4.0 * 1 / 2));
  p.mobility_scale = 0;
  eval.set_params(p);
  CHECK(eval.terms(pos).mobility == 0);
}

namespace {

struct DocumentedTerm {
  const char* name;
  double TermWeights::*weight;
  double EvalTerms::*raw;
};

// Every term docs/ENGINE.md lists under "Evaluation", with its weight and its raw value.
constexpr DocumentedTerm kDocumentedTerms[] = {
    {"t1 queen territory", &TermWeights::queen_territory, &EvalTerms::queen_territory},
    {"t2 king territory", &TermWeights::king_territory, &EvalTerms::king_territory},
    {"c1 queen position", &TermWeights::queen_position, &EvalTerms::queen_position},
    {"c2 king position", &TermWeights::king_position, &EvalTerms::king_position},
    {"mobility", &TermWeights::mobility, &EvalTerms::mobility},
};

EvalParams without(double TermWeights::*weight) {
  EvalParams p;
  for (PhaseWeights* board : {&p.small_board, &p.large_board})
    board->opening.*weight = board->middlegame.*weight = board->endgame.*weight = 0;
  return p;
}

}  // namespace

TEST_CASE("every documented evaluation term moves the score the way docs/ENGINE.md says") {
  // Black's queen is free and nearer to almost every square; White's on a1 is nearly shut in.
  // Every term favours Black, so each must raise the score with Black to move and lower it with
  // White to move, and taking its weight away must undo exactly that. On both sets of weights,
  // in phases where each term has a weight (the fitted weights leave some at 0 in the opening):
  // 8x8 (the small board's) in its end game, and 10x10 (the large board's) with 43 of 98 squares
  // burnt, where the middle game's and the end game's weights are blended.
  const char* positions[] = {"xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxx4/8/3B4/xx6/W1x5",
                             "xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/10/10/4B5/10/xx8/W1x7"};
  for (const char* board : positions) {
    CAPTURE(board);
    const Position black_to_move = *parse_position(std::string(board) + " b");
    const Position white_to_move = *parse_position(std::string(board) + " w");
    Evaluator full;
    const EvalTerms t = full.terms(black_to_move);
    REQUIRE_FALSE(t.separated);
    const Score with_black = full.evaluate(black_to_move);
    const Score with_white = full.evaluate(white_to_move);
    REQUIRE(std::abs(with_black) < kMaxHeuristic);  // not clamped, so every change shows
    REQUIRE(std::abs(with_white) < kMaxHeuristic);
    for (const DocumentedTerm& term : kDocumentedTerms) {
      CAPTURE(term.name);
      CHECK(t.*term.raw > 0.5);  // the side with the freer, nearer queen is ahead on it
      Evaluator reduced(without(term.weight));
      CHECK(reduced.evaluate(black_to_move) < with_black);
      CHECK(reduced.evaluate(white_to_move) > with_white);
    }
  }
}

TEST_CASE("a small board and a large one are weighted by their own sets of weights") {
  EvalParams p;
  p.large_board.endgame.queen_territory += 1;  // only 10x10's end game changes
  Evaluator changed(p), today;
  const Position small =
      *parse_position("xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxx4/3B4/xx6/W1x5 b");
  const Position large = *parse_position(
      "xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/4B5/10/xx8/W1x7 b");
  REQUIRE(today.terms(large).phase > p.endgame_at);
  REQUIRE(today.terms(small).phase > p.endgame_at);
  CHECK(changed.evaluate(small) == today.evaluate(small));
  CHECK(changed.evaluate(large) > today.evaluate(large));
}

TEST_CASE("the tempo share of a tied square goes to the side to move") {
  // On an empty 6x6 board with queens in opposite corners many squares are tied.
  const Position pos = *parse_position("5B/6/6/6/6/W5 w");
  // The fitted weights may leave territory out of a small board's opening; weigh it here so the
  // score shows the share.
  EvalParams weighted;
  weighted.small_board.opening.queen_territory = 1;
  EvalParams no_tempo = weighted;
  no_tempo.tempo = 0;
  Evaluator full(weighted), reduced(no_tempo);
  const EvalTerms with = full.terms(pos), without_tempo = reduced.terms(pos);
  // Symmetric position: without the tempo share nobody is ahead on territory.
  CHECK(without_tempo.queen_territory == doctest::Approx(0));
  CHECK(with.queen_territory > 0.5);
  CHECK(with.king_territory > 0.5);
  CHECK(full.evaluate(pos) > reduced.evaluate(pos));
}
