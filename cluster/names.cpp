#include "cluster/names.h"

#include <span>
#include <stdexcept>

#include "cluster/lease.h"
#include "cluster/replies.h"

namespace amazons::cluster {

namespace {

// KEYS: name. ARGV: our value, ttl ms. {1, value} when ours now, {0, holder} when not.
const RedisScript kClaim(R"lua(
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return {0, current} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1, ARGV[1]}
)lua");

// KEYS: name. ARGV: our value, ttl ms. 1 when extended or put back, 0 when another holds it.
// A missing key is put back: nobody took the name, it only went (Redis restarted empty, or the
// TTL ran out while this node was slow), and its player is still logged in here. Reporting it
// lost would tell that player "you logged in on another connection" when nobody did.
const RedisScript kRefresh(R"lua(
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
)lua");

// Under a node lease. KEYS: name, the lease's names. ARGV: our value. As kClaim, with no TTL.
const RedisScript kClaimUnder(R"lua(
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return {0, current} end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], KEYS[1], ARGV[1])
return {1, ARGV[1]}
)lua");

// Under a node lease. KEYS: name, the lease's names. ARGV: our value. The previous value.
const RedisScript kTakeUnder(R"lua(
local previous = redis.call('SET', KEYS[1], ARGV[1], 'GET')
redis.call('HSET', KEYS[2], KEYS[1], ARGV[1])
return previous
)lua");

// Under a node lease. KEYS: name, the lease's names. ARGV: our value. 1 when deleted.
const RedisScript kReleaseUnder(R"lua(
if redis.call('HGET', KEYS[2], KEYS[1]) == ARGV[1] then redis.call('HDEL', KEYS[2], KEYS[1]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
)lua");

bool valid_session(std::string_view s) {
  return !s.empty() && s.size() <= 64 && s.find(' ') == std::string_view::npos;
}

}  // namespace

std::optional<NameHolder> parse_name_value(std::string_view value) {
  const auto space = value.find(' ');
  if (space == std::string_view::npos || space == 0 || space + 1 == value.size())
    return std::nullopt;
  return NameHolder{std::string(value.substr(0, space)), std::string(value.substr(space + 1))};
}

NameRegistry::NameRegistry(Redis& redis, std::string node, Millis ttl, std::string prefix,
                           NameKey key_of)
    : redis_(redis),
      node_(std::move(node)),
      ttl_(ttl),
      prefix_(std::move(prefix)),
      key_of_(std::move(key_of)) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
}

std::string NameRegistry::value(std::string_view session) const {
  return node_ + " " + std::string(session);
}

Expected<NameClaim, RedisError> NameRegistry::claim(std::string_view name,
                                                    std::string_view session) {
  if (!valid_session(session))
    return Unexpected(RedisError{RedisErrorKind::Protocol, "names: a bad session id"});
  const std::string keys[] = {key(name), lease_names()};
  const std::string args[] = {value(session), std::to_string(ttl_.count())};
  auto r = lease_ != 0 ? kClaimUnder.run(redis_, keys, std::span(args, 1))
                       : kClaim.run(redis_, std::span(keys, 1), args);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, 2) || !is_integer(r->elements[0]) || !is_string(r->elements[1]))
    return unexpected_reply(redis_, "name claim", *r);
  auto holder = parse_name_value(r->elements[1].str);
  if (!holder) return unexpected_reply(redis_, "name claim", *r);
  return NameClaim{r->elements[0].integer == 1, *holder};
}

Expected<std::optional<NameHolder>, RedisError> NameRegistry::take(std::string_view name,
                                                                   std::string_view session) {
  if (!valid_session(session))
    return Unexpected(RedisError{RedisErrorKind::Protocol, "names: a bad session id"});
  // SET ... GET (Redis 6.2): the swap and the old value in one atomic command.
  const std::string keys[] = {key(name), lease_names()};
  const std::string args[] = {value(session)};
  auto r = lease_ != 0 ? kTakeUnder.run(redis_, keys, args)
                       : redis_.command({"SET", key(name), value(session), "PX",
                                         std::to_string(ttl_.count()), "GET"});
  if (!r) return Unexpected(r.error());
  if (r->nil()) return std::optional<NameHolder>();
  auto holder = is_string(*r) ? parse_name_value(r->str) : std::nullopt;
  if (!holder) return unexpected_reply(redis_, "name take", *r);
  return std::optional<NameHolder>(*holder);
}

Expected<bool, RedisError> NameRegistry::release(std::string_view name, std::string_view session) {
  const std::string keys[] = {key(name), lease_names()};
  const std::string args[] = {value(session)};
  auto r = lease_ != 0 ? kReleaseUnder.run(redis_, keys, args)
                       : delete_if_equal().run(redis_, std::span(keys, 1), args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "name release", *r);
  return r->integer == 1;
}

Expected<std::optional<NameHolder>, RedisError> NameRegistry::holder(std::string_view name) {
  auto r = redis_.command({"GET", key(name)});
  if (!r) return Unexpected(r.error());
  if (r->nil()) return std::optional<NameHolder>();
  auto holder = is_string(*r) ? parse_name_value(r->str) : std::nullopt;
  if (!holder) return unexpected_reply(redis_, "name holder", *r);
  return std::optional<NameHolder>(*holder);
}

Expected<std::vector<std::string>, RedisError> NameRegistry::refresh(
    const std::vector<std::pair<std::string, std::string>>& held) {
  std::vector<std::string> lost;
  if (held.empty()) return lost;
  std::vector<RedisScript::Call> calls;
  calls.reserve(held.size());
  for (const auto& [name, session] : held)
    calls.push_back({{key(name)}, {value(session), std::to_string(ttl_.count())}});
  auto replies = kRefresh.run_many(redis_, calls);
  if (!replies) return Unexpected(replies.error());
  for (std::size_t i = 0; i < held.size(); ++i) {
    const RedisReply& r = (*replies)[i];
    if (!is_integer(r)) return unexpected_reply(redis_, "name refresh", r);
    if (r.integer != 1) lost.push_back(held[i].first);
  }
  return lost;
}

}  // namespace amazons::cluster
