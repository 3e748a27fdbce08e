// Quick pairing across the cluster: seeks wait in pools (one per rules, time control and rated
// flag), and a seek either takes the oldest waiting player of its pool or joins the pool, in
// one Lua script, so one waiting player is never paired twice nor two seekers left waiting in
// the same pool. A player has at most one seek: a new one replaces the old.
//
// Not thread-safe (one Redis connection); each call is one Redis command.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cluster/redis.h"

namespace amazons::cluster {

struct Pairing {
  bool paired = false;        // false: now waiting in the pool
  std::string opponent;       // when paired: who was waiting
  std::string opponent_node;  // and on which node they seek
};

class PairingQueue {
 public:
  PairingQueue(Redis& redis, std::string node, std::string prefix = "amz:");

  // `pool` names what is sought, e.g. "standard|300+5|rated" (any text).
  Expected<Pairing, RedisError> seek(std::string_view player, std::string_view pool);
  // Withdraws the player's seek. false: there was none. With `anywhere` false, only a seek made
  // through this node: one they made since on another node stays (a seek that expired here, or
  // whose player left this node, must not take a newer one with it).
  Expected<bool, RedisError> unseek(std::string_view player, bool anywhere = true);
  // For each player, whether they have a seek waiting (in any pool, made through any node).
  Expected<std::vector<bool>, RedisError> seeking(const std::vector<std::string>& players);
  // Who waits in a pool, oldest first.
  Expected<std::vector<std::string>, RedisError> waiting(std::string_view pool);
  // Withdraws every seek made on `node` (a node that died); returns the players.
  Expected<std::vector<std::string>, RedisError> drop_node(std::string_view node);

 private:
  std::string pool_key(std::string_view pool) const {
    return prefix_ + "pool:" + std::string(pool);
  }

  Redis& redis_;
  std::string node_;
  std::string prefix_;
};

}  // namespace amazons::cluster
