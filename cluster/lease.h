// Game leases: each game is run by one node at a time, the holder of its lease in Redis. A lease
// is taken atomically (a Lua script: SET NX PX on the lease key, a fencing token from INCR on a
// counter that outlives the lease), renewed and released by compare-and-set on the exact value
// the holder wrote (node and token), so a node can never extend or drop a lease another node
// has taken since.
//
// Time: the holder believes it owns a lease only until its own monotonic deadline, taken from
// the moment it *sent* the acquire or renew, plus the TTL minus a margin. Redis's clock runs the
// expiry; the margin covers the two clocks running at slightly different rates and the time a
// renewal takes. A Redis that cannot be reached never extends a lease: the holder stops when
// its deadline passes, before another node can be granted the lease.
//
// Fencing: a new holder's token is greater than every earlier holder's, also across a Redis that
// lost its contents, when the caller passes the highest token PostgreSQL has seen for the game
// (`token_floor`). Storage refuses writes that carry an older token than the one it has seen.
//
// Not thread-safe (it uses one Redis connection); blocks for at most one Redis command.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cluster/redis.h"

namespace amazons::cluster {

using SteadyTime = std::chrono::steady_clock::time_point;

struct LeaseOptions {
  Millis ttl{5000};
  Millis margin{500};  // must be less than ttl
};

struct Lease {
  std::string game;
  std::string node;
  std::int64_t token = 0;
  SteadyTime valid_until{};  // this node's own deadline: past it, the lease is not ours
  bool valid(SteadyTime now = std::chrono::steady_clock::now()) const { return now < valid_until; }
};

struct LeaseHolder {
  std::string node;
  std::int64_t token = 0;
  Millis ttl_left{0};
};

using LeaseOutcome = std::variant<Lease, LeaseHolder>;  // won, or who holds it

class GameLeases {
 public:
  // `node`: this node's name (letters, digits, '-', '_', '.'; no spaces). `prefix` namespaces
  // the keys, so several clusters (or tests) share one Redis.
  GameLeases(Redis& redis, std::string node, LeaseOptions options = {},
             std::string prefix = "amz:");

  // Takes the lease of `game` if nobody holds it. The token is above every earlier token for
  // this game and above `token_floor`.
  Expected<LeaseOutcome, RedisError> acquire(std::string_view game, std::int64_t token_floor = 0);
  // Extends a lease this node holds, from now. false: the lease is no longer ours (it expired,
  // and maybe another node holds it now): stop running the game at once. On an error the
  // lease's deadline stays as it was.
  Expected<bool, RedisError> renew(Lease& lease);
  // Renews every lease given in one pipelined round trip (a node renews all its games at once);
  // returns the games whose lease was no longer ours (their deadlines are cleared). On an error
  // no deadline moves.
  Expected<std::vector<std::string>, RedisError> renew_all(std::span<Lease* const> leases);
  // Gives the lease up (a game that ended, a node that stops). false: it was not ours any more.
  Expected<bool, RedisError> release(const Lease& lease);
  // Who holds the lease of a game now, if anyone.
  Expected<std::optional<LeaseHolder>, RedisError> holder(std::string_view game);
  // Who holds each of these games' leases (one round trip; ttl_left is not read).
  Expected<std::vector<std::optional<LeaseHolder>>, RedisError> holders(
      std::span<const std::string> games);

  const std::string& node() const { return node_; }
  const LeaseOptions& options() const { return options_; }

 private:
  std::string lease_key(std::string_view game) const;
  std::string fence_key(std::string_view game) const;

  Redis& redis_;
  std::string node_;
  LeaseOptions options_;
  std::string prefix_;
};

// The value a lease key holds: "NODE TOKEN". Exposed for the tests.
std::string lease_value(std::string_view node, std::int64_t token);
std::optional<LeaseHolder> parse_lease_value(std::string_view value);

// Whether a node name is acceptable: 1 to 64 of letters, digits, '-', '_', '.'.
bool valid_node_name(std::string_view node);

}  // namespace amazons::cluster
