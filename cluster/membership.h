// Which nodes are alive, and whether Redis still holds what the nodes put there.
//
// Membership: each node sends a heartbeat (every ttl/3 or so) that keeps it in a sorted set,
// scored by when its heartbeat runs out on Redis's own clock (so the nodes' clocks do not
// matter). reap() removes the nodes whose heartbeat ran out and hands each one to exactly one
// caller, which then cleans up after it (its seeks, its games' leases run out by themselves).
//
// Epoch: a random value Redis keeps under one key. Redis without persistence that restarts
// comes back empty, the epoch with it; the next check() creates a new one and every node sees
// it changed: Lost. Then the nodes rebuild what they put in Redis from PostgreSQL and from
// themselves (leases with token floors from PostgreSQL, names, seeks, heartbeats).
//
// Not thread-safe (one Redis connection); each call is one Redis command.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/redis.h"

namespace amazons::cluster {

struct NodeInfo {
  std::string node;
  std::string address;  // what clients connect to, e.g. "host:7420"
  Millis expires_in{0};
  friend bool operator==(const NodeInfo&, const NodeInfo&) = default;
};

class Membership {
 public:
  Membership(Redis& redis, std::string node, Millis ttl, std::string prefix = "amz:");

  Expected<void, RedisError> heartbeat(std::string_view address);
  // The nodes whose heartbeat has not run out, by name.
  Expected<std::vector<NodeInfo>, RedisError> live();
  // Removes the nodes whose heartbeat ran out and returns them; each dead node is returned to
  // one caller only.
  Expected<std::vector<std::string>, RedisError> reap();
  // This node leaves (a graceful stop).
  Expected<void, RedisError> leave();

 private:
  Redis& redis_;
  std::string node_;
  Millis ttl_;
  std::string prefix_;
};

enum class EpochChange : std::uint8_t {
  Unchanged,  // the same as at the last check
  First,      // this watcher's first check, and Redis had an epoch
  Created,    // this watcher's first check, and Redis had none: this check made it
  Lost,       // not the epoch seen before: Redis lost its contents (or is another Redis)
};

struct EpochCheck {
  EpochChange change = EpochChange::Unchanged;
  std::string epoch;
};

class EpochWatch {
 public:
  explicit EpochWatch(Redis& redis, std::string prefix = "amz:");
  // Reads the epoch, creating it when Redis has none.
  Expected<EpochCheck, RedisError> check();
  const std::string& epoch() const { return known_; }

 private:
  Redis& redis_;
  std::string prefix_;
  std::string known_;
};

}  // namespace amazons::cluster
