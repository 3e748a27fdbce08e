// Messages between nodes over Redis pub/sub. Each message carries its sender node, the
// sender's incarnation (a random number per BusPublisher, so a node that restarted is not
// taken for one that lost messages) and a sequence number per channel, so a receiver knows when
// it missed some: pub/sub delivers at most once, and nothing while a subscriber is
// reconnecting. A receiver that sees a gap re-reads what it needs (from Redis or PostgreSQL);
// the bus does not resend.
//
// Wire form of a payload: "amz1 NODE INCARNATION SEQ\n" then the body (any bytes).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cluster/redis.h"

namespace amazons::cluster {

struct BusEnvelope {
  std::string node;
  std::uint64_t incarnation = 0;
  std::uint64_t seq = 0;  // 1, 2, ... per channel and incarnation
  std::string body;
  friend bool operator==(const BusEnvelope&, const BusEnvelope&) = default;
};

std::string encode_envelope(const BusEnvelope& e);
// Untrusted bytes (anyone who can PUBLISH on the Redis): refused with the reason.
Expected<BusEnvelope, std::string> decode_envelope(std::string_view payload);

// What a receiver makes of a message's sequence number. Pure; one per subscriber.
class SequenceTracker {
 public:
  struct Verdict {
    bool deliver = true;       // false: a duplicate or older than one already seen
    std::uint64_t missed = 0;  // messages of this sender on this channel lost before this one
    bool restarted = false;    // a new incarnation of the sender (its numbers start again)
  };
  Verdict accept(const std::string& channel, const BusEnvelope& e);

 private:
  struct Last {
    std::uint64_t incarnation = 0;
    std::uint64_t seq = 0;
  };
  std::map<std::pair<std::string, std::string>, Last> last_;  // (channel, node)
};

// Publishes on a Redis connection of the caller's. Not thread-safe (like the connection).
class BusPublisher {
 public:
  BusPublisher(Redis& redis, std::string node);
  // Sends `body` on `channel`; returns how many subscribers Redis gave it to. A failed publish
  // still uses up its sequence number: receivers then see a gap, which is the truth (the
  // message may or may not have gone out).
  Expected<long long, RedisError> publish(std::string_view channel, std::string_view body);
  // Forgets a channel's counter (a game that ended).
  void forget(const std::string& channel) { seq_.erase(channel); }
  std::uint64_t incarnation() const { return incarnation_; }

 private:
  Redis& redis_;
  std::string node_;
  std::uint64_t incarnation_;
  std::map<std::string, std::uint64_t, std::less<>> seq_;
};

struct BusMessage {
  std::string channel;
  BusEnvelope envelope;
  SequenceTracker::Verdict verdict;
};

// A subscriber connection on a thread of its own. It connects, subscribes, reconnects after a
// loss (every `reconnect_interval`, and resubscribes), and pings an idle connection so that a
// Redis that went silent is noticed within about ping_interval + command_timeout.
//
// The callbacks run on the subscriber's thread, one at a time: post them to your own strand.
// Duplicates and stale messages are dropped before on_message; gaps are reported in the
// message's verdict.
class BusSubscriber {
 public:
  struct Handlers {
    std::function<void(BusMessage)> on_message;
    // Connected (true) or lost (false, with the reason). After a reconnect, messages sent
    // meanwhile are gone: the next message from each sender reports them missed.
    std::function<void(bool connected, const std::string& why)> on_connection;
    // A payload that is not an envelope, with the reason (counted and dropped).
    std::function<void(const std::string& channel, const std::string& why)> on_malformed;
  };
  struct Options {
    RedisOptions redis;
    Millis reconnect_interval{200};
    Millis ping_interval{1000};
  };

  BusSubscriber(RedisAddress address, Options options, std::vector<std::string> channels,
                Handlers handlers);
  ~BusSubscriber();  // stops the thread (within about connect_timeout)
  BusSubscriber(const BusSubscriber&) = delete;
  BusSubscriber& operator=(const BusSubscriber&) = delete;

  // Any thread. Takes effect on the connection soon after (and on every reconnect).
  void subscribe(const std::string& channel);
  void unsubscribe(const std::string& channel);
  // Redis has answered on the current connection.
  bool connected() const { return connected_; }
  // How many SUBSCRIBE confirmations have arrived on the current connection for the channels
  // asked for: equals the number of channels once they are all in place.
  std::size_t confirmed() const { return confirmed_; }
  std::uint64_t malformed() const { return malformed_; }

 private:
  void run();
  void wake();

  RedisAddress address_;
  Options options_;
  Handlers handlers_;
  std::mutex mutex_;
  std::set<std::string> channels_;                     // what we want
  std::vector<std::pair<bool, std::string>> changes_;  // (subscribe?, channel) not yet sent
  std::atomic<bool> stop_ = false;
  std::atomic<bool> connected_ = false;
  std::atomic<std::size_t> confirmed_ = 0;
  std::atomic<std::uint64_t> malformed_ = 0;
  int wake_pipe_[2] = {-1, -1};
  SequenceTracker tracker_;  // the thread's own
  std::thread thread_;
};

}  // namespace amazons::cluster
