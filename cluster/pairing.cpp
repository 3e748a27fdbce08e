#include "cluster/pairing.h"

#include <stdexcept>

#include "cluster/lease.h"
#include "cluster/replies.h"

namespace amazons::cluster {

namespace {

// The seekers hash maps a player to "POOLKEY\tNODE"; each pool is a list of players, oldest
// first. The pool key of a player's old seek is read from the hash, so the scripts touch keys
// they were not given: fine on one Redis (not on Redis Cluster, which this does not use).

// Removes the seek of ARGV[1], if any. Shared by the scripts below.
constexpr const char* kRemove = R"lua(
local function remove(seekers, player)
  local cur = redis.call('HGET', seekers, player)
  if not cur then return 0 end
  local tab = string.find(cur, '\t', 1, true)
  redis.call('LREM', string.sub(cur, 1, tab - 1), 0, player)
  redis.call('HDEL', seekers, player)
  return 1
end
)lua";

// KEYS: seekers, pool. ARGV: player, node. {1, opponent, node} or {0}.
const RedisScript kSeek(std::string(kRemove) + R"lua(
remove(KEYS[1], ARGV[1])
local other = redis.call('LPOP', KEYS[2])
if other then
  local cur = redis.call('HGET', KEYS[1], other) or '\t'
  redis.call('HDEL', KEYS[1], other)
  local tab = string.find(cur, '\t', 1, true)
  return {1, other, string.sub(cur, tab + 1)}
end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], KEYS[2] .. '\t' .. ARGV[2])
return {0}
)lua");

// KEYS: seekers. ARGV: player, and a node: only a seek made there (empty: any).
const RedisScript kUnseek(std::string(kRemove) + R"lua(
if ARGV[2] ~= '' then
  local cur = redis.call('HGET', KEYS[1], ARGV[1])
  if not cur then return 0 end
  local tab = string.find(cur, '\t', 1, true)
  if string.sub(cur, tab + 1) ~= ARGV[2] then return 0 end
end
return remove(KEYS[1], ARGV[1])
)lua");

// KEYS: seekers. ARGV: node. The players whose seeks were dropped.
const RedisScript kDropNode(std::string(kRemove) + R"lua(
local all = redis.call('HGETALL', KEYS[1])
local dropped = {}
for i = 1, #all, 2 do
  local tab = string.find(all[i + 1], '\t', 1, true)
  if string.sub(all[i + 1], tab + 1) == ARGV[1] then
    table.insert(dropped, all[i])
  end
end
for _, player in ipairs(dropped) do remove(KEYS[1], player) end
return dropped
)lua");

}  // namespace

PairingQueue::PairingQueue(Redis& redis, std::string node, std::string prefix)
    : redis_(redis), node_(std::move(node)), prefix_(std::move(prefix)) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
}

Expected<Pairing, RedisError> PairingQueue::seek(std::string_view player, std::string_view pool) {
  if (player.empty() || player.find('\t') != std::string_view::npos ||
      pool.find('\t') != std::string_view::npos)
    return Unexpected(RedisError{RedisErrorKind::Protocol, "pairing: a bad player or pool"});
  const std::string keys[] = {prefix_ + "seekers", pool_key(pool)};
  const std::string args[] = {std::string(player), node_};
  auto r = kSeek.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, 1) || !is_integer(r->elements[0])) return unexpected_reply(redis_, "seek", *r);
  if (r->elements[0].integer == 0) return Pairing{};
  if (!is_array(*r, 3) || !is_string(r->elements[1]) || !is_string(r->elements[2]))
    return unexpected_reply(redis_, "seek", *r);
  return Pairing{true, r->elements[1].str, r->elements[2].str};
}

Expected<bool, RedisError> PairingQueue::unseek(std::string_view player, bool anywhere) {
  const std::string keys[] = {prefix_ + "seekers"};
  const std::string args[] = {std::string(player), anywhere ? std::string() : node_};
  auto r = kUnseek.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "unseek", *r);
  return r->integer == 1;
}

Expected<std::vector<bool>, RedisError> PairingQueue::seeking(
    const std::vector<std::string>& players) {
  if (players.empty()) return std::vector<bool>{};
  std::vector<std::string> command{"HMGET", prefix_ + "seekers"};
  command.insert(command.end(), players.begin(), players.end());
  auto r = redis_.command(command);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, players.size())) return unexpected_reply(redis_, "seeking", *r);
  std::vector<bool> out;
  for (const auto& e : r->elements) out.push_back(is_string(e));
  return out;
}

Expected<std::vector<std::string>, RedisError> PairingQueue::waiting(std::string_view pool) {
  auto r = redis_.command({"LRANGE", pool_key(pool), "0", "-1"});
  if (!r) return Unexpected(r.error());
  if (!is_array(*r)) return unexpected_reply(redis_, "waiting", *r);
  std::vector<std::string> out;
  for (const auto& e : r->elements) {
    if (!is_string(e)) return unexpected_reply(redis_, "waiting", *r);
    out.push_back(e.str);
  }
  return out;
}

Expected<std::vector<std::string>, RedisError> PairingQueue::drop_node(std::string_view node) {
  const std::string keys[] = {prefix_ + "seekers"};
  const std::string args[] = {std::string(node)};
  auto r = kDropNode.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r)) return unexpected_reply(redis_, "drop_node", *r);
  std::vector<std::string> out;
  for (const auto& e : r->elements) {
    if (!is_string(e)) return unexpected_reply(redis_, "drop_node", *r);
    out.push_back(e.str);
  }
  return out;
}

}  // namespace amazons::cluster
