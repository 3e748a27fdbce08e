#include "ai/tt.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>

// A fresh anonymous mapping where there is one. Emscripten's mmap is malloc and memset, Windows has
// none: they keep calloc.
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#define AMAZONS_TT_MMAP 1
#include <sys/mman.h>
#endif

namespace amazons::ai {

namespace {

// data: move (24 bits) | score + 32768 (16) | depth (8) | bound (2) | generation (6)
std::uint64_t pack(Move m, Score score, int depth, Bound bound, std::uint8_t generation) {
  return static_cast<std::uint64_t>(m.raw() & 0xFFFFFFU) |
         static_cast<std::uint64_t>(static_cast<std::uint16_t>(score + 32768)) << 24 |
         static_cast<std::uint64_t>(static_cast<std::uint8_t>(depth)) << 40 |
         static_cast<std::uint64_t>(bound) << 48 | static_cast<std::uint64_t>(generation) << 50;
}
Move move_of(std::uint64_t d) { return Move::from_raw(static_cast<std::uint32_t>(d & 0xFFFFFFU)); }
Score score_of(std::uint64_t d) { return static_cast<Score>((d >> 24) & 0xFFFFU) - 32768; }
int depth_of(std::uint64_t d) { return static_cast<int>((d >> 40) & 0xFFU); }
Bound bound_of(std::uint64_t d) { return static_cast<Bound>((d >> 48) & 3U); }
std::uint8_t generation_of(std::uint64_t d) { return static_cast<std::uint8_t>((d >> 50) & 0x3FU); }

// Relaxed atomic reads and writes of the table's plain words: std::atomic_ref's, through the
// GCC and Clang builtins it is made of, since Emscripten's libc++ (LLVM 14) has no atomic_ref yet.
std::uint64_t load(const std::uint64_t& word) { return __atomic_load_n(&word, __ATOMIC_RELAXED); }
void put(std::uint64_t& word, std::uint64_t value) {
  __atomic_store_n(&word, value, __ATOMIC_RELAXED);
}

// Proven wins are stored relative to the node, so they stay right wherever the node recurs.
Score to_tt(Score s, int ply) {
  if (s >= kWinBound) return s + ply;
  if (s <= -kWinBound) return s - ply;
  return s;
}
Score from_tt(Score s, int ply) {
  if (s >= kWinBound) return s - ply;
  if (s <= -kWinBound) return s + ply;
  return s;
}

}  // namespace

TranspositionTable::TranspositionTable(std::size_t megabytes) { resize(megabytes); }

void TranspositionTable::resize(std::size_t megabytes) {
  const std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
  bucket_count_ = std::bit_floor(bytes / (sizeof(Entry) * kBucketSize));
  allocate();
}

// A fresh zeroed block rather than a pass writing zeros over every page.
void TranspositionTable::clear() { allocate(); }

// Not calloc where there is mmap: glibc's calloc returns a large block as a fresh mapping only
// while the block is above its mmap threshold, and that threshold rises to the size of each
// mapped block freed, up to 32 MB. A table under 32 MB made again (clear, resize) then came from
// the heap, which calloc zeroes with memset: a 16 MB table cleared a second time wrote all of it
// (3,000 page faults, 7 ms on the idle machine, before the search's clock could count it).
void TranspositionTable::allocate() {
  const std::size_t bytes = bucket_count_ * kBucketSize * sizeof(Entry);
  entries_.reset();  // the old table goes back before the new one is asked for
#ifdef AMAZONS_TT_MMAP
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#else
  void* p = std::calloc(bucket_count_ * kBucketSize, sizeof(Entry));
  if (p == nullptr) throw std::bad_alloc();
#endif
  entries_ = std::unique_ptr<Entry[], Release>(static_cast<Entry*>(p), Release{bytes});
}

void TranspositionTable::Release::operator()(Entry* p) const {
#ifdef AMAZONS_TT_MMAP
  ::munmap(p, bytes);
#else
  std::free(p);
#endif
}

std::optional<TTHit> TranspositionTable::probe(std::uint64_t key, int ply) const {
  const Entry* bucket = &entries_[(key & (bucket_count_ - 1)) * kBucketSize];
  for (std::size_t i = 0; i < kBucketSize; ++i) {
    const std::uint64_t data = load(bucket[i].data);
    if ((load(bucket[i].check) ^ data) != key || data == 0) continue;
    return TTHit{move_of(data), from_tt(score_of(data), ply), depth_of(data), bound_of(data)};
  }
  return std::nullopt;
}

void TranspositionTable::store(std::uint64_t key, int ply, Move move, Score score, int depth,
                               Bound bound) {
  Entry* bucket = &entries_[(key & (bucket_count_ - 1)) * kBucketSize];
  // Replace the same position, else an empty slot, else the shallowest of the oldest.
  Entry* victim = nullptr;
  int victim_worth = 1 << 30;
  for (std::size_t i = 0; i < kBucketSize; ++i) {
    const std::uint64_t data = load(bucket[i].data);
    if (data == 0 || (load(bucket[i].check) ^ data) == key) {
      if (data != 0 && move.is_none()) move = move_of(data);  // keep the known best move
      if (data != 0 && depth < depth_of(data) - 2 && bound != Bound::Exact) return;
      victim = &bucket[i];
      break;
    }
    const int age = (generation_ - generation_of(data)) & 0x3F;
    const int worth = depth_of(data) - 8 * age;
    if (worth < victim_worth) {
      victim_worth = worth;
      victim = &bucket[i];
    }
  }
  const std::uint64_t data = pack(move, to_tt(score, ply), depth, bound, generation_);
  put(victim->data, data);
  put(victim->check, key ^ data);
}

}  // namespace amazons::ai
