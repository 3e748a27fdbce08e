// Iterative-deepening principal variation search with a selective move filter, a shared
// transposition table, killer moves and lazy SMP (every thread searches the same root and they
// share what they learn through the table).
#pragma once

#include <memory>
#include <vector>

#include "ai/search_base.h"
#include "ai/tt.h"

namespace amazons::ai {

class AlphaBetaSearch final : public SearchBase {
 public:
  explicit AlphaBetaSearch(const SearchSettings& settings);
  ~AlphaBetaSearch() override;

  void set_settings(const SearchSettings& settings) override;
  void clear() override;

 private:
  class Worker;
  struct RootMove;

  SearchResult think(const Position& pos, const SearchLimits& limits,
                     const SearchCallbacks& callbacks) override;
  SearchKind kind() const override { return SearchKind::AlphaBeta; }
  // Called by the main worker every few hundred nodes: time, node limit, target time.
  void check_limits();
  std::uint64_t total_nodes() const;

  TranspositionTable tt_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::uint64_t node_limit_ = 0;
  bool first_move_done_ = false;  // the current iteration has searched its first root move
};

}  // namespace amazons::ai
