// What the cluster's two hiredis connections share (redis.cpp's commands, bus.cpp's
// subscription): timeouts as hiredis takes them, and replies freed by their owner. Private to
// cluster/: nothing outside includes hiredis.
#pragma once

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <memory>

#include "cluster/redis.h"

namespace amazons::cluster::detail {

inline timeval to_timeval(Millis ms) {
  timeval tv{};
  tv.tv_sec = static_cast<decltype(tv.tv_sec)>(ms.count() / 1000);
  tv.tv_usec = static_cast<decltype(tv.tv_usec)>((ms.count() % 1000) * 1000);
  return tv;
}

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

}  // namespace amazons::cluster::detail
