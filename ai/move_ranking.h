// Cheap move ranking, the heart of a selective search: the branching factor is in the thousands,
// so a node ranks its queen steps by the evaluation after the step alone, expands the arrows of
// only the best few, and orders the resulting moves by the evaluation after them.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "ai/evaluate.h"
#include "ai/score.h"
#include "common/movegen.h"
#include "common/position.h"

namespace amazons::ai {

struct ScoredMove {
  Move move;
  Score score;  // the evaluation after the move, from the mover's side
};

struct QueenStep {
  Square from, to;
  Score score;
};

// The value of the position after a move for the side that made it; a move that leaves the
// opponent without a move wins at once (scored as a win `ply` + 1 plies from the root).
inline Score value_after(Evaluator& eval, const Position& after, int ply) {
  const Score e = eval.evaluate(after);
  return e == -kWin ? kWin - (ply + 1) : -e;
}

// The queen steps of the side to move; when there are more than `limit`, only the `limit` best
// by the evaluation after the step alone, best first. `on_eval()` is called before each
// evaluation (for node counting).
template <class OnEval>
void rank_steps(Position& pos, Evaluator& eval, int limit, std::vector<QueenStep>& steps,
                OnEval&& on_eval) {
  steps.clear();
  std::array<Square, kMaxQueensPerSide> queens{};
  const auto span = pos.queens(pos.side_to_move());
  std::copy(span.begin(), span.end(), queens.begin());
  for (std::size_t q = 0; q < span.size(); ++q) {
    const Square from = queens[q];
    for_each_slide(pos, from, Square::none(), [&](Square to) { steps.push_back({from, to, 0}); });
  }
  if (static_cast<std::size_t>(limit) >= steps.size()) return;
  for (QueenStep& st : steps) {
    pos.do_queen_step(st.from, st.to);
    on_eval();
    st.score = eval.evaluate(pos);
    pos.undo_queen_step(st.from, st.to);
  }
  // Equal scores are ordered by the squares: partial_sort leaves ties in an order of the
  // standard library's choosing, and the WebAssembly build's (libc++) must search as this one.
  std::partial_sort(steps.begin(), steps.begin() + limit, steps.end(),
                    [](const QueenStep& a, const QueenStep& b) {
                      if (a.score != b.score) return a.score > b.score;
                      if (a.from != b.from) return a.from.index() < b.from.index();
                      return a.to.index() < b.to.index();
                    });
  steps.resize(static_cast<std::size_t>(limit));
}

// The moves of the best `step_limit` queen steps, each with value_after(), best first.
// `on_eval()` is called before each evaluation and returns true once the search is stopping;
// from then on the remaining moves are listed unevaluated (-kInfinity, last), so that a ranking
// cut short still ends at once with a legal move on top.
template <class OnEval>
void rank_moves(Position& pos, Evaluator& eval, int ply, int step_limit,
                std::vector<QueenStep>& steps, std::vector<ScoredMove>& list, OnEval&& on_eval) {
  list.clear();
  rank_steps(pos, eval, step_limit, steps, on_eval);
  bool stopping = false;
  for (const QueenStep& st : steps) {
    pos.do_queen_step(st.from, st.to);
    for_each_slide(pos, st.to, Square::none(), [&](Square a) {
      if (stopping) {
        list.push_back({Move(st.from, st.to, a), -kInfinity});
        return;
      }
      stopping = on_eval();
      pos.do_arrow(a);
      list.push_back({Move(st.from, st.to, a), value_after(eval, pos, ply)});
      pos.undo_arrow(a);
    });
    pos.undo_queen_step(st.from, st.to);
  }
  std::stable_sort(list.begin(), list.end(),
                   [](const ScoredMove& a, const ScoredMove& b) { return a.score > b.score; });
}

}  // namespace amazons::ai
