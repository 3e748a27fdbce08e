// The thin network layer: TCP listeners, one session per connection, the UDP discovery
// responder, and the plumbing that carries out the Lobby's Effects: writes go to the group-commit
// StorageWorker and the messages of a step are delivered only after its writes are committed.
//
// Threads: any number run the io_context. The Lobby lives on one strand; each session on its
// own. Handlers never throw: a fault in one request is logged and answered with an error.
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "common/log.h"
#include "server/core/lobby.h"
#include "server/core/storage.h"
#include "server/http/web_files.h"
#include "server/net/config.h"
#include "server/net/metrics.h"
#include "server/net/session_host.h"
#include "server/node/cluster_node.h"
#include "server/storage/storage_worker.h"

namespace amazons::server {

class Session;

class Server final : public SessionHost {
 public:
  // `storage` must outlive the server; load() is called here.
  Server(boost::asio::io_context& io, ServerConfig config, Storage& storage, Log& log);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the TCP (and UDP discovery) sockets and starts serving. Throws std::runtime_error
  // with the reason when a socket cannot be bound.
  void start();
  unsigned short port() const { return port_; }
  std::optional<unsigned short> discovery_port() const { return discovery_port_; }

  // Graceful stop, from any thread: stops accepting, tells every client, commits everything in
  // flight, closes the connections (waiting up to a few seconds for them to drain), and then
  // calls `done(ok)` (ok is false when storage had failed). The io_context may then be stopped.
  void stop(std::function<void(bool)> done);
  // Called (on a network thread) when the server stops by itself: storage failed, `ok` false.
  // Set before the io_context runs.
  void on_stopped(std::function<void(bool)> f) { on_stopped_ = std::move(f); }

  // TLS on the port: from now on, new handshakes use `context` (a reload replaces it; without
  // one, TLS connections are closed). Any thread.
  void use_tls(std::shared_ptr<boost::asio::ssl::context> context, std::string fingerprint);
  std::string tls_fingerprint() const;
  // Tests only (--test-clock): the server's clock runs `offset` ahead of the machine's from now
  // on. A smaller offset than the current one is refused (false): clocks never run backwards.
  // Any thread.
  bool set_clock_offset(Millis offset);

 private:
  struct Connection {
    std::string group;     // address_group of its peer's address
    bool counted = false;  // holds one of its group's connection slots
  };
  struct Pending {
    std::uint64_t seq = 0;  // 0: waits for nothing but the groups before it
    std::vector<Outbound> messages;
    std::vector<Outbound> replies;
    std::vector<SessionId> close;
    // For the metrics: when its writes were queued, how many moves they hold, and when the move
    // line it answers arrived (if it answers one that was accepted).
    std::chrono::steady_clock::time_point queued;
    std::size_t moves = 0;
    std::optional<std::chrono::steady_clock::time_point> move_received;
    // Cluster mode: what goes to other nodes once the messages before it are out (the games
    // other nodes run of a player whose welcome is in `messages`).
    ClusterEffects cluster;
  };

  Instant now() const;
  void accept(boost::asio::ip::tcp::acceptor& acceptor);
  void on_accept(boost::asio::ip::tcp::socket socket, std::string address);

 public:
  // For the connections (SessionHost), any thread.
  const ServerConfig& config() const override { return config_; }
  Log& log() override { return log_; }
  void attach(std::shared_ptr<Session> session) override;
  void on_line(SessionId id,
               Expected<protocol::ClientEnvelope, protocol::DecodeError> request) override;
  void on_closed(SessionId id) override;
  bool is_trusted_local(const std::string& address) const override;
  boost::asio::ssl::context* tls_context() override;
  void count_tls_failure() override { ++metrics_.tls_handshake_failures; }
  std::string health_json() const override;
  // Listening, not stopping, storage working, and on a cluster's node, the lobby told that the
  // cluster is in reach.
  bool ready() const override {
    return metrics_.accepting && !storage_failed_ && metrics_.cluster_ready;
  }
  std::vector<std::string> node_addresses() const override;
  std::vector<std::string> known_node_addresses() const override;
  ServerMetrics& metrics() override { return metrics_; }
  WebFiles& web_files() override { return web_files_; }

 private:
  // On the lobby strand.
  // `move_received`: when the move line these effects answer arrived, for the metrics.
  void apply(Effects fx,
             std::optional<std::chrono::steady_clock::time_point> move_received = std::nullopt);
  void deliver(Pending& group);
  void flush_pending();
  void on_committed(StorageCompletion c);
  void tick();
  void receive_discovery();
  void finish_stop();
  // Cluster mode.
  ClusterNode::Hooks cluster_hooks();
  void deliver_from_node(const std::string& node,
                         std::vector<std::pair<SessionId, std::string>> lines,
                         std::vector<SessionId> close);

  boost::asio::io_context& io_;
  ServerConfig config_;
  WebFiles web_files_;
  Storage& storage_;
  Log& log_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> acceptors_;
  std::optional<boost::asio::ip::udp::socket> discovery_;
  boost::asio::ip::udp::endpoint discovery_peer_;
  std::array<char, protocol::kMaxDatagramBytes + 1> discovery_buffer_{};
  boost::asio::steady_timer tick_timer_;
  boost::asio::steady_timer stop_timer_;
  // Password hashes (and a cluster node's other slow work): config_.password_threads threads,
  // a first-come queue to which the lobby lets each address add only its share
  // (LobbyConfig::max_password_checks_per_address).
  boost::asio::thread_pool hash_pool_{static_cast<std::size_t>(config_.password_threads)};
  std::unique_ptr<Lobby> lobby_;
  std::unique_ptr<StorageWorker> worker_;
  std::unique_ptr<ClusterNode> cluster_;
  PeerView published_directory_;
  int directory_ticks_ = 0;

  // Lobby strand state.
  std::map<SessionId, std::shared_ptr<Session>> sessions_;
  // Sessions the lobby has decided to close: lines of theirs still on the way are dropped, so a
  // flood that earned too_many_errors does not keep this strand busy with the rest of it.
  std::set<SessionId> closing_;
  std::map<std::string, int> per_address_;
  std::map<SessionId, Connection> connections_;  // every open connection, sessions or not
  std::deque<Pending> pending_;
  std::uint64_t committed_ = 0;
  SessionId next_session_ = 1;
  bool stopping_ = false;
  std::atomic<bool> storage_failed_ = false;
  ServerMetrics metrics_;
  int metrics_ticks_ = 0;
  bool moderation_poll_pending_ = false;
  std::atomic<long long> clock_offset_ms_ = 0;
  mutable std::mutex tls_mutex_;
  std::vector<std::shared_ptr<boost::asio::ssl::context>> tls_contexts_;
  std::string tls_fingerprint_;
  std::function<void(bool)> stop_done_;
  std::function<void(bool)> on_stopped_;
  std::chrono::steady_clock::time_point stop_deadline_;
  unsigned short port_ = 0;
  std::optional<unsigned short> discovery_port_;
  double discovery_tokens_ = 0;
  std::chrono::steady_clock::time_point discovery_refill_;
};

}  // namespace amazons::server
