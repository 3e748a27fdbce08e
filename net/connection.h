// The client side of the server protocol (docs/PROTOCOL.md), for the desktop client and the bots:
// one logged-in connection to an amazons-server that stays up by itself. It connects in the
// background, logs in, answers the server's pings, keeps the session token, and after a drop
// reconnects with back-off and logs in again with the token, which resumes every game the player
// holds (the server then resends each game's full `state`).
//
// TLS (options.tls): the same lines inside a TLS session (SNI set to the host name). The server's
// certificate is accepted when the system's CAs vouch for it and it names the host, or when its
// SHA-256 fingerprint equals options.tls_fingerprint. Anything else ends the connection for good
// with ClientError::Kind::Certificate (no retry: a person must decide): `certificate` says
// whether nothing was pinned (Unknown: show `fingerprint`, ask, connect again with the pin) or
// the pin no longer matches (Changed: refuse and warn).
//
// Threading contract
// - Every public function may be called from any thread and never blocks (except the
//   destructor, which waits for the network thread to end).
// - The connection runs on one network thread of its own. Everything it hands back (events,
//   reply handlers, functions given to post()/post_after()) runs in one *callback context*, one
//   call at a time, in the order things happened:
//     Delivery::NetworkThread: on the network thread itself. Callbacks must return quickly.
//     Delivery::Poll: queued until a thread calls poll() or poll_for(), and run there. A GUI
//       calls poll() once a frame on its render thread and so never blocks and never locks.
// - No callback runs after the destructor has returned. The destructor must not be called from
//   inside a callback.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/expected.h"
#include "common/protocol.h"
#include "common/time_control.h"

namespace amazons::net {

// Why a request, a login or the connection failed.
struct ClientError {
  enum class Kind : std::uint8_t {
    Server,        // the server refused: `code` (and for illegal moves `reason`) says why
    Connect,       // the server could not be resolved or reached
    Disconnected,  // the connection dropped; a request in flight may or may not have taken effect
    Timeout,       // no reply (or no login) in time
    NotConnected,  // the request was made while not logged in; nothing was sent
    BadReply,      // the server sent a line that is not a valid message
    Closed,        // the connection was closed for good (close(), or it gave up)
    Certificate,   // TLS: the server's certificate is not trusted (closes for good)
  };
  enum class Trust : std::uint8_t {
    Unknown,  // no CA vouches for it and nothing is pinned: ask the person about `fingerprint`
    Changed,  // a pin exists and the server shows another certificate: refuse, warn
  };
  Kind kind = Kind::Closed;
  std::optional<protocol::ErrorCode> code;  // Kind::Server only
  std::string message;                      // for people
  std::optional<std::string> game;          // the game the refused request named
  std::optional<std::string> reason;        // illegal_move: the rules' reason code
  std::optional<Trust> certificate;         // Kind::Certificate only
  std::string fingerprint;                  // Kind::Certificate: what the server showed

  static ClientError from(const protocol::Error& e);
  // "server refused (illegal_move): the path of the queen is blocked", "connect: ...".
  std::string describe() const;
};
std::string_view to_string(ClientError::Kind kind);

// The delays between reconnection attempts: initial, then multiplied by `factor` after every
// failure up to `max`, each spread by +-jitter so that many clients do not return in step.
struct Backoff {
  Millis initial{250};
  Millis max{8000};
  double factor = 2.0;
  double jitter = 0.2;
  int max_attempts = 0;  // consecutive failed attempts before giving up; 0: never

  // The delay before attempt `failures` + 1, for a random number `unit` in [0, 1).
  Millis delay(int failures, double unit) const;
};

enum class Delivery : std::uint8_t { NetworkThread, Poll };

struct ConnectionOptions {
  std::string host = "127.0.0.1";  // a name, an IPv4 or an IPv6 address
  unsigned short port = 7420;
  // More addresses of the same service (the nodes of a cluster): a failed attempt or a dropped
  // connection moves on to the next address, round robin from host:port, and the token resumes
  // the session there. TLS checks each node's certificate against that node's host name; a pin
  // (tls_fingerprint) applies to every node.
  struct Endpoint {
    std::string host;
    unsigned short port = 7420;
  };
  std::vector<Endpoint> more_servers;
  // TLS: the JSON lines inside TLS (a server's port speaks both). The certificate must be vouched
  // for by the system's CAs (when trust_system_cas) and name `host`, or have this fingerprint
  // ("AB:CD:...", SHA-256 of the DER bytes, as tls::fingerprint writes it).
  bool tls = false;
  bool trust_system_cas = true;
  std::optional<std::string> tls_fingerprint;
  std::string name;
  std::optional<std::string> password;
  std::optional<std::string> server_password;
  bool bot = false;  // marks the account as a program (shown in the lobby and in records)
  Millis connect_timeout{5000};   // from starting to connect until the welcome
  Millis request_timeout{15000};  // a request's reply
  Millis keepalive{15000};        // silent this long: send a ping (also measures the round trip)
  Millis dead_after{45000};       // silent this long: the connection is dead; reconnect
  Backoff reconnect;
  Delivery delivery = Delivery::NetworkThread;
  std::uint64_t seed = 0;  // for the back-off jitter; 0 picks one at random
};

enum class ConnectionStatus : std::uint8_t {
  Idle,          // start() not called yet
  Connecting,    // resolving and connecting
  LoggingIn,     // connected, hello sent
  Online,        // logged in: requests may be sent
  WaitingRetry,  // the last attempt failed or the connection dropped; retrying soon
  Closed,        // for good
};
std::string_view to_string(ConnectionStatus s);

// ---- events -----------------------------------------------------------------------------------

// The status changed. `error` says why for WaitingRetry and Closed (absent after close()).
struct StatusEvent {
  ConnectionStatus status = ConnectionStatus::Idle;
  std::optional<ClientError> error;
  Millis retry_in{0};  // WaitingRetry: when the next attempt starts
  int attempt = 0;     // WaitingRetry: consecutive failures so far
};
// Logged in. `resumed`: a login after a drop (the server resends the state of every game held).
struct LoginEvent {
  protocol::Welcome welcome;
  bool resumed = false;
};
// A message from the server: everything except welcome, ping, pong and errors. Replies to
// requests are here too (a `moved`, a `start`), after the request's own handler has run.
struct MessageEvent {
  protocol::ServerMessage message;
};
// An error that no reply handler took: one the server sent by itself (replaced, idle_timeout...),
// a refusal of a request sent without a handler, or a line from the server that did not decode.
struct ErrorEvent {
  ClientError error;
};
using ConnectionEvent = std::variant<StatusEvent, LoginEvent, MessageEvent, ErrorEvent>;

// What a game driver needs from the connection it runs on (Connection implements it; tests may
// script it). All of it is called from the callback context.
class ServerLink {
 public:
  using Reply = Expected<protocol::ServerMessage, ClientError>;
  using ReplyHandler = std::function<void(Reply)>;
  virtual ~ServerLink() = default;
  // Sends a request; the handler (if any) gets its reply or error once, in the callback context.
  virtual void send(protocol::ClientMessage message, ReplyHandler on_reply = {}) = 0;
  // Runs `fn` in the callback context, soon (never inside this call).
  virtual void post(std::function<void()> fn) = 0;
  // Runs `fn` in the callback context after `delay` (dropped if the connection is destroyed).
  virtual void post_after(Millis delay, std::function<void()> fn) = 0;
  // The smoothed round-trip time to the server (0 until measured).
  virtual Millis round_trip() const = 0;
};

class Connection final : public ServerLink {
 public:
  using EventHandler = std::function<void(const ConnectionEvent&)>;

  // Does not connect yet: call start(). `on_event` runs in the callback context.
  Connection(ConnectionOptions options, EventHandler on_event);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts connecting in the background. Connection failures are retried with back-off (a
  // StatusEvent tells each one); a refused login (auth_failed, name_taken, protocol_version,
  // bad_field) closes the connection for good.
  void start();
  // Closes for good: no more reconnecting. Pending requests fail with Kind::Closed.
  void close();

  // Requests go out only while Online; otherwise the handler gets Kind::NotConnected. Replies
  // that do not come within request_timeout fail with Kind::Timeout (a late reply is then
  // ignored); on a drop every pending request fails with Kind::Disconnected. A hello is refused:
  // the connection logs in by itself.
  void send(protocol::ClientMessage message, ReplyHandler on_reply = {}) override;
  void post(std::function<void()> fn) override;
  void post_after(Millis delay, std::function<void()> fn) override;
  Millis round_trip() const override;

  // Delivery::Poll: runs the callbacks queued so far on the calling thread; returns how many.
  std::size_t poll();
  // The same, first waiting up to `timeout` for at least one.
  std::size_t poll_for(Millis timeout);

  ConnectionStatus status() const;
  // The session token of the last welcome (it changes with every login).
  std::optional<std::string> token() const;
  const ConnectionOptions& options() const { return options_; }
  // Any thread: the address being tried or used now (host:port, or one of more_servers).
  ConnectionOptions::Endpoint server() const;

 private:
  class Impl;
  ConnectionOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace amazons::net
