#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include "net/connection.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "tls/tls.h"

namespace amazons::net {

namespace asio = boost::asio;
using asio::ip::tcp;
namespace ssl = asio::ssl;
using boost::system::error_code;
using SteadyClock = std::chrono::steady_clock;

namespace {

// How often request deadlines and the keep-alive are checked.
constexpr Millis kTick{100};
// The server's lines are at most 64 KiB; records of long games and lists come close, so the
// client allows more before it decides the stream is broken.
constexpr std::size_t kMaxIncomingLine = 1024 * 1024;
// Bytes waiting to be written before the connection counts as stuck.
constexpr std::size_t kMaxQueuedBytes = 4 * 1024 * 1024;
constexpr std::size_t kReadChunk = 16 * 1024;

ClientError error_of(ClientError::Kind kind, std::string message) {
  ClientError e;
  e.kind = kind;
  e.message = std::move(message);
  return e;
}

// Login refusals that trying again cannot fix.
bool fatal_login_error(protocol::ErrorCode code) {
  switch (code) {
    case protocol::ErrorCode::AuthFailed:
    case protocol::ErrorCode::NameTaken:
    case protocol::ErrorCode::ProtocolVersion:
    case protocol::ErrorCode::BadField:
    case protocol::ErrorCode::BadJson:
    case protocol::ErrorCode::UnknownType:
    case protocol::ErrorCode::TlsRequired:
      return true;
    default:
      return false;
  }
}

}  // namespace

ClientError ClientError::from(const protocol::Error& e) {
  ClientError out;
  out.kind = Kind::Server;
  out.code = e.code;
  out.message = e.message;
  out.game = e.game;
  out.reason = e.reason;
  return out;
}

std::string ClientError::describe() const {
  std::string out(to_string(kind));
  if (code) out += " (" + std::string(protocol::code(*code)) + ")";
  if (!message.empty()) out += ": " + message;
  return out;
}

std::string_view to_string(ClientError::Kind kind) {
  switch (kind) {
    case ClientError::Kind::Server:
      return "server refused";
    case ClientError::Kind::Connect:
      return "connect";
    case ClientError::Kind::Disconnected:
      return "disconnected";
    case ClientError::Kind::Timeout:
      return "timeout";
    case ClientError::Kind::NotConnected:
      return "not connected";
    case ClientError::Kind::BadReply:
      return "bad reply";
    case ClientError::Kind::Closed:
      return "closed";
    case ClientError::Kind::Certificate:
      return "certificate";
  }
  return "error";
}

std::string_view to_string(ConnectionStatus s) {
  switch (s) {
    case ConnectionStatus::Idle:
      return "idle";
    case ConnectionStatus::Connecting:
      return "connecting";
    case ConnectionStatus::LoggingIn:
      return "logging_in";
    case ConnectionStatus::Online:
      return "online";
    case ConnectionStatus::WaitingRetry:
      return "waiting_retry";
    case ConnectionStatus::Closed:
      return "closed";
  }
  return "unknown";
}

Millis Backoff::delay(int failures, double unit) const {
  double base = static_cast<double>(initial.count()) *
                std::pow(factor, static_cast<double>(std::max(failures, 0)));
  base = std::min(base, static_cast<double>(max.count()));
  const double spread = base * (1.0 + jitter * (2.0 * unit - 1.0));
  return Millis{std::max<std::int64_t>(0, std::llround(spread))};
}

// ---- the network side -------------------------------------------------------------------------

// Everything below runs on the network thread, except the functions marked "any thread".
class Connection::Impl {
 public:
  Impl(const ConnectionOptions& options, EventHandler on_event)
      : options_(options),
        on_event_(std::move(on_event)),
        endpoints_(endpoints_of(options)),
        tick_timer_(io_),
        retry_timer_(io_),
        deadline_timer_(io_),
        rng_(options.seed != 0 ? options.seed : std::random_device{}()) {
    if (options_.tls) {
      trust_.system_cas = options_.trust_system_cas;
      trust_.pinned = options_.tls_fingerprint;
      for (const auto& e : endpoints_) tls_.push_back(tls::client_context(trust_, e.host));
    }
    thread_ = std::thread([this] { io_.run(); });
  }

  ~Impl() {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  // Any thread.
  void start() {
    asio::post(io_, [this] {
      if (status_ != ConnectionStatus::Idle || closed_) return;
      arm_tick();
      connect();
    });
  }
  void close() {
    asio::post(io_, [this] { close_for_good(std::nullopt); });
  }
  void send(protocol::ClientMessage message, ReplyHandler on_reply) {
    asio::post(io_, [this, message = std::move(message), on_reply = std::move(on_reply)]() mutable {
      send_now(std::move(message), std::move(on_reply));
    });
  }
  void post(std::function<void()> fn) {
    if (options_.delivery == Delivery::Poll) return enqueue(std::move(fn));
    asio::post(io_, std::move(fn));
  }
  void post_after(Millis delay, std::function<void()> fn) {
    auto timer = std::make_shared<asio::steady_timer>(io_, delay);
    timer->async_wait([this, timer, fn = std::move(fn)](error_code ec) mutable {
      if (!ec) deliver(std::move(fn));
    });
  }
  std::size_t poll() {
    std::deque<std::function<void()>> batch;
    {
      std::lock_guard lock(queue_mutex_);
      batch.swap(queue_);
    }
    for (auto& fn : batch) fn();
    return batch.size();
  }
  std::size_t poll_for(Millis timeout) {
    {
      std::unique_lock lock(queue_mutex_);
      queue_ready_.wait_for(lock, timeout, [&] { return !queue_.empty(); });
    }
    return poll();
  }
  ConnectionStatus status() const { return status_; }
  std::optional<std::string> token() const {
    std::lock_guard lock(token_mutex_);
    return token_;
  }
  ConnectionOptions::Endpoint server() const { return endpoints_[current_]; }
  Millis round_trip() const {
    return std::chrono::ceil<Millis>(std::chrono::microseconds{rtt_us_.load()});
  }

 private:
  struct Attempt {
    explicit Attempt(asio::io_context& io) : resolver(io), socket(io) {}
    tcp::resolver resolver;
    tcp::socket socket;
    std::unique_ptr<ssl::stream<tcp::socket&>> tls;  // over `socket`, when options.tls
    protocol::LineFramer framer{kMaxIncomingLine};
    std::array<char, kReadChunk> buffer{};
    std::deque<std::string> out;
    std::size_t out_bytes = 0;
    bool writing = false;
  };
  struct Pending {
    ReplyHandler handler;
    SteadyClock::time_point sent_at;
    SteadyClock::time_point deadline;
  };

  // ---- the callback context ----

  void enqueue(std::function<void()> fn) {
    {
      std::lock_guard lock(queue_mutex_);
      queue_.push_back(std::move(fn));
    }
    queue_ready_.notify_all();
  }
  void deliver(std::function<void()> fn) {
    if (options_.delivery == Delivery::Poll) return enqueue(std::move(fn));
    fn();
  }
  void emit(ConnectionEvent event) {
    if (!on_event_) return;
    deliver([this, event = std::move(event)] { on_event_(event); });
  }
  void answer(ReplyHandler handler, Reply reply) {
    if (!handler) return;
    deliver([handler = std::move(handler), reply = std::move(reply)]() mutable {
      handler(std::move(reply));
    });
  }
  void set_status(ConnectionStatus s, std::optional<ClientError> error = {}, Millis retry_in = {},
                  int attempt = 0) {
    status_ = s;
    emit(StatusEvent{s, std::move(error), retry_in, attempt});
  }

  // ---- connecting and logging in ----

  void connect() {
    if (closed_) return;
    auto a = std::make_shared<Attempt>(io_);
    attempt_ = a;
    set_status(ConnectionStatus::Connecting);
    deadline_timer_.expires_after(options_.connect_timeout);
    deadline_timer_.async_wait([this, a](error_code ec) {
      if (ec || a != attempt_ || status_ == ConnectionStatus::Online) return;
      const std::string where = this->where();
      drop(status_ == ConnectionStatus::Connecting
               ? error_of(ClientError::Kind::Connect, "connecting to " + where + " timed out")
               : error_of(ClientError::Kind::Timeout,
                          "no welcome from " + where + " within " +
                              std::to_string(options_.connect_timeout.count()) + " ms"));
    });
    a->resolver.async_resolve(
        host(), std::to_string(port()),
        [this, a](error_code ec, const tcp::resolver::results_type& results) {
          if (a != attempt_) return;
          if (ec)
            return drop(error_of(ClientError::Kind::Connect,
                                 "cannot resolve " + host() + ": " + ec.message()));
          asio::async_connect(a->socket, results, [this, a](error_code e, const tcp::endpoint&) {
            if (a != attempt_) return;
            if (e)
              return drop(error_of(ClientError::Kind::Connect,
                                   "cannot connect to " + where() + ": " + e.message()));
            error_code ignored;
            a->socket.set_option(tcp::no_delay(true), ignored);
            if (options_.tls) return handshake(a);
            logging_in(a);
          });
        });
  }

  void logging_in(const std::shared_ptr<Attempt>& a) {
    heard_at_ = SteadyClock::now();
    set_status(ConnectionStatus::LoggingIn);
    read(a);
    send_hello();
  }

  void handshake(const std::shared_ptr<Attempt>& a) {
    const tls::ClientContext& tls = tls_[current_];
    a->tls = std::make_unique<ssl::stream<tcp::socket&>>(a->socket, *tls.context);
    error_code not_ip;
    asio::ip::make_address(host(), not_ip);
    // SNI names a host; an address literal is not sent (RFC 6066).
    // (SSL_set_tlsext_host_name is this call behind a macro with an old-style cast.)
    if (not_ip)
      SSL_ctrl(a->tls->native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
               const_cast<char*>(host().c_str()));
    *tls.seen = tls::PeerCertificate{};
    a->tls->async_handshake(ssl::stream_base::client, [this, a, &tls](error_code ec) {
      if (a != attempt_) return;
      if (const auto failure = tls::trust_failure(trust_, *tls.seen))
        return close_for_good(certificate_error(*failure, tls.seen->fingerprint));
      if (ec)
        return drop(error_of(ClientError::Kind::Connect,
                             "TLS handshake with " + where() + " failed: " + ec.message()));
      logging_in(a);
    });
  }

  std::string where() const {
    const bool v6 = host().find(':') != std::string::npos;
    return (v6 ? "[" + host() + "]" : host()) + ":" + std::to_string(port());
  }
  const std::string& host() const { return endpoints_[current_].host; }
  unsigned short port() const { return endpoints_[current_].port; }
  static std::vector<ConnectionOptions::Endpoint> endpoints_of(const ConnectionOptions& o) {
    std::vector<ConnectionOptions::Endpoint> all{{o.host, o.port}};
    all.insert(all.end(), o.more_servers.begin(), o.more_servers.end());
    return all;
  }

  ClientError certificate_error(tls::TrustFailure failure, const std::string& seen) const {
    ClientError e;
    e.kind = ClientError::Kind::Certificate;
    e.fingerprint = seen;
    if (failure == tls::TrustFailure::Unknown) {
      e.certificate = ClientError::Trust::Unknown;
      e.message = "no certificate authority vouches for the certificate of " + where() +
                  " and none is pinned; its SHA-256 fingerprint is " + seen +
                  ": compare it with the one the server printed before trusting it";
    } else {
      e.certificate = ClientError::Trust::Changed;
      e.message = "WARNING: the certificate of " + where() +
                  " changed. Pinned: " + trust_.pinned.value_or("") + ", now shown: " + seen +
                  ". Someone may be intercepting the connection (or the host made a new "
                  "certificate); refused until the host confirms the new fingerprint";
    }
    return e;
  }

  void send_hello() {
    protocol::Hello h;
    h.name = options_.name;
    h.bot = options_.bot;
    h.server_password = options_.server_password;
    {
      std::lock_guard lock(token_mutex_);
      hello_used_token_ = token_.has_value();
      if (token_)
        h.token = token_;
      else
        h.password = options_.password;
    }
    hello_id_ = next_id_++;
    write(protocol::encode(protocol::ClientMessage{h}, nlohmann::json(hello_id_)));
  }

  void on_welcome(const protocol::Welcome& w) {
    {
      std::lock_guard lock(token_mutex_);
      token_ = w.token;
    }
    deadline_timer_.cancel();
    failures_ = 0;
    set_status(ConnectionStatus::Online);
    emit(LoginEvent{w, logged_in_before_});
    logged_in_before_ = true;
  }

  void on_login_error(const protocol::Error& e) {
    if (hello_used_token_ && e.code == protocol::ErrorCode::AuthFailed) {
      // The token is gone (another login replaced it, or the server lost it): log in by
      // password or as a guest instead, on the same connection.
      {
        std::lock_guard lock(token_mutex_);
        token_.reset();
      }
      return send_hello();
    }
    if (fatal_login_error(e.code)) return close_for_good(ClientError::from(e));
    drop(ClientError::from(e));
  }

  // ---- reading ----

  void read(const std::shared_ptr<Attempt>& a) {
    auto on_read = [this, a](error_code ec, std::size_t n) {
      if (a != attempt_) return;
      if (ec) {
        const std::string why = ec == asio::error::eof || ec == ssl::error::stream_truncated
                                    ? "the server closed the connection"
                                    : ec.message();
        return drop(error_of(ClientError::Kind::Disconnected, why));
      }
      heard_at_ = SteadyClock::now();
      a->framer.append(std::string_view(a->buffer.data(), n));
      std::string line;
      for (;;) {
        const auto status = a->framer.next(line);
        if (status == protocol::LineFramer::Status::NeedMore) break;
        if (status == protocol::LineFramer::Status::TooLong)
          return drop(error_of(
              ClientError::Kind::BadReply,
              "the server sent a line longer than " + std::to_string(kMaxIncomingLine) + " bytes"));
        on_line(line);
        if (a != attempt_) return;  // the line ended this connection
      }
      read(a);
    };
    if (a->tls)
      a->tls->async_read_some(asio::buffer(a->buffer), std::move(on_read));
    else
      a->socket.async_read_some(asio::buffer(a->buffer), std::move(on_read));
  }

  void on_line(const std::string& line) {
    auto decoded = protocol::decode_server(line);
    if (!decoded) {
      constexpr std::size_t kShown = 120;
      return emit(
          ErrorEvent{error_of(ClientError::Kind::BadReply,
                              decoded.error().message + " in \"" + line.substr(0, kShown) + "\"")});
    }
    protocol::ServerEnvelope& env = *decoded;
    std::optional<std::int64_t> id;
    if (env.id && env.id->is_number_integer()) id = env.id->get<std::int64_t>();

    if (std::holds_alternative<protocol::Ping>(env.message))
      return write(protocol::encode(protocol::ClientMessage{protocol::Pong{}}));
    if (std::holds_alternative<protocol::Pong>(env.message)) {
      if (id && ping_ && ping_->first == *id) {
        sample_round_trip(ping_->second);
        ping_.reset();
      }
      return;
    }
    if (status_ == ConnectionStatus::LoggingIn && id == hello_id_) {
      if (const auto* w = std::get_if<protocol::Welcome>(&env.message)) return on_welcome(*w);
      if (const auto* e = std::get_if<protocol::Error>(&env.message)) return on_login_error(*e);
    }
    const auto* error = std::get_if<protocol::Error>(&env.message);
    if (id) {
      if (auto it = pending_.find(*id); it != pending_.end()) {
        Pending p = std::move(it->second);
        pending_.erase(it);
        sample_round_trip(p.sent_at);
        if (error) return answer(std::move(p.handler), Unexpected(ClientError::from(*error)));
        answer(std::move(p.handler), env.message);
      }
    }
    if (error) {
      emit(ErrorEvent{ClientError::from(*error)});
      // Someone logged in as this player elsewhere: coming back would push them out in turn.
      if (error->code == protocol::ErrorCode::Replaced) close_for_good(ClientError::from(*error));
      return;
    }
    emit(MessageEvent{std::move(env.message)});
  }

  // An exponentially weighted mean, as TCP keeps its round-trip estimate; in microseconds so that
  // loopback's fractions of a millisecond do not round away.
  void sample_round_trip(SteadyClock::time_point sent_at) {
    const auto sample =
        std::chrono::duration_cast<std::chrono::microseconds>(SteadyClock::now() - sent_at).count();
    const auto old = rtt_us_.load();
    rtt_us_ = old == 0 ? std::max<std::int64_t>(sample, 1) : (7 * old + sample) / 8;
  }

  // ---- writing ----

  void send_now(protocol::ClientMessage message, ReplyHandler on_reply) {
    if (std::holds_alternative<protocol::Hello>(message)) {
      ClientError e = error_of(ClientError::Kind::Server, "the connection logs in by itself");
      e.code = protocol::ErrorCode::AlreadyLoggedIn;
      return answer(std::move(on_reply), Unexpected(e));
    }
    if (status_ != ConnectionStatus::Online)
      return answer(
          std::move(on_reply),
          Unexpected(error_of(
              closed_ ? ClientError::Kind::Closed : ClientError::Kind::NotConnected,
              std::string("not logged in (") + std::string(to_string(status_.load())) + ")")));
    if (!on_reply) return write(protocol::encode(message));
    const std::int64_t id = next_id_++;
    const auto now = SteadyClock::now();
    pending_.emplace(id, Pending{std::move(on_reply), now, now + options_.request_timeout});
    write(protocol::encode(message, nlohmann::json(id)));
  }

  void write(std::string line) {
    const auto& a = attempt_;
    if (!a) return;
    line += '\n';
    a->out_bytes += line.size();
    a->out.push_back(std::move(line));
    if (a->out_bytes > kMaxQueuedBytes)
      return drop(error_of(ClientError::Kind::Disconnected, "the server does not read"));
    if (!a->writing) write_next(a);
  }

  void write_next(const std::shared_ptr<Attempt>& a) {
    a->writing = true;
    auto on_written = [this, a](error_code ec, std::size_t) {
      a->writing = false;
      if (a != attempt_) return;
      if (ec)
        return drop(error_of(ClientError::Kind::Disconnected, "writing failed: " + ec.message()));
      a->out_bytes -= a->out.front().size();
      a->out.pop_front();
      if (!a->out.empty()) write_next(a);
    };
    if (a->tls)
      asio::async_write(*a->tls, asio::buffer(a->out.front()), std::move(on_written));
    else
      asio::async_write(a->socket, asio::buffer(a->out.front()), std::move(on_written));
  }

  // ---- timers, drops and the end ----

  void arm_tick() {
    tick_timer_.expires_after(kTick);
    tick_timer_.async_wait([this](error_code ec) {
      if (ec || closed_) return;
      on_tick();
      arm_tick();
    });
  }

  void on_tick() {
    const auto now = SteadyClock::now();
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      answer(std::move(it->second.handler),
             Unexpected(error_of(
                 ClientError::Kind::Timeout,
                 "no reply within " + std::to_string(options_.request_timeout.count()) + " ms")));
      it = pending_.erase(it);
    }
    if (status_ != ConnectionStatus::Online && status_ != ConnectionStatus::LoggingIn) return;
    const auto silent = std::chrono::duration_cast<Millis>(now - heard_at_);
    if (silent >= options_.dead_after)
      return drop(error_of(ClientError::Kind::Timeout, "no sign of life from the server for " +
                                                           std::to_string(silent.count()) + " ms"));
    if (silent >= options_.keepalive && !ping_ && status_ == ConnectionStatus::Online) {
      const std::int64_t id = next_id_++;
      ping_ = {id, now};
      write(protocol::encode(protocol::ClientMessage{protocol::Ping{}}, nlohmann::json(id)));
    }
  }

  void fail_pending(ClientError::Kind kind, const std::string& why) {
    for (auto& [id, p] : pending_) answer(std::move(p.handler), Unexpected(error_of(kind, why)));
    pending_.clear();
  }

  void end_attempt() {
    if (attempt_) {
      error_code ignored;
      attempt_->resolver.cancel();
      attempt_->socket.close(ignored);
      attempt_.reset();
    }
    deadline_timer_.cancel();
    ping_.reset();
  }

  // The connection (or an attempt at one) failed: try again after the back-off.
  void drop(ClientError why) {
    if (closed_) return;
    end_attempt();
    fail_pending(ClientError::Kind::Disconnected, why.message);
    ++failures_;
    current_ = (current_ + 1) % endpoints_.size();  // the next node, when there are several
    if (options_.reconnect.max_attempts > 0 && failures_ >= options_.reconnect.max_attempts)
      return close_for_good(why);
    const Millis delay =
        options_.reconnect.delay(failures_ - 1, std::uniform_real_distribution<>(0, 1)(rng_));
    set_status(ConnectionStatus::WaitingRetry, std::move(why), delay, failures_);
    retry_timer_.expires_after(delay);
    retry_timer_.async_wait([this](error_code ec) {
      if (!ec) connect();
    });
  }

  void close_for_good(std::optional<ClientError> why) {
    if (closed_) return;
    closed_ = true;
    end_attempt();
    tick_timer_.cancel();
    retry_timer_.cancel();
    fail_pending(ClientError::Kind::Closed, why ? why->message : "the connection was closed");
    set_status(ConnectionStatus::Closed, std::move(why));
  }

  const ConnectionOptions options_;
  const EventHandler on_event_;
  tls::ClientTrust trust_;
  const std::vector<ConnectionOptions::Endpoint> endpoints_;  // host:port, then more_servers
  std::atomic<std::size_t> current_{0};  // the address of this attempt (read by server())
  // options.tls: one context per endpoint (each checks its own host name), for every attempt.
  std::vector<tls::ClientContext> tls_;
  asio::io_context io_;  // first, so that it is destroyed last
  // Keeps the network thread running while the connection is closed, for post() and post_after().
  asio::executor_work_guard<asio::io_context::executor_type> work_{io_.get_executor()};
  asio::steady_timer tick_timer_;
  asio::steady_timer retry_timer_;
  asio::steady_timer deadline_timer_;  // the current attempt must log in before it fires
  std::thread thread_;

  std::shared_ptr<Attempt> attempt_;
  std::map<std::int64_t, Pending> pending_;
  std::int64_t next_id_ = 1;
  std::int64_t hello_id_ = 0;
  bool hello_used_token_ = false;
  bool logged_in_before_ = false;
  bool closed_ = false;
  int failures_ = 0;  // consecutive failed attempts
  SteadyClock::time_point heard_at_;
  std::optional<std::pair<std::int64_t, SteadyClock::time_point>> ping_;  // our ping in flight
  std::mt19937_64 rng_;

  std::atomic<ConnectionStatus> status_{ConnectionStatus::Idle};
  std::atomic<std::int64_t> rtt_us_{0};
  mutable std::mutex token_mutex_;
  std::optional<std::string> token_;  // guarded by token_mutex_

  std::mutex queue_mutex_;
  std::condition_variable queue_ready_;
  std::deque<std::function<void()>> queue_;  // Delivery::Poll; guarded by queue_mutex_
};

// ---- Connection -------------------------------------------------------------------------------

Connection::Connection(ConnectionOptions options, EventHandler on_event)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_, std::move(on_event))) {}

Connection::~Connection() = default;

void Connection::start() { impl_->start(); }
void Connection::close() { impl_->close(); }
void Connection::send(protocol::ClientMessage message, ReplyHandler on_reply) {
  impl_->send(std::move(message), std::move(on_reply));
}
void Connection::post(std::function<void()> fn) { impl_->post(std::move(fn)); }
void Connection::post_after(Millis delay, std::function<void()> fn) {
  impl_->post_after(delay, std::move(fn));
}
Millis Connection::round_trip() const { return impl_->round_trip(); }
ConnectionOptions::Endpoint Connection::server() const { return impl_->server(); }
std::size_t Connection::poll() { return impl_->poll(); }
std::size_t Connection::poll_for(Millis timeout) { return impl_->poll_for(timeout); }
ConnectionStatus Connection::status() const { return impl_->status(); }
std::optional<std::string> Connection::token() const { return impl_->token(); }

}  // namespace amazons::net
