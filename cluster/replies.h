// Checks on the shape of replies, shared by the cluster's primitives (internal).
#pragma once

#include <cstddef>
#include <string_view>

#include "cluster/redis.h"

namespace amazons::cluster {

inline bool is_integer(const RedisReply& r) { return r.type == RedisReply::Type::Integer; }
inline bool is_string(const RedisReply& r) {
  return r.type == RedisReply::Type::String || r.type == RedisReply::Type::Status;
}
// An array of at least `n` elements.
inline bool is_array(const RedisReply& r, std::size_t n = 0) {
  return r.type == RedisReply::Type::Array && r.elements.size() >= n;
}

inline Unexpected<RedisError> unexpected_reply(const Redis& redis, std::string_view what,
                                               const RedisReply& reply) {
  return Unexpected(RedisError{RedisErrorKind::Protocol,
                               "redis " + redis.address().text() + ": " + std::string(what) +
                                   ": unexpected reply " + describe(reply)});
}

}  // namespace amazons::cluster
