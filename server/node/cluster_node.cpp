#include "server/node/cluster_node.h"

#include <algorithm>
#include <future>

#include "server/core/canonical_name.h"
#include "server/node/cluster_node_detail.h"

namespace amazons::server {

using namespace cluster_node_detail;
using protocol::ErrorCode;

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
  for (auto it = silent_since_.begin(); it != silent_since_.end();) {
    if (now - it->second < kLastWords) {
      ++it;
      continue;
    }
    refuse_unanswered(it->first, it->second);
    it = silent_since_.erase(it);
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
      {
        std::lock_guard lock(mutex_);
        for (auto& [session, nodes] : bound_) nodes.erase(node);
      }
      for (auto it = owner_cache_.begin(); it != owner_cache_.end();)
        it = it->second == node ? owner_cache_.erase(it) : std::next(it);
      // (Its requests not yet answered are refused once nobody listens on its channel, which a
      // tick finds within a second of its death: not here, where a new life of it may be
      // answering them.)
      hooks_.lobby([node](Lobby& l, Instant at) { return l.node_gone(node, at); });
      // This node's sessions that played or watched there stay open: the node that takes a game
      // over sends its players the state (Lobby::adopt finds them in the directory), and the
      // games they watched there are watched again, on the node that runs them then.
      watch_again(node);
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
    // (A copy: clang before 16 cannot capture a structured binding.)
    hooks_.lobby([key = key](Lobby& l, Instant at) { return l.lease_lost(key, at); });
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

}  // namespace amazons::server
