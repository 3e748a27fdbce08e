// A lease per node, not per game: a node holds one lease in Redis, renewed in one command
// whatever the number of games it runs, and the keys it runs ("17", "c12", "t17") are fields of
// one hash that belongs to that lease. When the lease runs out, a surviving node claims every key
// of the hash in one Lua script and runs them from then on.
//
// In Redis, under the prefix (`amz:` by default), for a lease with fencing token T:
//   fence         the counter every token comes from (INCR)
//   nodelease:T   the lease: the node's name, with a TTL (PX); renewed by compare-and-set
//   owns:T        a hash: key -> the fencing token the key is held with
//   owners        a hash: T -> node name, every lease whose keys are not yet claimed
//   names:T       a hash: the names held under the lease (cluster/names.h) -> their values
// A lease's token is new at each acquire (each life of a node, and again after a lease ran
// out), so a restarted node never mistakes its last life's keys for its own: they are claimed
// like any dead node's, by whoever sees its lease gone first (maybe itself).
//
// Fencing: a key taken for a new game is held with the lease's own token. A claim draws a new
// token from the counter for the keys it takes, so a key's token rises at each takeover, above
// every token any earlier holder had, and PostgreSQL (which stores each game's token with its
// moves, schema 6) refuses the writes of a holder that lost the key without knowing it.
//
// Time: as in cluster/lease.h, the holder believes in its lease until the moment it sent the
// acquire or the last renew, plus the TTL, minus a margin, on its own monotonic clock.
//
// Not thread-safe (it uses one Redis connection); each call is one Redis round trip.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/lease.h"
#include "cluster/redis.h"

namespace amazons::cluster {

// A lease that holds a key: its token, its node's name, and whether it is alive (false: it ran
// out, and the key waits for a claim).
struct KeyHolder {
  std::int64_t owner = 0;
  std::string node;
  bool alive = false;
};

// How a key is taken. New: a key this node has just made (a game from its block of ids): held
// with the lease's token. Fresh: a key nobody holds but that may have been held before (its
// lease was lost with Redis's contents): a new token above `floor`. Keep: this node held the key
// with `floor` before Redis lost its contents: the same token again.
enum class TakeMode : std::uint8_t { New, Fresh, Keep };

struct KeyTaken {
  std::int64_t token = 0;  // 0: not taken (held by `holder`, or this node holds no lease)
  std::optional<KeyHolder> holder;
};

// A lease whose keys were claimed by this node: the token they are held with now.
struct Claimed {
  std::int64_t token = 0;
  std::vector<std::string> keys;
};

// A lease that ran out with keys nobody has claimed.
struct DeadLease {
  std::int64_t owner = 0;
  std::string node;
};

class NodeLease {
 public:
  NodeLease(Redis& redis, std::string node, LeaseOptions options = {}, std::string prefix = "amz:");

  // Takes a new lease, with a token above every earlier one and above `token_floor`. The lease
  // held before (if any) is forgotten here; its keys are claimed like a dead node's.
  Expected<std::int64_t, RedisError> acquire(std::int64_t token_floor = 0);
  // Extends the lease from now. false: it is not ours any more (it ran out): this node runs none
  // of its keys. On an error the deadline stays as it was.
  Expected<bool, RedisError> renew();
  // Ends the lease now (a node that stops), so that another node claims its keys at once.
  Expected<bool, RedisError> release();
  // Gives up the lease without a word to Redis (its deadline passed): it is never renewed
  // again, runs out in Redis, and its keys are claimed like a dead node's. acquire() takes a
  // new one.
  void forget() {
    token_ = 0;
    valid_until_ = {};
  }

  bool valid(SteadyTime now = std::chrono::steady_clock::now()) const {
    return token_ != 0 && now < valid_until_;
  }
  SteadyTime valid_until() const { return valid_until_; }
  std::int64_t token() const { return token_; }  // 0: no lease

  // Takes `key` under this node's lease, if no other lease holds it (already ours: its token).
  Expected<KeyTaken, RedisError> take(std::string_view key, TakeMode mode, std::int64_t floor = 0);
  // This node no longer runs `key`.
  Expected<void, RedisError> drop(std::string_view key);
  // Which lease holds `key`, if any (this node's included).
  Expected<std::optional<KeyHolder>, RedisError> holder(std::string_view key);
  // Which of `keys` some lease holds (false: nobody runs it). One command per lease in Redis,
  // whatever the number of keys.
  Expected<std::vector<bool>, RedisError> held(std::span<const std::string> keys);
  // The leases that ran out with keys not yet claimed.
  Expected<std::vector<DeadLease>, RedisError> dead();
  // Claims every key of the dead lease `owner`, in one script: only if that lease has run out
  // and this node's lease is still there. The keys are held with a new token above `floor`;
  // the names held under the dead lease (cluster/names.h) free themselves `names_ttl` later.
  // None: the lease is alive, was claimed by another node, or this node holds no lease.
  Expected<std::optional<Claimed>, RedisError> claim(std::int64_t owner, std::int64_t floor = 0,
                                                     Millis names_ttl = Millis{15'000});

  const std::string& node() const { return node_; }
  const LeaseOptions& options() const { return options_; }

 private:
  std::string key(std::string_view what, std::int64_t token) const;

  Redis& redis_;
  std::string node_;
  LeaseOptions options_;
  std::string prefix_;
  std::int64_t token_ = 0;
  SteadyTime valid_until_{};
};

}  // namespace amazons::cluster
