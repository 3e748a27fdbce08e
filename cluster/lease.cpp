#include "cluster/lease.h"

#include <charconv>
#include <stdexcept>

#include "cluster/replies.h"

namespace amazons::cluster {

namespace {

// KEYS: lease, fence. ARGV: node, ttl ms, token floor.
// Returns {1, token} when taken, {0, holder value, ms left} when someone holds it.
const RedisScript kAcquire(R"lua(
local current = redis.call('GET', KEYS[1])
if current then return {0, current, redis.call('PTTL', KEYS[1])} end
local token = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if token <= floor then
  token = floor + 1
  redis.call('SET', KEYS[2], token)
end
if not redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. token, 'NX', 'PX', ARGV[2]) then
  return redis.error_reply('lease: SET NX failed after GET found no holder')
end
return {1, token}
)lua");

// KEYS: lease. ARGV: the value we wrote, ttl ms. 1 when extended.
const RedisScript kRenew(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
)lua");

}  // namespace

bool valid_node_name(std::string_view node) {
  if (node.empty() || node.size() > 64) return false;
  for (const char c : node) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string lease_value(std::string_view node, std::int64_t token) {
  return std::string(node) + " " + std::to_string(token);
}

std::optional<LeaseHolder> parse_lease_value(std::string_view value) {
  const auto space = value.find(' ');
  if (space == std::string_view::npos || space == 0) return std::nullopt;
  LeaseHolder h;
  h.node = std::string(value.substr(0, space));
  const auto digits = value.substr(space + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), h.token);
  if (ec != std::errc() || end != digits.data() + digits.size() || h.token <= 0)
    return std::nullopt;
  return h;
}

GameLeases::GameLeases(Redis& redis, std::string node, LeaseOptions options, std::string prefix)
    : redis_(redis), node_(std::move(node)), options_(options), prefix_(std::move(prefix)) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
  if (options_.margin >= options_.ttl || options_.ttl <= Millis{0})
    throw std::invalid_argument("lease: the margin must be less than the TTL");
}

std::string GameLeases::lease_key(std::string_view game) const {
  return prefix_ + "lease:" + std::string(game);
}
std::string GameLeases::fence_key(std::string_view game) const {
  return prefix_ + "fence:" + std::string(game);
}

Expected<LeaseOutcome, RedisError> GameLeases::acquire(std::string_view game,
                                                       std::int64_t token_floor) {
  const auto sent = std::chrono::steady_clock::now();
  const std::string keys[] = {lease_key(game), fence_key(game)};
  const std::string args[] = {node_, std::to_string(options_.ttl.count()),
                              std::to_string(token_floor)};
  auto r = kAcquire.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  const auto bad = [&] { return unexpected_reply(redis_, "lease acquire", *r); };
  if (!is_array(*r, 2) || !is_integer(r->elements[0])) return bad();
  if (r->elements[0].integer == 1) {
    if (!is_integer(r->elements[1])) return bad();
    return LeaseOutcome{Lease{std::string(game), node_, r->elements[1].integer,
                              sent + options_.ttl - options_.margin}};
  }
  if (!is_array(*r, 3) || !is_string(r->elements[1]) || !is_integer(r->elements[2])) return bad();
  auto holder = parse_lease_value(r->elements[1].str);
  if (!holder) return bad();
  holder->ttl_left = Millis{r->elements[2].integer};
  return LeaseOutcome{*holder};
}

Expected<bool, RedisError> GameLeases::renew(Lease& lease) {
  const auto sent = std::chrono::steady_clock::now();
  const std::string keys[] = {lease_key(lease.game)};
  const std::string args[] = {lease_value(lease.node, lease.token),
                              std::to_string(options_.ttl.count())};
  auto r = kRenew.run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "lease renew", *r);
  if (r->integer != 1) {
    lease.valid_until = {};
    return false;
  }
  // Our exact value (this token) was still there, so nobody held the lease in between, even
  // if our own deadline had passed meanwhile: extending it from `sent` is safe.
  lease.valid_until = sent + options_.ttl - options_.margin;
  return true;
}

Expected<std::vector<std::string>, RedisError> GameLeases::renew_all(
    std::span<Lease* const> leases) {
  std::vector<std::string> lost;
  if (leases.empty()) return lost;
  const auto sent = std::chrono::steady_clock::now();
  const std::string ttl = std::to_string(options_.ttl.count());
  std::vector<RedisScript::Call> calls;
  calls.reserve(leases.size());
  for (const Lease* l : leases)
    calls.push_back({{lease_key(l->game)}, {lease_value(l->node, l->token), ttl}});
  auto replies = kRenew.run_many(redis_, calls);
  if (!replies) return Unexpected(replies.error());
  for (std::size_t i = 0; i < leases.size(); ++i) {
    const RedisReply& r = (*replies)[i];
    if (!is_integer(r)) return unexpected_reply(redis_, "lease renew", r);
  }
  for (std::size_t i = 0; i < leases.size(); ++i) {
    Lease& l = *leases[i];
    if ((*replies)[i].integer == 1) {
      l.valid_until = sent + options_.ttl - options_.margin;
    } else {
      l.valid_until = {};
      lost.push_back(l.game);
    }
  }
  return lost;
}

Expected<bool, RedisError> GameLeases::release(const Lease& lease) {
  const std::string keys[] = {lease_key(lease.game)};
  const std::string args[] = {lease_value(lease.node, lease.token)};
  auto r = delete_if_equal().run(redis_, keys, args);
  if (!r) return Unexpected(r.error());
  if (!is_integer(*r)) return unexpected_reply(redis_, "lease release", *r);
  return r->integer == 1;
}

Expected<std::optional<LeaseHolder>, RedisError> GameLeases::holder(std::string_view game) {
  auto r = redis_.pipeline({{"GET", lease_key(game)}, {"PTTL", lease_key(game)}});
  if (!r) return Unexpected(r.error());
  const RedisReply& value = (*r)[0];
  if (value.nil()) return std::optional<LeaseHolder>();
  auto h = is_string(value) ? parse_lease_value(value.str) : std::nullopt;
  if (!h || !is_integer((*r)[1])) return unexpected_reply(redis_, "lease holder", value);
  h->ttl_left = Millis{std::max<long long>(0, (*r)[1].integer)};
  return std::optional<LeaseHolder>(*h);
}

Expected<std::vector<std::optional<LeaseHolder>>, RedisError> GameLeases::holders(
    std::span<const std::string> games) {
  std::vector<std::optional<LeaseHolder>> out;
  if (games.empty()) return out;
  std::vector<std::string> command{"MGET"};
  for (const auto& g : games) command.push_back(lease_key(g));
  auto r = redis_.command(command);
  if (!r) return Unexpected(r.error());
  if (!is_array(*r, games.size()) || r->elements.size() != games.size())
    return unexpected_reply(redis_, "lease holders", *r);
  for (const RedisReply& value : r->elements) {
    if (value.nil()) {
      out.emplace_back();
      continue;
    }
    auto h = is_string(value) ? parse_lease_value(value.str) : std::nullopt;
    if (!h) return unexpected_reply(redis_, "lease holders", value);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace amazons::cluster
