// The connections of the network layer. Every accepted socket is first sniffed (sniff.h):
// TLS is unwrapped and sniffed again; HTTP requests get the web client's files or the health
// check, or are upgraded to WebSocket; the rest is the JSON-lines protocol. What speaks the
// protocol, over any of the four transports, is a Session: the one thing the Server and the
// Lobby see, with the same limits everywhere (message size, idle time, write queue).
//
// Threads: each connection runs on its own strand; the public functions of Session may be called
// from any thread. Handlers never throw.
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/protocol.h"
#include "common/time_control.h"
#include "server/core/session_id.h"
#include "server/http/transport.h"

namespace amazons::server {

class SessionHost;

// How long a closing connection may take to read the rest of what its peer sent, so the last
// error line is not lost to a reset.
inline constexpr auto kLingerTime = std::chrono::seconds(1);

class Session : public std::enable_shared_from_this<Session> {
 public:
  virtual ~Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  SessionId id() const { return id_; }
  const std::string& address() const { return address_; }
  Transport transport() const { return transport_; }
  // TLS, or a local address the host trusts: what the lobby's password rule asks.
  bool private_channel() const { return private_channel_; }

  // Begins reading and the idle checks. Called once, by the server, after registering it.
  void start();
  // Queues one message (a line without '\n', or a frame's text).
  void deliver(std::shared_ptr<const std::string> message);
  // Closes once everything queued so far is written.
  void close_after_flush();
  void close_now();
  // Sends an error that closes the connection (too_many_connections...), then closes it. For a
  // connection the server refuses before registering it.
  void refuse(protocol::ErrorCode code, std::string message);

 protected:
  Session(SessionHost& server, boost::asio::any_io_executor executor, SessionId id,
          std::string address, Transport transport, bool private_channel);

  // The transport's part, on the session's strand. read() reads on and hands each message to
  // on_message (or reports a failure through fail / refuse_and_close); write(n) writes the first
  // n queued messages and then calls on_written; shutdown() ends the connection gracefully
  // (bounded by a linger timer); close_transport() at once.
  virtual void read() = 0;
  virtual void write(std::size_t count) = 0;
  virtual std::size_t max_messages_per_write() const = 0;
  virtual void shutdown() = 0;
  virtual void close_transport() = 0;

  void on_message(std::string_view text);
  void on_written(boost::system::error_code ec);
  // Ends the connection once: gracefully (shutdown) or at once.
  void finish(bool graceful);
  // Sends an error that closes the connection, then closes it.
  void refuse_and_close(protocol::ErrorCode code, const std::string& message);
  void heard() {
    last_heard_ = steady_now();
    ping_sent_ = false;
  }
  // After reading: whether a line ended, and whether part of one waits for its end. A line begun
  // and not ended within limits.line_timeout_seconds closes the connection, however slowly its
  // bytes come (each of them is a sign of life, so the idle timeout never would).
  void line_progress(bool line_ended, bool partial) {
    if (!partial)
      line_started_.reset();
    else if (line_ended || !line_started_)
      line_started_ = steady_now();
  }
  bool closing() const { return closing_; }
  bool closed() const { return closed_; }
  static Millis steady_now();
  // One encoded error message, ready to deliver.
  static std::shared_ptr<const std::string> error_message(protocol::ErrorCode code,
                                                          std::string text);

  SessionHost& server_;
  boost::asio::steady_timer timer_;  // idle checks, then the linger of a graceful close
  std::deque<std::shared_ptr<const std::string>> queue_;

 private:
  void enqueue(const std::shared_ptr<const std::string>& message);
  void write_next();
  void arm_idle_timer();
  void on_idle_check();

  SessionId id_;
  std::string address_;
  Transport transport_;
  bool private_channel_;
  std::size_t in_flight_ = 0;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
  Millis last_heard_;
  bool ping_sent_ = false;
  std::optional<Millis> line_started_;
};

}  // namespace amazons::server
