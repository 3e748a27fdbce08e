// ClusterNode, its part that carries out what the lobby asks of the cluster: leases of new games,
// logins (a name for the whole cluster) and seeks (one pairing queue for every node).
#include "server/node/cluster_node.h"

#include "server/core/canonical_name.h"
#include "server/node/cluster_node_detail.h"

namespace amazons::server {

using namespace cluster_node_detail;
using protocol::ErrorCode;

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
      route(
          Routed{f.session, std::move(f.key), std::move(f.line), std::move(f.player), f.watching});
    for (auto& a : fx.attaches)
      route(Routed{a.session, std::to_string(a.game), {}, std::move(a.player)});  // an attach
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

}  // namespace amazons::server
