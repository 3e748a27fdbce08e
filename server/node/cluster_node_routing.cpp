// ClusterNode, its part that carries requests and lines between nodes: a request waits for the
// node that runs its key (resolve), goes there over the bus, or comes back to this node's lobby.
#include "server/node/cluster_node.h"

#include <algorithm>

#include "server/node/cluster_node_detail.h"

namespace amazons::server {

using namespace cluster_node_detail;
using protocol::ErrorCode;

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
    if (!h->alive) {
      refuse_impatient(key);
      return claim(h->owner, h->node);
    }
    // A node presumed dead still holds the lease until it runs out: wait for the takeover (or,
    // for a node that was only unheard, until it is heard again).
    if (presumed_dead(h->node)) return refuse_impatient(key);
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
        auto items = take_waiting(key);
        const auto [code, message] = missing(k);
        for (const Routed& item : items) fail(item, code, message);
        return;
      }
      take_over(key, row->owner_token);
    });
  });
}

void ClusterNode::refuse_impatient(const std::string& key) {
  const auto w = waiting_.find(key);
  if (w == waiting_.end()) return;
  std::erase_if(w->second, [&](const Routed& item) {
    if (item.patient()) return false;
    refuse(item);
    return true;
  });
  if (w->second.empty()) waiting_.erase(w);
}

void ClusterNode::refuse(const Routed& item) {
  const auto game = game_of(item.key);
  fail(item, ErrorCode::Unavailable,
       game ? "the server running game " + item.key +
                  " stopped: the game goes on in a moment on another, and comes back to you then"
            : "the server running " + item.key + " stopped: try again in a moment");
}

std::vector<ClusterNode::Routed> ClusterNode::take_waiting(const std::string& key) {
  const auto it = waiting_.find(key);
  if (it == waiting_.end()) return {};
  auto items = std::move(it->second);
  waiting_.erase(it);
  return items;
}

void ClusterNode::hand_back(Routed item) {
  forget_watch(item);  // watched here now, if watched at all
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
    // Kept before it goes: the answer may come before the publish returns.
    const bool answer_due = !item.patient();
    if (answer_due) expect_answer(node, item);
    listeners = publish_to(node, wire::Request{item.session, item.player, item.key, item.line});
    if (answer_due && (!listeners || *listeners == 0)) {
      // Not sent, or heard by nobody: refused or kept waiting below, not answered by `node`.
      std::lock_guard lock(mutex_);
      if (const auto it = unanswered_.find(item.session); it != unanswered_.end()) {
        it->second.pop_back();
        if (it->second.empty()) unanswered_.erase(it);
      }
    }
  }
  // Redis out of reach: it waits (at most kRouteTimeout) and goes when Redis is back.
  if (!listeners) {
    waiting_[item.key].push_back(item);
    return;
  }
  if (*listeners == 0) {
    // Nobody heard it: the node was killed (Redis saw its connection close) before the others
    // saw it gone and its lease run out. A request is answered at once (`unavailable`); an
    // attach waits, for the node to be heard again or for the node that takes the game over.
    unheard_[node] = Clock::now();
    owner_cache_.erase(item.key);
    if (item.patient())
      waiting_[item.key].push_back(item);
    else
      refuse(item);
    return;
  }
  bind(item.session, node);
  ++forwarded_;
  if (item.watching == Forward::Watching::Starts) {
    auto& games = watched_[item.session];
    // Games long finished stay until the session closes: a session that watches game after game
    // keeps the last ones.
    if (games.size() >= kMaxWatchedPerSession && !games.contains(item.key))
      games.erase(games.begin());
    games[item.key] = Watched{node, item.line, item.player};
  } else if (item.watching == Forward::Watching::Stops)
    forget_watch(item);
}

void ClusterNode::expect_answer(const std::string& node, const Routed& item) {
  std::lock_guard lock(mutex_);
  auto& sent = unanswered_[item.session];
  const auto now = Clock::now();
  std::erase_if(sent, [&](const Unanswered& u) { return now - u.sent > kAnswerWithin; });
  sent.push_back(Unanswered{node, item.key, item.line, item.player, now});
}

void ClusterNode::answered(SessionId session, const std::string& node) {
  const auto it = unanswered_.find(session);
  if (it == unanswered_.end()) return;
  std::erase_if(it->second, [&](const Unanswered& u) { return u.node == node; });
  if (it->second.empty()) unanswered_.erase(it);
}

void ClusterNode::fell_silent(const std::string& node) {
  silent_since_.try_emplace(node, Clock::now());
}

void ClusterNode::refuse_unanswered(const std::string& dead,
                                    std::chrono::steady_clock::time_point silent_since) {
  std::vector<Routed> refused;
  {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    for (auto it = unanswered_.begin(); it != unanswered_.end();) {
      std::erase_if(it->second, [&](Unanswered& u) {
        // Sent since, it went to whoever listens there now (a new life of the node), or nowhere
        // and was refused at once.
        if (u.node != dead || u.sent > silent_since) return false;
        if (now - u.sent <= kAnswerWithin)
          refused.push_back(
              Routed{it->first, std::move(u.key), std::move(u.line), std::move(u.player)});
        return true;
      });
      it = it->second.empty() ? unanswered_.erase(it) : std::next(it);
    }
  }
  for (const Routed& item : refused) refuse(item);
}

void ClusterNode::forget_watch(const Routed& item) {
  const auto it = watched_.find(item.session);
  if (it == watched_.end() || !it->second.erase(item.key) || !it->second.empty()) return;
  watched_.erase(it);
}

void ClusterNode::watch_again(const std::string& dead) {
  std::vector<Routed> again;
  for (auto& [session, games] : watched_)
    for (auto& [key, w] : games) {
      if (w.node != dead) continue;
      // The watch as the client sent it (an invitation included), without its request id: the
      // client asked nothing now, and takes the state as news of a game it watches.
      auto request = protocol::decode_client(w.line);
      if (!request) continue;
      again.push_back(Routed{.session = session,
                             .key = key,
                             .line = protocol::encode(request->message, std::nullopt),
                             .player = w.player,
                             .watching = Forward::Watching::Starts,
                             .watch_again = true});
    }
  for (Routed& item : again) route(std::move(item));
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
  if (ok(sent, "publish")) {
    // Nobody listens there: what was sent there a moment ago may have died unread with it.
    if (*sent == 0) fell_silent(node);
    return *sent;
  }
  // Lost on the way (or maybe not): once Redis is back the node is told to start again
  // whatever relied on what this node sent it.
  lost_to_.insert(node);
  return std::nullopt;
}

void ClusterNode::bind(SessionId session, const std::string& node) {
  std::lock_guard lock(mutex_);
  bound_[session].insert(node);
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
    unanswered_.erase(session);
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
    watched_.erase(session);
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

}  // namespace amazons::server
