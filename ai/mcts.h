// Monte-Carlo tree search with evaluation cut-offs: UCT over a tree whose nodes keep the best
// moves by the static evaluation (progressive widening opens them to selection as the node is
// visited more), each leaf valued by the evaluation squashed to a winning chance. Several threads
// grow separate trees and add up their root visits (root parallelism).
#pragma once

#include <memory>
#include <vector>

#include "ai/search_base.h"

namespace amazons::ai {

class MctsSearch final : public SearchBase {
 public:
  explicit MctsSearch(const SearchSettings& settings);
  ~MctsSearch() override;

  void set_settings(const SearchSettings& settings) override;
  void clear() override;

 private:
  class Tree;
  SearchResult think(const Position& pos, const SearchLimits& limits,
                     const SearchCallbacks& callbacks) override;
  SearchKind kind() const override { return SearchKind::Mcts; }

  std::vector<std::unique_ptr<Tree>> trees_;
};

}  // namespace amazons::ai
