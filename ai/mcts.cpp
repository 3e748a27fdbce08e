#include "ai/mcts.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <thread>

#include "ai/move_ranking.h"

namespace amazons::ai {

namespace {

// Winning chances are kept this far from 0 and 1, so that a score can always be read back.
constexpr double kChanceClamp = 1e-4;
// Progress is reported at most this often.
constexpr Millis kReportInterval{100};
// Evaluations between two questions whether to stop while a node is expanded: an evaluation
// takes a microsecond or more, reading the clock some 20 ns.
constexpr std::uint64_t kInterruptInterval = 8;

struct Node {
  Move move;
  float prior = 0.5F;  // winning chance for the side that made `move`, by the evaluation
  float value = 0;     // sum of results for that side over the visits
  std::uint32_t visits = 0;
  std::uint32_t first_child = 0;
  std::uint16_t child_count = 0;
  bool expanded = false;
  bool terminal = false;  // the side to move here has no move: `move` won the game
};

}  // namespace

class MctsSearch::Tree {
 public:
  explicit Tree(const SearchSettings& s) : eval_(s.eval), params_(s.mcts) {}

  void configure(const SearchSettings& s) {
    if (!(s.eval == eval_.params()) || !(s.mcts == params_)) forget();  // grown under others
    eval_.set_params(s.eval);
    params_ = s.mcts;
  }
  void forget() { kept_root_.reset(); }
  // The visits the root had when the last grow() began: more than 0 when the tree was kept.
  std::uint32_t kept_visits() const { return kept_visits_; }
  // Asked every few evaluations while a node is expanded, and by the endgame counter, whether
  // the search must end: one expansion can take longer than a search has left (on 10x10 with
  // separated regions to count, over 100 ms), so the time is not only checked between
  // iterations.
  void set_interrupt(std::function<bool()> interrupt) {
    interrupt_ = interrupt;
    eval_.endgame().set_interrupt(std::move(interrupt));
  }

  // Grows a tree for `root` until `stop()` says so; then root_children() holds the result.
  // A search of the position the last one ended on, or of one a move or two (this side's move
  // and the reply) below it, goes on growing that part of the tree: what the last search, or
  // a ponder search, learnt about the position is kept.
  template <class Stop, class Report>
  void grow(const Position& root, Stop&& stop, Report&& report) {
    evals_.store(0, std::memory_order_relaxed);
    cut_short_ = false;
    if (!reroot(root)) {
      nodes_.clear();
      // The whole tree's room at once: growing the vector by doubling copied up to the whole
      // tree in one step, which on 10x10 made a search end 80 ms past its deadline. Reserved
      // pages are touched only as nodes are added.
      nodes_.reserve(params_.max_nodes + static_cast<std::size_t>(std::max(params_.children, 0)));
      nodes_.push_back(Node{});
      Position pos = root;
      expand(0, pos, 0);
    } else if (!nodes_.front().expanded) {
      Position pos = root;
      expand(0, pos, 0);
    }
    // The root is kept even when its ranking was cut short (a search needs its moves), but
    // then the tree is not reused.
    const bool root_cut_short = cut_short_;
    kept_root_ = root;
    kept_visits_ = nodes_.front().visits;
    while (!stop()) {
      iterate(root);
      report();
    }
    if (root_cut_short) forget();
  }

  std::vector<Node> root_children() const {
    const Node& r = nodes_.front();
    return {nodes_.begin() + r.first_child, nodes_.begin() + r.first_child + r.child_count};
  }
  // The most visited line from the root. `ends_in_result` tells whether it ends in a finished
  // game (so that the tree will not grow it any longer).
  std::vector<Move> principal_variation(bool* ends_in_result = nullptr) const {
    std::vector<Move> pv;
    std::uint32_t n = 0;
    while (nodes_[n].expanded && nodes_[n].child_count > 0 && pv.size() < kMaxPly) {
      std::uint32_t best = nodes_[n].first_child;
      for (std::uint32_t c = best; c < nodes_[n].first_child + nodes_[n].child_count; ++c)
        if (nodes_[c].visits > nodes_[best].visits) best = c;
      if (nodes_[best].visits == 0) break;
      pv.push_back(nodes_[best].move);
      n = best;
    }
    if (ends_in_result != nullptr) *ends_in_result = nodes_[n].terminal;
    return pv;
  }
  bool full() const { return nodes_.size() >= params_.max_nodes; }
  std::uint64_t evals() const { return evals_.load(std::memory_order_relaxed); }
  double to_chance(Score s) const {
    return std::clamp(1.0 / (1.0 + std::exp(-s / params_.temperature)), kChanceClamp,
                      1 - kChanceClamp);
  }
  Score to_score(double chance) const {
    chance = std::clamp(chance, kChanceClamp, 1 - kChanceClamp);
    return static_cast<Score>(std::lround(params_.temperature * std::log(chance / (1 - chance))));
  }

 private:
  // Makes the node of the kept tree whose position is `root` the root of the tree: the root
  // itself, a child or a grandchild. False when there is none (or no kept tree).
  bool reroot(const Position& root) {
    if (!kept_root_ || nodes_.empty()) return false;
    if (*kept_root_ == root) return true;
    auto is_root = [&root](const Position& p) { return p.hash() == root.hash() && p == root; };
    const Node& top = nodes_.front();
    if (!top.expanded) return false;
    for (std::uint32_t c = top.first_child; c < top.first_child + top.child_count; ++c) {
      Position after = *kept_root_;
      after.do_move(nodes_[c].move);
      if (is_root(after)) return keep_subtree(c);
      const Node& child = nodes_[c];
      if (!child.expanded) continue;
      for (std::uint32_t g = child.first_child; g < child.first_child + child.child_count; ++g) {
        Position reply = after;
        reply.do_move(nodes_[g].move);
        if (is_root(reply)) return keep_subtree(g);
      }
    }
    return false;
  }

  // Copies the subtree under `top` to the front of a fresh vector, breadth first so that every
  // node's children stay one block, and drops the rest. Returns true, for reroot().
  bool keep_subtree(std::uint32_t top) {
    spare_.clear();
    spare_.reserve(nodes_.capacity());
    spare_.push_back(nodes_[top]);
    for (std::size_t i = 0; i < spare_.size(); ++i) {
      Node& copy = spare_[i];
      if (!copy.expanded || copy.child_count == 0) continue;
      const std::uint32_t old_first = copy.first_child;
      copy.first_child = static_cast<std::uint32_t>(spare_.size());
      for (std::uint32_t c = old_first; c < old_first + copy.child_count; ++c)
        spare_.push_back(nodes_[c]);  // no reallocation: spare_ has the room of the whole tree
    }
    nodes_.swap(spare_);
    spare_.clear();
    return true;
  }

  // Steps: 1. descend by UCT while the node is expanded; 2. value the leaf: a finished game is
  // won by the side that moved into it; a leaf seen before is expanded and valued by the best
  // reply's static chance; a new leaf by its own; 3. back the value up, flipping sides each ply.
  void iterate(const Position& root) {
    Position pos = root;
    path_.clear();
    std::uint32_t n = 0;
    int ply = 0;
    while (nodes_[n].expanded && !nodes_[n].terminal && nodes_[n].child_count > 0) {
      n = select(n);
      pos.do_move(nodes_[n].move);
      path_.push_back(n);
      ++ply;
    }
    double v;  // for the side that moved into n
    Node* leaf = &nodes_[n];
    if (leaf->terminal) {
      v = 1;
    } else if (leaf->visits > 0 && nodes_.size() < params_.max_nodes && ply < kMaxPly - 1) {
      const bool expanded = expand(n, pos, ply);
      leaf = &nodes_[n];  // expand may have moved the nodes
      if (!expanded) {
        v = leaf->prior;
      } else if (leaf->terminal) {
        v = 1;
      } else {
        float best = 0;
        for (std::uint32_t c = leaf->first_child; c < leaf->first_child + leaf->child_count; ++c)
          best = std::max(best, nodes_[c].prior);
        v = 1 - best;
      }
    } else {
      v = leaf->prior;
    }
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      Node& node = nodes_[*it];
      ++node.visits;
      node.value += static_cast<float>(v);
      v = 1 - v;
    }
    ++nodes_.front().visits;
  }

  std::uint32_t select(std::uint32_t n) const {
    const Node& parent = nodes_[n];
    const int open = std::min<int>(
        parent.child_count,
        params_.widen_base + static_cast<int>(params_.widen_per_sqrt *
                                              std::sqrt(static_cast<double>(parent.visits))));
    const double log_n = std::log(static_cast<double>(parent.visits) + 1);
    std::uint32_t best = parent.first_child;
    double best_uct = -1;
    for (std::uint32_t c = parent.first_child;
         c < parent.first_child + static_cast<std::uint32_t>(open); ++c) {
      const Node& child = nodes_[c];
      if (child.terminal) return c;  // a win in one is always taken
      const double q = (child.value + child.prior * params_.prior_weight) /
                       (child.visits + params_.prior_weight);
      const double uct = q + params_.exploration * std::sqrt(log_n / (child.visits + 1));
      if (uct > best_uct) {
        best_uct = uct;
        best = c;
      }
    }
    return best;
  }

  // False when the search stopped before the moves were ranked: a node other than the root is
  // then left a leaf, so that every expanded node of a kept tree holds its best moves.
  bool expand(std::uint32_t n, Position& pos, int ply) {
    rank_moves(pos, eval_, ply, params_.steps, steps_, list_, [this] {
      const std::uint64_t count = evals_.fetch_add(1, std::memory_order_relaxed) + 1;
      if (count % kInterruptInterval != 0 || !interrupt_ || !interrupt_()) return false;
      cut_short_ = true;
      return true;
    });
    if (cut_short_ && n != 0) return false;
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    const std::size_t keep = std::min(list_.size(), static_cast<std::size_t>(params_.children));
    for (std::size_t i = 0; i < keep; ++i) {
      Node c;
      c.move = list_[i].move;
      c.terminal = list_[i].score >= kWinBound;
      c.prior = static_cast<float>(c.terminal ? 1.0 : to_chance(list_[i].score));
      nodes_.push_back(c);
    }
    Node& node = nodes_[n];
    node.expanded = true;
    node.first_child = first;
    node.child_count = static_cast<std::uint16_t>(keep);
    if (keep == 0) node.terminal = n != 0;
    return true;
  }

  Evaluator eval_;
  MctsParams params_;
  std::vector<Node> nodes_;
  std::vector<Node> spare_;  // the next nodes_ while a subtree is kept (its room is reused)
  std::vector<std::uint32_t> path_;
  std::vector<QueenStep> steps_;
  std::vector<ScoredMove> list_;
  std::atomic<std::uint64_t> evals_{0};
  std::function<bool()> interrupt_;
  std::optional<Position> kept_root_;  // the root of the tree in nodes_, while it may be reused
  std::uint32_t kept_visits_ = 0;
  bool cut_short_ = false;  // a ranking of this search was stopped before it valued every move
};

MctsSearch::MctsSearch(const SearchSettings& settings) : SearchBase(settings) {
  set_settings(settings);
}

void MctsSearch::clear() {
  for (auto& t : trees_) t->forget();
}

MctsSearch::~MctsSearch() {
  stop();
  wait();
}

void MctsSearch::set_settings(const SearchSettings& settings) {
  SearchBase::set_settings(settings);
  const auto threads = static_cast<std::size_t>(std::max(1, settings.threads));
  while (trees_.size() < threads) trees_.push_back(std::make_unique<Tree>(settings));
  trees_.resize(threads);
  for (auto& t : trees_) t->configure(settings);
  // The main tree reads the clock; the helpers follow the stop it requests.
  trees_.front()->set_interrupt([this] { return out_of_time(); });
  for (std::size_t i = 1; i < trees_.size(); ++i)
    trees_[i]->set_interrupt([this] { return stopping(); });
}

SearchResult MctsSearch::think(const Position& root, const SearchLimits& limits,
                               const SearchCallbacks& callbacks) {
  SearchResult result;
  if (root.is_game_over()) return result;
  auto total_evals = [&] {
    std::uint64_t n = 0;
    for (const auto& t : trees_) n += t->evals();
    return n;
  };
  std::uint64_t iterations = 0;
  auto stop = [&] {
    if (out_of_time()) return true;
    if (limits.nodes != 0 && total_evals() >= limits.nodes) request_stop();
    // Without a clock, a full tree has nothing left to learn.
    if (!plan().hard && !limits.infinite && trees_.front()->full()) request_stop();
    if (plan().target && elapsed() >= *plan().target) request_stop();
    // A depth limit means: stop once the most visited line is that long (or ends the game, or
    // the tree can grow no more).
    if (limits.depth > 0 && ++iterations % 64 == 0) {
      bool decided = false;
      const auto pv = trees_.front()->principal_variation(&decided);
      if (static_cast<int>(pv.size()) >= limits.depth || decided || trees_.front()->full())
        request_stop();
    }
    return stopping();
  };
  Tree& main = *trees_.front();
  Millis last_report{0};
  auto report = [&] {
    if (!callbacks.on_progress || elapsed() - last_report < kReportInterval) return;
    last_report = elapsed();
    SearchProgress p;
    p.pv = main.principal_variation();
    p.depth = static_cast<int>(p.pv.size());
    const auto children = main.root_children();
    if (!p.pv.empty()) {
      for (const Node& c : children)
        if (c.move == p.pv.front() && c.visits > 0)
          p.score = main.to_score(static_cast<double>(c.value) / c.visits);
    }
    p.nodes = total_evals();
    p.elapsed = elapsed();
    p.nps = nodes_per_second(p.nodes, p.elapsed);
    callbacks.on_progress(p);
  };

  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < trees_.size(); ++i)
    helpers.emplace_back([&, i] {
      trees_[i]->grow(
          root, [&] { return stopping(); }, [] {});
    });
  main.grow(root, stop, report);
  request_stop();
  for (auto& h : helpers) h.join();

  // Add up the visits each root move got in every tree; the most visited move is played.
  std::map<std::uint32_t, std::pair<std::uint64_t, double>> totals;
  for (const auto& t : trees_)
    for (const Node& c : t->root_children()) {
      auto& [visits, value] = totals[c.move.raw()];
      visits += c.visits;
      value += c.value;
    }
  std::uint64_t best_visits = 0;
  double best_value = 0;
  const auto children = main.root_children();
  result.best = children.front().move;  // the best by the static evaluation, if nothing was visited
  for (const auto& [raw, vv] : totals) {
    if (vv.first > best_visits) {
      best_visits = vv.first;
      best_value = vv.second;
      result.best = Move::from_raw(raw);
    }
  }
  for (const Node& c : children)
    if (c.terminal) result.best = c.move;  // a win in one, whatever the visits say
  result.score = best_visits > 0 ? main.to_score(best_value / static_cast<double>(best_visits)) : 0;
  result.pv = main.principal_variation();
  if (result.pv.empty() || result.pv.front() != result.best) result.pv = {result.best};
  result.depth = static_cast<int>(result.pv.size());
  result.nodes = total_evals();
  result.kept_visits = main.kept_visits();
  return result;
}

}  // namespace amazons::ai
