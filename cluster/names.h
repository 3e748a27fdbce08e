// Who holds a player's name across the cluster: the node and the session that are logged in
// as it. A claim is decided atomically in Redis (one Lua script), so two nodes racing for one
// name never both win. Claims carry a TTL that the holding node refreshes with its heartbeat:
// the names of a node that died free themselves. Or, once the registry holds its names under a
// node lease (hold_under, cluster/node_lease.h), they carry no TTL and need no refreshing: they
// are listed in the lease's hash of names (`names:TOKEN`), and the node that claims the lease
// when it runs out gives each of them the TTL then.
//
// Not thread-safe (one Redis connection); each call is one Redis command.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/redis.h"

namespace amazons::cluster {

struct NameHolder {
  std::string node;
  std::string session;  // the node's own id for the connection (no spaces)
  friend bool operator==(const NameHolder&, const NameHolder&) = default;
};

struct NameClaim {
  bool won = false;
  NameHolder holder;  // who holds the name now: us when won
};

class NameRegistry {
 public:
  // The form a name is claimed in: names with one form are one name (the server passes its
  // canonical form, so that look-alikes cannot be held at once). Empty: the name as it is.
  using NameKey = std::function<std::string(std::string_view)>;

  NameRegistry(Redis& redis, std::string node, Millis ttl,
               std::string prefix = "amz:", NameKey key_of = {});

  // Claims `name` for a session on this node when nobody holds it (or this very session does:
  // then the claim is refreshed).
  Expected<NameClaim, RedisError> claim(std::string_view name, std::string_view session);
  // Takes `name` for a session on this node whoever holds it (a login with the right token
  // replaces the old connection); returns the previous holder, to be told to close it.
  Expected<std::optional<NameHolder>, RedisError> take(std::string_view name,
                                                       std::string_view session);
  // From now on, names are claimed and taken under the node lease with this token, not each
  // with a TTL of its own (0: back to TTLs). Names claimed before are not moved: claim them
  // again.
  void hold_under(std::int64_t lease_token) { lease_ = lease_token; }
  std::int64_t lease() const { return lease_; }
  // Lets go of a name this session holds. false: it was not ours.
  Expected<bool, RedisError> release(std::string_view name, std::string_view session);
  Expected<std::optional<NameHolder>, RedisError> holder(std::string_view name);
  // Extends the TTL of every (name, session) this node holds, in one round trip, putting back a
  // name that nobody holds any more; returns the names that another session holds now.
  Expected<std::vector<std::string>, RedisError> refresh(
      const std::vector<std::pair<std::string, std::string>>& held);

 private:
  std::string key(std::string_view name) const {
    return prefix_ + "name:" + (key_of_ ? key_of_(name) : std::string(name));
  }
  std::string value(std::string_view session) const;
  std::string lease_names() const { return prefix_ + "names:" + std::to_string(lease_); }

  Redis& redis_;
  std::string node_;
  Millis ttl_;
  std::string prefix_;
  NameKey key_of_;
  std::int64_t lease_ = 0;
};

std::optional<NameHolder> parse_name_value(std::string_view value);

}  // namespace amazons::cluster
