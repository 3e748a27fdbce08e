#include "server/net/server.h"

#include <array>
#include <chrono>
#include <random>

#include "server/core/address_group.h"
#include "server/core/auth.h"
#include "server/net/session.h"
#include "server/net/sniff.h"

namespace amazons::server {

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;
using boost::system::error_code;

namespace {

constexpr auto kTickInterval = std::chrono::milliseconds(50);
constexpr auto kStopGrace = std::chrono::seconds(5);
constexpr double kDiscoveryRepliesPerSecond = 50.0;
constexpr auto kAcceptRetry = std::chrono::milliseconds(100);
// How often roles and the registrations switch are read back from the database, where
// `amazons-server admin` changes them while the server runs: a grant takes effect this soon.
constexpr int kModerationPollTicks = 40;  // 2 s of kTickInterval

Millis steady_ms() {
  return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now().time_since_epoch());
}

std::shared_ptr<const std::string> error_line(protocol::ErrorCode code, std::string message) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::make_error(code, std::move(message))}));
}

}  // namespace

Server::Server(asio::io_context& io, ServerConfig config, Storage& storage, Log& log)
    : io_(io),
      config_(std::move(config)),
      web_files_(config_.web_root),
      storage_(storage),
      log_(log),
      strand_(asio::make_strand(io)),
      tick_timer_(strand_),
      stop_timer_(strand_) {
  clock_offset_ms_ = config_.test_clock_offset.count();
  config_.lobby.server_name = config_.name;
  config_.lobby.server_password = config_.password;
  config_.lobby.rules_dir = config_.rules_dir;
  if (config_.cluster) {
    config_.lobby.node = config_.cluster->node;
    // Other nodes name this node's sessions by number (in the name registry, in the lines they
    // send): a node that restarts under the same name must not reuse the numbers of its last
    // life, or a message meant for a session of that life would reach a new one. A random start
    // in the lower half of the range makes that as unlikely as guessing a 47-bit number.
    std::mt19937_64 rng(std::random_device{}());
    next_session_ = 1 + rng() % (kFirstRemoteSession / 2);
  }
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
  if (cluster_) cluster_->stop(false);
  if (worker_) worker_->stop();
  hash_pool_.join();
}

ClusterNode::Hooks Server::cluster_hooks() {
  ClusterNode::Hooks h;
  h.lobby = [this](std::function<Effects(Lobby&, Instant)> step) {
    asio::post(strand_, [this, step = std::move(step)] {
      if (stopping_) return;
      try {
        apply(step(*lobby_, now()));
      } catch (const std::exception& e) {
        log_.error("cluster_step_failed", {{"why", e.what()}});
      }
    });
  };
  h.storage = [this](std::function<void(Storage&)> read) { worker_->read(std::move(read)); };
  h.deliver = [this](std::string node, std::vector<std::pair<SessionId, std::string>> lines,
                     std::vector<SessionId> close) {
    asio::post(strand_, [this, node = std::move(node), lines = std::move(lines),
                         close = std::move(close)]() mutable {
      deliver_from_node(node, std::move(lines), std::move(close));
    });
  };
  h.background = [this](std::function<void()> work) { asio::post(hash_pool_, std::move(work)); };
  return h;
}

void Server::deliver_from_node(const std::string& node,
                               std::vector<std::pair<SessionId, std::string>> lines,
                               std::vector<SessionId> close) {
  for (auto& [id, line] : lines) {
    const auto it = sessions_.find(id);
    if (it != sessions_.end()) {
      it->second->deliver(std::make_shared<const std::string>(std::move(line)));
    } else if (node != cluster_->node()) {
      cluster_->session_gone(node, id);
    }
  }
  for (SessionId id : close)
    if (const auto it = sessions_.find(id); it != sessions_.end()) {
      closing_.insert(id);
      it->second->close_after_flush();
    }
}

Instant Server::now() const {
  const Millis offset{clock_offset_ms_.load(std::memory_order_relaxed)};
  return {steady_ms() + offset,
          std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now()) + offset};
}

bool Server::set_clock_offset(Millis offset) {
  long long current = clock_offset_ms_.load();
  while (offset.count() >= current)
    if (clock_offset_ms_.compare_exchange_weak(current, offset.count())) return true;
  return false;
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
  if (config_.cluster) {
    if (auto client = cluster::redis_client(); !client)
      throw std::runtime_error("--cluster: " + client.error());
    ClusterOptions options;
    auto redis = cluster::parse_redis_url(config_.cluster->redis);
    if (!redis) throw std::runtime_error("--cluster: " + redis.error());
    options.redis = *redis;
    options.node = config_.cluster->node;
    options.address = config_.cluster->address.empty()
                          ? config_.cluster->node + ":" + std::to_string(port_)
                          : config_.cluster->address;
    options.lease_ttl = config_.cluster->lease_ttl;
    options.node_ttl = config_.cluster->node_ttl;
    options.name_ttl = config_.cluster->name_ttl;
    options.prefix = config_.cluster->prefix;
    options.password_hashing = config_.password_hashing;
    metrics_.cluster_ready = false;  // until the first tick that finds the node ready
    cluster_ = std::make_unique<ClusterNode>(std::move(options), cluster_hooks(), log_);
    cluster_->start();
  }
  for (auto& a : acceptors_) accept(*a);
  metrics_.accepting = true;
  asio::dispatch(strand_, [this] { tick(); });
  log_.info("listening",
            {{"port", std::to_string(port_)},
             {"bind", config_.bind},
             {"discovery_port", discovery_port_ ? std::to_string(*discovery_port_) : "off"},
             {"tls_fingerprint", tls_fingerprint().empty() ? "off" : tls_fingerprint()}});
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
        asio::post(strand_,
                   [this, socket = std::move(socket), address = address.to_string()]() mutable {
                     on_accept(std::move(socket), std::move(address));
                   });
        accept(acceptor);
      });
}

void Server::on_accept(tcp::socket socket, std::string address) {
  if (stopping_) return;
  const SessionId id = next_session_++;
  // Counted by the address's group: an IPv6 host may take any address of its /64.
  const std::string group = address_group(address);
  int& count = per_address_[group];
  const bool refused = count >= config_.connections_per_address;
  ++metrics_.connections_accepted;
  if (refused) {
    ++metrics_.connections_refused;
    log_.warn("too_many_connections", {{"addr", address}});
  } else {
    ++count;
  }
  connections_.emplace(id, Connection{group, !refused});
  serve_connection(*this, std::move(socket), id, std::move(address), refused);
}

void Server::attach(std::shared_ptr<Session> session) {
  asio::post(strand_, [this, session = std::move(session)] {
    if (stopping_ || !connections_.contains(session->id())) return session->close_now();
    sessions_.emplace(session->id(), session);
    metrics_.count_connection(session->transport(), +1);
    apply(lobby_->connect(session->id(), now(),
                          ConnectionInfo{session->private_channel(), session->address()}));
    session->start();
    log_.debug("connected", {{"session", std::to_string(session->id())},
                             {"addr", session->address()},
                             {"transport", std::string(to_string(session->transport()))}});
  });
}

bool Server::is_trusted_local(const std::string& address) const {
  if (!config_.trust_loopback) return false;
  error_code ec;
  const auto a = asio::ip::make_address(address, ec);
  return !ec && a.is_loopback();
}

asio::ssl::context* Server::tls_context() {
  std::lock_guard lock(tls_mutex_);
  return tls_contexts_.empty() ? nullptr : tls_contexts_.back().get();
}

void Server::use_tls(std::shared_ptr<asio::ssl::context> context, std::string fingerprint) {
  std::lock_guard lock(tls_mutex_);
  // Contexts are never freed: a connection still in its handshake refers to the one it began
  // with, and reloads are rare (a renewal every few weeks).
  tls_contexts_.push_back(std::move(context));
  tls_fingerprint_ = std::move(fingerprint);
}

std::string Server::tls_fingerprint() const {
  std::lock_guard lock(tls_mutex_);
  return tls_fingerprint_;
}

std::vector<std::string> Server::node_addresses() const {
  return cluster_ ? cluster_->addresses() : std::vector<std::string>{};
}

std::vector<std::string> Server::known_node_addresses() const {
  return cluster_ ? cluster_->known_addresses() : std::vector<std::string>{};
}

std::string Server::health_json() const {
  std::string out = "{\"status\":\"" +
                    std::string(storage_failed_.load() ? "storage_failed" : "ok") +
                    "\",\"tls\":" + (tls_fingerprint().empty() ? "false" : "true");
  if (cluster_)
    out += ",\"node\":\"" + cluster_->node() + "\",\"cluster\":\"" +
           std::string(to_string(cluster_->state())) + "\"";
  return out + "}";
}

void Server::on_line(SessionId id,
                     Expected<protocol::ClientEnvelope, protocol::DecodeError> request) {
  asio::post(strand_, [this, id, request = std::move(request),
                       received = std::chrono::steady_clock::now()] {
    if (stopping_ || !sessions_.contains(id) || closing_.contains(id)) return;
    try {
      const bool move = request && std::holds_alternative<protocol::MoveMsg>(request->message);
      apply(lobby_->handle(id, request, now()), move ? std::optional(received) : std::nullopt);
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
    const auto c = connections_.find(id);
    if (c == connections_.end()) return;
    if (c->second.counted && --per_address_[c->second.group] <= 0)
      per_address_.erase(c->second.group);
    connections_.erase(c);
    closing_.erase(id);
    const auto s = sessions_.find(id);
    if (s == sessions_.end()) return;
    if (cluster_) cluster_->session_closed(id);
    metrics_.count_connection(s->second->transport(), -1);
    sessions_.erase(s);
    if (!stopping_) apply(lobby_->disconnect(id, now()));
    log_.debug("disconnected", {{"session", std::to_string(id)}});
  });
}

void Server::apply(Effects fx, std::optional<std::chrono::steady_clock::time_point> move_received) {
  for (const auto code : fx.errors) metrics_.count_error(code);
  for (const auto& b : fx.auth_backoffs) {
    ++metrics_.auth_backoffs;
    // One line per run of refusals, not per refusal: a guesser must not flood the log.
    if (b.first) log_.warn("auth_backoff", {{"addr", b.address}, {"what", b.what}});
  }
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
  ClusterEffects after_delivery;
  if (cluster_) {
    // Attaches wait for the welcome before them, turns and moderators' decisions for what they
    // tell of to be committed; everything else goes at once.
    after_delivery.attaches = std::move(fx.cluster.attaches);
    after_delivery.turns = std::move(fx.cluster.turns);
    after_delivery.moderation = std::move(fx.cluster.moderation);
    if (!fx.cluster.empty()) cluster_->carry_out(std::move(fx.cluster));
  }
  Pending group{0,
                std::move(fx.messages),
                {},
                std::move(fx.close),
                {},
                0,
                std::nullopt,
                std::move(after_delivery)};
  for (const auto& w : fx.writes.writes) group.moves += std::holds_alternative<MoveRow>(w);
  if (group.moves > 0) group.move_received = move_received;
  if (!fx.writes.empty() || !fx.queries.empty()) {
    group.queued = std::chrono::steady_clock::now();
    group.seq = worker_->submit(std::move(fx.writes), std::move(fx.queries));
  }
  if (group.seq == 0 && pending_.empty()) return deliver(group);
  pending_.push_back(std::move(group));
}

void Server::deliver(Pending& group) {
  std::map<std::string, wire::Lines> remote;  // cluster mode: lines for other nodes' sessions
  for (auto* list : {&group.messages, &group.replies})
    for (auto& m : *list) {
      if (const auto it = sessions_.find(m.to); it != sessions_.end()) {
        it->second->deliver(std::move(m.line));
      } else if (is_remote_session(m.to)) {
        if (const auto r = lobby_->remote_of(m.to))
          remote[r->node].lines.emplace_back(r->session, *m.line);
      }
    }
  for (SessionId s : group.close) {
    if (const auto it = sessions_.find(s); it != sessions_.end()) {
      it->second->close_after_flush();
    } else if (is_remote_session(s)) {
      if (const auto r = lobby_->remote_of(s)) remote[r->node].close.push_back(r->session);
    }
  }
  if (cluster_) {
    if (!remote.empty()) cluster_->send(std::move(remote));
    if (!group.cluster.empty()) cluster_->carry_out(std::move(group.cluster));
  }
  // Delivered right after its commit (flush_pending), so the queued-to-now time is the commit's.
  const auto t = std::chrono::steady_clock::now();
  if (group.seq != 0) {
    metrics_.storage_commit.observe(std::chrono::duration<double>(t - group.queued).count());
    metrics_.moves_committed += group.moves;
  }
  if (group.move_received)
    metrics_.move_round_trip.observe(
        std::chrono::duration<double>(t - *group.move_received).count());
}

void Server::flush_pending() {
  while (!pending_.empty() && pending_.front().seq <= committed_) {
    deliver(pending_.front());
    pending_.pop_front();
  }
}

void Server::on_committed(StorageCompletion c) {
  // A cluster node whose write was fenced lost the game to another node: the steps that wrote
  // it were not stored, so nobody hears of them, and the game is dropped here.
  if (cluster_ && !c.error)
    for (const FencedGame& f : c.fenced) {
      log_.warn("write_fenced",
                {{"game", std::to_string(f.game)}, {"holder", std::to_string(f.holder)}});
      for (auto& g : pending_)
        if (std::find(f.jobs.begin(), f.jobs.end(), g.seq) != f.jobs.end()) {
          g.messages.clear();
          g.replies.clear();
          g.cluster = {};
        }
      apply(lobby_->lease_lost(std::to_string(f.game), now()));
    }
  if (cluster_) c.fenced.clear();
  // A single server fences no write, so a refused fence means another server took one of its
  // games over: stop as after a storage failure rather than run a game this one cannot prove
  // it owns.
  if (!c.error && !c.fenced.empty())
    c.error = "game " + std::to_string(c.fenced.front().game) +
              " was taken over by another server (fencing token " +
              std::to_string(c.fenced.front().holder) + ")";
  if (c.error) {
    if (!storage_failed_) {
      storage_failed_ = true;
      metrics_.storage_ok = false;
      log_.error("storage_failed", {{"why", *c.error}});
      // Nobody may hear of what was not stored: drop it all and shut down.
      pending_.clear();
      for (auto& [id, s] : sessions_) {
        s->deliver(error_line(protocol::ErrorCode::Internal,
                              "the server cannot store games: shutting down"));
        s->close_after_flush();
      }
      // The process must end, so that a supervisor restarts it: whoever runs the server learns
      // of the failure through on_stopped(false).
      if (!stopping_)
        stop([this](bool ok) {
          if (on_stopped_) on_stopped_(ok);
        });
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
    // Cluster mode: whether anything new may start here (/ready follows it), and
    // this node's directory for the others when it changed (every 250 ms at
    // most), and every 2 s anyway, so that a node that joins hears of it.
    if (cluster_) {
      const bool r = cluster_->state() == ClusterState::Ready;
      lobby_->set_cluster_ready(r);
      metrics_.cluster_ready = r;  // after the lobby, so that /ready never runs ahead of it
    }
    if (cluster_ && ++directory_ticks_ % 5 == 0) {
      PeerView view = lobby_->directory();
      if (!(view == published_directory_) || directory_ticks_ % 40 == 0) {
        published_directory_ = view;
        cluster_->publish_directory(std::move(view));
      }
    }
    if (metrics_ticks_++ % 20 == 0) {  // once a second: the count walks every room
      const auto counts = lobby_->game_counts();
      metrics_.games_open = static_cast<std::int64_t>(counts.open);
      metrics_.games_active = static_cast<std::int64_t>(counts.active);
      if (cluster_) {
        const auto f = cluster_->figures();
        metrics_.cluster_state = static_cast<int>(cluster_->state());
        metrics_.cluster_forwarded = f.forwarded;
        metrics_.cluster_received = f.received;
        metrics_.cluster_takeovers = f.takeovers;
        metrics_.cluster_bus_gaps = f.bus_gaps;
        metrics_.cluster_leases = static_cast<std::int64_t>(f.leases);
      }
    }
    if (metrics_ticks_ % kModerationPollTicks == 0 && !moderation_poll_pending_) {
      moderation_poll_pending_ = true;
      worker_->read([this](Storage& storage) {
        std::optional<ModerationSettings> settings;
        try {
          settings = storage.moderation();
        } catch (const std::exception& e) {
          log_.warn("moderation_poll_failed", {{"why", e.what()}});
        }
        asio::post(strand_, [this, settings = std::move(settings)]() mutable {
          moderation_poll_pending_ = false;
          if (settings && !stopping_) lobby_->set_moderation(std::move(*settings));
        });
      });
    }
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
            reply.tls = tls_context() != nullptr;
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
    metrics_.accepting = false;
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
  // Everything is stored: give the games back to the cluster at once.
  if (cluster_) cluster_->stop(!storage_failed_);
  log_.info("stopped", {{"transactions", std::to_string(worker_->transactions())}});
  if (stop_done_) stop_done_(!storage_failed_);
}

}  // namespace amazons::server
