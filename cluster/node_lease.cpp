#include "cluster/node_lease.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "cluster/replies.h"

namespace amazons::cluster {

namespace {

// Keys a script reaches beyond its KEYS (a lease's hash, named by its token) are built from the
// prefix in ARGV[1]: the cluster runs on one Redis, not a Redis Cluster, so they need no slot.

// KEYS: fence, owners. ARGV: prefix, node, ttl ms, token floor. The new lease's token.
const RedisScript kAcquireNodeLease(R"lua(
local token = redis.call('INCR', KEYS[1])
local floor = tonumber(ARGV[4])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[1], token)
end
redis.call('SET', ARGV[1] .. 'nodelease:' .. token, ARGV[2], 'PX', ARGV[3])
redis.call('HSET', KEYS[2], token, ARGV[2])
return token
)lua");

// KEYS: the lease. ARGV: the node, ttl ms. 1 when extended.
const RedisScript kRenewNodeLease(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
)lua");

// KEYS: owners, fence. ARGV: prefix, node, this lease's token, key, mode, floor.
// {1, token}: ours; {2, holder's token, holder's node, 1 if its lease is alive}: another
// lease's; {0}: this node holds no lease.
const RedisScript kTake(R"lua(
local p = ARGV[1]
if redis.call('GET', p .. 'nodelease:' .. ARGV[3]) ~= ARGV[2] then return {0} end
local mine = p .. 'owns:' .. ARGV[3]
local had = redis.call('HGET', mine, ARGV[4])
if had then return {1, tonumber(had)} end
if ARGV[5] ~= 'new' then
  local owners = redis.call('HGETALL', KEYS[1])
  for i = 1, #owners, 2 do
    local t = owners[i]
    if t ~= ARGV[3] and redis.call('HEXISTS', p .. 'owns:' .. t, ARGV[4]) == 1 then
      return {2, tonumber(t), owners[i + 1], redis.call('EXISTS', p .. 'nodelease:' .. t)}
    end
  end
end
local token = tonumber(ARGV[3])
if ARGV[5] == 'fresh' then
  token = redis.call('INCR', KEYS[2])
  local floor = tonumber(ARGV[6])
  if token <= floor then
    token = floor + 1
    redis.call('SET', KEYS[2], token)
  end
elseif ARGV[5] == 'keep' then
  token = tonumber(ARGV[6])
end
redis.call('HSET', mine, ARGV[4], token)
return {1, token}
)lua");

// KEYS: owners. ARGV: prefix, key. {token, node, 1 if alive} of the lease holding it, or {}.
const RedisScript kHolder(R"lua(
local p = ARGV[1]
local owners = redis.call('HGETALL', KEYS[1])
for i = 1, #owners, 2 do
  local t = owners[i]
  if redis.call('HEXISTS', p .. 'owns:' .. t, ARGV[2]) == 1 then
    return {tonumber(t), owners[i + 1], redis.call('EXISTS', p .. 'nodelease:' .. t)}
  end
end
return {}
)lua");

// KEYS: owners. ARGV: prefix, keys... For each key 1 when a lease holds it, else 0. HMGET in
// slices: unpack() has a limit on its results.
const RedisScript kHeld(R"lua(
local p = ARGV[1]
local out = {}
for i = 2, #ARGV do out[i - 1] = 0 end
for _, t in ipairs(redis.call('HKEYS', KEYS[1])) do
  local h = p .. 'owns:' .. t
  for s = 2, #ARGV, 1000 do
    local r = redis.call('HMGET', h, unpack(ARGV, s, math.min(s + 999, #ARGV)))
    for j = 1, #r do
      if r[j] then out[s + j - 2] = 1 end
    end
  end
end
return out
)lua");

// KEYS: owners. ARGV: prefix. {token, node, token, node...} of the leases that ran out.
const RedisScript kDead(R"lua(
local p = ARGV[1]
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if redis.call('EXISTS', p .. 'nodelease:' .. all[i]) == 0 then
    out[#out + 1] = all[i]
    out[#out + 1] = all[i + 1]
  end
end
return out
)lua");

// KEYS: owners, fence. ARGV: prefix, the dead lease's token, node, this lease's token, floor,
// the names' TTL ms. {1, token, keys...}: claimed (token 0 when it held no keys); {0}: not
// claimed. The dead lease's names (cluster/names.h) that still hold its values get the TTL,
// unless a live lease lists them again (their node took a new lease and claimed them again).
const RedisScript kClaimDeadLease(R"lua(
local p = ARGV[1]
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return {0} end
if redis.call('EXISTS', p .. 'nodelease:' .. ARGV[2]) == 1 then return {0} end
if redis.call('GET', p .. 'nodelease:' .. ARGV[4]) ~= ARGV[3] then return {0} end
local names = redis.call('HGETALL', p .. 'names:' .. ARGV[2])
if #names > 0 then
  local live = {}
  for _, t in ipairs(redis.call('HKEYS', KEYS[1])) do
    if t ~= ARGV[2] and redis.call('EXISTS', p .. 'nodelease:' .. t) == 1 then
      live[#live + 1] = p .. 'names:' .. t
    end
  end
  for i = 1, #names, 2 do
    if redis.call('GET', names[i]) == names[i + 1] then
      local again = false
      for _, h in ipairs(live) do
        if redis.call('HGET', h, names[i]) == names[i + 1] then again = true end
      end
      if not again then redis.call('PEXPIRE', names[i], ARGV[6]) end
    end
  end
  redis.call('DEL', p .. 'names:' .. ARGV[2])
end
local dead = p .. 'owns:' .. ARGV[2]
local keys = redis.call('HKEYS', dead)
redis.call('DEL', dead)
redis.call('HDEL', KEYS[1], ARGV[2])
if #keys == 0 then return {1, 0} end
local token = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[5])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[2], token)
end
local mine = p .. 'owns:' .. ARGV[4]
for s = 1, #keys, 1000 do
  local args = {}
  for j = s, math.min(s + 999, #keys) do
    args[#args + 1] = keys[j]
    args[#args + 1] = token
  end
  redis.call('HSET', mine, unpack(args))
end
local out = {1, token}
for _, k in ipairs(keys) do out[#out + 1] = k end
return out
)lua");

std::optional<std::int64_t> integer_of(const RedisReply& r) {
  if (is_integer(r)) return r.integer;
  if (!is_string(r)) return std::nullopt;
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(r.str.data(), r.str.data() + r.str.size(), v);
  if (ec != std::errc() || end != r.str.data() + r.str.size()) return std::nullopt;
  return v;
}

std::string_view mode_name(TakeMode mode) {
  switch (mode) {
    case TakeMode::New:
      return "new";
    case TakeMode::Fresh:
      return "fresh";
    case TakeMode::Keep:
      return "keep";
  }
  return "new";
}

}  // namespace

NodeLease::NodeLease(Redis& redis, std::string node, LeaseOptions options, std::string prefix)
    : redis_(redis), node_(std::move(node)), options_(options), prefix_(std::move(prefix)) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
  if (options_.margin >= options_.ttl || options_.ttl <= Millis{0})
    throw std::invalid_argument("lease: the margin must be less than the TTL");
}

std::string NodeLease::key(std::string_view what, std::int64_t token) const {
  return prefix_ + std::string(what) + ":" + std::to_string(token);
}

Expected<std::int64_t, RedisError> NodeLease::acquire(std::int64_t token_floor) {
  const auto sent = std::chrono::steady_clock::now();
  const std::string keys[] = {prefix_ + "fence", prefix_ + "owners"};
  const std::string args[] = {prefix_, node_, std::to_string(options_.ttl.count()),
                              std::to_string(token_floor)};
  auto r = kAcquireNodeLease.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r) || r->integer <= 0) return unexpected_reply(redis_, "node lease", *r);
  token_ = r->integer;
  valid_until_ = sent + options_.ttl - options_.margin;
  return token_;
}

Expected<bool, RedisError> NodeLease::renew() {
  if (token_ == 0) return false;
  const auto sent = std::chrono::steady_clock::now();
  const std::string keys[] = {key("nodelease", token_)};
  const std::string args[] = {node_, std::to_string(options_.ttl.count())};
  auto r = kRenewNodeLease.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "node lease renew", *r);
  if (r->integer != 1) {
    valid_until_ = {};
    return false;
  }
  // Our lease was still there, so nobody can have claimed its keys: extending it from `sent` is
  // safe even if our own deadline had passed meanwhile.
  valid_until_ = sent + options_.ttl - options_.margin;
  return true;
}

Expected<bool, RedisError> NodeLease::release() {
  if (token_ == 0) return false;
  const std::string keys[] = {key("nodelease", token_)};
  const std::string args[] = {node_};
  auto r = delete_if_equal().run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "node lease release", *r);
  valid_until_ = {};
  return r->integer == 1;
}

Expected<KeyTaken, RedisError> NodeLease::take(std::string_view what, TakeMode mode,
                                               std::int64_t floor) {
  if (token_ == 0) return KeyTaken{};
  const std::string keys[] = {prefix_ + "owners", prefix_ + "fence"};
  const std::string args[] = {prefix_,
                              node_,
                              std::to_string(token_),
                              std::string(what),
                              std::string(mode_name(mode)),
                              std::to_string(floor)};
  auto r = kTake.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  const auto bad = [&] { return unexpected_reply(redis_, "take", *r); };
  if (!is_array(*r, 1) || !is_integer(r->elements[0])) return bad();
  KeyTaken out;
  switch (r->elements[0].integer) {
    case 0:
      return out;
    case 1:
      if (!is_array(*r, 2) || !is_integer(r->elements[1])) return bad();
      out.token = r->elements[1].integer;
      return out;
    case 2: {
      if (!is_array(*r, 4) || !is_integer(r->elements[1]) || !is_string(r->elements[2]) ||
          !is_integer(r->elements[3]))
        return bad();
      out.holder =
          KeyHolder{r->elements[1].integer, r->elements[2].str, r->elements[3].integer == 1};
      return out;
    }
    default:
      return bad();
  }
}

Expected<void, RedisError> NodeLease::drop(std::string_view what) {
  if (token_ == 0) return {};
  auto r = redis_.command({"HDEL", key("owns", token_), what});
  if (!r) return Unexpected(r.error());
  return {};
}

Expected<std::optional<KeyHolder>, RedisError> NodeLease::holder(std::string_view what) {
  const std::string keys[] = {prefix_ + "owners"};
  const std::string args[] = {prefix_, std::string(what)};
  auto r = kHolder.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r)) return unexpected_reply(redis_, "holder", *r);
  if (r->elements.empty()) return std::optional<KeyHolder>();
  if (r->elements.size() != 3 || !is_integer(r->elements[0]) || !is_string(r->elements[1]) ||
      !is_integer(r->elements[2]))
    return unexpected_reply(redis_, "holder", *r);
  return std::optional<KeyHolder>(
      KeyHolder{r->elements[0].integer, r->elements[1].str, r->elements[2].integer == 1});
}

Expected<std::vector<bool>, RedisError> NodeLease::held(std::span<const std::string> what) {
  std::vector<bool> out;
  if (what.empty()) return out;
  const std::string keys[] = {prefix_ + "owners"};
  std::vector<std::string> args{prefix_};
  args.insert(args.end(), what.begin(), what.end());
  auto r = kHeld.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, what.size()) || r->elements.size() != what.size())
    return unexpected_reply(redis_, "held", *r);
  for (const RedisReply& e : r->elements) {
    if (!is_integer(e)) return unexpected_reply(redis_, "held", e);
    out.push_back(e.integer == 1);
  }
  return out;
}

Expected<std::vector<DeadLease>, RedisError> NodeLease::dead() {
  const std::string keys[] = {prefix_ + "owners"};
  const std::string args[] = {prefix_};
  auto r = kDead.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r) || r->elements.size() % 2 != 0) return unexpected_reply(redis_, "dead", *r);
  std::vector<DeadLease> out;
  for (std::size_t i = 0; i < r->elements.size(); i += 2) {
    const auto token = integer_of(r->elements[i]);
    if (!token || !is_string(r->elements[i + 1])) return unexpected_reply(redis_, "dead", *r);
    out.push_back({*token, r->elements[i + 1].str});
  }
  return out;
}

Expected<std::optional<Claimed>, RedisError> NodeLease::claim(std::int64_t owner,
                                                              std::int64_t floor,
                                                              Millis names_ttl) {
  if (token_ == 0) return std::optional<Claimed>();
  const std::string keys[] = {prefix_ + "owners", prefix_ + "fence"};
  const std::string args[] = {prefix_,
                              std::to_string(owner),
                              node_,
                              std::to_string(token_),
                              std::to_string(floor),
                              std::to_string(std::max<long long>(1, names_ttl.count()))};
  auto r = kClaimDeadLease.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  const auto bad = [&] { return unexpected_reply(redis_, "claim", *r); };
  if (!is_array(*r, 1) || !is_integer(r->elements[0])) return bad();
  if (r->elements[0].integer != 1) return std::optional<Claimed>();
  if (!is_array(*r, 2) || !is_integer(r->elements[1])) return bad();
  Claimed out;
  out.token = r->elements[1].integer;
  for (std::size_t i = 2; i < r->elements.size(); ++i) {
    if (!is_string(r->elements[i])) return bad();
    out.keys.push_back(r->elements[i].str);
  }
  return std::optional<Claimed>(std::move(out));
}

}  // namespace amazons::cluster
