// BusSubscriber over hiredis (bus.h). The build without hiredis has redis_absent.cpp instead.
#include "cluster/bus.h"

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>

#include "cluster/hiredis_util.h"

namespace amazons::cluster {

namespace {

std::string_view text_of(const redisReply* r) {
  if (r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS))
    return {r->str, r->len};
  return {};
}

}  // namespace

BusSubscriber::BusSubscriber(RedisAddress address, Options options,
                             std::vector<std::string> channels, Handlers handlers)
    : address_(std::move(address)),
      options_(options),
      handlers_(std::move(handlers)),
      channels_(channels.begin(), channels.end()) {
  if (::pipe2(wake_pipe_, O_NONBLOCK | O_CLOEXEC) != 0)
    throw std::runtime_error("bus: cannot make a pipe");
  thread_ = std::thread([this] { run(); });
}

BusSubscriber::~BusSubscriber() {
  stop_ = true;
  wake();
  if (thread_.joinable()) thread_.join();
  ::close(wake_pipe_[0]);
  ::close(wake_pipe_[1]);
}

void BusSubscriber::wake() {
  const char byte = 1;
  [[maybe_unused]] const auto n = ::write(wake_pipe_[1], &byte, 1);  // full: a wake is pending
}

void BusSubscriber::subscribe(const std::string& channel) {
  {
    std::lock_guard lock(mutex_);
    if (!channels_.insert(channel).second) return;
    changes_.emplace_back(true, channel);
  }
  wake();
}

void BusSubscriber::unsubscribe(const std::string& channel) {
  {
    std::lock_guard lock(mutex_);
    if (channels_.erase(channel) == 0) return;
    changes_.emplace_back(false, channel);
  }
  wake();
}

void BusSubscriber::run() {
  using Clock = std::chrono::steady_clock;
  redisContext* c = nullptr;
  bool down_reported = false;
  bool answered = false;  // Redis has answered on this connection
  Clock::time_point last_heard{};
  std::optional<Clock::time_point> ping_sent;

  const auto report = [&](bool up, const std::string& why) {
    if (!handlers_.on_connection) return;
    try {
      handlers_.on_connection(up, why);
    } catch (...) {
    }
  };
  const auto drop = [&](const std::string& why) {
    if (c) redisFree(c);
    c = nullptr;
    connected_ = false;
    confirmed_ = 0;
    if (!down_reported) report(false, "redis " + address_.text() + ": " + why);
    down_reported = true;
  };
  // Sends one command; false (and the connection dropped) when it could not.
  const auto send = [&](const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    if (redisAppendCommandArgv(c, static_cast<int>(argv.size()), argv.data(), lengths.data()) !=
        REDIS_OK) {
      drop(std::string("sending ") + args.front() + ": " + c->errstr);
      return false;
    }
    int done = 0;
    while (!done)
      if (redisBufferWrite(c, &done) != REDIS_OK) {
        drop(std::string("sending ") + args.front() + ": " + c->errstr);
        return false;
      }
    return true;
  };
  const auto drain_wake = [&] {
    char buf[64];
    while (::read(wake_pipe_[0], buf, sizeof buf) > 0) {
    }
  };
  const auto handle = [&](const redisReply& r) {
    if (r.type != REDIS_REPLY_ARRAY || r.elements < 1) return;
    const std::string_view kind = text_of(r.element[0]);
    if ((kind == "subscribe" || kind == "unsubscribe") && r.elements >= 3 &&
        r.element[2]->type == REDIS_REPLY_INTEGER) {
      confirmed_ = static_cast<std::size_t>(r.element[2]->integer);
      return;
    }
    if (kind != "message" || r.elements < 3) return;
    const std::string channel(text_of(r.element[1]));
    auto envelope = decode_envelope(text_of(r.element[2]));
    if (!envelope) {
      ++malformed_;
      if (handlers_.on_malformed) try {
          handlers_.on_malformed(channel, envelope.error());
        } catch (...) {
        }
      return;
    }
    const auto verdict = tracker_.accept(channel, *envelope);
    if (!verdict.deliver || !handlers_.on_message) return;
    try {
      handlers_.on_message(BusMessage{channel, std::move(*envelope), verdict});
    } catch (...) {
    }
  };

  while (!stop_) {
    if (!c) {
      c = redisConnectWithTimeout(address_.host.c_str(), address_.port,
                                  detail::to_timeval(options_.redis.connect_timeout));
      if (!c || c->err) {
        drop(c ? std::string(c->errstr) : std::string("out of memory"));
        pollfd p{wake_pipe_[0], POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(options_.reconnect_interval.count()));
        drain_wake();
        continue;
      }
      redisSetTimeout(c, detail::to_timeval(options_.redis.command_timeout));
      redisEnableKeepAlive(c);
      std::vector<std::string> subscribe{"SUBSCRIBE"};
      {
        std::lock_guard lock(mutex_);
        subscribe.insert(subscribe.end(), channels_.begin(), channels_.end());
        changes_.clear();
      }
      if (subscribe.size() > 1 && !send(subscribe)) continue;
      // Connected means Redis answered: a connect alone succeeds even against a Redis that is
      // stalled (the kernel accepts for it).
      if (!send({"PING"})) continue;
      last_heard = Clock::now();
      ping_sent = last_heard;
      answered = false;
    }

    std::vector<std::pair<bool, std::string>> changes;
    {
      std::lock_guard lock(mutex_);
      changes.swap(changes_);
    }
    bool ok = true;
    for (const auto& [add, channel] : changes)
      if (!(ok = send({add ? "SUBSCRIBE" : "UNSUBSCRIBE", channel}))) break;
    if (!ok) continue;

    const auto now = Clock::now();
    if (ping_sent && now - *ping_sent >= options_.redis.command_timeout) {
      drop("no answer to PING within " + std::to_string(options_.redis.command_timeout.count()) +
           " ms");
      continue;
    }
    if (!ping_sent && now - last_heard >= options_.ping_interval) {
      if (!send({"PING"})) continue;
      ping_sent = now;
    }
    const auto until = ping_sent ? *ping_sent + options_.redis.command_timeout
                                 : last_heard + options_.ping_interval;
    const auto wait = std::chrono::duration_cast<Millis>(until - now).count();
    pollfd fds[2] = {{c->fd, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
    const int n = ::poll(fds, 2, static_cast<int>(std::max<long long>(1, wait + 1)));
    if (n <= 0) continue;
    if (fds[1].revents) drain_wake();
    if (!fds[0].revents) continue;
    if (redisBufferRead(c) != REDIS_OK) {
      drop(c->err == REDIS_ERR_EOF ? std::string("Redis closed the connection")
                                   : std::string(c->errstr));
      continue;
    }
    last_heard = Clock::now();
    ping_sent.reset();
    if (!answered) {
      answered = true;
      connected_ = true;
      down_reported = false;
      report(true, "");
    }
    for (;;) {
      void* raw = nullptr;
      if (redisGetReplyFromReader(c, &raw) != REDIS_OK) {
        drop(std::string("reading: ") + c->errstr);
        break;
      }
      if (!raw) break;
      const detail::ReplyPtr reply(static_cast<redisReply*>(raw));
      handle(*reply);
    }
  }
  if (c) redisFree(c);
  connected_ = false;
}

}  // namespace amazons::cluster
