#include "server/node/cluster_node.h"

#include <algorithm>
#include <charconv>
#include <future>

#include "common/protocol.h"
#include "server/core/canonical_name.h"
#include "server/core/cluster_key.h"

namespace amazons::server {

namespace {

using Clock = std::chrono::steady_clock;
using protocol::ErrorCode;

constexpr Millis kMembersInterval{1000};
constexpr Millis kScanInterval{1000};
constexpr Millis kResolveInterval{250};
// wire::Tick: how often, and for how long after the last real message to a node.
constexpr Millis kTickInterval{1000};
constexpr Millis kTickFor{10'000};
constexpr Millis kIdle{100};  // the longest the thread sleeps between looking at its duties
// A game whose lease is free is taken over only when it was seen free again this much later:
// its node may be about to take the lease of a game it has just started.
constexpr Millis kFreeTwice{1000};
constexpr Millis kFreeTwiceOnRequest{500};
// How often every unfinished game, kept offer and tournament in PostgreSQL is looked up in Redis
// for keys no lease holds. Only Redis losing its contents (or a whole cluster starting on a
// database with unfinished games) leaves such keys: a node that dies leaves its keys in its
// lease's hash, claimed within a second of the lease running out. A pass that finds a free key
// looks again kFreeTwice later.
constexpr Millis kOrphanInterval{5000};
// A request waits this long for a node to run its game before it is answered with an error.
constexpr Millis kRouteTimeout{20'000};
// How long a node that nobody listened for is left alone before a request is sent to it again.
constexpr Millis kUnheardFor{1000};
// A request bounced this often (each time asked again a resolve later) is answered with an
// error: the nodes disagree about who runs its game for longer than a takeover takes.
constexpr int kMaxBounces = 40;

// How a session of this node is named in the name registry: the node's life (its bus
// incarnation) and the session, "LIFE.SESSION", so that a name held by a life of a node that
// has since restarted is known to be held by nobody.
struct NamedSession {
  std::uint64_t life = 0;
  SessionId session = 0;
};
std::string name_session(std::uint64_t life, SessionId session) {
  return std::to_string(life) + "." + std::to_string(session);
}
std::optional<NamedSession> parse_session(const std::string& text) {
  NamedSession out;
  const char* end = text.data() + text.size();
  auto r = std::from_chars(text.data(), end, out.life);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return std::nullopt;
  r = std::from_chars(r.ptr + 1, end, out.session);
  if (r.ec != std::errc() || r.ptr != end || out.session == 0) return std::nullopt;
  return out;
}

// The game a key names, if it names one.
std::optional<GameId> game_of(const std::string& key) {
  const auto k = ClusterKey::parse(key);
  if (!k || !k->is_game()) return std::nullopt;
  return k->id();
}

// What is not there to be taken over, as the player is told.
std::pair<ErrorCode, std::string> missing(const ClusterKey& key) {
  if (key.is_challenge())
    return {ErrorCode::NoSuchChallenge, "no challenge " + key.text() + " for you"};
  return {ErrorCode::NoSuchGame, no_game_message(key.text())};
}

std::string error_line(ErrorCode code, const std::string& message, const protocol::RequestId& id,
                       std::optional<std::string> game = {}) {
  return protocol::encode(
      protocol::ServerMessage{protocol::make_error(code, message, std::move(game))}, id);
}

}  // namespace

std::string_view to_string(ClusterState s) {
  switch (s) {
    case ClusterState::Starting:
      return "starting";
    case ClusterState::Ready:
      return "ready";
    case ClusterState::Degraded:
      return "degraded";
  }
  return "degraded";
}

struct ClusterNode::Routed {
  SessionId session = 0;  // this node's
  std::string key;
  std::string line;  // the request; empty for an attach
  RemotePlayer player;
  int bounces = 0;
  Clock::time_point since = Clock::now();
};

ClusterNode::ClusterNode(ClusterOptions options, Hooks hooks, Log& log)
    : options_(std::move(options)),
      hooks_(std::move(hooks)),
      log_(log),
      node_channel_(options_.prefix + "node:" + options_.node),
      directory_channel_(options_.prefix + "dir") {}

ClusterNode::~ClusterNode() { stop(false); }

void ClusterNode::start() {
  cluster::RedisOptions ro;
  redis_ = std::make_unique<cluster::Redis>(options_.redis, ro);
  lease_ = std::make_unique<cluster::NodeLease>(
      *redis_, options_.node,
      cluster::LeaseOptions{options_.lease_ttl, std::min(Millis{500}, options_.lease_ttl / 4)},
      options_.prefix);
  // Claimed by canonical form: two nodes cannot seat look-alikes at once.
  names_ = std::make_unique<cluster::NameRegistry>(
      *redis_, options_.node, options_.name_ttl, options_.prefix,
      [](std::string_view name) { return canonical_name(name); });
  pairing_ = std::make_unique<cluster::PairingQueue>(*redis_, options_.node, options_.prefix);
  membership_ = std::make_unique<cluster::Membership>(*redis_, options_.node, options_.node_ttl,
                                                      options_.prefix);
  epoch_ = std::make_unique<cluster::EpochWatch>(*redis_, options_.prefix);
  publisher_ = std::make_unique<cluster::BusPublisher>(*redis_, options_.node);

  cluster::BusSubscriber::Options so;
  so.redis = ro;
  subscriber_ = std::make_unique<cluster::BusSubscriber>(
      options_.redis, so, std::vector<std::string>{node_channel_, directory_channel_},
      cluster::BusSubscriber::Handlers{
          [this](cluster::BusMessage m) { on_bus(std::move(m)); },
          [this](bool connected, const std::string& why) {
            bus_up_ = connected;
            if (connected)
              log_.info("bus_connected", {{"node", options_.node}});
            else
              log_.warn("bus_lost", {{"node", options_.node}, {"why", why}});
            post([this] { update_state(); });
          },
          [this](const std::string& channel, const std::string& why) {
            log_.warn("bus_malformed", {{"channel", channel}, {"why", why}});
          }});
  thread_ = std::thread([this] { run(); });
  // Seeks this node's last life left in the queue (it was killed) would wait there with nobody
  // to expire them: out with them, first. The kept ones are put back from their rows by the
  // failover scan, with their expiry.
  post([this] {
    const auto dropped = pairing_->drop_node(options_.node);
    if (ok(dropped, "drop old seeks") && !dropped->empty())
      log_.info("old_seeks_dropped", {{"seeks", std::to_string(dropped->size())}});
  });
  // The node's lease is taken by the first round of duties (renew()), before the node is ready.
  // The first block of game ids, so that the first game does not wait for one.
  ClusterEffects first;
  first.reserve_ids = true;
  carry_out(std::move(first));
}

void ClusterNode::stop(bool graceful) {
  if (stopping_.exchange(true)) return;
  if (thread_.joinable()) {
    if (graceful) {
      // Run on the cluster thread, after everything queued before.
      std::promise<void> done;
      auto f = done.get_future();
      {
        std::lock_guard lock(mutex_);
        queue_.push_back([this, &done] {
          // Ended at once: another node claims every key it held without waiting for it to
          // run out.
          ok(lease_->release(), "release");
          for (const auto& [name, session] : held_names_)
            ok(names_->release(name, name_session(life(), session)), "release name");
          for (const auto& [name, job] : seeking_) ok(pairing_->unseek(name, false), "unseek");
          ok(membership_->leave(), "leave");
          log_.info("cluster_left",
                    {{"node", options_.node}, {"leases", std::to_string(held_.size())}});
          held_.clear();
          done.set_value();
        });
      }
      wake_.notify_all();
      f.wait_for(std::chrono::seconds(3));
    }
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(nullptr);  // the end
    }
    wake_.notify_all();
    thread_.join();
  }
  subscriber_.reset();
}

void ClusterNode::post(std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
}

std::vector<std::string> ClusterNode::addresses() const {
  std::lock_guard lock(mutex_);
  return addresses_.empty() ? std::vector<std::string>{options_.address} : addresses_;
}

std::vector<std::string> ClusterNode::known_addresses() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out(known_addresses_.begin(), known_addresses_.end());
  if (!known_addresses_.contains(options_.address)) out.push_back(options_.address);
  return out;
}

ClusterNode::Figures ClusterNode::figures() const {
  return {forwarded_.load(), received_.load(), takeovers_.load(), lease_count_.load(),
          gaps_.load()};
}

// ---- the cluster thread ------------------------------------------------------------------------

void ClusterNode::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, kIdle, [&] { return !queue_.empty(); });
      if (!queue_.empty()) {
        task = std::move(queue_.front());
        queue_.pop_front();
        if (!task) return;  // stop()
      }
    }
    try {
      if (task) task();
      duties();
    } catch (const std::exception& e) {
      log_.error("cluster_failed", {{"why", e.what()}});
    }
  }
}

void ClusterNode::duties() {
  // Between tasks (a busy node publishes thousands of lines a second), not after every one.
  const auto now = Clock::now();
  if (now < next_duties_) return;
  next_duties_ = now + Millis{20};
  if (now >= next_heartbeat_) {
    next_heartbeat_ = now + options_.node_ttl / 3;
    heartbeat();
  }
  // A lease whose deadline passed without a renewal (Redis out of reach, or this thread starved
  // of CPU) is not ours any more: stop running its games before another node may claim them,
  // and never renew it again, even if Redis still has it. Renewed, it would keep the keys this
  // node no longer runs from every other node: a new lease is taken at the next renewal, and
  // the old one's keys are claimed when it runs out (maybe by this node).
  if (lease_->token() != 0 && !lease_->valid(now)) {
    log_.warn("node_lease_expired", {{"token", std::to_string(lease_->token())},
                                     {"keys", std::to_string(held_.size() + in_flight_.size())}});
    lease_->forget();
    next_renew_ = now;
  }
  for (auto it = held_.begin(); it != held_.end();) {
    if (it->second.valid(now)) {
      ++it;
      continue;
    }
    log_.warn("lease_expired", {{"key", it->first}, {"token", std::to_string(it->second.token)}});
    const std::string key = it->first;
    it = held_.erase(it);
    hooks_.lobby([key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
  }
  lease_count_ = held_.size();
  if (now >= next_renew_) {
    next_renew_ = now + options_.lease_ttl / 3;
    renew();
  }
  if (now >= next_names_) {
    next_names_ = now + options_.name_ttl / 3;
    refresh_names();
  }
  if (now >= next_members_) {
    next_members_ = now + kMembersInterval;
    check_members();
  }
  if (now >= next_scan_) {
    next_scan_ = now + kScanInterval;
    scan();
  }
  if (now >= next_tick_) {
    next_tick_ = now + kTickInterval;
    tick();
  }
  if (now >= next_resolve_) {
    next_resolve_ = now + kResolveInterval;
    std::vector<std::string> keys;
    for (const auto& [key, items] : waiting_) keys.push_back(key);
    for (const auto& key : keys) resolve(key);
  }
}

void ClusterNode::tick() {
  const auto now = Clock::now();
  for (auto it = sent_to_.begin(); it != sent_to_.end();) {
    if (now - it->second > kTickFor) {
      it = sent_to_.erase(it);
      continue;
    }
    publish_to(it->first, wire::Tick{});
    ++it;
  }
}

void ClusterNode::note_redis(const Expected<void, cluster::RedisError>& outcome, const char* what) {
  if (outcome) {
    if (!redis_ok_) {
      redis_ok_ = true;
      if (redis_logged_down_) log_.warn("redis_back", {{"redis", options_.redis.text()}});
      redis_logged_down_ = false;
      update_state();
      // What this node sent while Redis was out of reach may be lost: the nodes it sent it to
      // start again what relied on it.
      auto lost = std::move(lost_to_);
      lost_to_.clear();
      for (const std::string& node : lost) publish_to(node, wire::Reset{});
    }
    return;
  }
  if (outcome.error().kind == cluster::RedisErrorKind::Server ||
      outcome.error().kind == cluster::RedisErrorKind::Protocol) {
    log_.error("redis_error", {{"what", what}, {"why", outcome.error().message}});
    return;
  }
  if (redis_ok_ || !redis_logged_down_) {
    log_.error("redis_unreachable", {{"what", what}, {"why", outcome.error().message}});
    redis_logged_down_ = true;
  }
  redis_ok_ = false;
  update_state();
}

void ClusterNode::update_state() {
  const ClusterState s =
      redis_ok_ && bus_up_ && leased_ && !epoch_->epoch().empty() ? ClusterState::Ready
      : state_ == ClusterState::Starting && !redis_logged_down_   ? ClusterState::Starting
                                                                  : ClusterState::Degraded;
  if (s != state_.exchange(s))
    log_.info("cluster_state", {{"node", options_.node}, {"state", std::string(to_string(s))}});
}

void ClusterNode::heartbeat() {
  if (!ok(membership_->heartbeat(options_.address), "heartbeat")) return;
  check_epoch();
  update_state();
}

bool ClusterNode::check_epoch() {
  const auto e = epoch_->check();
  if (!ok(e, "epoch")) return false;
  if (e->change != cluster::EpochChange::Lost) return false;
  log_.warn("redis_lost_contents", {{"epoch", e->epoch}});
  members_trusted_from_ = Clock::now() + options_.node_ttl;
  recover();
  return true;
}

void ClusterNode::check_members() {
  const auto live = membership_->live();
  if (!ok(live, "members")) return;
  std::set<std::string> now_live;
  std::vector<std::string> addresses = {options_.address};
  for (const auto& n : *live) {
    now_live.insert(n.node);
    gone_.erase(n.node);  // back (restarted under the same name)
    if (n.node != options_.node && !n.address.empty()) addresses.push_back(n.address);
  }
  {
    std::lock_guard lock(mutex_);
    for (const auto& a : addresses)
      if (known_addresses_.size() < kMaxKnownAddresses) known_addresses_.insert(a);
    addresses_ = std::move(addresses);
  }
  if (Clock::now() < members_trusted_from_ || !now_live.contains(options_.node)) {
    // Redis came back empty a moment ago (or has just lost this node's own heartbeat, which it
    // has not noticed yet): a node missing now may not have put its heartbeat back yet. It is
    // judged at a later check, if it is still missing then.
    live_.insert(now_live.begin(), now_live.end());
    return;
  }
  for (const std::string& node : live_)
    if (!now_live.contains(node) && node != options_.node) {
      log_.warn("node_gone", {{"node", node}});
      gone_.insert(node);
      std::vector<SessionId> close;
      {
        std::lock_guard lock(mutex_);
        for (auto& [session, nodes] : bound_)
          if (nodes.erase(node)) close.push_back(session);
      }
      for (auto it = owner_cache_.begin(); it != owner_cache_.end();)
        it = it->second == node ? owner_cache_.erase(it) : std::next(it);
      hooks_.lobby([node](Lobby& l, Instant at) { return l.node_gone(node, at); });
      // This node's sessions that played or watched there start again: their clients come back
      // and find their games on the node that takes them over.
      if (!close.empty()) hooks_.deliver(node, {}, std::move(close));
    }
  live_ = std::move(now_live);
  std::erase_if(unheard_, [&](const auto& u) { return !unheard(u.first); });
  const auto dead = membership_->reap();
  if (!ok(dead, "reap")) return;
  for (const std::string& node : *dead) {
    const auto dropped = pairing_->drop_node(node);
    if (ok(dropped, "drop seeks"))
      log_.info("node_reaped", {{"node", node}, {"seeks", std::to_string(dropped->size())}});
  }
}

void ClusterNode::renew() {
  if (lease_->token() == 0) return acquire_lease();
  // One command whatever the number of keys: they live and die with the node's lease.
  const auto renewed = lease_->renew();
  if (!ok(renewed, "renew")) return;
  if (*renewed) {
    for (auto& [key, lease] : held_) lease.valid_until = lease_->valid_until();
    for (auto& [key, lease] : in_flight_) lease.valid_until = lease_->valid_until();
    if (names_pending_) reclaim_names();
    return;
  }
  // Gone with the rest of Redis's contents: recover() puts it back with every key.
  if (check_epoch()) return;
  // It ran out (this node was paused, or cut off from Redis longer than its deadline): its keys
  // are another node's to claim. A takeover still reading finds its key gone when the read is
  // done, and lets go.
  log_.warn("node_lease_lost", {{"token", std::to_string(lease_->token())},
                                {"keys", std::to_string(held_.size() + in_flight_.size())}});
  for (const auto& [key, lease] : in_flight_)
    log_.warn("lease_lost", {{"key", key}, {"during", "takeover"}});
  in_flight_.clear();
  for (const auto& [key, lease] : held_) {
    log_.warn("lease_lost", {{"key", key}});
    hooks_.lobby([key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
  }
  held_.clear();
  acquire_lease();
}

void ClusterNode::acquire_lease() {
  const auto token = lease_->acquire(token_floor_);
  if (!ok(token, "node lease")) return;
  log_.info("node_lease", {{"node", options_.node}, {"token", std::to_string(*token)}});
  leased_ = true;
  // The names of this node's players live and die with its lease from now on: the ones held
  // before (with TTLs, or under the lease that ran out) are claimed again under this one.
  names_->hold_under(*token);
  reclaim_names();
  update_state();
}

bool ClusterNode::reclaim_names() {
  names_pending_ = true;
  for (auto it = held_names_.begin(); it != held_names_.end();) {
    const auto c = names_->claim(it->first, name_session(life(), it->second));
    if (!ok(c, "name")) return false;  // again at the next renewal
    if (c->won) {
      ++it;
      continue;
    }
    const SessionId session = it->second;
    it = held_names_.erase(it);
    hooks_.lobby([session](Lobby& l, Instant at) { return l.replaced(session, at); });
  }
  names_pending_ = false;
  return true;
}

void ClusterNode::refresh_names() {
  // Names held under the node's lease need no refreshing: only those claimed before it.
  if (held_names_.empty() || names_->lease() != 0) return;
  std::vector<std::pair<std::string, std::string>> held;
  for (const auto& [name, session] : held_names_)
    held.emplace_back(name, name_session(life(), session));
  const auto lost = names_->refresh(held);
  if (!ok(lost, "names")) return;
  for (const std::string& name : *lost) {
    const auto it = held_names_.find(name);
    if (it == held_names_.end()) continue;
    const SessionId session = it->second;
    held_names_.erase(it);
    hooks_.lobby([session](Lobby& l, Instant at) { return l.replaced(session, at); });
  }
}

void ClusterNode::recover() {
  // Redis came back empty: put back what this node had there. A new lease, its token above
  // every token this node holds (the counter was lost too), and every key under it with the
  // token it had, which PostgreSQL holds; a key another node took meanwhile is let go.
  std::int64_t floor = token_floor_;
  for (const auto& [key, lease] : held_) floor = std::max(floor, lease.token);
  for (const auto& [key, lease] : in_flight_) floor = std::max(floor, lease.token);
  const auto token = lease_->acquire(floor);
  if (!ok(token, "recover lease")) return;
  const auto put_back = [&](std::map<std::string, cluster::Lease>& keys, bool tell) {
    for (auto it = keys.begin(); it != keys.end();) {
      const auto r = lease_->take(it->first, cluster::TakeMode::Keep, it->second.token);
      if (!ok(r, "recover lease")) return false;
      if (r->token == it->second.token) {
        it->second.valid_until = lease_->valid_until();
        ++it;
        continue;
      }
      const std::string key = it->first;
      it = keys.erase(it);
      if (tell) hooks_.lobby([key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
    }
    return true;
  };
  if (!put_back(held_, true) || !put_back(in_flight_, false)) return;
  next_orphans_ = {};  // the keys of nodes that died meanwhile are in no lease now
  names_->hold_under(*token);
  if (!reclaim_names()) return;
  std::vector<SeekJob> seeks;
  for (auto& [name, job] : seeking_) seeks.push_back(job);
  seeking_.clear();
  for (auto& job : seeks) {
    job.id = std::nullopt;  // its `seeking` was answered long ago
    seek(std::move(job));
  }
  log_.warn("recovered", {{"leases", std::to_string(held_.size())},
                          {"names", std::to_string(held_names_.size())},
                          {"seeks", std::to_string(seeks.size())}});
}

// ---- taking over the games of nodes that died
// ----------------------------------------------------

void ClusterNode::scan() {
  claim_dead();
  if (scan_pending_) return;
  scan_pending_ = true;
  // Kept seeks every time (their rows are few); games, offers and tournaments only for the
  // orphan pass, which looks for keys no lease holds.
  const auto started = Clock::now();
  const bool full = started >= next_orphans_;
  if (full) next_orphans_ = started + kOrphanInterval;
  hooks_.storage([this, full](Storage& storage) {
    std::vector<std::pair<GameId, std::int64_t>> games;
    std::vector<OfferRow> offers;
    std::vector<std::int64_t> tournaments;
    try {
      offers = storage.offers();
      if (full) {
        games = storage.unfinished_games();
        tournaments = storage.unfinished_tournaments();
      }
    } catch (const std::exception& e) {
      log_.warn("scan_failed", {{"why", e.what()}});
    }
    post([this, full, games = std::move(games), offers = std::move(offers),
          tournaments = std::move(tournaments)] {
      scan_pending_ = false;
      const auto now = Clock::now();
      // Kept seeks that wait in no queue (their node died, and its seeks were dropped from the
      // queue): put back through this node once seen so twice, like a free key.
      std::vector<const OfferRow*> seeks;
      std::vector<std::string> seekers;
      const auto wall = std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now());
      for (const OfferRow& offer : offers)
        if (is_cluster_seek_id(offer.id) && offer.expires_at > wall &&
            !taking_.contains(offer.id)) {
          seeks.push_back(&offer);
          seekers.push_back(offer.owner);
        }
      const auto waiting = pairing_->seeking(seekers);
      if (!ok(waiting, "scan")) return;
      std::map<std::string, Clock::time_point> seeks_free;
      for (std::size_t i = 0; i < seeks.size(); ++i) {
        if ((*waiting)[i]) continue;
        const std::string& key = seeks[i]->id;
        const auto seen = seeks_free_.find(key);
        if (seen == seeks_free_.end())
          seeks_free[key] = now;
        else if (now - seen->second >= kFreeTwice)
          put_back_seek(*seeks[i]);
        else
          seeks_free[key] = seen->second;
      }
      seeks_free_ = std::move(seeks_free);
      if (!full) return;

      std::vector<std::string> keys;
      std::vector<std::int64_t> tokens;  // -1: a kept offer; -2: a tournament
      for (const auto& [id, token] : games) {
        token_floor_ = std::max(token_floor_, token);
        std::string key = ClusterKey::game(id).text();
        if (held_.contains(key) || taking_.contains(key)) continue;
        keys.push_back(std::move(key));
        tokens.push_back(token);
      }
      for (const OfferRow& offer : offers) {
        const auto key = ClusterKey::of_offer(offer.id);
        if (!key) continue;
        std::string text = key->text();
        if (held_.contains(text) || taking_.contains(text)) continue;
        keys.push_back(std::move(text));
        tokens.push_back(-1);
      }
      for (const std::int64_t id : tournaments) {
        std::string key = ClusterKey::tournament(id).text();
        if (held_.contains(key) || taking_.contains(key)) continue;
        keys.push_back(std::move(key));
        tokens.push_back(-2);
      }
      const auto held = lease_->held(keys);
      if (!ok(held, "scan")) return;
      std::map<std::string, Clock::time_point> still_free;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if ((*held)[i]) continue;
        const auto seen = seen_free_.find(keys[i]);
        if (seen == seen_free_.end()) {
          still_free[keys[i]] = now;
        } else if (now - seen->second >= kFreeTwice) {
          if (tokens[i] == -2)
            take_over_tournament(keys[i]);
          else if (tokens[i] == -1)
            take_over_offer(keys[i]);
          else
            take_over(keys[i], tokens[i]);
        } else {
          still_free[keys[i]] = seen->second;
        }
      }
      // A free key is looked at again a second later, not at the next pass: the second look
      // is what lets it be taken over.
      if (!still_free.empty()) next_orphans_ = std::min(next_orphans_, now + kFreeTwice);
      seen_free_ = std::move(still_free);
    });
  });
}

void ClusterNode::claim_dead() {
  if (!lease_->valid()) return;
  const auto dead = lease_->dead();
  if (!ok(dead, "scan")) return;
  for (const cluster::DeadLease& d : *dead) claim(d.owner, d.node);
}

void ClusterNode::claim(std::int64_t owner, const std::string& node) {
  // A lease's token is never taken again: a lease that ran out is dead for good, so its keys
  // are claimed at once (no second look), in one script.
  const auto claimed = lease_->claim(owner, token_floor_, options_.name_ttl);
  if (!ok(claimed, "claim") || !*claimed) return;
  const cluster::Claimed& c = **claimed;
  log_.warn("lease_claimed", {{"node", node},
                              {"owner", std::to_string(owner)},
                              {"token", std::to_string(c.token)},
                              {"keys", std::to_string(c.keys.size())}});
  for (const std::string& key : c.keys) {
    if (held_.contains(key) || taking_.contains(key)) continue;  // (its own, taken alone)
    land(key, cluster::Lease{key, options_.node, c.token, lease_->valid_until()});
  }
}

std::optional<cluster::Lease> ClusterNode::lease_to_take(const std::string& key,
                                                         std::int64_t floor) {
  if (!lease_->valid()) return std::nullopt;
  const auto r = lease_->take(key, cluster::TakeMode::Fresh, std::max(floor, token_floor_));
  if (!ok(r, "take over")) return std::nullopt;
  if (r->holder) {
    // Another node was quicker: what waits for the key goes there. (A lease that ran out holds
    // it: it is claimed at the next scan or resolve.)
    if (r->holder->alive) {
      owner_cache_[key] = r->holder->node;
      resolve(key);
    }
    return std::nullopt;
  }
  if (r->token == 0) return std::nullopt;  // this node's lease is gone
  cluster::Lease lease{key, options_.node, r->token, lease_->valid_until()};
  taking_.insert(key);
  in_flight_[key] = lease;
  return lease;
}

std::optional<cluster::Lease> ClusterNode::landed(const std::string& key) {
  const auto it = in_flight_.find(key);
  std::optional<cluster::Lease> lease;
  if (it != in_flight_.end()) {
    lease = it->second;
    in_flight_.erase(it);
  }
  if (lease && lease->valid()) return lease;
  if (lease)  // (one lost at a renewal was logged there)
    log_.warn("lease_expired",
              {{"key", key}, {"token", std::to_string(lease->token)}, {"during", "takeover"}});
  // The node's lease ran out: the key stays in its hash, and whoever claims the lease's keys
  // takes this one with them.
  return std::nullopt;
}

void ClusterNode::land(const std::string& key, const cluster::Lease& lease) {
  const auto k = ClusterKey::parse(key);
  if (!k) {
    // Not a key this version leases: let it go.
    ok(lease_->drop(key), "release");
    return;
  }
  taking_.insert(key);
  in_flight_[key] = lease;
  switch (k->kind()) {
    case ClusterKey::Kind::Tournament:
      return land_tournament(key);
    case ClusterKey::Kind::Challenge:
      return land_offer(key);
    case ClusterKey::Kind::Game:
      return land_game(key, lease);
  }
}

void ClusterNode::take_over(const std::string& key, std::int64_t floor) {
  if (!game_of(key) || taking_.contains(key)) return;
  const auto lease = lease_to_take(key, floor);
  if (!lease) return;
  land_game(key, *lease);
}

void ClusterNode::land_game(const std::string& key, const cluster::Lease& acquired) {
  const ClusterKey k = *ClusterKey::parse(key);
  hooks_.storage([this, key, k, acquired](Storage& storage) {
    TakeResult taken;
    bool offer = false;
    std::string why;
    try {
      taken = storage.take_game(k.id(), acquired.token);
      // A kept open game has no game row yet: it goes on as an offer.
      if (taken.outcome == TakeResult::Outcome::Missing)
        for (const OfferRow& o : storage.offers()) offer = offer || o.id == k.offer_id();
    } catch (const std::exception& e) {
      why = e.what();
    }
    post([this, key, acquired, taken = std::move(taken), offer, why] {
      if (offer) return land_offer(key);
      taking_.erase(key);
      seen_free_.erase(key);
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      if (!why.empty() || taken.outcome != TakeResult::Outcome::Taken) {
        ok(lease_->drop(key), "release");
        if (!why.empty()) log_.error("take_over_failed", {{"game", key}, {"why", why}});
        if (taken.outcome == TakeResult::Outcome::Finished ||
            taken.outcome == TakeResult::Outcome::Missing) {
          auto items = std::move(waiting_[key]);
          waiting_.erase(key);
          for (const Routed& item : items) fail(item, ErrorCode::NoSuchGame, no_game_message(key));
        }
        return;
      }
      held_[key] = held;
      ++takeovers_;
      log_.warn("game_taken_over", {{"game", key},
                                    {"token", std::to_string(held.token)},
                                    {"moves", std::to_string(taken.game->moves.size())}});
      hooks_.lobby([game = *taken.game, token = held.token](Lobby& l, Instant at) {
        return l.adopt(game, token, at);
      });
      // What waited for the game is this node's now: the lobby answers it, after the adoption
      // (on its strand, in order).
      auto items = std::move(waiting_[key]);
      waiting_.erase(key);
      for (Routed& item : items) hand_back(std::move(item));
    });
  });
}

void ClusterNode::take_over_offer(const std::string& key) {
  if (!ClusterKey::parse(key) || taking_.contains(key)) return;
  const auto lease = lease_to_take(key, 0);
  if (!lease) return;
  land_offer(key);
}

void ClusterNode::land_offer(const std::string& key) {
  const std::string id = ClusterKey::parse(key)->offer_id();
  hooks_.storage([this, key, id](Storage& storage) {
    // Read again under the lease: taken or withdrawn since the scan, it is gone.
    std::optional<OfferRow> offer;
    std::optional<PlayerRow> owner;
    std::string why;
    try {
      for (OfferRow& o : storage.offers())
        if (o.id == id) offer = std::move(o);
      if (offer) owner = storage.player(offer->owner);
    } catch (const std::exception& e) {
      why = e.what();
    }
    post([this, key, offer = std::move(offer), owner = std::move(owner), why] {
      taking_.erase(key);
      seen_free_.erase(key);
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      auto items = std::move(waiting_[key]);
      waiting_.erase(key);
      if (!offer) {
        ok(lease_->drop(key), "release");
        if (!why.empty()) log_.error("take_over_failed", {{"offer", key}, {"why", why}});
        const auto [code, message] = missing(*ClusterKey::parse(key));
        for (const Routed& item : items) fail(item, code, message);
        return;
      }
      held_[key] = held;
      ++takeovers_;
      log_.warn("offer_taken_over", {{"offer", offer->id}, {"token", std::to_string(held.token)}});
      hooks_.lobby([offer = *offer, owner, token = held.token](Lobby& l, Instant at) {
        return l.adopt_offer(offer, owner, token, at);
      });
      for (Routed& item : items) hand_back(std::move(item));
    });
  });
}

void ClusterNode::take_over_tournament(const std::string& key) {
  const auto k = ClusterKey::parse(key);
  if (!k || !k->is_tournament() || taking_.contains(key)) return;
  const auto lease = lease_to_take(key, 0);
  if (!lease) return;
  land_tournament(key);
}

void ClusterNode::land_tournament(const std::string& key) {
  const std::int64_t id = ClusterKey::parse(key)->id();
  hooks_.storage([this, key, id](Storage& storage) {
    // Read under the lease: what its last director stored is what this node goes on from.
    std::optional<TournamentRow> row;
    std::string why;
    try {
      row = storage.tournament(id);
    } catch (const std::exception& e) {
      why = e.what();
    }
    post([this, key, id, row = std::move(row), why] {
      taking_.erase(key);
      seen_free_.erase(key);
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      auto items = std::move(waiting_[key]);
      waiting_.erase(key);
      if (!row) {
        ok(lease_->drop(key), "release");
        if (!why.empty()) log_.error("take_over_failed", {{"tournament", key}, {"why", why}});
        for (const Routed& item : items)
          fail(item, why.empty() ? ErrorCode::BadField : ErrorCode::Unavailable,
               why.empty() ? "no tournament " + std::to_string(id)
                           : "tournament " + std::to_string(id) + " cannot be read now");
        return;
      }
      held_[key] = held;
      ++takeovers_;
      log_.warn(
          "tournament_taken_over",
          {{"tournament", key}, {"status", row->status}, {"token", std::to_string(held.token)}});
      hooks_.lobby([row = *row](Lobby& l, Instant at) { return l.adopt_tournament(row, at); });
      for (Routed& item : items) hand_back(std::move(item));
    });
  });
}

void ClusterNode::put_back_seek(const OfferRow& offer) {
  taking_.insert(offer.id);
  hooks_.storage([this, offer](Storage& storage) {
    std::optional<PlayerRow> owner;
    try {
      owner = storage.player(offer.owner);
    } catch (const std::exception& e) {
      log_.warn("scan_failed", {{"why", e.what()}});
    }
    post([this, offer, owner = std::move(owner)] {
      taking_.erase(offer.id);
      seeks_free_.erase(offer.id);
      log_.warn("seek_taken_over", {{"player", offer.owner}});
      hooks_.lobby(
          [offer, owner](Lobby& l, Instant at) { return l.adopt_offer(offer, owner, 0, at); });
    });
  });
}

// ---- routing requests to the node that runs their game ----------------------------------------

void ClusterNode::route(Routed item) {
  // One text per key ("017" is game 17, as for one server), so that one key is one entry in
  // Redis and in every map here.
  if (const auto k = ClusterKey::parse(item.key)) item.key = k->text();
  const std::string key = item.key;
  if (const auto it = owner_cache_.find(key);
      it != owner_cache_.end() && it->second != options_.node && !presumed_dead(it->second)) {
    send_to(it->second, item);
    return;
  }
  waiting_[key].push_back(std::move(item));
  resolve(key);
}

void ClusterNode::resolve(const std::string& key) {
  auto w = waiting_.find(key);
  if (w == waiting_.end()) return;
  const auto now = Clock::now();
  std::erase_if(w->second, [&](const Routed& item) {
    if (now - item.since < kRouteTimeout) return false;
    fail(item, ErrorCode::Unavailable,
         "no server of the cluster runs " + key + " now: try again in a moment");
    return true;
  });
  if (w->second.empty()) {
    waiting_.erase(w);
    return;
  }
  if (taking_.contains(key)) return;
  const auto holder = lease_->holder(key);
  if (!ok(holder, "route")) return;  // tried again at the next resolve
  if (const auto& h = *holder) {
    // Held by a lease that ran out: claimed now, with every other key of that lease (what
    // waits for the key is handed back when it lands).
    if (!h->alive) return claim(h->owner, h->node);
    // A node presumed dead still holds the lease until it runs out: wait for the takeover (or,
    // for a node that was only unheard, until it is heard again).
    if (presumed_dead(h->node)) return;
    auto items = std::move(w->second);
    waiting_.erase(w);
    if (h->node == options_.node) {
      if (h->owner != lease_->token() || !held_.contains(key)) {
        // Held under this node's name by its last life (it restarted) or its last lease: wait
        // until that lease runs out and claim its keys then.
        waiting_[key] = std::move(items);
        return;
      }
      // This node runs it (a takeover just done, or the lobby's start still on its way): the
      // lobby answers. A request the lobby hands on again comes back here and waits.
      for (Routed& item : items) hand_back(std::move(item));
      return;
    }
    owner_cache_[key] = h->node;
    for (const Routed& item : items) send_to(h->node, item);
    return;
  }
  // Nobody runs it: a game, kept offer or tournament whose node died (or, for a tournament, that
  // nobody has directed since a restart) is taken over here once its lease was seen free twice;
  // anything else does not exist.
  const auto k = ClusterKey::parse(key);
  if (!k) {
    auto items = std::move(w->second);
    waiting_.erase(w);
    for (const Routed& item : items) fail(item, ErrorCode::NoSuchGame, no_game_message(key));
    return;
  }
  const auto seen = seen_free_.find(key);
  if (seen == seen_free_.end()) {
    seen_free_[key] = now;
    return;
  }
  if (now - seen->second < kFreeTwiceOnRequest) return;
  if (k->is_tournament()) return take_over_tournament(key);  // reads the row under the lease
  taking_.insert(key);
  hooks_.storage([this, key, k = *k](Storage& storage) {
    std::optional<GameRow> row;
    bool offer = false;
    try {
      if (k.is_game()) row = storage.game_row(k.id());
      if (!row)
        for (const OfferRow& o : storage.offers()) offer = offer || o.id == k.offer_id();
    } catch (const std::exception& e) {
      log_.warn("route_failed", {{"game", key}, {"why", e.what()}});
    }
    post([this, key, k, row = std::move(row), offer] {
      taking_.erase(key);
      if (offer) return take_over_offer(key);
      if (!row || row->result) {
        seen_free_.erase(key);
        auto items = std::move(waiting_[key]);
        waiting_.erase(key);
        const auto [code, message] = missing(k);
        for (const Routed& item : items) fail(item, code, message);
        return;
      }
      take_over(key, row->owner_token);
    });
  });
}

void ClusterNode::hand_back(Routed item) {
  if (item.line.empty()) {
    const auto game = game_of(item.key);
    if (game)
      hooks_.lobby([session = item.session, game = *game](Lobby& l, Instant at) {
        return l.resume_seat(session, game, at);
      });
    return;
  }
  hooks_.lobby([item = std::move(item)](Lobby& l, Instant at) {
    return l.handle(item.session, protocol::decode_client(item.line), at);
  });
}

void ClusterNode::send_to(const std::string& node, const Routed& item) {
  std::optional<long long> listeners;
  if (item.line.empty()) {
    const auto game = game_of(item.key);
    if (!game) return;
    listeners = publish_to(node, wire::AttachGame{item.session, item.player, *game});
  } else {
    listeners = publish_to(node, wire::Request{item.session, item.player, item.key, item.line});
  }
  // Redis out of reach: it waits (at most kRouteTimeout) and goes when Redis is back.
  if (!listeners) {
    waiting_[item.key].push_back(item);
    return;
  }
  if (*listeners == 0) {
    // Nobody heard it: the node was killed (Redis saw its connection close) before the others
    // saw it gone and its lease run out. Sent there, a player's move would go nowhere; it waits
    // instead, for the node to be heard again or for the node that takes the game over.
    unheard_[node] = Clock::now();
    owner_cache_.erase(item.key);
    waiting_[item.key].push_back(item);
    return;
  }
  bind(item.session, node);
  ++forwarded_;
}

bool ClusterNode::unheard(const std::string& node) const {
  const auto it = unheard_.find(node);
  return it != unheard_.end() && Clock::now() - it->second < kUnheardFor;
}

bool ClusterNode::presumed_dead(const std::string& node) const {
  return gone_.contains(node) || unheard(node);
}

void ClusterNode::fail(const Routed& item, ErrorCode code, const std::string& message) {
  log_.warn("route_failed", {{"key", item.key},
                             {"session", std::to_string(item.session)},
                             {"why", message},
                             {"bounces", std::to_string(item.bounces)}});
  if (item.line.empty()) {
    // An attach: the welcome named a game this session never got the state of. Its client
    // comes back and logs in again, and finds the game where it is then (or ended).
    hooks_.deliver(options_.node,
                   {{item.session, error_line(ErrorCode::Unavailable,
                                              "game " + item.key + ": " + message + ": reconnect",
                                              std::nullopt, item.key)}},
                   {item.session});
    return;
  }
  const auto request = protocol::decode_client(item.line);
  const protocol::RequestId id = request ? request->id : request.error().id;
  std::optional<std::string> game;
  if (game_of(item.key)) game = item.key;
  hooks_.deliver(options_.node, {{item.session, error_line(code, message, id, game)}}, {});
}

bool ClusterNode::publish(const std::string& channel, const wire::NodeMessage& m) {
  return ok(publisher_->publish(channel, wire::encode(m)), "publish");
}

std::optional<long long> ClusterNode::publish_to(const std::string& node,
                                                 const wire::NodeMessage& m) {
  if (!std::holds_alternative<wire::Tick>(m)) sent_to_[node] = Clock::now();
  const auto sent = publisher_->publish(options_.prefix + "node:" + node, wire::encode(m));
  if (ok(sent, "publish")) return *sent;
  // Lost on the way (or maybe not): once Redis is back the node is told to start again
  // whatever relied on what this node sent it.
  lost_to_.insert(node);
  return std::nullopt;
}

void ClusterNode::bind(SessionId session, const std::string& node) {
  std::lock_guard lock(mutex_);
  bound_[session].insert(node);
}

// ---- what the lobby asks ----------------------------------------------------------------------

void ClusterNode::carry_out(ClusterEffects fx) {
  if (fx.reserve_ids)
    hooks_.storage([this](Storage& storage) {
      try {
        const GameId first = storage.reserve_game_ids(kGameIdBlock);
        hooks_.lobby([first](Lobby& l, Instant) {
          l.add_game_ids(first, kGameIdBlock);
          return Effects{};
        });
      } catch (const std::exception& e) {
        log_.error("reserve_ids_failed", {{"why", e.what()}});
        hooks_.lobby([](Lobby& l, Instant) {
          l.add_game_ids(0, 0);  // asks again at the next game
          return Effects{};
        });
      }
    });
  if (!fx.read_players.empty() || !fx.read_games.empty())
    hooks_.storage([this, names = std::move(fx.read_players),
                    games = std::move(fx.read_games)](Storage& storage) {
      std::vector<PlayerRow> players;
      std::vector<GameRow> rows;
      try {
        for (const std::string& name : names)
          if (auto row = storage.player(name)) players.push_back(std::move(*row));
        for (const GameId id : games)
          if (auto row = storage.game_row(id)) rows.push_back(std::move(*row));
      } catch (const std::exception& e) {
        // Asked again: players at the next pairing that needs them, games at the next check.
        log_.warn("tournament_read_failed", {{"why", e.what()}});
      }
      hooks_.lobby([players = std::move(players), rows = std::move(rows)](Lobby& l, Instant at) {
        return l.tournament_reads(players, rows, at);
      });
    });
  for (auto& job : fx.logins) login(std::move(job));
  post([this, fx = std::move(fx)]() mutable {
    for (const std::string& key : fx.acquire) acquire(key);
    for (const std::string& key : fx.release) release(key);
    for (const auto& [name, session] : fx.logouts) {
      const auto it = held_names_.find(name);
      if (it == held_names_.end() || it->second != session) continue;
      held_names_.erase(it);
      ok(names_->release(name, name_session(life(), session)), "logout");
    }
    for (const std::string& name : fx.unseeks) {
      seeking_.erase(name);
      ok(pairing_->unseek(name), "unseek");
    }
    for (const std::string& name : fx.drop_seeks) {
      seeking_.erase(name);
      ok(pairing_->unseek(name, false), "unseek");
    }
    for (auto& job : fx.seeks) seek(std::move(job));
    for (auto& f : fx.forwards)
      route(Routed{f.session, std::move(f.key), std::move(f.line), std::move(f.player)});
    for (auto& a : fx.attaches)
      route(Routed{a.session, std::to_string(a.game), {}, std::move(a.player)});
    for (auto& b : fx.bounces)
      publish_to(b.to.node, wire::Bounced{b.to.session, std::move(b.key), std::move(b.line)});
    for (auto& e : fx.moderation) publish(directory_channel_, wire::Moderated{std::move(e)});
    for (auto& t : fx.turns)
      publish_to(t.to.node, wire::Turns{t.to.session, std::move(t.turns), t.correspondence});
  });
}

void ClusterNode::acquire(const std::string& key) {
  // A key this node has just made (an id of its block): held with the node lease's token, one
  // field of its hash. Without a lease the node may not run it.
  const auto r = lease_->valid()
                     ? lease_->take(key, cluster::TakeMode::New)
                     : Expected<cluster::KeyTaken, cluster::RedisError>(cluster::KeyTaken{});
  if (!ok(r, "acquire")) {
    hooks_.lobby([key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
    return;
  }
  if (r->token != 0) {
    held_[key] = cluster::Lease{key, options_.node, r->token, lease_->valid_until()};
    hooks_.lobby([key, token = r->token](Lobby& l, Instant) {
      l.lease_taken(key, token);
      return Effects{};
    });
    return;
  }
  if (r->holder)
    log_.error(
        "lease_taken_by_other",
        {{"key", key}, {"holder", r->holder->node}, {"token", std::to_string(r->holder->owner)}});
  else
    log_.warn("no_node_lease", {{"key", key}});
  hooks_.lobby([key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
}

std::uint64_t ClusterNode::life() const { return publisher_->incarnation(); }

bool ClusterNode::held_by_the_dead(const cluster::NameHolder& holder) const {
  const auto s = parse_session(holder.session);
  if (!s) return true;  // not a session any node of this version wrote
  if (holder.node == options_.node) return s->life != life();
  if (gone_.contains(holder.node)) return true;
  std::lock_guard lock(mutex_);
  const auto it = lives_.find(holder.node);
  return it != lives_.end() && it->second != s->life;
}

void ClusterNode::release(const std::string& key) {
  const auto it = held_.find(key);
  if (it == held_.end()) return;
  ok(lease_->drop(key), "release");
  held_.erase(it);
}

void ClusterNode::login(LoginJob job) {
  hooks_.storage([this, job = std::move(job)](Storage& storage) mutable {
    std::optional<PlayerRow> row;
    std::vector<GameId> games;
    std::optional<std::string> look_alike;
    std::string why;
    try {
      row = storage.player(job.name);
      games = storage.unfinished_games_of(job.name);
      // An account of its own is never refused for a look-alike (schema.h, version 7).
      if (!row || row->password_hash.empty()) look_alike = storage.registered_look_alike(job.name);
    } catch (const std::exception& e) {
      why = e.what();
    }
    hooks_.background([this, job = std::move(job), row = std::move(row), games = std::move(games),
                       look_alike = std::move(look_alike), why = std::move(why)]() mutable {
      LoginOutcome out;
      const auto refuse = [&](ErrorCode code, std::string message) {
        out.error = protocol::make_error(code, std::move(message));
      };
      bool take = false;
      if (!why.empty()) {
        refuse(ErrorCode::Internal, "the player could not be read: " + why);
      } else if (look_alike) {
        refuse(ErrorCode::NameTaken, look_alike_message(*look_alike));
      } else if (job.known_only && !row) {
        refuse(ErrorCode::RegistrationsClosed,
               "this server takes known names only: registrations are closed");
      } else if (job.token) {
        if (!row || row->token_digest.empty() ||
            !equal_secret(token_digest(*job.token), row->token_digest))
          refuse(ErrorCode::AuthFailed, "the token is not valid for this name");
        else
          take = true;
      } else if (job.password) {
        if (row && !row->password_hash.empty()) {
          if (!verify_password(*job.password, row->password_hash))
            refuse(ErrorCode::AuthFailed, "wrong password");
          else
            take = true;
        } else if (!games.empty()) {
          refuse(ErrorCode::NameTaken, "that name is in use; its owner can resume with the token");
        } else {
          out.new_hash = hash_password(*job.password, options_.password_hashing);
          if (!out.new_hash) refuse(ErrorCode::Internal, "could not hash the password");
        }
      } else if (row && !row->password_hash.empty()) {
        refuse(ErrorCode::AuthFailed, "that name needs its password");
      } else if (!games.empty()) {
        refuse(ErrorCode::NameTaken, "that name is in use; its owner can resume with the token");
      }
      job.password.reset();
      out.job = std::move(job);
      out.row = row.value_or(PlayerRow{});
      out.row.name = out.job.name;
      out.games = std::move(games);
      if (out.error) {
        hooks_.lobby(
            [out = std::move(out)](Lobby& l, Instant at) { return l.complete_login(out, at); });
        return;
      }
      // The name, for the whole cluster: taken from whoever holds it when the player proved
      // who they are (token or password), else only if nobody holds it.
      post([this, out = std::move(out), take]() mutable {
        const std::string session = name_session(life(), out.job.session);
        if (!take) {
          const auto claim = names_->claim(out.job.name, session);
          if (!ok(claim, "name")) {
            out.error = protocol::make_error(ErrorCode::Unavailable,
                                             "the cluster cannot be reached: try again");
          } else if (!claim->won && !held_by_the_dead(claim->holder)) {
            out.error = protocol::make_error(
                ErrorCode::NameTaken, "that name is in use; its owner can resume with the token");
          } else if (!claim->won) {
            take = true;  // held by a session of a node that died or restarted: free
          }
        }
        if (take) {
          const auto previous = names_->take(out.job.name, session);
          if (!ok(previous, "name")) {
            out.error = protocol::make_error(ErrorCode::Unavailable,
                                             "the cluster cannot be reached: try again");
          } else if (*previous && (*previous)->node != options_.node) {
            if (const auto s = parse_session((*previous)->session))
              publish_to((*previous)->node, wire::Replaced{s->session});
          }
        }
        if (!out.error) held_names_[out.job.name] = out.job.session;
        hooks_.lobby(
            [out = std::move(out)](Lobby& l, Instant at) { return l.complete_login(out, at); });
      });
    });
  });
}

void ClusterNode::seek(SeekJob job) {
  SeekOutcome out;
  const auto r = pairing_->seek(job.name, job.pool);
  if (!ok(r, "seek")) {
    out.job = std::move(job);
    out.error = "the pairing queue cannot be reached: try again in a moment";
    hooks_.lobby([out = std::move(out)](Lobby& l, Instant at) { return l.complete_seek(out, at); });
    return;
  }
  if (!r->paired) {
    seeking_[job.name] = job;
    out.job = std::move(job);
    hooks_.lobby([out = std::move(out)](Lobby& l, Instant at) { return l.complete_seek(out, at); });
    return;
  }
  seeking_.erase(job.name);
  seeking_.erase(r->opponent);
  out.paired = true;
  out.opponent = r->opponent;
  const auto holder = names_->holder(r->opponent);
  if (ok(holder, "seek") && *holder && (*holder)->node != options_.node)
    if (const auto s = parse_session((*holder)->session))
      out.opponent_session = RemoteSession{(*holder)->node, s->session};
  out.job = std::move(job);
  hooks_.storage([this, out = std::move(out)](Storage& storage) mutable {
    try {
      out.opponent_row = storage.player(out.opponent);
    } catch (const std::exception& e) {
      log_.warn("seek_row_failed", {{"player", out.opponent}, {"why", e.what()}});
    }
    hooks_.lobby([out = std::move(out)](Lobby& l, Instant at) { return l.complete_seek(out, at); });
  });
}

void ClusterNode::send(std::map<std::string, wire::Lines> by_node) {
  post([this, by_node = std::move(by_node)] {
    for (const auto& [node, lines] : by_node) publish_to(node, lines);
  });
}

void ClusterNode::session_closed(SessionId session) {
  std::set<std::string> nodes;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = bound_.find(session); it != bound_.end()) {
      nodes = std::move(it->second);
      bound_.erase(it);
    }
  }
  post([this, session, nodes = std::move(nodes)] {
    // What still waits for its key on behalf of the session goes nowhere: sent later, an attach
    // would make the node that runs the game send the player's lines to this gone session
    // instead of to the connection they have come back on (queued after every request the
    // session made, so nothing of it is routed after this).
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      std::erase_if(it->second, [&](const Routed& item) { return item.session == session; });
      it = it->second.empty() ? waiting_.erase(it) : std::next(it);
    }
    for (const std::string& node : nodes) publish_to(node, wire::Detach{session});
  });
}

void ClusterNode::session_gone(const std::string& node, SessionId session) {
  {
    std::lock_guard lock(mutex_);
    bound_.erase(session);
  }
  post([this, node, session] { publish_to(node, wire::Detach{session}); });
}

void ClusterNode::publish_directory(PeerView view) {
  post([this, view = std::move(view)] { publish(directory_channel_, wire::Directory{view}); });
}

// ---- the bus (subscriber thread) ----------------------------------------------------------------

void ClusterNode::on_bus(cluster::BusMessage m) {
  const std::string& from = m.envelope.node;
  if (from == options_.node) return;
  auto decoded = wire::decode(m.envelope.body);
  if (!decoded) {
    log_.warn("bus_malformed", {{"from", from}, {"why", decoded.error()}});
    return;
  }
  // A node that restarted under the same name is a new node: the sessions of its last life are
  // gone, and so are the answers they were waiting for. Every node publishes its directory every
  // 2 s at least, so this is seen within that even when it sends nothing else here. A gap on
  // this node's channel means messages between the two were lost: the sessions that rely on
  // them start again (their clients come back and resume). Ticks (wire::Tick) follow a node's
  // messages here for a while, so that even the loss of the last one is seen within a second.
  const bool directory = m.channel == directory_channel_;
  // Restarted once per new life, whichever channel tells first.
  bool restarted = false;
  {
    std::lock_guard lock(mutex_);
    auto& known = lives_[from];
    restarted = known != 0 && known != m.envelope.incarnation;
    known = m.envelope.incarnation;
  }
  const bool gap = !directory && m.verdict.missed > 0 && !m.verdict.restarted;
  if (restarted || gap) {
    if (gap) {
      ++gaps_;
      log_.warn("bus_gap", {{"from", from}, {"missed", std::to_string(m.verdict.missed)}});
      post([this, from] { publish_to(from, wire::Reset{}); });
    } else {
      log_.warn("node_restarted", {{"node", from}});
    }
    std::vector<SessionId> close;
    {
      std::lock_guard lock(mutex_);
      for (auto& [session, nodes] : bound_)
        if (nodes.erase(from)) close.push_back(session);
    }
    post([this, from] {
      for (auto it = owner_cache_.begin(); it != owner_cache_.end();)
        it = it->second == from ? owner_cache_.erase(it) : std::next(it);
    });
    hooks_.lobby([from](Lobby& l, Instant at) { return l.node_gone(from, at); });
    if (!close.empty()) hooks_.deliver(from, {}, std::move(close));
  }
  if (directory) {
    if (auto* moderated = std::get_if<wire::Moderated>(&*decoded))
      hooks_.lobby([event = std::move(moderated->event)](Lobby& l, Instant at) {
        return l.moderated(event, at);
      });
    if (auto* d = std::get_if<wire::Directory>(&*decoded)) {
      std::vector<std::string> games;
      for (const auto& g : d->view.games) games.push_back(g.game);
      post([this, from, games = std::move(games)] {
        for (const auto& g : games) owner_cache_[g] = from;
      });
      hooks_.lobby([from, view = std::move(d->view)](Lobby& l, Instant at) mutable {
        return l.set_peer(from, std::move(view), at);
      });
    }
    return;
  }
  if (std::holds_alternative<wire::Tick>(*decoded)) return;  // its sequence number was all
  ++received_;
  std::visit(
      [&](auto& msg) {
        using M = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<M, wire::Request>) {
          hooks_.lobby([from, msg = std::move(msg)](Lobby& l, Instant at) {
            return l.remote_request(RemoteSession{from, msg.session}, msg.player, msg.line, at);
          });
        } else if constexpr (std::is_same_v<M, wire::AttachGame>) {
          hooks_.lobby([from, msg = std::move(msg)](Lobby& l, Instant at) {
            return l.remote_attach(RemoteSession{from, msg.session}, msg.player, msg.game, at);
          });
        } else if constexpr (std::is_same_v<M, wire::Detach>) {
          hooks_.lobby([from, s = msg.session](Lobby& l, Instant at) {
            return l.remote_detach(RemoteSession{from, s}, at);
          });
        } else if constexpr (std::is_same_v<M, wire::Lines>) {
          {
            std::lock_guard lock(mutex_);
            for (const auto& [s, line] : msg.lines) bound_[s].insert(from);
          }
          hooks_.deliver(from, std::move(msg.lines), std::move(msg.close));
        } else if constexpr (std::is_same_v<M, wire::Bounced>) {
          // Asked of the wrong node: ask the cluster again, as the player the session is now.
          hooks_.lobby([this, from, msg = std::move(msg)](Lobby& l, Instant) mutable {
            auto player = l.player_of(msg.session);
            if (!player) return Effects{};
            post([this, from,
                  item = Routed{msg.session, std::move(msg.key), std::move(msg.line),
                                std::move(*player)}]() mutable {
              if (const auto it = owner_cache_.find(item.key);
                  it != owner_cache_.end() && it->second == from)
                owner_cache_.erase(it);
              if (++item.bounces > kMaxBounces)
                return fail(item, ErrorCode::Unavailable,
                            "the servers of the cluster did not agree which one runs " + item.key +
                                ": try again");
              // Asked again at the next resolve, not at once: the node that runs it now may be
              // adopting it this moment.
              waiting_[item.key].push_back(std::move(item));
            });
            return Effects{};
          });
        } else if constexpr (std::is_same_v<M, wire::Turns>) {
          hooks_.lobby([from, msg = std::move(msg)](Lobby& l, Instant at) {
            return l.remote_turns(from, msg.session, msg.turns, msg.correspondence, at);
          });
        } else if constexpr (std::is_same_v<M, wire::Replaced>) {
          hooks_.lobby([s = msg.session](Lobby& l, Instant at) { return l.replaced(s, at); });
        } else if constexpr (std::is_same_v<M, wire::Reset>) {
          std::vector<SessionId> close;
          {
            std::lock_guard lock(mutex_);
            for (auto& [session, nodes] : bound_)
              if (nodes.erase(from)) close.push_back(session);
          }
          if (!close.empty()) hooks_.deliver(from, {}, std::move(close));
        } else if constexpr (std::is_same_v<M, wire::Directory>) {
          // Only on the directory channel.
        }
      },
      *decoded);
}

}  // namespace amazons::server
