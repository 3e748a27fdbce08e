// One connection to Redis over hiredis, blocking, with bounded waits. Commands are given as
// argument vectors (binary safe, never formatted into text), replies come back as owned values.
// On top of it RedisScript runs Lua scripts by their SHA-1, loading them again when Redis forgot
// them (a restart empties its script cache).
//
// Not thread-safe: one thread uses a Redis at a time. Every call blocks for at most
// connect_timeout (when it has to connect) plus command_timeout per read or write.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"

struct redisContext;

namespace amazons::cluster {

using Millis = std::chrono::milliseconds;

struct RedisAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string text() const;  // host:port, as log lines show it
};

// redis://HOST[:PORT][/] (an IPv6 host in brackets, [::1]). Passwords and database numbers are
// refused with a message saying so: this version does not send AUTH or SELECT.
Expected<RedisAddress, std::string> parse_redis_url(std::string_view url);

// Done when this build has a Redis client; else why not: a build without hiredis
// (AMAZONS_BUILD_REDIS off, the Windows one) connects to nothing, and the server refuses its
// cluster mode with this reason.
Expected<void, std::string> redis_client();

struct RedisOptions {
  Millis connect_timeout{500};
  Millis command_timeout{500};  // each read or write of a command
  // After a failed connect, commands fail at once (Unreachable) for this long rather than each
  // waiting for a connect of its own: a Redis that is down is not hammered.
  Millis reconnect_interval{100};
};

enum class RedisErrorKind : std::uint8_t {
  Unreachable,  // could not connect (refused, timed out, no such host)
  Io,           // the connection broke or timed out during a command: the outcome is unknown
  Server,       // Redis answered with an error (a bad command, a script error); still connected
  Protocol,     // Redis answered something this code did not expect
};

struct RedisError {
  RedisErrorKind kind = RedisErrorKind::Io;
  std::string message;  // names the server and the command
};

struct RedisReply {
  enum class Type : std::uint8_t { Nil, Integer, String, Status, Array };
  Type type = Type::Nil;
  long long integer = 0;
  std::string str;  // String and Status
  std::vector<RedisReply> elements;

  bool nil() const { return type == Type::Nil; }
};

class Redis {
 public:
  explicit Redis(RedisAddress address, RedisOptions options = {});
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // Sends one command and waits for its reply; connects first when not connected. An error
  // reply is a RedisError of kind Server and leaves the connection up. An I/O error or a timeout
  // drops the connection (the command may or may not have run); the next call reconnects.
  Expected<RedisReply, RedisError> command(std::span<const std::string_view> args);
  Expected<RedisReply, RedisError> command(std::initializer_list<std::string_view> args) {
    return command(std::span<const std::string_view>(args.begin(), args.size()));
  }
  Expected<RedisReply, RedisError> command(const std::vector<std::string>& args);
  // Several commands in one round trip; the replies in order. An error reply to any of them
  // fails the whole call with that error, after every reply has been read (so the connection
  // stays in step with Redis).
  Expected<std::vector<RedisReply>, RedisError> pipeline(
      const std::vector<std::vector<std::string>>& commands);

  // Connects now if not connected. Redis::command does this by itself.
  Expected<void, RedisError> connect();
  void disconnect();
  bool connected() const;
  const RedisAddress& address() const { return address_; }
  const RedisOptions& options() const { return options_; }
  // How many connections were made after the first (each reconnect counts once).
  std::uint64_t reconnects() const { return reconnects_; }

 private:
  bool stale() const;
  RedisError io_error(std::string_view what);
  Expected<RedisReply, RedisError> read_reply(std::string_view what);

  RedisAddress address_;
  RedisOptions options_;
  redisContext* ctx_ = nullptr;
  std::uint64_t connects_ = 0;
  std::uint64_t reconnects_ = 0;
  std::chrono::steady_clock::time_point next_connect_{};
  std::string last_connect_error_;
};

// A Lua script run with EVALSHA. Immutable after construction, so one script may be shared by
// any number of threads and connections.
class RedisScript {
 public:
  explicit RedisScript(std::string source);
  const std::string& sha() const { return sha_; }
  // Runs it; when Redis does not know the script (NOSCRIPT), loads it and runs it once more.
  Expected<RedisReply, RedisError> run(Redis& redis, std::span<const std::string> keys,
                                       std::span<const std::string> args) const;
  // One call of the script: its keys and arguments.
  struct Call {
    std::vector<std::string> keys;
    std::vector<std::string> args;
  };
  // Runs it once per call in one pipeline (one round trip), the replies in the calls' order;
  // when Redis does not know the script, loads it and sends the pipeline once more.
  Expected<std::vector<RedisReply>, RedisError> run_many(Redis& redis,
                                                         std::span<const Call> calls) const;

 private:
  std::vector<std::string> command(std::span<const std::string> keys,
                                   std::span<const std::string> args) const;
  // After a NOSCRIPT: SCRIPT LOAD, and the check that Redis hashes it as we do.
  Expected<void, RedisError> load(Redis& redis) const;

  std::string source_;
  std::string sha_;
};

// The script that deletes KEYS[1] only while it holds ARGV[1]: a lease or a name given back by the
// side that wrote it, never by one that has lost it to another. Replies 1 when it deleted.
const RedisScript& delete_if_equal();

// The reply as text for messages ("nil", "(integer) 3", "\"OK\"", "[...]").
std::string describe(const RedisReply& reply);

}  // namespace amazons::cluster
