#include "server/net_server.h"

#include <array>
#include <chrono>

#include "server/auth.h"

namespace amazons::server {

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;
using boost::system::error_code;

namespace {

constexpr auto kTickInterval = std::chrono::milliseconds(50);
// Lines gathered into one write while earlier ones are in flight.
constexpr std::size_t kMaxLinesPerWrite = 64;
constexpr std::size_t kReadChunk = 16 * 1024;
// How long a closing connection may take to read the rest of what its peer sent, so the last
// error line is not lost to a reset.
constexpr auto kLingerTime = std::chrono::seconds(1);
constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr double kDiscoveryRepliesPerSecond = 50.0;
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);

Millis steady_ms() {
  return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now().time_since_epoch());
}

std::shared_ptr<const std::string> error_line(protocol::ErrorCode code, std::string message) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::make_error(code, std::move(message))}));
}

}  // namespace

// One connection, on its own strand. Reads lines and hands them to the server; writes what the
// server delivers, one write in flight with a bounded queue behind it.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, Server& server, SessionId id, std::string address)
      : socket_(std::move(socket)),
        idle_timer_(socket_.get_executor()),
        server_(server),
        id_(id),
        address_(std::move(address)),
        last_heard_(steady_ms()) {}

  SessionId id() const { return id_; }
  const std::string& address() const { return address_; }

  void start() {
    asio::dispatch(socket_.get_executor(), [self = shared_from_this()] {
      self->read();
      self->arm_idle_timer();
    });
  }
  void deliver(std::shared_ptr<const std::string> line) {
    asio::post(socket_.get_executor(),
               [self = shared_from_this(), line = std::move(line)] { self->enqueue(line); });
  }
  // Closes once everything queued so far is written.
  void close_after_flush() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      self->closing_ = true;
      if (!self->writing_) self->finish(true);
    });
  }
  void close_now() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->finish(false); });
  }

 private:
  void read() {
    socket_.async_read_some(
        asio::buffer(buffer_),
        [self = shared_from_this()](error_code ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(error_code ec, std::size_t n) {
    if (ec || closed_) return finish(false);
    last_heard_ = steady_ms();
    ping_sent_ = false;
    framer_.append(std::string_view(buffer_.data(), n));
    std::string line;
    for (;;) {
      const auto status = framer_.next(line);
      if (status == protocol::LineFramer::Status::NeedMore) break;
      if (status == protocol::LineFramer::Status::TooLong) {
        enqueue(error_line(protocol::ErrorCode::LineTooLong,
                           "line longer than " + std::to_string(protocol::kMaxLineBytes) +
                               " bytes: closing the connection"));
        server_.log_.warn("line_too_long", {{"session", std::to_string(id_)}, {"addr", address_}});
        closing_ = true;
        if (!writing_) finish(true);
        return;
      }
      if (!closing_) server_.on_line(id_, protocol::decode_client(line));
    }
    if (!closing_) read();
  }

  void enqueue(const std::shared_ptr<const std::string>& line) {
    if (closed_) return;
    queued_bytes_ += line->size() + 1;
    if (queued_bytes_ > server_.config_.max_write_queue_bytes) {
      server_.log_.warn("slow_reader", {{"session", std::to_string(id_)},
                                        {"addr", address_},
                                        {"queued_bytes", std::to_string(queued_bytes_)}});
      return finish(false);
    }
    queue_.push_back(line);
    if (!writing_) write_next();
  }

  void write_next() {
    writing_ = true;
    in_flight_ = std::min(queue_.size(), kMaxLinesPerWrite);
    buffers_.clear();
    static constexpr char kNewline = '\n';
    for (std::size_t i = 0; i < in_flight_; ++i) {
      buffers_.push_back(asio::buffer(*queue_[i]));
      buffers_.push_back(asio::buffer(&kNewline, 1));
    }
    asio::async_write(socket_, buffers_, [self = shared_from_this()](error_code ec, std::size_t) {
      self->on_write(ec);
    });
  }

  void on_write(error_code ec) {
    writing_ = false;
    if (ec || closed_) return finish(false);
    for (std::size_t i = 0; i < in_flight_; ++i) {
      queued_bytes_ -= queue_.front()->size() + 1;
      queue_.pop_front();
    }
    if (!queue_.empty()) return write_next();
    if (closing_) finish(true);
  }

  void arm_idle_timer() {
    const auto check = std::min(server_.config_.idle_ping, server_.config_.idle_timeout) / 2;
    idle_timer_.expires_after(std::max(check, Millis{10}));
    idle_timer_.async_wait([self = shared_from_this()](error_code ec) {
      if (ec || self->closed_) return;
      self->on_idle_check();
      self->arm_idle_timer();
    });
  }

  void on_idle_check() {
    if (closing_) return;
    const Millis silent = steady_ms() - last_heard_;
    if (silent >= server_.config_.idle_timeout) {
      enqueue(error_line(protocol::ErrorCode::IdleTimeout, "no answer to ping: closing"));
      closing_ = true;
      if (!writing_) finish(true);
    } else if (silent >= server_.config_.idle_ping && !ping_sent_) {
      ping_sent_ = true;
      enqueue(std::make_shared<const std::string>(
          protocol::encode(protocol::ServerMessage{protocol::Ping{}})));
    }
  }

  // Ends the connection once. Gracefully: shut down our side, read what the peer still sends
  // for a moment (so our last line is not destroyed by a reset), then close.
  void finish(bool graceful) {
    if (closed_) return;
    closed_ = true;
    closing_ = true;
    error_code ignored;
    idle_timer_.cancel();
    server_.on_closed(id_);
    if (!graceful) {
      socket_.close(ignored);
      return;
    }
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    idle_timer_.expires_after(kLingerTime);
    idle_timer_.async_wait([self = shared_from_this()](error_code) {
      error_code e;
      self->socket_.close(e);
    });
    drain();
  }

  void drain() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = shared_from_this()](error_code ec, std::size_t) {
                              if (ec) {
                                error_code e;
                                self->idle_timer_.cancel();
                                self->socket_.close(e);
                                return;
                              }
                              self->drain();
                            });
  }

  tcp::socket socket_;
  asio::steady_timer idle_timer_;
  Server& server_;
  SessionId id_;
  std::string address_;
  std::array<char, kReadChunk> buffer_{};
  protocol::LineFramer framer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  std::vector<asio::const_buffer> buffers_;
  std::size_t in_flight_ = 0;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
  Millis last_heard_;
  bool ping_sent_ = false;
};

Server::Server(asio::io_context& io, ServerConfig config, Storage& storage, Log& log)
    : io_(io),
      config_(std::move(config)),
      storage_(storage),
      log_(log),
      strand_(asio::make_strand(io)),
      tick_timer_(strand_),
      stop_timer_(strand_) {
  config_.lobby.server_name = config_.name;
  config_.lobby.server_password = config_.password;
  config_.lobby.rules_dir = config_.rules_dir;
  const LoadedState state = storage_.load();
  lobby_ = std::make_unique<Lobby>(config_.lobby, state, now());
  for (const auto& problem : lobby_->restore_problems())
    log_.error("restore_failed", {{"why", problem}});
  log_.info("restored", {{"players", std::to_string(state.players.size())},
                         {"games", std::to_string(lobby_->active_games())}});
  worker_ = std::make_unique<StorageWorker>(storage_, [this](StorageCompletion c) {
    asio::post(strand_, [this, c = std::move(c)]() mutable { on_committed(std::move(c)); });
  });
}

Server::~Server() {
  if (worker_) worker_->stop();
  hash_pool_.join();
}

Instant Server::now() const {
  return {steady_ms(), std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now())};
}

void Server::start() {
  const auto bind_tcp = [&](const asio::ip::address& address) {
    auto acceptor = std::make_unique<tcp::acceptor>(io_);
    const tcp::endpoint ep(address, static_cast<unsigned short>(config_.port));
    acceptor->open(ep.protocol());
    acceptor->set_option(tcp::acceptor::reuse_address(true));
    if (address.is_v6()) acceptor->set_option(asio::ip::v6_only(false));
    acceptor->bind(ep);
    acceptor->listen(asio::socket_base::max_listen_connections);
    port_ = acceptor->local_endpoint().port();
    acceptors_.push_back(std::move(acceptor));
  };
  error_code ec;
  const auto address = asio::ip::make_address(config_.bind, ec);
  if (ec) throw std::runtime_error("bind: \"" + config_.bind + "\" is not an IP address");
  try {
    bind_tcp(address);
  } catch (const boost::system::system_error& e) {
    // No IPv6 on this machine: listen on IPv4 only.
    if (config_.bind != "::")
      throw std::runtime_error("cannot listen on " + config_.bind + " port " +
                               std::to_string(config_.port) + ": " + e.code().message());
    acceptors_.clear();
    try {
      bind_tcp(asio::ip::address_v4::any());
    } catch (const boost::system::system_error& e4) {
      throw std::runtime_error("cannot listen on port " + std::to_string(config_.port) + ": " +
                               e4.code().message());
    }
  }
  if (config_.discovery_port >= 0) {
    try {
      const udp::endpoint ep(acceptors_.front()->local_endpoint().address(),
                             static_cast<unsigned short>(config_.discovery_port));
      discovery_.emplace(strand_);
      discovery_->open(ep.protocol());
      discovery_->set_option(udp::socket::reuse_address(true));
      if (ep.address().is_v6()) discovery_->set_option(asio::ip::v6_only(false));
      discovery_->bind(ep);
      discovery_port_ = discovery_->local_endpoint().port();
      discovery_refill_ = std::chrono::steady_clock::now();
      discovery_tokens_ = kDiscoveryRepliesPerSecond;
      receive_discovery();
    } catch (const boost::system::system_error& e) {
      discovery_.reset();
      log_.warn("discovery_off", {{"why", e.code().message()}});
    }
  }
  for (auto& a : acceptors_) accept(*a);
  asio::dispatch(strand_, [this] { tick(); });
  log_.info("listening",
            {{"port", std::to_string(port_)},
             {"bind", config_.bind},
             {"discovery_port", discovery_port_ ? std::to_string(*discovery_port_) : "off"}});
}

void Server::accept(tcp::acceptor& acceptor) {
  acceptor.async_accept(
      asio::make_strand(io_), [this, &acceptor](error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
        if (ec) {
          // Out of file descriptors and the like: wait a little rather than spin.
          log_.warn("accept_failed", {{"why", ec.message()}});
          auto timer = std::make_shared<asio::steady_timer>(io_, kAcceptRetry);
          timer->async_wait([this, &acceptor, timer](error_code) { accept(acceptor); });
          return;
        }
        error_code e;
        const auto remote = socket.remote_endpoint(e);
        if (e) {
          accept(acceptor);
          return;
        }
        socket.set_option(tcp::no_delay(true), e);
        auto address = remote.address();
        if (address.is_v6() && address.to_v6().is_v4_mapped())
          address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
        asio::post(strand_, [this, socket = std::move(socket),
                             address = address.to_string()]() mutable {
          on_accept(std::make_shared<Session>(std::move(socket), *this, next_session_++, address));
        });
        accept(acceptor);
      });
}

void Server::on_accept(std::shared_ptr<Session> session) {
  if (stopping_) {
    session->close_now();
    return;
  }
  int& count = per_address_[session->address()];
  if (count >= config_.connections_per_address) {
    log_.warn("too_many_connections", {{"addr", session->address()}});
    session->start();
    session->deliver(error_line(protocol::ErrorCode::TooManyConnections,
                                "too many connections from your address"));
    session->close_after_flush();
    return;
  }
  ++count;
  sessions_.emplace(session->id(), session);
  apply(lobby_->connect(session->id(), now()));
  session->start();
  log_.debug("connected",
             {{"session", std::to_string(session->id())}, {"addr", session->address()}});
}

void Server::on_line(SessionId id,
                     Expected<protocol::ClientEnvelope, protocol::DecodeError> request) {
  asio::post(strand_, [this, id, request = std::move(request)] {
    if (stopping_ || !sessions_.contains(id) || closing_.contains(id)) return;
    try {
      apply(lobby_->handle(id, request, now()));
    } catch (const std::exception& e) {
      // A fault in the server, not in the request: keep serving everyone else.
      log_.error("handler_failed", {{"session", std::to_string(id)}, {"why", e.what()}});
      if (auto it = sessions_.find(id); it != sessions_.end())
        it->second->deliver(error_line(protocol::ErrorCode::Internal, "internal error"));
    }
  });
}

void Server::on_closed(SessionId id) {
  asio::post(strand_, [this, id] {
    const auto it = sessions_.find(id);
    if (it == sessions_.end()) return;
    if (--per_address_[it->second->address()] <= 0) per_address_.erase(it->second->address());
    sessions_.erase(it);
    closing_.erase(id);
    if (!stopping_) apply(lobby_->disconnect(id, now()));
    log_.debug("disconnected", {{"session", std::to_string(id)}});
  });
}

void Server::apply(Effects fx) {
  for (auto& job : fx.password_jobs) {
    asio::post(hash_pool_, [this, job = std::move(job)]() mutable {
      PasswordOutcome out{std::move(job), false, std::nullopt};
      if (out.job.stored_hash)
        out.verified = verify_password(out.job.password, *out.job.stored_hash);
      else
        out.new_hash = hash_password(out.job.password, config_.password_hashing);
      out.job.password.clear();
      asio::post(strand_, [this, out = std::move(out)] {
        if (!stopping_) apply(lobby_->complete_password(out, now()));
      });
    });
  }
  for (SessionId s : fx.close)
    if (sessions_.contains(s)) closing_.insert(s);
  Pending group{0, std::move(fx.messages), {}, std::move(fx.close)};
  if (!fx.writes.empty() || !fx.queries.empty())
    group.seq = worker_->submit(std::move(fx.writes), std::move(fx.queries));
  if (group.seq == 0 && pending_.empty()) return deliver(group);
  pending_.push_back(std::move(group));
}

void Server::deliver(Pending& group) {
  for (auto* list : {&group.messages, &group.replies})
    for (auto& m : *list)
      if (const auto it = sessions_.find(m.to); it != sessions_.end())
        it->second->deliver(std::move(m.line));
  for (SessionId s : group.close)
    if (const auto it = sessions_.find(s); it != sessions_.end()) it->second->close_after_flush();
}

void Server::flush_pending() {
  while (!pending_.empty() && pending_.front().seq <= committed_) {
    deliver(pending_.front());
    pending_.pop_front();
  }
}

void Server::on_committed(StorageCompletion c) {
  if (c.error) {
    if (!storage_failed_) {
      storage_failed_ = true;
      log_.error("storage_failed", {{"why", *c.error}});
      // Nobody may hear of what was not stored: drop it all and shut down.
      pending_.clear();
      for (auto& [id, s] : sessions_) {
        s->deliver(error_line(protocol::ErrorCode::Internal,
                              "the server cannot store games: shutting down"));
        s->close_after_flush();
      }
      if (!stopping_) stop([](bool) {});
    }
    return;
  }
  for (auto& [seq, reply] : c.replies)
    for (auto& g : pending_)
      if (g.seq == seq) g.replies.push_back(std::move(reply));
  committed_ = c.through;
  flush_pending();
}

void Server::tick() {
  if (stopping_) return;
  try {
    apply(lobby_->tick(now()));
  } catch (const std::exception& e) {
    log_.error("tick_failed", {{"why", e.what()}});
  }
  tick_timer_.expires_after(kTickInterval);
  tick_timer_.async_wait([this](error_code ec) {
    if (!ec) tick();
  });
}

void Server::receive_discovery() {
  discovery_->async_receive_from(
      asio::buffer(discovery_buffer_), discovery_peer_, [this](error_code ec, std::size_t n) {
        if (ec == asio::error::operation_aborted || !discovery_ || !discovery_->is_open()) return;
        if (!ec) {
          // A global budget: discovery must not become a way to make the server flood someone.
          const auto t = std::chrono::steady_clock::now();
          discovery_tokens_ = std::min(
              kDiscoveryRepliesPerSecond,
              discovery_tokens_ + kDiscoveryRepliesPerSecond *
                                      std::chrono::duration<double>(t - discovery_refill_).count());
          discovery_refill_ = t;
          const auto query =
              protocol::decode_discovery_query(std::string_view(discovery_buffer_.data(), n));
          if (query && discovery_tokens_ >= 1.0) {
            discovery_tokens_ -= 1.0;
            auto reply = lobby_->discovery_info();
            reply.port = port_;
            reply.nonce = query->nonce;
            auto text = std::make_shared<std::string>(protocol::encode(reply));
            error_code ignored;
            discovery_->send_to(asio::buffer(*text), discovery_peer_, 0, ignored);
          }
        }
        receive_discovery();
      });
}

void Server::stop(std::function<void(bool)> done) {
  asio::post(strand_, [this, done = std::move(done)]() mutable {
    if (stopping_) return;
    stopping_ = true;
    stop_done_ = std::move(done);
    error_code ignored;
    for (auto& a : acceptors_) a->close(ignored);
    if (discovery_) discovery_->close(ignored);
    tick_timer_.cancel();
    log_.info("stopping", {{"sessions", std::to_string(sessions_.size())},
                           {"pending", std::to_string(pending_.size())}});
    if (!storage_failed_)
      apply(lobby_->shutdown(
          "the server is shutting down; your games will be there when it is back"));
    stop_deadline_ = std::chrono::steady_clock::now() + kStopGrace;
    finish_stop();
  });
}

void Server::finish_stop() {
  const bool drained = (pending_.empty() || storage_failed_) && sessions_.empty();
  if (!drained && std::chrono::steady_clock::now() < stop_deadline_) {
    stop_timer_.expires_after(std::chrono::milliseconds(20));
    stop_timer_.async_wait([this](error_code) { finish_stop(); });
    return;
  }
  for (auto& [id, s] : sessions_) s->close_now();
  worker_->stop();
  log_.info("stopped", {{"transactions", std::to_string(worker_->transactions())}});
  if (stop_done_) stop_done_(!storage_failed_);
}

}  // namespace amazons::server
