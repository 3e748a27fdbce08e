#include "ai/alphabeta.h"

#include <algorithm>
#include <array>
#include <climits>

#include "ai/move_ranking.h"
#include "common/movegen.h"

namespace amazons::ai {

namespace {

constexpr int kMaxDepth = 128;
// The main thread looks at the clock once per this many nodes. A node costs about a microsecond,
// but one that counts a separated endgame can cost a hundred, and reading the clock costs far
// less than either.
constexpr std::uint64_t kCheckInterval = 64;

int scaled(int width, double scale) { return std::max(1, static_cast<int>(width * scale + 0.5)); }

}  // namespace

struct AlphaBetaSearch::RootMove {
  Move move;
  Score score = -kInfinity;
  std::vector<Move> pv;
};

class AlphaBetaSearch::Worker {
 public:
  Worker(AlphaBetaSearch& owner, bool main) : owner_(owner), main_(main) {}

  void configure(const SearchSettings& settings) {
    eval_.set_params(settings.eval);
    eval_.endgame().set_interrupt([this] {
      if (main_) owner_.check_limits();
      return owner_.stopping();
    });
    sel_ = settings.selectivity;
    multipv_ = static_cast<std::size_t>(std::clamp(settings.multipv, 1, kMaxMultiPv));
  }
  void clear() {
    for (auto& k : killers_) k = {Move::none(), Move::none()};
  }
  void new_search() { nodes_.store(0, std::memory_order_relaxed); }
  // The root's own evaluation, kept for the scores reported (see think()); the root's score when
  // that is a proof and the search's is not.
  Score count_root(const Position& pos) { return root_count_ = eval_.evaluate(pos); }
  Score root_score(Score searched) const {
    return is_decided(root_count_) && !is_decided(searched) ? root_count_ : searched;
  }
  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }

  // Every legal move with the evaluation of the position after it, best first.
  std::vector<RootMove> rank_root(Position& pos) {
    auto& list = list_at(0);
    rank_moves(pos, 0, INT_MAX, list);
    std::vector<RootMove> root;
    root.reserve(list.size());
    for (const ScoredMove& m : list) root.push_back({m.move, m.score, {m.move}});
    return root;
  }

  // Iterative deepening from `first_depth` (> 1; depth 1 is the root ranking). The main worker
  // reports each completed depth and keeps the result; helpers only fill the shared table.
  //
  // Multi-PV as Stockfish does it: each depth searches the root once per line, line k over the
  // moves from root[k] on, so that the moves of the lines before it are left out, and moves its
  // best to root[k]; every search reuses the table the earlier ones filled. With one line this
  // is the plain search, node for node.
  SearchResult iterate(Position pos, std::vector<RootMove> root, int first_depth, int max_depth,
                       const SearchCallbacks* callbacks) {
    SearchResult result = result_of(root, 1);
    const std::size_t lines = std::min(multipv_, root.size());
    for (int depth = first_depth; depth <= max_depth; ++depth) {
      if (main_) owner_.first_move_done_ = false;
      bool complete = true;
      for (std::size_t k = 0; k < lines && complete; ++k) {
        complete = search_root(pos, root, depth, k);
        // A later line can come out better than an earlier one (the table and the killers have
        // learnt more by then): the lines are kept best first, a stable sort leaving ties in the
        // order they were found.
        if (complete && k > 0)
          std::stable_sort(root.begin(), root.begin() + static_cast<long>(k) + 1,
                           [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
      }
      if (main_ && (complete || root.front().move != result.best)) {
        // A proven result (a separated endgame counted exactly; a win in so many plies ends the
        // deepening below) is not given up for an unproven one. A deeper iteration ends in other
        // positions: the endgame counter may give only bounds for them within its node budget,
        // and a move the last ply's wide frontier found can fall outside a deeper interior
        // node's width. It lost the proof, it did not refute it. Without this a search reported
        // a position it had proven won as a heuristic lead, and the analysis's score before a
        // move disagreed with the proof the next ply's search found after it.
        if (is_decided(result.score) && !is_decided(root.front().score)) break;
        result = result_of(root, complete ? depth : result.depth);
        if (complete && callbacks != nullptr && callbacks->on_progress)
          report(root, lines, depth, *callbacks);
      }
      if (!complete || owner_.stopping()) break;
      if (main_) {
        if (is_win_score(root.front().score)) break;  // proven: deeper search changes nothing
        const TimePlan& plan = owner_.plan();
        if (plan.target && owner_.elapsed() * 2 >= *plan.target) break;
      }
    }
    return result;
  }

  SearchResult result_of(const std::vector<RootMove>& root, int depth) const {
    SearchResult r;
    r.best = root.front().move;
    r.score = root.front().score;
    r.pv = root.front().pv;
    r.depth = depth;
    return r;
  }

  // The first `lines` root moves as the lines of a completed `depth`, best first (the root as
  // iterate() or think() leaves it).
  void report(const std::vector<RootMove>& root, std::size_t lines, int depth,
              const SearchCallbacks& callbacks) {
    SearchProgress p;
    p.depth = depth;
    p.nodes = owner_.total_nodes();
    p.elapsed = owner_.elapsed();
    p.nps = nodes_per_second(p.nodes, p.elapsed);
    for (std::size_t k = 0; k < lines; ++k) {
      p.multipv = static_cast<int>(k) + 1;
      p.score = k == 0 ? root_score(root[k].score) : root[k].score;
      p.pv = root[k].pv;
      callbacks.on_progress(p);
    }
  }
  std::size_t lines() const { return multipv_; }

 private:
  // Searches the root moves from root[first] on at `depth` (those before it are the lines
  // already found at this depth); true when the search completed. The best move found is moved
  // to root[first] even when the search was cut short. The selective root width never leaves
  // out a line that multi-PV asks for.
  bool search_root(Position& pos, std::vector<RootMove>& root, int depth, std::size_t first) {
    Score alpha = -kInfinity;
    const Score beta = kInfinity;
    const std::size_t width =
        std::max(multipv_, static_cast<std::size_t>(scaled(sel_.root_width, sel_.scale)));
    const std::size_t n = depth <= 2 ? root.size() : std::min(root.size(), width);
    std::size_t best = first;
    bool complete = true;
    for (std::size_t i = first; i < n; ++i) {
      const Move m = root[i].move;
      pos.do_move(m);
      Score s;
      if (i == first) {
        s = -search(pos, -beta, -alpha, depth - 1, 1, true);
      } else {
        s = -search(pos, -alpha - 1, -alpha, depth - 1, 1, false);
        if (s > alpha && !owner_.stopping()) s = -search(pos, -beta, -alpha, depth - 1, 1, true);
      }
      pos.undo_move(m);
      if (owner_.stopping()) {
        complete = false;
        break;
      }
      if (i == first || s > alpha) {
        alpha = s;
        best = i;
        root[i].score = s;
        root[i].pv.assign(1, m);
        root[i].pv.insert(root[i].pv.end(), pv_[1].begin(), pv_[1].begin() + pv_len_[1]);
      }
      if (i == 0 && main_) owner_.first_move_done_ = true;
    }
    if (best > first)
      std::rotate(root.begin() + static_cast<long>(first), root.begin() + static_cast<long>(best),
                  root.begin() + static_cast<long>(best) + 1);
    return complete;
  }

  // Steps: 1. stop, game over, table; 2. the last ply apart (frontier); 3. rank the moves and
  // bring the hash move and killers forward; 4. principal variation search over the best
  // `width` moves, late ones first one ply shallower; 5. store.
  Score search(Position& pos, Score alpha, Score beta, int depth, int ply, bool pv_node) {
    pv_len_[ply] = 0;
    if (count_node()) return 0;
    if (pos.is_game_over()) return -kWin + ply;
    if (ply >= kMaxPly - 1 || depth <= 0) return eval_.evaluate(pos);

    Move tt_move = Move::none();
    if (const auto tt = owner_.tt_.probe(pos.hash(), ply)) {
      tt_move = tt->move;
      if (!pv_node && tt->depth >= depth &&
          (tt->bound == Bound::Exact || (tt->bound == Bound::Lower && tt->score >= beta) ||
           (tt->bound == Bound::Upper && tt->score <= alpha)))
        return tt->score;
    }
    if (depth == 1) return frontier(pos, alpha, beta, ply, tt_move);

    auto& list = list_at(ply);
    rank_moves(pos, ply, scaled(ply == 1 ? sel_.near_steps : sel_.far_steps, sel_.scale), list);
    promote(pos, list, tt_move, ply);
    const std::size_t width = std::min(
        list.size(),
        static_cast<std::size_t>(scaled(ply == 1 ? sel_.near_width : sel_.far_width, sel_.scale)));

    const Score alpha_orig = alpha;
    Score best = -kInfinity;
    Move best_move = Move::none();
    for (std::size_t i = 0; i < width; ++i) {
      const Move m = list[i].move;
      pos.do_move(m);
      Score s;
      if (i == 0) {
        s = -search(pos, -beta, -alpha, depth - 1, ply + 1, pv_node);
      } else {
        const int r = depth >= 3 && static_cast<int>(i) >= sel_.reduction_from ? 1 : 0;
        s = -search(pos, -alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
        if (s > alpha && r > 0) s = -search(pos, -alpha - 1, -alpha, depth - 1, ply + 1, false);
        if (s > alpha && s < beta && pv_node)
          s = -search(pos, -beta, -alpha, depth - 1, ply + 1, true);
      }
      pos.undo_move(m);
      if (owner_.stopping()) return 0;
      if (s > best) {
        best = s;
        best_move = m;
        if (s > alpha) {
          alpha = s;
          update_pv(ply, m);
          if (s >= beta) {
            add_killer(ply, m);
            break;
          }
        }
      }
    }
    const Bound bound = best >= beta        ? Bound::Lower
                        : best > alpha_orig ? Bound::Exact
                                            : Bound::Upper;
    owner_.tt_.store(pos.hash(), ply, best_move, best, depth, bound);
    return best;
  }

  // The last ply: the value is the best evaluation after one move, so no recursion. The hash move
  // and killers go first, since a cut-off from them saves ranking the queen steps.
  Score frontier(Position& pos, Score alpha, Score beta, int ply, Move tt_move) {
    const Score alpha_orig = alpha;
    Score best = -kInfinity;
    Move best_move = Move::none();
    bool cut = false;
    auto consider = [&](Move m, Score s) {
      if (s > best) {
        best = s;
        best_move = m;
        if (s > alpha) {
          alpha = s;
          if (s >= beta) cut = true;
        }
      }
    };
    auto try_move = [&](Move m) {
      if (m.is_none() || pos.check(m)) return;
      pos.do_move(m);
      consider(m, child_value(pos, ply));
      pos.undo_move(m);
    };
    try_move(tt_move);
    for (Move k : killers_[static_cast<std::size_t>(ply)])
      if (!cut && k != tt_move) try_move(k);

    if (!cut) {
      auto& steps = steps_at(ply);
      rank_steps(pos, scaled(sel_.frontier_steps, sel_.scale), steps);
      for (const QueenStep& st : steps) {
        pos.do_queen_step(st.from, st.to);
        for_each_slide(pos, st.to, Square::none(), [&](Square a) {
          if (cut) return;
          pos.do_arrow(a);
          consider(Move(st.from, st.to, a), child_value(pos, ply));
          pos.undo_arrow(a);
        });
        pos.undo_queen_step(st.from, st.to);
        if (cut || owner_.stopping()) break;
      }
    }
    if (owner_.stopping()) return 0;
    if (best > alpha_orig) {
      pv_[static_cast<std::size_t>(ply)][0] = best_move;
      pv_len_[ply] = 1;
    }
    const Bound bound = best >= beta        ? Bound::Lower
                        : best > alpha_orig ? Bound::Exact
                                            : Bound::Upper;
    owner_.tt_.store(pos.hash(), ply, best_move, best, 1, bound);
    return best;
  }

  void rank_steps(Position& pos, int limit, std::vector<QueenStep>& steps) {
    ai::rank_steps(pos, eval_, limit, steps, [this] { count_node(); });
  }
  void rank_moves(Position& pos, int ply, int step_limit, std::vector<ScoredMove>& list) {
    ai::rank_moves(pos, eval_, ply, step_limit, steps_at(ply), list,
                   [this] { return count_node(); });
  }

  // Moves the hash move, then the killers, to the front (adding them if the filter left them out
  // and they are legal here).
  void promote(const Position& pos, std::vector<ScoredMove>& list, Move tt_move, int ply) {
    const auto& killers = killers_[static_cast<std::size_t>(ply)];
    const std::array<Move, 3> wanted = {killers[1], killers[0], tt_move};
    for (Move m : wanted) {
      if (m.is_none()) continue;
      auto it = std::find_if(list.begin(), list.end(),
                             [m](const ScoredMove& sm) { return sm.move == m; });
      if (it != list.end()) {
        std::rotate(list.begin(), it, it + 1);
      } else if (!pos.check(m)) {
        list.insert(list.begin(), {m, 0});
      }
    }
  }

  Score child_value(const Position& after, int ply) {
    count_node();
    return value_after(eval_, after, ply);
  }

  // Counts a node; true when the search should stop.
  bool count_node() {
    const std::uint64_t n = nodes_.load(std::memory_order_relaxed) + 1;
    nodes_.store(n, std::memory_order_relaxed);
    if (main_ && n % kCheckInterval == 0) owner_.check_limits();
    return owner_.stopping();
  }

  void update_pv(int ply, Move m) {
    auto& line = pv_[static_cast<std::size_t>(ply)];
    const auto& child = pv_[static_cast<std::size_t>(ply + 1)];
    line[0] = m;
    std::copy(child.begin(), child.begin() + pv_len_[ply + 1], line.begin() + 1);
    pv_len_[ply] = 1 + pv_len_[ply + 1];
  }

  void add_killer(int ply, Move m) {
    auto& k = killers_[static_cast<std::size_t>(ply)];
    if (k[0] == m) return;
    k[1] = k[0];
    k[0] = m;
  }

  std::vector<ScoredMove>& list_at(int ply) { return lists_[static_cast<std::size_t>(ply)]; }
  std::vector<QueenStep>& steps_at(int ply) { return steps_[static_cast<std::size_t>(ply)]; }

  AlphaBetaSearch& owner_;
  const bool main_;
  Evaluator eval_;
  Selectivity sel_;
  std::size_t multipv_ = 1;  // lines a depth searches and reports, 1 to kMaxMultiPv
  Score root_count_ = 0;     // the main worker's: the evaluation of the root of its search
  std::atomic<std::uint64_t> nodes_{0};
  std::array<std::vector<ScoredMove>, kMaxPly> lists_;
  std::array<std::vector<QueenStep>, kMaxPly> steps_;
  std::array<std::array<Move, 2>, kMaxPly> killers_{};
  std::array<std::array<Move, kMaxPly>, kMaxPly> pv_{};
  std::array<int, kMaxPly + 1> pv_len_{};
};

AlphaBetaSearch::AlphaBetaSearch(const SearchSettings& settings)
    : SearchBase(settings), tt_(settings.hash_mb) {
  set_settings(settings);
}

AlphaBetaSearch::~AlphaBetaSearch() {
  stop();
  wait();
}

void AlphaBetaSearch::set_settings(const SearchSettings& settings) {
  const bool resize = settings.hash_mb != settings_.hash_mb;
  SearchBase::set_settings(settings);
  if (resize) tt_.resize(settings.hash_mb);
  const auto threads = static_cast<std::size_t>(std::max(1, settings.threads));
  while (workers_.size() < threads) {
    workers_.push_back(std::make_unique<Worker>(*this, workers_.empty()));
    workers_.back()->clear();
  }
  workers_.resize(threads);
  for (auto& w : workers_) w->configure(settings);
}

void AlphaBetaSearch::clear() {
  tt_.clear();
  for (auto& w : workers_) w->clear();
}

std::uint64_t AlphaBetaSearch::total_nodes() const {
  std::uint64_t n = 0;
  for (const auto& w : workers_) n += w->nodes();
  return n;
}

void AlphaBetaSearch::check_limits() {
  if (out_of_time()) return;
  if (node_limit_ != 0 && total_nodes() >= node_limit_) {
    request_stop();
    return;
  }
  if (plan().target && first_move_done_ && elapsed() >= *plan().target) request_stop();
}

SearchResult AlphaBetaSearch::think(const Position& start, const SearchLimits& limits,
                                    const SearchCallbacks& callbacks) {
  tt_.new_search();
  for (auto& w : workers_) w->new_search();
  node_limit_ = limits.nodes;
  first_move_done_ = false;

  Position pos = start;
  Worker& main = *workers_.front();
  if (pos.is_game_over()) return {};
  std::vector<RootMove> root = main.rank_root(pos);
  // A separated root the endgame counter proves won or lost is so whatever the search below it
  // shows: the counts of the positions after its moves may come out as bounds only (the counter
  // has a node budget, and each move makes new regions to count), and the search would then
  // report as a heuristic score a position the search of the move before it had proved. The
  // count is the result's score and the first line's of each depth reported. Counted before
  // the search, since a counter that sees the search stopping gives up.
  main.count_root(pos);
  const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxDepth) : kMaxDepth;

  // Depth 1 is the ranking: the lines are the best moves by the evaluation after them.
  SearchResult result = main.result_of(root, 1);
  if (callbacks.on_progress) main.report(root, std::min(main.lines(), root.size()), 1, callbacks);
  if (root.size() > 1 && max_depth > 1 && !stopping()) {
    std::vector<std::thread> helpers;
    for (std::size_t i = 1; i < workers_.size(); ++i) {
      helpers.emplace_back([this, i, &pos, &root, max_depth] {
        // Helpers start one or two plies deeper so that the threads spread over depths.
        workers_[i]->iterate(pos, root, 2 + static_cast<int>(i % 2), max_depth, nullptr);
      });
    }
    const SearchResult deeper = main.iterate(pos, root, 2, max_depth, &callbacks);
    if (deeper.depth >= result.depth) result = deeper;
    request_stop();
    for (auto& h : helpers) h.join();
  }
  result.score = main.root_score(result.score);
  result.nodes = total_nodes();
  return result;
}

}  // namespace amazons::ai
