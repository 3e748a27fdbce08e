// ClusterNode, its part that takes over what nodes that died ran: the scan for dead leases and
// free keys, the claim of a dead node's lease, and one landing path for games, offers and
// tournaments.
#include "server/node/cluster_node.h"

#include <algorithm>

#include "server/node/cluster_node_detail.h"

namespace amazons::server {

using namespace cluster_node_detail;
using protocol::ErrorCode;

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
  taking_.erase(key);
  seen_free_.erase(key);
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
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      if (!why.empty() || taken.outcome != TakeResult::Outcome::Taken) {
        ok(lease_->drop(key), "release");
        if (!why.empty()) log_.error("take_over_failed", {{"game", key}, {"why", why}});
        if (taken.outcome == TakeResult::Outcome::Finished ||
            taken.outcome == TakeResult::Outcome::Missing) {
          auto items = take_waiting(key);
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
      auto items = take_waiting(key);
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
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      auto items = take_waiting(key);
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
      const auto current = landed(key);
      if (!current) return;  // what waits for the key is routed again at the next resolve
      const cluster::Lease& held = *current;
      auto items = take_waiting(key);
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

}  // namespace amazons::server
