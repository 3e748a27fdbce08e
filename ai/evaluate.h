// Static evaluation: who controls the empty squares, by queen and king distance, and how free the
// queens are, weighted by the phase of the game; once the sides are separated, the exact count
// of the moves each has left.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "ai/endgame.h"
#include "ai/score.h"
#include "common/position.h"

namespace amazons::ai {

// The weight of each term at one point of the game.
struct TermWeights {
  double queen_territory = 0;  // t1: squares a side reaches first with queen moves
  double king_territory = 0;   // t2: the same with king steps
  double queen_position = 0;   // c1: 2 * sum(2^-Q_me - 2^-Q_opp)
  double king_position = 0;    // c2: sum(clamp((K_opp - K_me) / 6, -1, 1))
  double mobility = 0;         // per queen, a concave function of its one-move reach
  friend bool operator==(const TermWeights&, const TermWeights&) = default;
};

// The weights of the terms through a game: a set at the start, one in the middle game and one in
// the end game, interpolated linearly by the share of the initially empty squares burnt.
struct PhaseWeights {
  TermWeights opening, middlegame, endgame;
  friend bool operator==(const PhaseWeights&, const PhaseWeights&) = default;
};

// Boards up to this size (Botzone's 8x8) take EvalParams::small_board, larger ones large_board.
inline constexpr int kSmallBoardLargest = 8;

struct EvalParams {
  // Weights for small and large boards, each fitted to the results of self-play games
  // (bench/texel, docs/ENGINE.md): 8x8's from games of its MCTS, 10x10's of its alpha-beta.
  PhaseWeights small_board{{0.000, 0.000, 0.000, 0.494, 0.000},
                           {0.030, 0.101, 0.000, 0.615, 0.440},
                           {0.617, 0.300, 0.331, 0.445, 0.348}};
  PhaseWeights large_board{{0.029, 0.020, 0.019, 0.438, 0.000},
                           {0.000, 0.132, 0.048, 0.395, 0.871},
                           {1.069, 0.904, 0.039, 0.265, 0.331}};
  double middlegame_at = 0.25;
  double endgame_at = 0.55;
  // A square both sides reach equally fast counts this much for the side to move, which gets
  // there first.
  double tempo = 0.2;
  // Mobility of a queen reaching m squares: mobility_scale * m / (m + mobility_half). Concave, so
  // losing the last few squares of a nearly shut-in queen costs the most.
  double mobility_scale = 8.0;
  double mobility_half = 6.0;
  // Extra random-looking term of up to +-noise (hundredths of a square), a fixed function of
  // the position and noise_seed: the weak levels' deliberate mistakes. 0 for full strength.
  int noise = 0;
  std::uint64_t noise_seed = 0;
  // Search nodes the endgame counter may spend on one separated region.
  std::uint64_t endgame_budget = 4000;
  // Compute the distance terms in the rules core's three-word layout on every board size instead
  // of the dense one: the same numbers, slower; the baseline for benchmarks and tests.
  bool wide_layout = false;
  // The weights that a board of this many squares a side is evaluated with.
  const PhaseWeights& weights_for(int board_size) const {
    return board_size <= kSmallBoardLargest ? small_board : large_board;
  }
  PhaseWeights& weights_for(int board_size) {
    return board_size <= kSmallBoardLargest ? small_board : large_board;
  }
  friend bool operator==(const EvalParams&, const EvalParams&) = default;
};

// How much each set of weights (opening, middle game, end game) counts at `phase`: the linear
// interpolation the evaluation blends them with. The three shares add up to 1.
std::array<double, 3> phase_shares(const EvalParams& params, double phase);

// The raw terms from the side to move's point of view (before weighting), for tests and tools.
struct EvalTerms {
  double queen_territory = 0;
  double king_territory = 0;
  double queen_position = 0;
  double king_position = 0;
  double mobility = 0;
  double phase = 0;        // 0 at the start, 1 when the board is full
  bool separated = false;  // no empty square is reachable by both sides
  bool stuck = false;      // the side to move has no empty neighbour: it cannot move
};

// The most squares a queen can reach in one move: four lines through it.
inline constexpr int kMaxReach = 4 * (kMaxBoardSize - 1);

// Holds scratch space and the endgame counter's table: one per thread, not thread-safe.
class Evaluator {
 public:
  explicit Evaluator(EvalParams params = {});

  // Precondition: the position is consistent (any game position, finished or not).
  // A side to move without moves scores -kWin. Separated positions are counted: a counted win is
  // kKnownWin + 10 * margin; otherwise the weighted terms, clamped to +-kMaxHeuristic.
  Score evaluate(const Position& pos);
  EvalTerms terms(const Position& pos);

  const EvalParams& params() const { return params_; }
  void set_params(const EvalParams& params);
  EndgameCounter& endgame() { return endgame_; }
  // Evaluations made since construction.
  std::uint64_t count() const { return count_; }

 private:
  Score score_terms(const Position& pos, const EvalTerms& t) const;
  Score score_separated(const Position& pos);
  // Fills mobility_ from params_: every change of the parameters must refill it.
  void fill_mobility_table();

  EvalParams params_;
  std::array<double, kMaxReach + 1> mobility_{};  // the mobility of a queen by its reach (m)
  EndgameCounter endgame_;
  std::uint64_t count_ = 0;
};

// Who reaches each square first: both sides' queen-move and king-step distances from their nearest
// queen over the empty squares, as the evaluation's territory terms count them. For views (the
// client's territory tint) and tools; built with the evaluation's own fills.
struct TerritoryMap {
  static constexpr std::uint8_t kUnreached = 0xFF;
  using Distances = std::array<std::uint8_t, kSquareSpace>;  // indexed by Square::index()

  int size = 0;
  std::array<Distances, 2> queen{};  // [index_of(c)]: moves a queen of c needs; 0 on c's queens
  std::array<Distances, 2> king{};   // the same with king steps

  // The side whose queens reach an empty square in fewer queen moves; none on a tie, when
  // neither reaches it, or for a square that is not empty.
  std::optional<Color> owner(Square s) const;
  int queen_distance(Color c, Square s) const { return queen[index_of(c)][s.index()]; }
  int king_distance(Color c, Square s) const { return king[index_of(c)][s.index()]; }
};

// Precondition: the position is consistent. Occupied squares other than c's queens, and empty
// squares c cannot reach, are kUnreached for c.
TerritoryMap territory_map(const Position& pos);

}  // namespace amazons::ai
