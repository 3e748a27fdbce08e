// Where the numbers of new games, challenges, reports and tournaments come from.
//
// One server counts each kind on from the highest it has stored. The nodes of a cluster share
// one database, so each node takes every number, of every kind, from blocks of game ids the
// database reserved for it alone (Storage::reserve_game_ids): no two nodes hand out the same
// number, and a key ("17", "c17", "t17") names one thing across the cluster.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>

namespace amazons::server {

class IdSource {
 public:
  enum class Kind : std::uint8_t { Game, Challenge, Report, Tournament };

  // One server: counting from 1 for each kind; used() moves a count past the stored numbers.
  static IdSource counting() { return IdSource(false); }
  // A cluster node: none until add_block.
  static IdSource from_blocks(std::int64_t block_size) {
    IdSource s(true);
    s.block_size_ = block_size;
    return s;
  }

  // The next number of `kind`; 0 when none is at hand (a node whose blocks are used up).
  std::int64_t take(Kind kind) {
    if (!blocks_) return next_[index(kind)]++;
    while (!reserved_.empty() && reserved_.front().first >= reserved_.front().second)
      reserved_.pop_front();
    if (reserved_.empty()) return 0;
    return reserved_.front().first++;
  }
  // A node whose numbers left have fallen under half a block, and has not asked yet: true once,
  // until the next block comes (add_block).
  bool wants_block() {
    if (!blocks_ || requested_) return false;
    std::int64_t left = 0;
    for (const auto& [first, end] : reserved_) left += end - first;
    if (left >= block_size_ / 2) return false;
    requested_ = true;
    return true;
  }
  // The numbers [first, first + count) are this node's (count 0: the reservation failed, and
  // wants_block may ask again).
  void add_block(std::int64_t first, std::int64_t count) {
    if (count > 0) reserved_.emplace_back(first, first + count);
    requested_ = false;
  }
  // `id` of `kind` is in use (read back from storage): one server never hands it out again. A
  // node's blocks never hold a stored number.
  void used(Kind kind, std::int64_t id) {
    auto& next = next_[index(kind)];
    next = std::max(next, id + 1);
  }

 private:
  explicit IdSource(bool blocks) : blocks_(blocks) {}
  static std::size_t index(Kind kind) { return static_cast<std::size_t>(kind); }

  bool blocks_;
  std::array<std::int64_t, 4> next_{1, 1, 1, 1};
  std::int64_t block_size_ = 0;
  std::deque<std::pair<std::int64_t, std::int64_t>> reserved_;  // [first, end)
  bool requested_ = false;
};

}  // namespace amazons::server
