// The lobby as one node of a cluster (docs/SCALING.md): what it hands to other nodes, the remote
// sessions through which it talks to their players, logins and seeks decided for the whole
// cluster, the leases of what it runs, and the directory the nodes share.
//
// Every function here is pure, like the rest of the lobby: what needs Redis, the shared
// database or another node goes out as Effects::cluster, and the answer comes back as an input.
#include <algorithm>

#include "server/core/cluster_key.h"
#include "server/core/lobby.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using namespace lobby_detail;

// ---- requests for what other nodes run --------------------------------------------------------

namespace {
Forward::Watching forward_watching(const protocol::ClientMessage& m) {
  if (std::holds_alternative<protocol::Watch>(m)) return Forward::Watching::Starts;
  if (std::holds_alternative<protocol::Leave>(m)) return Forward::Watching::Stops;
  return Forward::Watching::Unchanged;
}
}  // namespace

bool Lobby::hand_on(Ctx& ctx, const std::string& key, const protocol::ClientMessage& m) {
  const auto k = ClusterKey::parse(key);
  if (!k) return false;  // a bad id is refused here, as by one server
  switch (k->kind()) {
    case ClusterKey::Kind::Challenge:
      if (offers_.has_challenge(key)) return false;
      break;
    case ClusterKey::Kind::Tournament:
      if (tournaments_.contains(k->id())) return false;
      break;
    case ClusterKey::Kind::Game:
      if (rooms_.contains(k->id())) return false;
      break;
  }
  // A visitor without a name (see open_before_hello) has nobody to be on the node that runs it.
  if (!is_remote_session(ctx.requester) && !sessions_.at(ctx.requester).player) {
    ctx.error(ErrorCode::NotLoggedIn, "say hello first: another node runs this game");
    return true;
  }
  std::string line = protocol::encode(m, ctx.id);
  ctx.id_used = true;  // the node that runs it answers
  // A remote session asks here because its node believed this node runs it: that node asks the
  // cluster again. Never handed on from here, so that a request cannot go round in circles.
  if (const auto r = remote_.find(ctx.requester); r != remote_.end())
    ctx.fx.cluster.bounces.push_back(Bounce{r->second, key, std::move(line)});
  else {
    const PlayerState& p = player(requester_name(ctx));
    ctx.fx.cluster.forwards.push_back(
        Forward{ctx.requester, key, std::move(line), as_remote(p), forward_watching(m)});
  }
  return true;
}

// ---- remote sessions ---------------------------------------------------------------------------

RemotePlayer Lobby::as_remote(const PlayerState& p) const {
  return RemotePlayer{p.row.name, p.row.bot, p.row.rating, p.row.rated_games,
                      static_cast<int>(correspondence_games(p.row.name))};
}

SessionId Lobby::remote_session(Ctx& ctx, const RemoteSession& from, const RemotePlayer& who) {
  if (const auto it = remote_ids_.find(from); it != remote_ids_.end()) {
    sessions_.at(it->second).reported_correspondence = who.correspondence;
    return it->second;
  }
  PlayerState& p = player_entry(who.name);
  // Connected here: a remote session for them is stale (they moved to this node, and the node
  // they left has not said so yet).
  if (p.session && !is_remote_session(*p.session)) return 0;
  if (p.row.name.empty()) {
    p.row.name = who.name;
    p.row.rating = who.rating;
    p.row.rated_games = who.rated_games;
  }
  p.row.bot = who.bot;
  const SessionId id = next_remote_++;
  remote_.emplace(id, from);
  remote_ids_.emplace(from, id);
  sessions_.emplace(id,
                    SessionState{who.name,
                                 false,
                                 ConnectionInfo{true, ""},
                                 "",
                                 {},
                                 RateLimiter(config_.requests_per_second, config_.requests_burst),
                                 RateLimiter(config_.errors_per_second, config_.errors_burst),
                                 RateLimiter(config_.chat_per_second, config_.chat_burst),
                                 {},
                                 who.correspondence});
  // A newer connection of theirs on another node replaces the older one.
  const bool was_away = !p.session;
  p.session = id;
  if (was_away)
    for (GameId g : p.seats) {
      Room& room = rooms_.at(g);
      route(ctx, room, room.game.set_online(*room.game.color_of(who.name), true, ctx.now));
    }
  return id;
}

std::optional<SessionId> Lobby::other_remote_session(const std::string& name,
                                                     SessionId except) const {
  std::optional<SessionId> newest;
  for (const auto& [id, where] : remote_)
    if (id != except && sessions_.at(id).player == name && (!newest || id > *newest)) newest = id;
  return newest;
}

std::optional<SessionId> Lobby::reach(Ctx& ctx, const std::string& name) {
  if (auto s = session_of(name)) return s;
  if (!clustered()) return std::nullopt;
  for (const auto& [node, view] : peers_)
    for (const PeerPlayer& p : view.players)
      if (p.name == name) {
        const SessionId s = remote_session(ctx, RemoteSession{node, p.session},
                                           RemotePlayer{name, p.bot, p.rating, p.rated_games});
        if (s != 0) return s;
      }
  return std::nullopt;
}

std::optional<RemoteSession> Lobby::remote_of(SessionId session) const {
  const auto it = remote_.find(session);
  if (it == remote_.end()) return std::nullopt;
  return it->second;
}

std::optional<RemotePlayer> Lobby::player_of(SessionId session) const {
  const auto it = sessions_.find(session);
  if (it == sessions_.end() || !it->second.player || is_remote_session(session))
    return std::nullopt;
  return as_remote(players_.at(*it->second.player));
}

Effects Lobby::remote_request(const RemoteSession& from, const RemotePlayer& player,
                              std::string_view line, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const SessionId s = remote_session(ctx, from, player);
  if (s == 0) return std::move(ctx.fx);
  ctx.fx.append(handle(s, protocol::decode_client(line), now));
  return std::move(ctx.fx);
}

Effects Lobby::remote_attach(const RemoteSession& from, const RemotePlayer& player, GameId game,
                             Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto room = rooms_.find(game);
  if (room == rooms_.end() || !room->second.game.color_of(player.name)) {
    // Not (or no longer) here: the player's node asks the cluster again.
    ctx.fx.cluster.bounces.push_back(Bounce{from, std::to_string(game), {}});
    return std::move(ctx.fx);
  }
  const SessionId s = remote_session(ctx, from, player);
  if (s == 0) return std::move(ctx.fx);
  Room& r = room->second;
  const Color c = *r.game.color_of(player.name);
  ctx.send(s, r.game.state(c, now, static_cast<int>(r.spectators.size())));
  if (!r.game.online(c)) route(ctx, r, r.game.set_online(c, true, now));
  // Their node lists this node's games among the ones they are to move in.
  if (r.game.settings().time.correspondence()) tell_turns(ctx, player.name);
  return std::move(ctx.fx);
}

Effects Lobby::resume_seat(SessionId session, GameId game, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto s = sessions_.find(session);
  const auto room = rooms_.find(game);
  if (s == sessions_.end() || !s->second.player || room == rooms_.end()) return std::move(ctx.fx);
  Room& r = room->second;
  const auto c = r.game.color_of(*s->second.player);
  if (!c) return std::move(ctx.fx);
  ctx.send(session, r.game.state(*c, now, static_cast<int>(r.spectators.size())));
  if (!r.game.online(*c)) route(ctx, r, r.game.set_online(*c, true, now));
  return std::move(ctx.fx);
}

Effects Lobby::remote_detach(const RemoteSession& from, Instant now) {
  const auto it = remote_ids_.find(from);
  if (it == remote_ids_.end()) return {};
  return disconnect(it->second, now);
}

Effects Lobby::node_gone(const std::string& node, Instant now) {
  Effects fx;
  std::vector<SessionId> gone;
  for (const auto& [id, where] : remote_)
    if (where.node == node) gone.push_back(id);
  for (SessionId s : gone) fx.append(disconnect(s, now));
  forget_peer(node);
  // Its games go to other nodes, which tell their players again when they take them.
  for (auto& [id, s] : sessions_) s.elsewhere.erase(node);
  return fx;
}

Effects Lobby::remote_turns(const std::string& node, SessionId session,
                            const protocol::YourTurn& turns, int correspondence, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto it = sessions_.find(session);
  if (it == sessions_.end() || !it->second.player || is_remote_session(session) ||
      node == config_.node)
    return {};
  it->second.elsewhere[node] = GamesElsewhere{turns.games, now.mono, correspondence};
  ctx.send(session, your_turn(*it->second.player, now));
  return std::move(ctx.fx);
}

Effects Lobby::replaced(SessionId session, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto it = sessions_.find(session);
  if (it == sessions_.end() || !it->second.player) return {};
  ctx.send(session,
           protocol::make_error(ErrorCode::Replaced, "you logged in on another connection"));
  ctx.fx.close.push_back(session);
  ctx.fx.append(disconnect(session, now));
  return std::move(ctx.fx);
}

// ---- logins and seeks decided for the whole cluster --------------------------------------------

void Lobby::login_clustered(Ctx& ctx, const protocol::Hello& m) {
  sessions_.at(ctx.requester).hello_pending = true;
  ctx.fx.cluster.logins.push_back(LoginJob{ctx.requester, ctx.id, m.name, m.password, m.token,
                                           m.bot, !moderation_.settings().registrations_open,
                                           sessions_.at(ctx.requester).group,
                                           m.password && !m.token});
  ctx.id_used = true;  // complete_login answers
}

Effects Lobby::complete_login(const LoginOutcome& outcome, Instant now) {
  const LoginJob& job = outcome.job;
  if (job.password_check) password_check_done(job.address);
  // Counted even when the connection is gone: hanging up on a guess must not hide it.
  if (job.password_check && outcome.error && outcome.error->code == ErrorCode::AuthFailed)
    auth_budget_.failed(job.address, now.mono);
  const auto it = sessions_.find(job.session);
  Ctx ctx(job.session, job.id, now);
  if (it == sessions_.end()) {
    // Gone while the cluster decided: let go of the name it may have claimed for it.
    if (!outcome.error) ctx.fx.cluster.logouts.emplace_back(job.name, job.session);
    return std::move(ctx.fx);
  }
  it->second.hello_pending = false;
  if (outcome.error) {
    ctx.error(*outcome.error);
    if (!it->second.errors.allow(now.mono)) {
      ctx.send(job.session, protocol::make_error(ErrorCode::TooManyErrors,
                                                 "too many bad requests: closing the connection"));
      ctx.fx.close.push_back(job.session);
    }
    return std::move(ctx.fx);
  }
  // The row as the database has it now: another node may have changed the rating since this
  // one last saw the player.
  PlayerState& p = player_entry(job.name);
  p.row = outcome.row;
  p.row.name = job.name;
  login(ctx, job.name, job.bot, outcome.new_hash, job.token, outcome.games);
  return std::move(ctx.fx);
}

namespace {
// One pool per what must match; the text is only ever compared.
std::string seek_pool(const protocol::Seek& m) {
  return m.rules + "|" + to_json(m.time).dump() + "|" + (m.rated ? "r" : "c");
}
}  // namespace

void Lobby::seek_clustered(Ctx& ctx, const protocol::Seek& m, std::optional<Timestamp> kept_until) {
  if (!cluster_ready_) return ctx.error(ErrorCode::Unavailable, no_id_reason());
  const std::string& me = requester_name(ctx);
  const std::string pool = seek_pool(m);
  offers_.queue_seek(me, {pool, kept_until});
  // A kept seek is stored, for the node that puts it back in the queue should this one die; any
  // seek replaces the player's last, kept or not, in the queue and so in the table.
  if (kept_until)
    ctx.fx.writes.writes.emplace_back(
        offer_row(cluster_seek_id(me), me, m, std::nullopt, ctx.now.wall, *kept_until));
  else
    ctx.fx.writes.writes.emplace_back(OfferRemoved{cluster_seek_id(me)});
  ctx.fx.cluster.seeks.push_back(SeekJob{ctx.requester, ctx.id, me, pool, m});
  ctx.id_used = true;  // complete_seek answers
}

Effects Lobby::complete_seek(const SeekOutcome& outcome, Instant now) {
  const SeekJob& job = outcome.job;
  Ctx ctx(job.session, job.id, now);
  if (!sessions_.contains(job.session)) ctx.requester = 0;  // gone meanwhile
  if (outcome.error) {
    // Not in the queue: nor in the table (unless a newer seek of theirs replaced it there).
    if (const QueuedSeek* s = offers_.queued_seek(job.name)) {
      if (s->kept_until)
        ctx.fx.writes.writes.emplace_back(OfferRemoved{cluster_seek_id(job.name), s->kept_until});
      offers_.forget_queued_seek(job.name);
    }
    ctx.error(ErrorCode::Unavailable, *outcome.error);
    return std::move(ctx.fx);
  }
  if (!outcome.paired) {
    ctx.reply(protocol::Seeking{job.request.rules, job.request.time, job.request.rated});
    return std::move(ctx.fx);
  }
  if (const QueuedSeek* s = offers_.queued_seek(job.name); s && s->pool == job.pool)
    offers_.forget_queued_seek(job.name);
  // Both seeks are out of the queue: so are their rows, wherever they were made.
  for (const std::string* who : {&job.name, &outcome.opponent})
    ctx.fx.writes.writes.emplace_back(OfferRemoved{cluster_seek_id(*who)});
  // The player who waited: here, on another node, or gone meanwhile (then they start offline,
  // as a challenge's sender who dropped does).
  PlayerState& other = player_entry(outcome.opponent);
  if (other.row.name.empty()) {
    other.row = outcome.opponent_row.value_or(PlayerRow{});
    other.row.name = outcome.opponent;
  }
  if (outcome.opponent_session && !session_of(outcome.opponent))
    remote_session(
        ctx, *outcome.opponent_session,
        RemotePlayer{outcome.opponent, other.row.bot, other.row.rating, other.row.rated_games});
  auto v = variant(job.request.rules);
  if (!v) {
    ctx.error(ErrorCode::BadField, "rules: " + v.error());
    return std::move(ctx.fx);
  }
  const bool me_white = random_color() == Color::White;
  start_game(ctx, GameSettings{job.request.rules, *v, job.request.time, job.request.rated, {}},
             me_white ? job.name : outcome.opponent, me_white ? outcome.opponent : job.name, now);
  return std::move(ctx.fx);
}

// ---- leases, ids and takeovers -----------------------------------------------------------------

void Lobby::lease_taken(const std::string& key, std::int64_t token) {
  if (const auto k = ClusterKey::parse(key); k && k->is_game())
    if (const auto it = rooms_.find(k->id()); it != rooms_.end()) it->second.token = token;
}

Effects Lobby::lease_lost(const std::string& key, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto k = ClusterKey::parse(key);
  if (!k) return std::move(ctx.fx);
  if (k->is_challenge() && offers_.has_challenge(key)) {
    const ChallengeEntry c = *offers_.take_challenge(key);
    for (const std::string* who : {&c.from, &c.to})
      if (auto s = session_of(*who)) ctx.send(*s, protocol::ChallengeClosed{key, "expired"});
  } else if (k->is_tournament()) {
    // Another node directs it now; whoever watches it here asks again to follow it there.
    tournaments_.erase(k->id());
    tournament_watchers_.erase(k->id());
    std::erase_if(tournament_games_, [&](const auto& g) { return g.second == k->id(); });
  } else if (k->is_game()) {
    drop_room(ctx, k->id());
  }
  return std::move(ctx.fx);
}

void Lobby::drop_room(Ctx& ctx, GameId id) {
  const auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  Room& room = it->second;
  // Everyone who follows the game here starts again from the node that runs it now: a closed
  // connection comes back, logs in and finds the game where it is.
  std::set<SessionId> out(room.spectators.begin(), room.spectators.end());
  for (Color c : {Color::White, Color::Black})
    if (const auto& seat = room.game.seat(c)) {
      PlayerState& p = player(seat->name);
      p.seats.erase(id);
      p.open.erase(id);
      if (p.session) out.insert(*p.session);
    }
  for (SessionId s : out) {
    ctx.send(s, protocol::make_error(ErrorCode::Unavailable,
                                     "game " + std::to_string(id) +
                                         " moved to another server of the cluster: reconnect",
                                     std::to_string(id)));
    ctx.fx.close.push_back(s);
  }
  for (SessionId s : room.spectators)
    if (auto w = sessions_.find(s); w != sessions_.end()) w->second.watching.erase(id);
  clocked_.erase(id);
  rooms_.erase(it);
}

Effects Lobby::adopt(const StoredGame& stored, std::int64_t token, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  if (rooms_.contains(stored.row.id)) {
    rooms_.at(stored.row.id).token = token;
    return std::move(ctx.fx);
  }
  auto game = GameRoom::restore(stored, config_.claim_grace, now);
  if (!game) {
    restore_problems_.push_back(game.error());
    return std::move(ctx.fx);
  }
  const GameId id = game->id();
  Room& room = rooms_.emplace(id, Room{std::move(*game), {}, std::nullopt, token}).first->second;
  if (room.game.deadline()) clocked_.insert(id);
  for (Color c : {Color::White, Color::Black}) {
    const auto& seat = room.game.seat(c);
    PlayerState& p = player_entry(seat->name);
    if (p.row.name.empty()) {
      p.row.name = seat->name;
      p.row.bot = seat->bot;
    }
    p.seats.insert(id);
  }
  // Players connected anywhere see the game again: here, through a remote session, or on the
  // node the directory shows them on (their connection there stayed open when the game's node
  // died, and nothing else would tell them the game goes on here).
  for (Color c : {Color::White, Color::Black})
    if (const auto s = reach(ctx, room.game.seat(c)->name)) {
      ctx.send(*s, room.game.state(c, now, 0));
      route(ctx, room, room.game.set_online(c, true, now));
    }
  tell_seats(ctx, room);
  return std::move(ctx.fx);
}

Effects Lobby::adopt_offer(const OfferRow& offer, const std::optional<PlayerRow>& owner,
                           std::int64_t token, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  if (is_cluster_seek_id(offer.id)) {
    const auto decoded = protocol::decode_client(offer.request);
    const auto* seek = decoded ? std::get_if<protocol::Seek>(&decoded->message) : nullptr;
    const QueuedSeek* here = offers_.queued_seek(offer.owner);
    if (!seek || offer.expires_at <= now.wall || (here && here->kept_until == offer.expires_at))
      return std::move(ctx.fx);  // expired, or already this node's
    PlayerState& p = player_entry(offer.owner);
    if (p.row.name.empty()) {
      p.row = owner.value_or(PlayerRow{});
      p.row.name = offer.owner;
    }
    // Into the queue through this node, as a kept seek of this node's: nobody is answered (the
    // player is away), a pairing starts the game with them offline, and it expires here.
    const std::string pool = seek_pool(*seek);
    offers_.queue_seek(offer.owner, {pool, offer.expires_at});
    ctx.fx.cluster.seeks.push_back(SeekJob{0, std::nullopt, offer.owner, pool, *seek});
    return std::move(ctx.fx);
  }
  const auto key = ClusterKey::of_offer(offer.id);
  const bool open_game = key && key->is_game();
  if (open_game && rooms_.contains(key->id())) {
    rooms_.at(key->id()).token = token;
    return std::move(ctx.fx);
  }
  if (offers_.has_challenge(offer.id)) return std::move(ctx.fx);
  PlayerState& p = player_entry(offer.owner);
  if (p.row.name.empty()) {
    p.row = owner.value_or(PlayerRow{});
    p.row.name = offer.owner;
  }
  const std::size_t problems = restore_problems_.size();
  restore_offer(offer);
  if (restore_problems_.size() != problems || (!open_game && !offers_.has_challenge(offer.id))) {
    // Not an offer this node can run: let it go rather than hold it for nothing.
    ctx.fx.cluster.release.push_back(key ? key->text() : offer.id);
    return std::move(ctx.fx);
  }
  if (open_game) rooms_.at(key->id()).token = token;
  return std::move(ctx.fx);
}

void Lobby::add_game_ids(GameId first, int count) { ids_.add_block(first, count); }

std::vector<std::pair<std::string, std::int64_t>> Lobby::held_keys() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& [id, room] : rooms_) out.emplace_back(ClusterKey::game(id).text(), room.token);
  for (const auto& [id, c] : offers_.challenges()) out.emplace_back(id, 0);
  for (const auto& [id, t] : tournaments_) out.emplace_back(ClusterKey::tournament(id).text(), 0);
  return out;
}

// ---- the directory -----------------------------------------------------------------------------

Effects Lobby::set_peer(const std::string& node, PeerView view, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  if (node == config_.node) return {};
  peers_[node] = std::move(view);
  // Kept challenges held here for a player who is now connected there: they hear of it as if
  // they had logged in here.
  for (const auto& [id, c] : offers_.challenges()) {
    if (!c.kept_until) continue;
    for (const PeerPlayer& p : peers_[node].players) {
      const RemoteSession where{node, p.session};
      if (p.name != c.to || c.told == where || session_of(c.to)) continue;
      const SessionId s =
          remote_session(ctx, where, RemotePlayer{p.name, p.bot, p.rating, p.rated_games});
      if (s == 0) continue;
      offers_.told(id, where);
      ctx.send(s, challenge_received(id, c));
    }
  }
  return std::move(ctx.fx);
}

void Lobby::forget_peer(const std::string& node) { peers_.erase(node); }

PeerView Lobby::directory() const {
  PeerView view;
  view.games = listed_games();
  for (const auto& [name, p] : players_)
    if (p.session && !is_remote_session(*p.session))
      view.players.push_back({name, p.row.rating, p.row.rated_games, p.row.bot, *p.session});
  for (const auto& [id, room] : rooms_)
    if (room.game.status() == protocol::GameStatus::Active)
      for (Color c : {Color::White, Color::Black}) ++view.playing[room.game.seat(c)->name];
  return view;
}

}  // namespace amazons::server
