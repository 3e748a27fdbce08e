#include "cluster/bus.h"

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <unistd.h>

#include <charconv>
#include <memory>
#include <random>
#include <stdexcept>

#include "cluster/hiredis_util.h"
#include "cluster/lease.h"

namespace amazons::cluster {

namespace {

constexpr std::string_view kMagic = "amz1 ";
constexpr std::size_t kMaxHeaderBytes = 200;

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::uint64_t random_incarnation() {
  std::random_device rd;
  std::uint64_t v = 0;
  while (v == 0) v = (std::uint64_t{rd()} << 32) ^ rd();
  return v;
}

std::string_view text_of(const redisReply* r) {
  if (r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS))
    return {r->str, r->len};
  return {};
}

}  // namespace

std::string encode_envelope(const BusEnvelope& e) {
  std::string out(kMagic);
  out += e.node;
  out += ' ';
  out += std::to_string(e.incarnation);
  out += ' ';
  out += std::to_string(e.seq);
  out += '\n';
  out += e.body;
  return out;
}

Expected<BusEnvelope, std::string> decode_envelope(std::string_view payload) {
  if (payload.substr(0, kMagic.size()) != kMagic)
    return Unexpected(std::string("not a bus message (no amz1 header)"));
  const auto newline = payload.find('\n');
  if (newline == std::string_view::npos || newline > kMaxHeaderBytes)
    return Unexpected(std::string("the header has no end of line"));
  std::string_view header = payload.substr(kMagic.size(), newline - kMagic.size());
  BusEnvelope e;
  const auto s1 = header.find(' ');
  const auto s2 = s1 == std::string_view::npos ? s1 : header.find(' ', s1 + 1);
  if (s2 == std::string_view::npos)
    return Unexpected(std::string("the header needs NODE INCARNATION SEQ"));
  e.node = std::string(header.substr(0, s1));
  if (!valid_node_name(e.node)) return Unexpected(std::string("a bad node name"));
  const auto incarnation = parse_u64(header.substr(s1 + 1, s2 - s1 - 1));
  const auto seq = parse_u64(header.substr(s2 + 1));
  if (!incarnation || *incarnation == 0) return Unexpected(std::string("a bad incarnation"));
  if (!seq || *seq == 0) return Unexpected(std::string("a bad sequence number"));
  e.incarnation = *incarnation;
  e.seq = *seq;
  e.body = std::string(payload.substr(newline + 1));
  return e;
}

SequenceTracker::Verdict SequenceTracker::accept(const std::string& channel, const BusEnvelope& e) {
  Last& last = last_[{channel, e.node}];
  Verdict v;
  if (e.incarnation != last.incarnation) {
    // First contact (we may have subscribed mid-stream: nothing is missed), or the sender
    // restarted and numbers from 1 again.
    v.restarted = last.incarnation != 0;
    if (v.restarted) v.missed = e.seq - 1;
    last = {e.incarnation, e.seq};
    return v;
  }
  if (e.seq <= last.seq) {
    v.deliver = false;
    return v;
  }
  v.missed = e.seq - last.seq - 1;
  last.seq = e.seq;
  return v;
}

BusPublisher::BusPublisher(Redis& redis, std::string node)
    : redis_(redis), node_(std::move(node)), incarnation_(random_incarnation()) {
  if (!valid_node_name(node_)) throw std::invalid_argument("node name: \"" + node_ + "\"");
}

Expected<long long, RedisError> BusPublisher::publish(std::string_view channel,
                                                      std::string_view body) {
  auto it = seq_.find(channel);
  if (it == seq_.end()) it = seq_.emplace(std::string(channel), 0).first;
  const BusEnvelope e{node_, incarnation_, ++it->second, std::string(body)};
  auto r = redis_.command({"PUBLISH", channel, encode_envelope(e)});
  if (!r) return Unexpected(r.error());
  if (r->type != RedisReply::Type::Integer)
    return Unexpected(RedisError{
        RedisErrorKind::Protocol,
        "redis " + redis_.address().text() + ": PUBLISH: unexpected reply " + describe(*r)});
  return r->integer;
}

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
