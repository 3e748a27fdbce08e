#include "cluster/membership.h"

#include <random>
#include <stdexcept>

#include "cluster/lease.h"
#include "cluster/replies.h"

namespace amazons::cluster {

namespace {

// Redis's clock in milliseconds, inside a script (TIME is allowed in scripts since Redis 5's
// effects replication, the only kind in Redis 7).
constexpr const char* kNow = R"lua(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
)lua";

// KEYS: nodes (sorted set), addresses (hash). ARGV: node, ttl ms, address.
const RedisScript kHeartbeat(std::string(kNow) + R"lua(
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
)lua");

// KEYS: nodes, addresses. {node, address, ms left, ...} of the live nodes.
const RedisScript kLive(std::string(kNow) + R"lua(
local live = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES')
local out = {}
for i = 1, #live, 2 do
  table.insert(out, live[i])
  table.insert(out, redis.call('HGET', KEYS[2], live[i]) or '')
  table.insert(out, tonumber(live[i + 1]) - now)
end
return out
)lua");

// KEYS: nodes, addresses. The nodes whose heartbeat ran out, removed.
const RedisScript kReap(std::string(kNow) + R"lua(
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, node in ipairs(dead) do
  redis.call('ZREM', KEYS[1], node)
  redis.call('HDEL', KEYS[2], node)
end
return dead
)lua");

// KEYS: epoch. ARGV: a fresh random epoch. {1, epoch} when created, {0, epoch} when there.
const RedisScript kEpoch(R"lua(
local e = redis.call('GET', KEYS[1])
if e then return {0, e} end
redis.call('SET', KEYS[1], ARGV[1])
return {1, ARGV[1]}
)lua");

std::string random_epoch() {
  std::random_device rd;
  std::uniform_int_distribution<unsigned> hex(0, 15);
  std::string out;
  for (int i = 0; i < 16; ++i) out.push_back("0123456789abcdef"[hex(rd)]);
  return out;
}

}  // namespace

Membership::Membership(Redis& redis, std::string node, Millis ttl, std::string prefix)
    : redis_(redis), node_(std::move(node)), ttl_(ttl), prefix_(std::move(prefix)) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
}

Expected<void, RedisError> Membership::heartbeat(std::string_view address) {
  const std::string keys[] = {prefix_ + "nodes", prefix_ + "addresses"};
  const std::string args[] = {node_, std::to_string(ttl_.count()), std::string(address)};
  auto r = kHeartbeat.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  return {};
}

Expected<std::vector<NodeInfo>, RedisError> Membership::live() {
  const std::string keys[] = {prefix_ + "nodes", prefix_ + "addresses"};
  auto r = kLive.run(redis_, keys, {});
  if (!r) return Unexpected(r.error());
  if (!is_array(*r) || r->elements.size() % 3 != 0) return unexpected_reply(redis_, "live", *r);
  std::vector<NodeInfo> out;
  for (std::size_t i = 0; i < r->elements.size(); i += 3) {
    const auto& e = r->elements;
    if (!is_string(e[i]) || !is_string(e[i + 1]) || !is_integer(e[i + 2]))
      return unexpected_reply(redis_, "live", *r);
    out.push_back({e[i].str, e[i + 1].str, Millis{e[i + 2].integer}});
  }
  return out;
}

Expected<std::vector<std::string>, RedisError> Membership::reap() {
  const std::string keys[] = {prefix_ + "nodes", prefix_ + "addresses"};
  auto r = kReap.run(redis_, keys, {});
  if (!r) return Unexpected(r.error());
  if (!is_array(*r)) return unexpected_reply(redis_, "reap", *r);
  std::vector<std::string> out;
  for (const auto& e : r->elements) {
    if (!is_string(e)) return unexpected_reply(redis_, "reap", *r);
    out.push_back(e.str);
  }
  return out;
}

Expected<void, RedisError> Membership::leave() {
  auto r =
      redis_.pipeline({{"ZREM", prefix_ + "nodes", node_}, {"HDEL", prefix_ + "addresses", node_}});
  if (!r) return Unexpected(r.error());
  return {};
}

EpochWatch::EpochWatch(Redis& redis, std::string prefix)
    : redis_(redis), prefix_(std::move(prefix)) {}

Expected<EpochCheck, RedisError> EpochWatch::check() {
  const std::string keys[] = {prefix_ + "epoch"};
  const std::string args[] = {random_epoch()};
  auto r = kEpoch.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, 2) || !is_integer(r->elements[0]) || !is_string(r->elements[1]))
    return unexpected_reply(redis_, "epoch", *r);
  EpochCheck c;
  c.epoch = r->elements[1].str;
  if (known_.empty())
    c.change = r->elements[0].integer == 1 ? EpochChange::Created : EpochChange::First;
  else
    c.change = c.epoch == known_ ? EpochChange::Unchanged : EpochChange::Lost;
  known_ = c.epoch;
  return c;
}

}  // namespace amazons::cluster
