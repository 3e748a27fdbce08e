// ClusterNode, its part that hears the bus (on the subscriber thread): what other nodes send,
// and what their new lives and lost messages mean for this node's sessions.
#include "server/node/cluster_node.h"

#include "server/node/cluster_node_detail.h"

namespace amazons::server {

using namespace cluster_node_detail;
using protocol::ErrorCode;

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
            for (const auto& [s, line] : msg.lines) {
              bound_[s].insert(from);
              answered(s, from);
            }
          }
          hooks_.deliver(from, std::move(msg.lines), std::move(msg.close));
        } else if constexpr (std::is_same_v<M, wire::Bounced>) {
          {
            std::lock_guard lock(mutex_);
            answered(msg.session, from);
          }
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
