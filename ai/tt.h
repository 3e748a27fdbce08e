// The transposition table: a fixed-size cache of search results keyed by the Zobrist hash,
// shared by all search threads without locks (an entry whose key does not check out is ignored).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>

#include "ai/score.h"
#include "common/move.h"

namespace amazons::ai {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTHit {
  Move move;
  Score score = 0;  // already adjusted to the probing node's ply
  int depth = 0;
  Bound bound = Bound::None;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16);

  // Not while a search uses the table. Both take memory the kernel zeroes as it is first touched
  // (calloc of a large block is a fresh mapping), so that neither costs time in proportion to
  // the table's size: a search made or cleared at the start of a move keeps its deadline even
  // with a table of gigabytes on a busy machine.
  void resize(std::size_t megabytes);
  void clear();
  // Marks the entries of earlier searches as old, so they are replaced first.
  void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 0x3F); }

  // Any thread, concurrently with stores.
  std::optional<TTHit> probe(std::uint64_t key, int ply) const;
  void store(std::uint64_t key, int ply, Move move, Score score, int depth, Bound bound);

  std::size_t entries() const { return bucket_count_ * kBucketSize; }

 private:
  static constexpr std::size_t kBucketSize = 4;
  // Plain words read and written atomically (relaxed, tt.cpp), so that the table can live in
  // calloc's memory: an array of std::atomic would have to be constructed, word by word.
  struct Entry {
    std::uint64_t check;  // key ^ data, so a torn write never matches
    std::uint64_t data;
  };
  struct Free {
    void operator()(Entry* p) const { std::free(p); }
  };
  void allocate();  // bucket_count_ buckets, zeroed

  std::unique_ptr<Entry[], Free> entries_;
  std::size_t bucket_count_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace amazons::ai
