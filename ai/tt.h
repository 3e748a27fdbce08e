// The transposition table: a fixed-size cache of search results keyed by the Zobrist hash,
// shared by all search threads without locks (an entry whose key does not check out is ignored).
#pragma once

#include <cstddef>
#include <cstdint>
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

  // Not while a search uses the table. Both take a fresh anonymous mapping, whose pages the
  // kernel zeroes as the search first touches them, so that neither writes the table: a search
  // made or cleared at the start of a move keeps its deadline whatever the table's size, on a
  // busy machine too. (Where there is no mmap, Windows and WebAssembly, calloc.)
  void resize(std::size_t megabytes);
  void clear();
  // Marks the entries of earlier searches as old, so they are replaced first.
  void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 0x3F); }

  // Any thread, concurrently with stores.
  std::optional<TTHit> probe(std::uint64_t key, int ply) const;
  void store(std::uint64_t key, int ply, Move move, Score score, int depth, Bound bound);

  std::size_t entries() const { return bucket_count_ * kBucketSize; }
  // The table's memory, for tests of the above (which pages are resident).
  const void* memory() const { return entries_.get(); }
  std::size_t bytes() const { return entries() * sizeof(Entry); }

 private:
  static constexpr std::size_t kBucketSize = 4;
  // Plain words read and written atomically (relaxed, tt.cpp), so that the table can live in
  // memory nobody wrote: an array of std::atomic would have to be constructed, word by word.
  struct Entry {
    std::uint64_t check;  // key ^ data, so a torn write never matches
    std::uint64_t data;
  };
  // Gives back what allocate() took, `bytes` long.
  struct Release {
    std::size_t bytes;
    void operator()(Entry* p) const;
  };
  void allocate();  // bucket_count_ buckets, zeroed

  std::unique_ptr<Entry[], Release> entries_;
  std::size_t bucket_count_ = 0;
  std::uint8_t generation_ = 0;
};

}  // namespace amazons::ai
