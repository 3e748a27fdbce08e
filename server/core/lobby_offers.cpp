// Matchmaking and correspondence: seeks, challenges, offers kept across disconnects and
// restarts, and whose turn it is.
#include "server/core/lobby.h"

#include <algorithm>

#include "server/core/auth.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;
using namespace lobby_detail;

// An offer read back after a restart. Expired ones are dropped by the next tick.
void Lobby::restore_offer(const OfferRow& row) {
  const auto problem = [&](const std::string& why) {
    restore_problems_.push_back("offer " + row.id + ": " + why);
  };
  const auto decoded = protocol::decode_client(row.request);
  if (!decoded) return problem(decoded.error().message);
  if (!players_.contains(row.owner)) player_entry(row.owner).row.name = row.owner;
  const std::uint64_t number = offer_number(row.id);
  if (const auto* create = std::get_if<protocol::Create>(&decoded->message);
      create && row.id[0] == 'g' && number > 0) {
    auto v = variant(create->rules);
    if (!v) return problem(v.error());
    const auto id = static_cast<GameId>(number);
    GameRoom game(id, GameSettings{create->rules, *v, create->time, create->rated, row.invite},
                  config_.claim_grace);
    game.sit(create->color == protocol::ColorChoice::Black ? Color::Black : Color::White,
             info_of(player(row.owner)));
    rooms_.emplace(id, Room{std::move(game), {}, row.expires_at});
    player(row.owner).open.insert(id);
    ids_.used(IdSource::Kind::Game, id);
  } else if (const auto* seek = std::get_if<protocol::Seek>(&decoded->message);
             seek && row.id[0] == 's' && number > 0) {
    offers_.restore_seek({row.owner, seek->rules, seek->time, seek->rated, row.id, row.expires_at},
                         number);
  } else if (const auto* challenge = std::get_if<protocol::ChallengeSend>(&decoded->message);
             challenge && row.id[0] == 'c' && number > 0) {
    if (!players_.contains(challenge->player))
      player_entry(challenge->player).row.name = challenge->player;
    offers_.add_challenge(row.id,
                          {row.owner, challenge->player, *challenge, row.expires_at, std::nullopt});
    ids_.used(IdSource::Kind::Challenge, static_cast<std::int64_t>(number));
  } else {
    problem("not an open game, seek or challenge");
  }
}

void Lobby::on(Ctx& ctx, const protocol::Seek& m) {
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  const std::string me = requester_name(ctx);
  const auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  if (m.time.correspondence() && correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  if (clustered()) return seek_clustered(ctx, m, *kept);
  const auto matches = [&](const SeekEntry& e) {
    return e.player != me && e.rules == m.rules && e.time == m.time && e.rated == m.rated &&
           (!m.time.correspondence() ||
            correspondence_games(e.player) < config_.max_correspondence_games);
  };
  // Only a seek that stays is capped; one that is answered at once starts a game.
  if (*kept && !offers_.any_seek(matches))
    if (auto room_for = may_keep_offer(ctx, std::nullopt, true); !room_for)
      return ctx.error(ErrorCode::RateLimited, room_for.error());
  if (const auto mine = offers_.take_seek_of(me)) remove_seek_row(ctx, *mine);
  const auto match = offers_.take_seek(matches);
  if (!match) {
    SeekEntry entry{me, m.rules, m.time, m.rated, {}, *kept};
    entry.address = sessions_.at(ctx.requester).group;
    if (*kept) {
      entry.id = offers_.new_seek_id();
      ctx.fx.writes.writes.emplace_back(
          offer_row(entry.id, me, m, std::nullopt, ctx.now.wall, **kept));
    }
    offers_.add_seek(std::move(entry));
    return ctx.reply(protocol::Seeking{m.rules, m.time, m.rated});
  }
  const std::string other = match->player;
  remove_seek_row(ctx, *match);
  const bool me_white = random_color() == Color::White;
  start_game(ctx, GameSettings{m.rules, *v, m.time, m.rated, std::nullopt}, me_white ? me : other,
             me_white ? other : me, ctx.now);
}

void Lobby::on(Ctx& ctx, const protocol::Unseek&) {
  const std::string& me = requester_name(ctx);
  if (clustered()) {
    // Wherever they made it: a kept seek outlives the connection it was made through.
    offers_.forget_queued_seek(me);
    ctx.fx.cluster.unseeks.push_back(me);
    ctx.fx.writes.writes.emplace_back(OfferRemoved{cluster_seek_id(me)});
  }
  if (const auto mine = offers_.take_seek_of(me)) remove_seek_row(ctx, *mine);
  ctx.reply(protocol::Ok{});
}

void Lobby::on(Ctx& ctx, const protocol::ChallengeSend& m) {
  const std::string& me = requester_name(ctx);
  auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  if (m.player == me)
    return ctx.error(ErrorCode::NoSuchPlayer, "no other player named " + m.player + " is online");
  // On a cluster the player may be connected to another node.
  const auto target = reach(ctx, m.player);
  // A challenge to a guest is not kept either: it would hold the guest's name once they left.
  // (A cluster node knows the rows of other nodes' players without their passwords: there the
  // challenge is kept as asked.)
  if (const auto it = players_.find(m.player);
      *kept && !clustered() && it != players_.end() && it->second.row.password_hash.empty())
    kept->reset();
  // A kept challenge may wait for a known player who is away. On a cluster it waits for whoever
  // logs in with the name, on any node, until it expires.
  const bool known = *kept && known_player(m.player);
  if (!target && !known)
    return ctx.error(ErrorCode::NoSuchPlayer, "no other player named " + m.player + " is online");
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  if (m.time.correspondence() && correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  if (*kept)
    if (auto room_for = may_keep_offer(ctx, m.player); !room_for)
      return ctx.error(ErrorCode::RateLimited, room_for.error());
  const std::int64_t number = new_id(ctx, IdSource::Kind::Challenge);
  if (number == 0) return ctx.error(ErrorCode::Unavailable, no_id_reason());
  const std::string id = "c" + std::to_string(number);
  ctx.fx.cluster.acquire.push_back(id);
  ChallengeEntry& entry = offers_.add_challenge(id, {me, m.player, m, *kept, std::nullopt});
  entry.address = sessions_.at(ctx.requester).group;
  if (*kept)
    ctx.fx.writes.writes.emplace_back(offer_row(id, me, m, std::nullopt, ctx.now.wall, **kept));
  ctx.reply(protocol::ChallengeSent{id, m.player});
  if (target) {
    entry.told = remote_of(*target);
    ctx.send(*target, challenge_received(id, entry));
  }
}

Expected<void, std::string> Lobby::may_keep_offer(const Ctx& ctx,
                                                  const std::optional<std::string>& challenged,
                                                  bool replaces_own_seek) const {
  const SessionState& s = sessions_.at(ctx.requester);
  const std::string& address = s.group;
  if (address.empty()) return {};
  // Counted afresh each time, as Offers::kept_from counts the seeks and challenges.
  const Offers::Kept kept = offers_.kept_from(
      address, challenged, replaces_own_seek ? std::optional(*s.player) : std::nullopt);
  std::size_t offers = kept.offers;
  const std::size_t to_them = kept.to_challenged;
  for (const auto& [id, room] : rooms_)
    if (room.kept_until && room.address == address) ++offers;
  if (challenged && to_them >= config_.max_kept_challenges_per_player)
    return Unexpected("too many challenges to " + *challenged + " kept from your address (" +
                      std::to_string(config_.max_kept_challenges_per_player) +
                      "): wait until they are answered or expire");
  if (offers >= config_.max_kept_offers_per_address)
    return Unexpected("too many offers kept from your address (" +
                      std::to_string(config_.max_kept_offers_per_address) +
                      "): withdraw some or wait until they expire");
  return {};
}

protocol::ChallengeReceived Lobby::challenge_received(const std::string& id,
                                                      const ChallengeEntry& c) const {
  const PlayerState& from = players_.at(c.from);
  return protocol::ChallengeReceived{
      id,
      {c.from, rounded(from.row.rating.rating), from.row.bot},
      c.request.rules,
      c.request.time,
      c.request.color,
      c.request.rated,
      c.kept_until ? std::optional(format_timestamp(*c.kept_until)) : std::nullopt};
}

void Lobby::on(Ctx& ctx, const protocol::Accept& m) {
  const std::string& me = requester_name(ctx);
  const ChallengeEntry* found = offers_.challenge(m.challenge);
  if (!found || found->to != me)
    return ctx.error(ErrorCode::NoSuchChallenge, "no challenge " + m.challenge + " for you");
  const ChallengeEntry c = *found;
  if (c.request.time.correspondence() &&
      (correspondence_games(me) >= config_.max_correspondence_games ||
       correspondence_games(c.from) >= config_.max_correspondence_games))
    return ctx.error(ErrorCode::NotAllowed, "too many correspondence games to start another");
  offers_.take_challenge(m.challenge);
  ctx.fx.cluster.release.push_back(m.challenge);
  if (c.kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{m.challenge});
  auto v = variant(c.request.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  const bool sender_white =
      c.request.color == protocol::ColorChoice::White ||
      (c.request.color == protocol::ColorChoice::Random && random_color() == Color::White);
  start_game(ctx, GameSettings{c.request.rules, *v, c.request.time, c.request.rated, std::nullopt},
             sender_white ? c.from : c.to, sender_white ? c.to : c.from, ctx.now);
}

void Lobby::on(Ctx& ctx, const protocol::Decline& m) {
  const std::string& me = requester_name(ctx);
  const ChallengeEntry* c = offers_.challenge(m.challenge);
  if (!c || (c->to != me && c->from != me))
    return ctx.error(ErrorCode::NoSuchChallenge, "no challenge " + m.challenge + " for you");
  const std::string other = c->to == me ? c->from : c->to;
  if (c->kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{m.challenge});
  offers_.take_challenge(m.challenge);
  ctx.fx.cluster.release.push_back(m.challenge);
  ctx.reply(protocol::Ok{});
  if (auto s = session_of(other)) ctx.send(*s, protocol::ChallengeClosed{m.challenge, "declined"});
}

// ---- correspondence: kept offers and whose turn it is ------------------------------------------

Expected<std::optional<Timestamp>, std::string> Lobby::offer_expiry(
    const Ctx& ctx, const std::optional<std::int64_t>& lifetime, const TimeControl& time) const {
  if (lifetime) {
    const auto max_seconds = config_.max_offer_lifetime.count() / 1000;
    if (*lifetime < 1 || *lifetime > max_seconds)
      return Unexpected("lifetime: must be 1 to " + std::to_string(max_seconds) + " seconds");
  }
  // Only registered players (a name with a password) keep offers beyond their connection: a
  // guest's name is free for anyone once the guest leaves, so nothing of a guest's may hold it
  // for weeks, nor fill the lobby under throwaway names (issue 35). A session of another node
  // was let in there; its node knows the player, this one may not.
  if (!is_remote_session(ctx.requester))
    if (const auto me = players_.find(requester_name(ctx));
        me == players_.end() || me->second.row.password_hash.empty())
      return std::optional<Timestamp>();
  if (lifetime) return std::optional<Timestamp>(ctx.now.wall + std::chrono::seconds(*lifetime));
  if (time.correspondence()) return std::optional<Timestamp>(ctx.now.wall + config_.offer_lifetime);
  return std::optional<Timestamp>();
}

void Lobby::remove_seek_row(Ctx& ctx, const SeekEntry& seek) {
  if (seek.kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{seek.id});
}

void Lobby::expire_offers(Ctx& ctx) {
  // Lifetimes are days or hours: once a second is often enough, and spares the hot path.
  constexpr Millis kExpiryCheckInterval{1000};
  if (ctx.now.mono < next_expiry_check_) return;
  next_expiry_check_ = ctx.now.mono + kExpiryCheckInterval;
  const auto expired = [&](const std::optional<Timestamp>& until) {
    return until && *until <= ctx.now.wall;
  };
  std::vector<GameId> games;
  for (const auto& [id, room] : rooms_)
    if (room.game.status() == protocol::GameStatus::Open && expired(room.kept_until))
      games.push_back(id);
  for (GameId id : games) cancel_open_game(ctx, id);
  Offers::Expired gone = offers_.expire(ctx.now.wall);
  for (const SeekEntry& seek : gone.seeks) ctx.fx.writes.writes.emplace_back(OfferRemoved{seek.id});
  // Cluster mode: a kept seek of this node's in the pairing queue.
  for (const auto& [player, seek] : gone.queued_seeks) {
    ctx.fx.cluster.drop_seeks.push_back(player);
    ctx.fx.writes.writes.emplace_back(OfferRemoved{cluster_seek_id(player), seek.kept_until});
  }
  for (const auto& [id, c] : gone.challenges) {
    ctx.fx.writes.writes.emplace_back(OfferRemoved{id});
    for (const std::string* who : {&c.from, &c.to})
      if (auto session = session_of(*who))
        ctx.send(*session, protocol::ChallengeClosed{id, "expired"});
    ctx.fx.cluster.release.push_back(id);
  }
}

bool Lobby::holds_offers(const std::string& name) const {
  const auto it = players_.find(name);
  if (it != players_.end() && !it->second.open.empty()) return true;
  return offers_.involve(name);
}

std::size_t Lobby::correspondence_games_here(const std::string& name) const {
  const auto it = players_.find(name);
  if (it == players_.end()) return 0;
  std::size_t n = 0;
  for (GameId g : it->second.seats)
    if (rooms_.at(g).game.settings().time.correspondence()) ++n;
  return n;
}

std::size_t Lobby::correspondence_games(const std::string& name) const {
  std::size_t n = correspondence_games_here(name);
  const auto session = session_of(name);
  if (!session) return n;
  const SessionState& s = sessions_.at(*session);
  // A player of another node: their node counted every node's, this one's as it last heard.
  if (is_remote_session(*session))
    return std::max(n, static_cast<std::size_t>(std::max(0, s.reported_correspondence)));
  for (const auto& [node, games] : s.elsewhere)
    n += static_cast<std::size_t>(std::max(0, games.correspondence));
  return n;
}

protocol::YourTurn Lobby::your_turn(const std::string& name, Instant now) const {
  protocol::YourTurn out;
  const auto it = players_.find(name);
  if (it == players_.end()) return out;
  for (GameId g : it->second.seats) {
    const GameRoom& game = rooms_.at(g).game;
    const auto me = game.color_of(name);
    if (game.status() != protocol::GameStatus::Active || !me ||
        game.position().side_to_move() != *me || !game.settings().time.correspondence())
      continue;
    protocol::TurnInfo t;
    t.game = game.id_text();
    t.opponent = game.seat(~*me)->name;
    t.rules = game.settings().rules;
    t.time = game.settings().time;
    t.plies = game.plies();
    if (const auto left = game.time_left(*me, now.mono)) {
      t.left_ms = left->count();
      t.deadline = format_timestamp(now.wall + *left);
    }
    out.games.push_back(std::move(t));
  }
  // Cluster mode: the games other nodes run, as they last said, their time left counted on.
  if (const auto s = it->second.session; s && !is_remote_session(*s))
    for (const auto& [node, games] : sessions_.at(*s).elsewhere)
      for (protocol::TurnInfo t : games.turns) {
        if (t.left_ms)
          *t.left_ms = std::max<std::int64_t>(0, *t.left_ms - (now.mono - games.received).count());
        out.games.push_back(std::move(t));
      }
  return out;
}

void Lobby::tell_turns(Ctx& ctx, const std::string& name) {
  const auto session = session_of(name);
  if (!session) return;
  if (const auto r = remote_of(*session))
    ctx.fx.cluster.turns.push_back(TurnsElsewhere{
        *r, your_turn(name, ctx.now), static_cast<int>(correspondence_games_here(name))});
  else
    ctx.send(*session, your_turn(name, ctx.now));
}

void Lobby::tell_seats(Ctx& ctx, const Room& room) {
  if (!room.game.settings().time.correspondence()) return;
  const std::string& to_move = room.game.seat(room.game.position().side_to_move())->name;
  if (room.game.status() == protocol::GameStatus::Active) tell_turns(ctx, to_move);
  if (!clustered()) return;
  for (Color c : {Color::White, Color::Black}) {
    const std::string& name = room.game.seat(c)->name;
    if (room.game.status() == protocol::GameStatus::Active && name == to_move) continue;
    if (const auto s = session_of(name); s && is_remote_session(*s)) tell_turns(ctx, name);
  }
}

}  // namespace amazons::server
