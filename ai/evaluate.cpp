#include "ai/evaluate.h"

#include <algorithm>
#include <cmath>

#include "ai/dense_board.h"
#include "common/movegen.h"
#include "common/zobrist.h"

namespace amazons::ai {

namespace {

// Distances beyond the number of squares cannot occur; one extra level for the sentinel.
constexpr int kMaxLevels = kMaxBoardSize * kMaxBoardSize + 1;
// King-distance differences this large or larger count fully in the king position term.
constexpr int kKingPositionSpan = 6;

template <class L>
class DistanceFill {
 public:
  using Bits = typename L::Bits;

  DistanceFill(const Position& pos) : size_(pos.size()) {
    empty_ = L::from(pos.empty_squares(), size_);
    // The masks as constants: computed here they are loops of variable shifts, which some
    // compilers (clang for WebAssembly) leave to run at every evaluation.
    static constexpr Bits kNotFirstFile = L::not_first_file();
    static constexpr Bits kNotLastFile = L::not_last_file();
    const Bits east = empty_ & kNotFirstFile;
    const Bits west = empty_ & kNotLastFile;
    for (int d = 0; d < 8; ++d) {
      const int df = kDenseDirections[d].file_step;
      pro_[d] = df > 0 ? east : df < 0 ? west : empty_;
    }
  }

  // Fills layer[1..n] with the squares at distance 1..n from `from` (queen moves or king steps);
  // returns n. layer[0] is left alone.
  int queen_layers(Bits from, Bits* layer) const {
    Bits reached = from, frontier = from;
    int n = 0;
    for (;;) {
      const Bits next = L::andnot(queen_step(frontier), reached);
      if (!L::any(next)) return n;
      layer[++n] = next;
      reached |= next;
      frontier = next;
    }
  }
  int king_layers(Bits from, Bits* layer) const {
    Bits reached = from, frontier = from;
    int n = 0;
    for (;;) {
      const Bits next = L::andnot(king_step(frontier), reached);
      if (!L::any(next)) return n;
      layer[++n] = next;
      reached |= next;
      frontier = next;
    }
  }

 private:
  template <int D>
  static constexpr int kShift =
      kDenseDirections[D].rank_step* L::kStride + kDenseDirections[D].file_step;

  // Kogge-Stone occluded fill in direction D, then one step: the squares a queen on any square of
  // `from` reaches in that direction.
  template <int D>
  Bits slide(Bits from) const {
    constexpr int s = kShift<D>;
    const Bits open = pro_[D];
    Bits gen = from, pro = open;
    gen |= pro & L::template shift<s>(gen);
    pro &= L::template shift<s>(pro);
    gen |= pro & L::template shift<2 * s>(gen);
    pro &= L::template shift<2 * s>(pro);
    gen |= pro & L::template shift<4 * s>(gen);
    if constexpr (L::kDoublings >= 4) {
      pro &= L::template shift<4 * s>(pro);
      gen |= pro & L::template shift<8 * s>(gen);
    }
    return L::template shift<s>(gen) & open;
  }
  Bits queen_step(Bits from) const {
    return slide<0>(from) | slide<1>(from) | slide<2>(from) | slide<3>(from) | slide<4>(from) |
           slide<5>(from) | slide<6>(from) | slide<7>(from);
  }
  template <int D>
  Bits step(Bits from) const {
    return L::template shift<kShift<D>>(from) & pro_[D];
  }
  Bits king_step(Bits from) const {
    return step<0>(from) | step<1>(from) | step<2>(from) | step<3>(from) | step<4>(from) |
           step<5>(from) | step<6>(from) | step<7>(from);
  }

  int size_;
  Bits empty_;
  Bits pro_[8];
};

// Distance layers of both sides for one kind of move, and the comparisons the terms need.
template <class L>
struct Layers {
  using Bits = typename L::Bits;
  Bits layer[2][kMaxLevels + 1];
  Bits within[2][kMaxLevels + 1];  // within[c][d]: squares at distance 1..d from side c
  int levels[2] = {0, 0};
  int count[2][kMaxLevels + 1];

  void finish() {
    for (int c = 0; c < 2; ++c) {
      within[c][0] = Bits{};
      for (int d = 1; d <= levels[c]; ++d) {
        within[c][d] = within[c][d - 1] | layer[c][d];
        count[c][d] = L::count(layer[c][d]);
      }
    }
  }
  // Squares side c reaches in at most d moves (every reachable square once d >= levels).
  const Bits& reach(int c, int d) const { return within[c][std::min(d, levels[c])]; }

  // Squares where side c's distance is at least `lead` smaller than the other side's (an
  // unreachable square counts as infinitely far).
  int ahead_by(int c, int lead) const {
    int n = 0;
    for (int d = 1; d <= levels[c]; ++d)
      n += L::count(L::andnot(layer[c][d], reach(1 - c, d + lead - 1)));
    return n;
  }
  int ties() const {
    int n = 0;
    const int top = std::min(levels[0], levels[1]);
    for (int d = 1; d <= top; ++d) n += L::count(layer[0][d] & layer[1][d]);
    return n;
  }
  // sum over reached squares of 2^-distance for side c
  double closeness(int c) const {
    double v = 0, w = 1;
    for (int d = 1; d <= levels[c]; ++d) {
      w *= 0.5;
      v += w * count[c][d];
    }
    return v;
  }
};

template <class L>
EvalTerms compute_terms(const Position& pos, double tempo) {
  using Bits = typename L::Bits;
  const DistanceFill<L> fill(pos);
  const Color me = pos.side_to_move();
  const int m = index_of(me), o = 1 - m;

  Layers<L> queen, king;
  for (int c = 0; c < 2; ++c) {
    const Bits from = L::from(pos.queens_bitboard(static_cast<Color>(c)), pos.size());
    queen.levels[c] = fill.queen_layers(from, queen.layer[c]);
    king.levels[c] = fill.king_layers(from, king.layer[c]);
  }
  queen.finish();
  king.finish();

  EvalTerms t;
  const double queen_ties = queen.ties(), king_ties = king.ties();
  t.queen_territory = queen.ahead_by(m, 1) - queen.ahead_by(o, 1) + tempo * queen_ties;
  t.king_territory = king.ahead_by(m, 1) - king.ahead_by(o, 1) + tempo * king_ties;
  t.queen_position = 2 * (queen.closeness(m) - queen.closeness(o));
  double kp = 0;
  for (int lead = 1; lead <= kKingPositionSpan; ++lead)
    kp += king.ahead_by(m, lead) - king.ahead_by(o, lead);
  t.king_position = kp / kKingPositionSpan;
  t.separated = !L::any(queen.reach(m, kMaxLevels) & queen.reach(o, kMaxLevels));
  // A queen can move exactly when a neighbour is empty (it can always shoot back where it came
  // from), so a side with no square at king distance 1 is stuck.
  t.stuck = king.levels[m] == 0;
  return t;
}

double queen_mobility(const Position& pos, Color c,
                      const std::array<double, kMaxReach + 1>& table) {
  double v = 0;
  for (Square q : pos.queens(c))
    v += table[static_cast<std::size_t>(slide_count(pos, q, Square::none()))];
  return v;
}

TermWeights blend(const EvalParams& p, int board_size, double phase) {
  const auto share = phase_shares(p, phase);
  const PhaseWeights& w = p.weights_for(board_size);
  auto mixed = [&](double TermWeights::*term) {
    return share[0] * (w.opening.*term) + share[1] * (w.middlegame.*term) +
           share[2] * (w.endgame.*term);
  };
  return TermWeights{mixed(&TermWeights::queen_territory), mixed(&TermWeights::king_territory),
                     mixed(&TermWeights::queen_position), mixed(&TermWeights::king_position),
                     mixed(&TermWeights::mobility)};
}

}  // namespace

std::array<double, 3> phase_shares(const EvalParams& p, double phase) {
  if (phase <= p.middlegame_at) {
    const double x = phase / p.middlegame_at;
    return {1 - x, x, 0};
  }
  if (phase < p.endgame_at) {
    const double x = (phase - p.middlegame_at) / (p.endgame_at - p.middlegame_at);
    return {0, 1 - x, x};
  }
  return {0, 0, 1};
}

Evaluator::Evaluator(EvalParams params) : params_(params), endgame_(params.endgame_budget) {
  fill_mobility_table();
}

void Evaluator::set_params(const EvalParams& params) {
  params_ = params;
  endgame_.set_node_budget(params.endgame_budget);
  fill_mobility_table();
}

void Evaluator::fill_mobility_table() {
  for (std::size_t m = 0; m < mobility_.size(); ++m) {
    const double reach = static_cast<double>(m);
    const double denominator = reach + params_.mobility_half;
    mobility_[m] = denominator > 0 ? params_.mobility_scale * reach / denominator : 0.0;
  }
}

EvalTerms Evaluator::terms(const Position& pos) {
  EvalTerms t;
  if (params_.wide_layout) {
    t = compute_terms<WideLayout>(pos, params_.tempo);
  } else if (pos.size() <= Dense64::kMaxSize) {
    t = compute_terms<Dense64>(pos, params_.tempo);
  } else if (pos.size() <= Dense128::kMaxSize) {
    t = compute_terms<Dense128>(pos, params_.tempo);
  } else {
    t = compute_terms<WideLayout>(pos, params_.tempo);
  }
  const Color me = pos.side_to_move();
  t.mobility = queen_mobility(pos, me, mobility_) - queen_mobility(pos, ~me, mobility_);
  const int free_at_start = pos.size() * pos.size() - 2 * pos.queen_count();
  t.phase = std::clamp(static_cast<double>(pos.arrows().count()) / free_at_start, 0.0, 1.0);
  return t;
}

Score Evaluator::evaluate(const Position& pos) {
  ++count_;
  const EvalTerms t = terms(pos);
  if (t.stuck) return -kWin;
  if (t.separated) return score_separated(pos);
  return score_terms(pos, t);
}

Score Evaluator::score_terms(const Position& pos, const EvalTerms& t) const {
  const TermWeights w = blend(params_, pos.size(), t.phase);
  double v = w.queen_territory * t.queen_territory + w.king_territory * t.king_territory +
             w.queen_position * t.queen_position + w.king_position * t.king_position +
             w.mobility * t.mobility;
  auto s = static_cast<Score>(std::lround(100 * v));
  if (params_.noise > 0) {
    std::uint64_t state = pos.hash() ^ params_.noise_seed;
    const std::uint64_t r = zobrist::splitmix64(state);
    s += static_cast<Score>(r % static_cast<std::uint64_t>(2 * params_.noise + 1)) - params_.noise;
  }
  return std::clamp(s, -kMaxHeuristic, kMaxHeuristic);
}

Score Evaluator::score_separated(const Position& pos) {
  // The side to move wins exactly when it has more moves left than the opponent: it runs out
  // first on equal counts.
  const Color me = pos.side_to_move();
  const MoveCount mine = endgame_.count(pos, me);
  const MoveCount theirs = endgame_.count(pos, ~me);
  if (mine.lower > theirs.upper) return kKnownWin + 10 * (mine.lower - theirs.upper);
  if (mine.upper <= theirs.lower) return -kKnownWin - 10 * (theirs.lower - mine.upper + 1);
  const Score s = 100 * (mine.lower - theirs.lower) - 50;
  return std::clamp(s, -kMaxHeuristic, kMaxHeuristic);
}

std::optional<Color> TerritoryMap::owner(Square s) const {
  const int w = queen[0][s.index()], b = queen[1][s.index()];
  if (w == 0 || b == 0 || w == b) return std::nullopt;  // a queen, a tie, or nobody's
  return w < b ? Color::White : Color::Black;
}

TerritoryMap territory_map(const Position& pos) {
  // The core's layout: a view needs this once per move, so the dense layouts' speed is not
  // worth a second copy of the unpacking.
  using L = WideLayout;
  const DistanceFill<L> fill(pos);
  TerritoryMap map;
  map.size = pos.size();
  for (auto* table : {&map.queen, &map.king})
    for (auto& side : *table) side.fill(TerritoryMap::kUnreached);
  std::vector<L::Bits> layer(kMaxLevels + 1);
  for (Color c : {Color::White, Color::Black}) {
    const L::Bits from = pos.queens_bitboard(c);
    const auto side = static_cast<std::size_t>(index_of(c));
    for (Square q : from) map.queen[side][q.index()] = map.king[side][q.index()] = 0;
    auto record = [&](int levels, TerritoryMap::Distances& out) {
      for (int d = 1; d <= levels; ++d)
        for (Square s : layer[static_cast<std::size_t>(d)])
          out[s.index()] = static_cast<std::uint8_t>(std::min(d, 254));
    };
    record(fill.queen_layers(from, layer.data()), map.queen[side]);
    record(fill.king_layers(from, layer.data()), map.king[side]);
  }
  return map;
}

}  // namespace amazons::ai
