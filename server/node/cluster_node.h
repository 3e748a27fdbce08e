// A server's place in a cluster (amazons-server --cluster redis://..., docs/SCALING.md): one
// thread with its own Redis connection carries out what the lobby asks of the cluster (leases,
// names, seeks, requests for games other nodes run) and keeps the node's standing (heartbeat,
// lease renewals, name refreshes, the takeover of games whose node died); a bus subscriber
// brings what other nodes send.
//
// Threads: the public functions may be called from any thread (the server calls them from its
// lobby strand); they queue work for the cluster thread. What comes back goes through Hooks,
// called on the cluster or subscriber thread: the hooks must only post to the server's strand.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cluster/bus.h"
#include "cluster/lease.h"
#include "cluster/membership.h"
#include "cluster/names.h"
#include "cluster/node_lease.h"
#include "cluster/pairing.h"
#include "cluster/redis.h"
#include "common/log.h"
#include "server/core/auth.h"
#include "server/core/lobby.h"
#include "server/core/storage.h"
#include "server/node/cluster_wire.h"

namespace amazons::server {

struct ClusterOptions {
  cluster::RedisAddress redis;
  std::string node;     // this node's name (cluster::valid_node_name)
  std::string address;  // where clients reach it, host:port (the membership says so)
  Millis lease_ttl{5000};
  Millis node_ttl{5000};
  Millis name_ttl{15000};
  std::string prefix = "amz:";  // namespaces every key and channel (tests share one Redis)
  HashStrength password_hashing = HashStrength::Interactive;
};

// What the node knows of its standing, for /health and /ready.
enum class ClusterState : std::uint8_t {
  Starting,  // not yet heard from Redis
  Ready,     // heartbeat sent, epoch known, bus subscribed
  Degraded,  // Redis unreachable or the bus down: games run only until their leases' deadlines
};
std::string_view to_string(ClusterState s);

class ClusterNode {
 public:
  struct Hooks {
    // Runs `step` on the lobby strand and carries out the Effects it returns.
    std::function<void(std::function<Effects(Lobby&, Instant)>)> lobby;
    // Runs `read` on the storage thread, after every write queued before it.
    std::function<void(std::function<void(Storage&)>)> storage;
    // Delivers lines from another node to this node's sessions (on the strand), then closes the
    // sessions in `close`. Lines for sessions that are gone are dropped, and their node is told
    // (ClusterNode::session_gone).
    std::function<void(std::string node, std::vector<std::pair<SessionId, std::string>> lines,
                       std::vector<SessionId> close)>
        deliver;
    // Runs slow work (password hashes) on a pool, off the cluster thread.
    std::function<void(std::function<void()>)> background;
  };

  ClusterNode(ClusterOptions options, Hooks hooks, Log& log);
  ~ClusterNode();  // stop(false) if not stopped
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;

  // Starts the threads: the first heartbeat, the bus, and this node's first block of game ids.
  // A Redis that cannot be reached is logged (redis_unreachable) and tried again; the node
  // stays not ready (state()) until it is.
  void start();
  // Graceful (a SIGTERM): gives back every lease and name and leaves, so that other nodes take
  // the games over at once instead of after the leases run out. Idempotent.
  void stop(bool graceful);

  // ---- from the lobby strand ----
  void carry_out(ClusterEffects fx);
  // Lines for remote sessions, after their step's commit, and remote sessions to close.
  void send(std::map<std::string, wire::Lines> by_node);
  // A session of this node closed: the nodes it talked to forget it.
  void session_closed(SessionId session);
  // Lines came for a session of this node that is gone: tell the node that sent them.
  void session_gone(const std::string& node, SessionId session);
  // This node's directory, when it changed (and now and then anyway, as a sign of life).
  void publish_directory(PeerView view);

  ClusterState state() const { return state_.load(); }
  const std::string& node() const { return options_.node; }
  // Where clients reach the nodes alive at the last membership check ("host:port", as each
  // advertises itself), this node first and then the others by name: GET /nodes. Any thread.
  std::vector<std::string> addresses() const;
  // The addresses of every node this node has seen alive since it started (at most
  // kMaxKnownAddresses): pages any of them served may open a WebSocket here, also once their
  // node has died, which is when they come. Any thread.
  std::vector<std::string> known_addresses() const;
  static constexpr std::size_t kMaxKnownAddresses = 256;
  // Figures for /metrics.
  struct Figures {
    std::uint64_t forwarded = 0, received = 0, takeovers = 0, leases = 0, bus_gaps = 0;
  };
  Figures figures() const;

 private:
  struct Routed;  // a request or attach waiting for the node that runs its key
  void run();
  void post(std::function<void()> task);
  // Periodic duties (on the cluster thread).
  void duties();
  void heartbeat();
  void tick();
  void check_members();
  void renew();
  // A new lease for this node (at start, and after its lease ran out).
  void acquire_lease();
  // Claims every name this node holds again, under its lease now; false when Redis could not
  // be reached (then again at the next renewal).
  bool reclaim_names();
  // Whether Redis lost its contents (then recover() has put back what this node had there).
  bool check_epoch();
  void refresh_names();
  void scan();
  // Claims the keys of every node lease that ran out (cluster/node_lease.h).
  void claim_dead();
  void claim(std::int64_t owner, const std::string& node);
  void recover();  // Redis lost its contents
  void note_redis(const Expected<void, cluster::RedisError>& outcome, const char* what);
  template <class T>
  bool ok(const Expected<T, cluster::RedisError>& r, const char* what) {
    note_redis(r ? Expected<void, cluster::RedisError>() : Unexpected(r.error()), what);
    return r.has_value();
  }
  void update_state();

  // Routing.
  void route(Routed item);
  void resolve(const std::string& key);
  void send_to(const std::string& node, const Routed& item);
  // An item whose key this node runs after all: the lobby answers it.
  void hand_back(Routed item);
  void fail(const Routed& item, protocol::ErrorCode code, const std::string& message);
  // The node that runs `item`'s key is dead or unheard: answers it `unavailable`, at once.
  void refuse(const Routed& item);
  // refuse()s what waits for `key`, but what is patient (Routed::patient()).
  void refuse_impatient(const std::string& key);
  // What this node's sessions watch on other nodes (Forward::Watching), and the watches of those
  // on `dead` sent again, to wait for the nodes that take their games over.
  void forget_watch(const Routed& item);
  // Requests sent to a node that has not sent their session a line since (unanswered_): a line
  // (or a bounce) from `node` for `session` (under mutex_); nobody has listened on `dead`'s
  // channel since `silent_since`, and what it was sent before that, in the last kAnswerWithin, is
  // refuse()d: it may have died unread with it.
  void expect_answer(const std::string& node, const Routed& item);
  void answered(SessionId session, const std::string& node);

  void refuse_unanswered(const std::string& dead,
                         std::chrono::steady_clock::time_point silent_since);
  // `node` is dead or unheard: its unanswered requests are refused kLastWords later, once what it
  // sent before it fell silent has come.
  void fell_silent(const std::string& node);
  void watch_again(const std::string& dead);
  // A key nobody holds, taken under this node's lease with a token above `floor`; none when
  // Redis could not be reached or another node holds it (what waits for the key is routed
  // there). The key is then being taken (taking_) until the takeover's read is done, and its
  // deadline follows the node lease's meanwhile (in_flight_): in a large failover a read may
  // wait behind hundreds of others, longer than a lease lasts.
  std::optional<cluster::Lease> lease_to_take(const std::string& key, std::int64_t floor);
  // Ends the takeover of `key` (its read is done): the lease it was taken with, as renewed since;
  // none if the node's lease ran out meanwhile: the key is then not this node's to run (it is
  // claimed with the lease's other keys).
  std::optional<cluster::Lease> landed(const std::string& key);
  // What waited for `key`, no longer waiting.
  std::vector<Routed> take_waiting(const std::string& key);
  // One landing path for every key taken over, claimed from a dead node's lease or taken alone:
  // a game ("17", or a kept open game of that id), a challenge ("c12") or a tournament ("t17").
  void land(const std::string& key, const cluster::Lease& lease);
  void take_over(const std::string& key, std::int64_t floor);
  // A game whose lease this node holds now: its moves are read and it is adopted
  // (Lobby::adopt). A kept open game has no game row: it goes on as an offer.
  void land_game(const std::string& key, const cluster::Lease& lease);
  // A kept open game ("17") or challenge ("c12") whose node died: its row in the offers table
  // is taken over here (Lobby::adopt_offer).
  void take_over_offer(const std::string& key);
  void land_offer(const std::string& key);
  // A tournament ("t17") whose director died, or that nobody directs since a restart: its row is
  // taken over here (Lobby::adopt_tournament), finished ones too (to show them).
  void take_over_tournament(const std::string& key);
  void land_tournament(const std::string& key);
  // A kept seek (a row "s:NAME") that waits in no pairing queue: put back through this node.
  void put_back_seek(const OfferRow& offer);
  // To a channel every node hears. False when it could not be sent (it may have reached Redis
  // or not).
  bool publish(const std::string& channel, const wire::NodeMessage& m);
  // To one node: how many listened (0: nobody, the node is dead or away from Redis), or nothing
  // when it could not be sent; then the node is told to start again once Redis is back.
  std::optional<long long> publish_to(const std::string& node, const wire::NodeMessage& m);
  // A node whose channel nobody listened to a moment ago: nothing is sent to it for a while.
  bool unheard(const std::string& node) const;
  // Known gone, or unheard: requests for what it runs wait instead of going to it.
  bool presumed_dead(const std::string& node) const;
  void bind(SessionId session, const std::string& node);

  // Decisions.
  void login(LoginJob job);
  void seek(SeekJob job);
  void acquire(const std::string& key);
  // This node's life: its bus incarnation, random at each start.
  std::uint64_t life() const;
  // Whether a name's holder is a session of a node that died, or of an earlier life of a node.
  bool held_by_the_dead(const cluster::NameHolder& holder) const;
  void release(const std::string& key);

  // From the bus (subscriber thread).
  void on_bus(cluster::BusMessage m);

  ClusterOptions options_;
  Hooks hooks_;
  Log& log_;
  std::string node_channel_;
  std::string directory_channel_;

  // Cluster thread.
  std::unique_ptr<cluster::Redis> redis_;
  std::unique_ptr<cluster::NodeLease> lease_;
  std::unique_ptr<cluster::NameRegistry> names_;
  std::unique_ptr<cluster::PairingQueue> pairing_;
  std::unique_ptr<cluster::Membership> membership_;
  std::unique_ptr<cluster::EpochWatch> epoch_;
  std::unique_ptr<cluster::BusPublisher> publisher_;
  // Keys this node runs, each with the token it holds it with and the node lease's deadline.
  std::map<std::string, cluster::Lease> held_;
  std::map<std::string, SessionId> held_names_;         // name -> this node's session
  std::map<std::string, SeekJob> seeking_;              // name -> their seek in the queue
  std::map<std::string, std::string> owner_cache_;      // key -> node that runs it
  std::map<std::string, std::vector<Routed>> waiting_;  // key -> items to route
  struct Watched {
    std::string node;  // where the watch went
    std::string line;  // the watch
    RemotePlayer player;
  };
  std::map<SessionId, std::map<std::string, Watched>> watched_;  // session -> key -> its watch
  std::map<std::string, std::chrono::steady_clock::time_point> seen_free_;   // takeover rule
  std::map<std::string, std::chrono::steady_clock::time_point> seeks_free_;  // the same, seeks
  // The highest fencing token PostgreSQL holds for an unfinished game, as last read: new tokens
  // are drawn above it, also after Redis lost its counter.
  std::int64_t token_floor_ = 0;
  std::set<std::string> taking_;                     // takeovers in flight
  std::map<std::string, cluster::Lease> in_flight_;  // leases of takeovers not yet adopted
  std::set<std::string> live_;                       // nodes alive at the last check
  std::set<std::string> gone_;  // nodes seen alive, then gone (until they come back)
  std::map<std::string, std::chrono::steady_clock::time_point> unheard_;       // node -> when
  std::map<std::string, std::chrono::steady_clock::time_point> silent_since_;  // fell_silent()
  std::chrono::steady_clock::time_point next_heartbeat_{}, next_members_{}, next_renew_{},
      next_names_{}, next_scan_{}, next_resolve_{}, next_duties_{}, next_tick_{}, next_orphans_{};
  std::set<std::string> lost_to_;  // nodes a message to which may have been lost
  // After Redis lost its contents, the other nodes put their heartbeats back within a
  // heartbeat of noticing: until then their absence says nothing.
  std::chrono::steady_clock::time_point members_trusted_from_{};
  std::map<std::string, std::chrono::steady_clock::time_point> sent_to_;  // node -> last message
  bool scan_pending_ = false;
  bool redis_ok_ = false;
  bool redis_logged_down_ = false;
  bool leased_ = false;         // this node has had a lease (readiness)
  bool names_pending_ = false;  // names not yet claimed again under the current lease

  // Any thread.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  std::map<SessionId, std::set<std::string>> bound_;  // this node's sessions -> nodes they use
  struct Unanswered {
    std::string node, key, line;
    RemotePlayer player;
    std::chrono::steady_clock::time_point sent;
  };
  std::map<SessionId, std::vector<Unanswered>> unanswered_;
  std::map<std::string, std::uint64_t> lives_;  // the life (bus incarnation) each node is in
  std::vector<std::string> addresses_;          // addresses(): this node's, then the others'
  std::set<std::string> known_addresses_;       // known_addresses()
  std::atomic<ClusterState> state_ = ClusterState::Starting;
  std::atomic<bool> stopping_ = false;
  std::atomic<bool> bus_up_ = false;
  std::atomic<std::uint64_t> forwarded_ = 0, received_ = 0, takeovers_ = 0, gaps_ = 0;
  std::atomic<std::size_t> lease_count_ = 0;
  std::thread thread_;
  std::unique_ptr<cluster::BusSubscriber> subscriber_;
};

}  // namespace amazons::server
