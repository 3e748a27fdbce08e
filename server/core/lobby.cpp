// The lobby's frame: construction from stored state, sessions coming and going, dispatch of
// requests, the tick, shutdown and the status figures. The handlers live in lobby_*.cpp by concern.
#include "server/core/lobby.h"

#include <algorithm>
#include <concepts>

#include "server/core/address_group.h"
#include "server/core/auth.h"
#include "server/core/cluster_key.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;
using namespace lobby_detail;

namespace {
// What a player may not ask: every moderation request but a report.
template <class M>
constexpr bool moderators_only =
    std::is_same_v<M, protocol::Mute> || std::is_same_v<M, protocol::Unmute> ||
    std::is_same_v<M, protocol::Kick> || std::is_same_v<M, protocol::Ban> ||
    std::is_same_v<M, protocol::Unban> || std::is_same_v<M, protocol::Adjudicate> ||
    std::is_same_v<M, protocol::RemoveChat> || std::is_same_v<M, protocol::AuditRequest> ||
    std::is_same_v<M, protocol::SanctionsRequest> || std::is_same_v<M, protocol::ReportsRequest> ||
    std::is_same_v<M, protocol::Resolve>;
// Requests about one tournament, which on a cluster the node directing it answers.
template <class M>
constexpr bool names_a_tournament =
    std::is_same_v<M, protocol::TournamentShow> || std::is_same_v<M, protocol::TournamentJoin> ||
    std::is_same_v<M, protocol::TournamentWithdraw>;
// Requests about one game, which the node that runs the game answers.
template <class M>
constexpr bool names_a_game =
    std::is_same_v<M, protocol::Join> || std::is_same_v<M, protocol::Watch> ||
    std::is_same_v<M, protocol::Leave> || std::is_same_v<M, protocol::MoveMsg> ||
    std::is_same_v<M, protocol::Resign> || std::is_same_v<M, protocol::Abort> ||
    std::is_same_v<M, protocol::Claim> || std::is_same_v<M, protocol::Rematch> ||
    std::is_same_v<M, protocol::ChatSend> || std::is_same_v<M, protocol::Adjudicate>;
// What a connection may ask before its hello: looking around, never acting.
bool open_before_hello(const protocol::ClientMessage& m) {
  return std::holds_alternative<protocol::List>(m) || std::holds_alternative<protocol::Watch>(m) ||
         std::holds_alternative<protocol::Leave>(m);
}
}  // namespace

Lobby::Lobby(LobbyConfig config, const LoadedState& state, Instant now)
    : config_(std::move(config)),
      ids_(config_.node ? IdSource::from_blocks(kGameIdBlock) : IdSource::counting()),
      rng_(std::random_device{}()),
      moderation_(state.moderation, state.sanctions, state.open_reports),
      auth_budget_(config_.auth_budget) {
  ids_.used(IdSource::Kind::Report, state.last_report_id);
  // A cluster node starts with nothing of its own: the games it runs are the ones it takes over
  // (Lobby::adopt) or starts, and players' rows are read fresh at login, since other nodes
  // change them.
  if (clustered()) return;
  for (const PlayerRow& row : state.players) player_entry(row.name).row = row;
  ids_.used(IdSource::Kind::Game, state.last_game_id);
  for (const StoredGame& stored : state.unfinished) {
    auto room = GameRoom::restore(stored, config_.claim_grace, now);
    if (!room) {
      restore_problems_.push_back(room.error());
      continue;
    }
    for (Color c : {Color::White, Color::Black}) {
      const std::string& name = room->seat(c)->name;
      if (!players_.contains(name)) player_entry(name).row.name = name;
      player_entry(name).seats.insert(room->id());
    }
    if (room->deadline()) clocked_.insert(room->id());
    rooms_.emplace(room->id(), Room{std::move(*room), {}, std::nullopt});
  }
  for (const OfferRow& offer : state.offers) restore_offer(offer);
  for (const TournamentRow& row : state.tournaments) restore_tournament(row);
}

Effects Lobby::connect(SessionId session, Instant now, ConnectionInfo info) {
  const std::string address = info.address;
  sessions_.emplace(session,
                    SessionState{std::nullopt,
                                 false,
                                 info,
                                 address_group(info.address),
                                 {},
                                 RateLimiter(config_.requests_per_second, config_.requests_burst),
                                 RateLimiter(config_.errors_per_second, config_.errors_burst),
                                 RateLimiter(config_.chat_per_second, config_.chat_burst)});
  Ctx ctx(0, std::nullopt, now);
  refuse_address(ctx, session, address);
  return std::move(ctx.fx);
}

Effects Lobby::disconnect(SessionId session, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto it = sessions_.find(session);
  if (it == sessions_.end()) return {};
  for (GameId g : it->second.watching)
    if (auto r = rooms_.find(g); r != rooms_.end()) r->second.spectators.erase(session);
  for (auto& [id, watchers] : tournament_watchers_) watchers.erase(session);
  if (it->second.player) {
    const std::string name = *it->second.player;
    PlayerState& p = player(name);
    if (p.session == session && is_remote_session(session))
      if (const auto other = other_remote_session(name, session)) {
        // A session of theirs on another node that is still here takes over: a stale one (an
        // attach sent for a connection that closed while it was on its way) must not leave the
        // player offline, nor their connection unheard. What went to the one that closed is sent
        // again as each game's state.
        p.session = *other;
        for (GameId g : p.seats) {
          const Room& room = rooms_.at(g);
          ctx.send(*other, room.game.state(*room.game.color_of(name), now,
                                           static_cast<int>(room.spectators.size())));
        }
      }
    if (p.session == session) {
      p.session.reset();
      if (clustered() && !is_remote_session(session)) {
        ctx.fx.cluster.logouts.emplace_back(name, session);
        // A kept seek (correspondence, or with a lifetime) waits in the queue while they are away.
        if (const QueuedSeek* seek = offers_.queued_seek(name); seek && !seek->kept_until) {
          offers_.forget_queued_seek(name);
          ctx.fx.cluster.drop_seeks.push_back(name);
        }
      }
      // Kept offers (correspondence, or with a lifetime) stay while their creator is away.
      for (const auto& [id, c] : offers_.player_left(name)) {
        const std::string& other = c.from == name ? c.to : c.from;
        if (auto s = session_of(other)) ctx.send(*s, protocol::ChallengeClosed{id, "offline"});
        ctx.fx.cluster.release.push_back(id);
      }
      for (GameId g : std::vector<GameId>(p.open.begin(), p.open.end()))
        if (!rooms_.at(g).kept_until) cancel_open_game(ctx, g);
      for (GameId g : p.seats) {
        Room& room = rooms_.at(g);
        route(ctx, room, room.game.set_online(*room.game.color_of(name), false, now));
      }
    }
  }
  if (it->second.hello_pending)
    if (const auto w = password_waiting_.find(it->second.group); w != password_waiting_.end()) {
      std::erase_if(w->second, [&](const PasswordJob& j) { return j.session == session; });
      if (w->second.empty()) password_waiting_.erase(w);
    }
  sessions_.erase(session);
  if (const auto r = remote_.find(session); r != remote_.end()) {
    remote_ids_.erase(r->second);
    remote_.erase(r);
  }
  return std::move(ctx.fx);
}

Effects Lobby::handle_line(SessionId session, std::string_view line, Instant now) {
  return handle(session, protocol::decode_client(line), now);
}

Effects Lobby::handle(SessionId session,
                      const Expected<protocol::ClientEnvelope, protocol::DecodeError>& request,
                      Instant now) {
  const auto it = sessions_.find(session);
  if (it == sessions_.end()) return {};
  SessionState& s = it->second;
  Ctx ctx(session, request ? request->id : request.error().id, now);
  bool close = false;
  if (!s.requests.allow(now.mono)) {
    ctx.error(ErrorCode::RateLimited, "too many requests: slow down");
  } else if (!request) {
    ctx.error(request.error().code, request.error().message);
    close = request.error().code == ErrorCode::LineTooLong;
  } else {
    dispatch(ctx, request->message);
  }
  if (ctx.errored && !s.errors.allow(now.mono)) {
    ctx.send(session, protocol::make_error(ErrorCode::TooManyErrors,
                                           "too many bad requests: closing the connection"));
    close = true;
  }
  if (close) ctx.fx.close.push_back(session);
  return std::move(ctx.fx);
}

void Lobby::dispatch(Ctx& ctx, const protocol::ClientMessage& message) {
  const auto handle = [&] { std::visit([&](const auto& m) { on(ctx, m); }, message); };
  // The connection's own: liveness and the hello.
  if (std::holds_alternative<protocol::Ping>(message) ||
      std::holds_alternative<protocol::Pong>(message) ||
      std::holds_alternative<protocol::Hello>(message))
    return handle();
  // A visitor who has not said hello may look around: the lobby's list, and watching a game (a
  // private one with its invite code, within the address's guessing budget). A server with a
  // password shows nothing before it.
  const SessionState& s = sessions_.at(ctx.requester);
  if (!s.player && !(open_before_hello(message) && !config_.server_password))
    return ctx.error(ErrorCode::NotLoggedIn, "say hello first");
  // Every request that names a clock (create, seek, challenge, tournament_create, and any added
  // later) is held to the clocks the server plays here, before anything acts on it: a clock that
  // flags before a first move is a rating trap (issue 35). The answer is the codec's for a clock
  // it cannot read, so a client cannot tell the two checks apart.
  const auto clock = std::visit(
      [](const auto& m) -> Expected<void, std::string> {
        if constexpr (requires {
                        { m.time } -> std::convertible_to<const TimeControl&>;
                      })
          return check_playable(m.time);
        else
          return {};
      },
      message);
  if (!clock) return ctx.error(ErrorCode::BadField, "time: " + clock.error());
  // A cluster node hands a request about a game, challenge or tournament it does not run to the
  // node that does.
  if (clustered()) {
    // A chat line is kept by the node running its game: reports and removals of it go there.
    std::optional<std::int64_t> line;
    if (const auto* r = std::get_if<protocol::Report>(&message)) line = r->line;
    if (const auto* r = std::get_if<protocol::RemoveChat>(&message)) line = r->line;
    if (line && *line > 0 && hand_on(ctx, std::to_string(*line >> kChatLineGameShift), message))
      return;
    const std::optional<std::string> key = std::visit(
        [](const auto& m) -> std::optional<std::string> {
          using M = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<M, protocol::Accept> || std::is_same_v<M, protocol::Decline>)
            return m.challenge;
          else if constexpr (names_a_game<M>)
            return m.game;
          else if constexpr (names_a_tournament<M>)
            return m.id > 0 ? std::optional(ClusterKey::tournament(m.id).text()) : std::nullopt;
          else
            return std::nullopt;
        },
        message);
    if (key && hand_on(ctx, *key, message)) return;
  }
  const bool for_moderators =
      std::visit([](const auto& m) { return moderators_only<std::decay_t<decltype(m)>>; }, message);
  if (for_moderators && role_of(*s.player) == protocol::Role::Player)
    return ctx.error(ErrorCode::Forbidden, "moderators only: you are not a moderator here");
  handle();
}

const std::string& Lobby::requester_name(const Ctx& ctx) const {
  return *sessions_.at(ctx.requester).player;
}

void Lobby::on(Ctx& ctx, const protocol::Ping&) { ctx.reply(protocol::Pong{}); }
void Lobby::on(Ctx&, const protocol::Pong&) {}

Effects Lobby::tick(Instant now) {
  Ctx ctx(0, std::nullopt, now);
  std::vector<GameId> due;
  for (GameId id : clocked_)
    if (const auto d = rooms_.at(id).game.deadline(); d && *d <= now.mono) due.push_back(id);
  for (GameId id : due) {
    Room& room = rooms_.at(id);
    route(ctx, room, room.game.tick(now));
  }
  expire_offers(ctx);
  tick_tournaments(ctx);
  if (now.mono >= next_budget_sweep_) {
    auth_budget_.forget_recovered(now.mono);
    next_budget_sweep_ = now.mono + Millis{10'000};
  }
  while (!finished_order_.empty() &&
         now.mono - finished_order_.front().first >= config_.finished_retention) {
    const auto it = rooms_.find(finished_order_.front().second);
    finished_order_.pop_front();
    if (it == rooms_.end()) continue;
    for (SessionId s : it->second.spectators) sessions_.at(s).watching.erase(it->first);
    ctx.fx.cluster.release.push_back(std::to_string(it->first));
    rooms_.erase(it);
  }
  return std::move(ctx.fx);
}

Effects Lobby::shutdown(const std::string& message) {
  Ctx ctx(0, std::nullopt, Instant{});
  std::vector<SessionId> local, remote;
  for (const auto& [id, s] : sessions_) (is_remote_session(id) ? remote : local).push_back(id);
  ctx.send_all(local, protocol::Shutdown{message});
  // Players of other nodes are not losing their server, only the node that ran their games:
  // their node closes their connection, and they find the games on the node that takes them.
  ctx.send_all(remote,
               protocol::make_error(ErrorCode::Unavailable,
                                    "the server running your game is restarting: reconnect"));
  ctx.fx.close = local;
  ctx.fx.close.insert(ctx.fx.close.end(), remote.begin(), remote.end());
  return std::move(ctx.fx);
}

std::size_t Lobby::online_players() const {
  return static_cast<std::size_t>(
      std::count_if(players_.begin(), players_.end(), [](const auto& p) {
        return p.second.session.has_value() && !is_remote_session(*p.second.session);
      }));
}

Lobby::GameCounts Lobby::game_counts() const {
  GameCounts c;
  for (const auto& [id, room] : rooms_) {
    const auto status = room.game.status();
    c.open += status == protocol::GameStatus::Open;
    c.active += status == protocol::GameStatus::Active;
  }
  return c;
}

std::size_t Lobby::active_games() const {
  return static_cast<std::size_t>(std::count_if(rooms_.begin(), rooms_.end(), [](const auto& r) {
    return r.second.game.status() == protocol::GameStatus::Active;
  }));
}

protocol::DiscoveryReply Lobby::discovery_info() const {
  protocol::DiscoveryReply r;
  r.name = config_.server_name;
  r.players = static_cast<int>(online_players());
  r.games = static_cast<int>(active_games());
  r.password = config_.server_password.has_value();
  return r;
}

}  // namespace amazons::server
