// Redis and BusSubscriber (redis.h, bus.h) in a build without hiredis (AMAZONS_BUILD_REDIS off,
// the Windows one): every connection fails with the reason, and the server refuses --cluster
// before it makes one (redis_client()).
#include <stdexcept>

#include "cluster/bus.h"
#include "cluster/redis.h"

namespace amazons::cluster {

namespace {

constexpr const char* kNoRedisClient =
    "this build has no Redis client (built without hiredis: AMAZONS_BUILD_REDIS is off)";

RedisError unreachable(const RedisAddress& address) {
  return RedisError{RedisErrorKind::Unreachable, "redis " + address.text() + ": " + kNoRedisClient};
}

}  // namespace

Expected<void, std::string> redis_client() { return Unexpected(std::string(kNoRedisClient)); }

Redis::Redis(RedisAddress address, RedisOptions options)
    : address_(std::move(address)), options_(options) {}

Redis::~Redis() = default;

Expected<void, RedisError> Redis::connect() { return Unexpected(unreachable(address_)); }

void Redis::disconnect() {}

bool Redis::connected() const { return false; }

Expected<RedisReply, RedisError> Redis::command(std::span<const std::string_view>) {
  return Unexpected(unreachable(address_));
}

Expected<RedisReply, RedisError> Redis::command(const std::vector<std::string>&) {
  return Unexpected(unreachable(address_));
}

Expected<std::vector<RedisReply>, RedisError> Redis::pipeline(
    const std::vector<std::vector<std::string>>&) {
  return Unexpected(unreachable(address_));
}

BusSubscriber::BusSubscriber(RedisAddress address, Options, std::vector<std::string>, Handlers)
    : address_(std::move(address)) {
  throw std::runtime_error("bus: " + unreachable(address_).message);
}

BusSubscriber::~BusSubscriber() = default;

void BusSubscriber::subscribe(const std::string&) {}

void BusSubscriber::unsubscribe(const std::string&) {}

}  // namespace amazons::cluster
