// Shared pieces of the cluster tests: a Redis per test (tests/redis_server.h), connections to
// it, and bounded waiting.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "cluster/redis.h"
#include "tests/redis_server.h"

namespace amazons::test {

inline cluster::RedisAddress address_of(const RedisServer& server) {
  return cluster::RedisAddress{"127.0.0.1", server.port()};
}

// Polls `done` every 10 ms for at most `limit`; true when it became true.
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::milliseconds limit = std::chrono::milliseconds(3000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

// The value of an Expected that must have one, or the test stops with its error.
template <class T>
T must(Expected<T, cluster::RedisError> r) {
  REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
  return std::move(*r);
}
inline void must(Expected<void, cluster::RedisError> r) {
  REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
}

}  // namespace amazons::test
