#include "server/lobby.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/notation.h"
#include "server/auth.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;

namespace {

constexpr std::size_t kMaxNameBytes = 32;
constexpr std::size_t kMaxPasswordBytes = 256;
constexpr std::size_t kInviteLength = 10;
constexpr int kMaxListLimit = 100;

std::optional<std::string> name_problem(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameBytes)
    return "name: must be 1 to " + std::to_string(kMaxNameBytes) + " characters";
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return "name: only letters, digits, '_', '-' and '.' are allowed";
  }
  return std::nullopt;
}

std::optional<GameId> parse_game_id(const std::string& text) {
  GameId id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

int rounded(double v) { return static_cast<int>(std::lround(v)); }

// The number after an offer id's letter ("c12" -> 12), 0 when there is none.
std::uint64_t offer_number(const std::string& id) {
  std::uint64_t n = 0;
  if (id.size() < 2) return 0;
  const auto [end, ec] = std::from_chars(id.data() + 1, id.data() + id.size(), n);
  return ec == std::errc() && end == id.data() + id.size() ? n : 0;
}

OfferRow offer_row(std::string id, std::string owner, const protocol::ClientMessage& request,
                   std::optional<std::string> invite, Timestamp now, Timestamp expires) {
  return {std::move(id), std::move(owner), protocol::encode(request), std::move(invite),
          now,           expires};
}

}  // namespace

void Effects::append(Effects&& other) {
  for (auto& m : other.messages) messages.push_back(std::move(m));
  writes.append(std::move(other.writes));
  for (auto& q : other.queries) queries.push_back(std::move(q));
  for (auto& j : other.password_jobs) password_jobs.push_back(std::move(j));
  for (auto s : other.close) close.push_back(s);
  for (auto e : other.errors) errors.push_back(e);
}

// The effects of one request (or tick), and who asked: the first message to the requester
// carries the request id.
class Lobby::Ctx {
 public:
  Ctx(SessionId who, protocol::RequestId request_id, Instant at)
      : requester(who), id(std::move(request_id)), now(at) {}

  void send(SessionId to, const ServerMessage& m) {
    if (const auto* e = std::get_if<protocol::Error>(&m)) fx.errors.push_back(e->code);
    if (to == 0) return;
    if (to == requester && id && !id_used) {
      id_used = true;
      push(to, std::make_shared<const std::string>(protocol::encode(m, id)));
      return;
    }
    push(to, std::make_shared<const std::string>(protocol::encode(m)));
  }
  void send_all(const std::vector<SessionId>& to, const ServerMessage& m) {
    std::shared_ptr<const std::string> shared;
    for (SessionId s : to) {
      if (s == requester && id && !id_used) {
        send(s, m);
        continue;
      }
      if (!shared) shared = std::make_shared<const std::string>(protocol::encode(m));
      push(s, shared);
    }
  }
  void reply(const ServerMessage& m) { send(requester, m); }
  void error(ErrorCode code, std::string message, std::optional<std::string> game = {}) {
    errored = true;
    reply(protocol::make_error(code, std::move(message), std::move(game)));
  }
  void error(const protocol::Error& e) {
    errored = true;
    reply(e);
  }

  Effects fx;
  SessionId requester;
  protocol::RequestId id;
  Instant now;
  bool id_used = false;
  bool errored = false;

 private:
  void push(SessionId to, std::shared_ptr<const std::string> line) {
    fx.messages.push_back({to, std::move(line)});
  }
};

Lobby::Lobby(LobbyConfig config, const LoadedState& state, Instant now)
    : config_(std::move(config)), rng_(std::random_device{}()) {
  for (const PlayerRow& row : state.players) players_[row.name].row = row;
  next_game_id_ = state.last_game_id + 1;
  for (const StoredGame& stored : state.unfinished) {
    auto room = GameRoom::restore(stored, config_.claim_grace, now);
    if (!room) {
      restore_problems_.push_back(room.error());
      continue;
    }
    for (Color c : {Color::White, Color::Black}) {
      const std::string& name = room->seat(c)->name;
      if (!players_.contains(name)) players_[name].row.name = name;
      players_[name].seats.insert(room->id());
    }
    if (room->deadline()) clocked_.insert(room->id());
    rooms_.emplace(room->id(), Room{std::move(*room), {}, std::nullopt});
  }
  for (const OfferRow& offer : state.offers) restore_offer(offer);
}

// An offer read back after a restart. Expired ones are dropped by the next tick.
void Lobby::restore_offer(const OfferRow& row) {
  const auto problem = [&](const std::string& why) {
    restore_problems_.push_back("offer " + row.id + ": " + why);
  };
  const auto decoded = protocol::decode_client(row.request);
  if (!decoded) return problem(decoded.error().message);
  if (!players_.contains(row.owner)) players_[row.owner].row.name = row.owner;
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
    next_game_id_ = std::max(next_game_id_, id + 1);
  } else if (const auto* seek = std::get_if<protocol::Seek>(&decoded->message);
             seek && row.id[0] == 's' && number > 0) {
    seeks_.push_back({row.owner, seek->rules, seek->time, seek->rated, row.id, row.expires_at});
    next_seek_ = std::max(next_seek_, number + 1);
  } else if (const auto* challenge = std::get_if<protocol::ChallengeSend>(&decoded->message);
             challenge && row.id[0] == 'c' && number > 0) {
    if (!players_.contains(challenge->player))
      players_[challenge->player].row.name = challenge->player;
    challenges_[row.id] = {row.owner, challenge->player, *challenge, row.expires_at};
    next_challenge_ = std::max(next_challenge_, number + 1);
  } else {
    problem("not an open game, seek or challenge");
  }
}

Effects Lobby::connect(SessionId session, Instant, ConnectionInfo info) {
  sessions_.emplace(session,
                    SessionState{std::nullopt,
                                 false,
                                 info,
                                 {},
                                 RateLimiter(config_.requests_per_second, config_.requests_burst),
                                 RateLimiter(config_.errors_per_second, config_.errors_burst),
                                 RateLimiter(config_.chat_per_second, config_.chat_burst)});
  return {};
}

Effects Lobby::disconnect(SessionId session, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto it = sessions_.find(session);
  if (it == sessions_.end()) return {};
  for (GameId g : it->second.watching)
    if (auto r = rooms_.find(g); r != rooms_.end()) r->second.spectators.erase(session);
  if (it->second.player) {
    const std::string name = *it->second.player;
    PlayerState& p = player(name);
    if (p.session == session) {
      p.session.reset();
      // Kept offers (correspondence, or with a lifetime) stay while their creator is away.
      std::erase_if(seeks_, [&](const SeekEntry& s) { return s.player == name && !s.kept_until; });
      drop_challenges_of(ctx, name);
      for (GameId g : std::vector<GameId>(p.open.begin(), p.open.end()))
        if (!rooms_.at(g).kept_until) cancel_open_game(ctx, g);
      for (GameId g : p.seats) {
        Room& room = rooms_.at(g);
        route(ctx, room, room.game.set_online(*room.game.color_of(name), false, now));
      }
    }
  }
  sessions_.erase(session);
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
  SessionState& s = sessions_.at(ctx.requester);
  if (std::holds_alternative<protocol::Ping>(message)) return ctx.reply(protocol::Pong{});
  if (std::holds_alternative<protocol::Pong>(message)) return;
  if (const auto* hello = std::get_if<protocol::Hello>(&message)) {
    if (s.player || s.hello_pending)
      return ctx.error(ErrorCode::AlreadyLoggedIn, "this connection has already said hello");
    return on_hello(ctx, *hello);
  }
  if (!s.player) return ctx.error(ErrorCode::NotLoggedIn, "say hello first");

  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, protocol::Create>) {
          on_create(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::List>) {
          on_list(ctx);
        } else if constexpr (std::is_same_v<M, protocol::Join>) {
          on_join(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Watch>) {
          on_watch(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Leave>) {
          on_leave(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::MoveMsg> ||
                             std::is_same_v<M, protocol::Resign> ||
                             std::is_same_v<M, protocol::Abort> ||
                             std::is_same_v<M, protocol::Claim>) {
          on_game_request(ctx, m.game, message);
        } else if constexpr (std::is_same_v<M, protocol::Rematch>) {
          on_rematch(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::ChatSend>) {
          on_chat(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Seek>) {
          on_seek(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Unseek>) {
          const std::string& me = *sessions_.at(ctx.requester).player;
          const auto it = std::find_if(seeks_.begin(), seeks_.end(),
                                       [&](const SeekEntry& e) { return e.player == me; });
          if (it != seeks_.end()) remove_seek(ctx, it);
          ctx.reply(protocol::Ok{});
        } else if constexpr (std::is_same_v<M, protocol::ChallengeSend>) {
          on_challenge(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Accept>) {
          on_accept(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Decline>) {
          on_decline(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Players>) {
          on_players(ctx);
        } else if constexpr (std::is_same_v<M, protocol::HistoryRequest>) {
          on_history(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::RecordRequest>) {
          on_record(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::LeaderboardRequest>) {
          on_leaderboard(ctx, m);
        } else if constexpr (std::is_same_v<M, protocol::Turns>) {
          ctx.reply(your_turn(*s.player, ctx.now));
        }
      },
      message);
}

// ---- players ----------------------------------------------------------------------------------

void Lobby::on_hello(Ctx& ctx, const protocol::Hello& m) {
  if (m.protocol != protocol::kVersion)
    return ctx.error(ErrorCode::ProtocolVersion,
                     "this server speaks protocol " + std::to_string(protocol::kVersion));
  if ((m.password || m.server_password) && !config_.allow_plain_passwords &&
      !sessions_.at(ctx.requester).connection.private_channel)
    return ctx.error(ErrorCode::TlsRequired,
                     "this server takes passwords over TLS only: connect with tls://host:port "
                     "(or the TLS switch), so that nobody on the way can read it");
  if (config_.server_password &&
      !equal_secret(m.server_password.value_or(""), *config_.server_password))
    return ctx.error(ErrorCode::AuthFailed, "this server needs the right server_password");
  if (auto problem = name_problem(m.name)) return ctx.error(ErrorCode::BadField, *problem);
  if (m.password && (m.password->empty() || m.password->size() > kMaxPasswordBytes))
    return ctx.error(ErrorCode::BadField,
                     "password: must be 1 to " + std::to_string(kMaxPasswordBytes) + " bytes");

  const auto existing = players_.find(m.name);
  if (m.token) {
    if (existing == players_.end() || existing->second.row.token_digest.empty() ||
        !equal_secret(token_digest(*m.token), existing->second.row.token_digest))
      return ctx.error(ErrorCode::AuthFailed, "the token is not valid for this name");
    return login(ctx, m.name, m.bot, std::nullopt, m.token);
  }
  const bool has_password =
      existing != players_.end() && !existing->second.row.password_hash.empty();
  const bool busy =
      existing != players_.end() && (existing->second.session.has_value() ||
                                     !existing->second.seats.empty() || holds_offers(m.name));
  if (m.password) {
    if (!has_password && busy)
      return ctx.error(ErrorCode::NameTaken,
                       "that name is in use; its owner can resume with the token");
    sessions_.at(ctx.requester).hello_pending = true;
    ctx.fx.password_jobs.push_back(PasswordJob{
        ctx.requester, ctx.id, m.name, *m.password, m.bot,
        has_password ? std::optional(existing->second.row.password_hash) : std::nullopt});
    return;
  }
  if (has_password) return ctx.error(ErrorCode::AuthFailed, "that name needs its password");
  if (busy)
    return ctx.error(ErrorCode::NameTaken,
                     "that name is in use; its owner can resume with the token");
  login(ctx, m.name, m.bot, std::nullopt);
}

Effects Lobby::complete_password(const PasswordOutcome& outcome, Instant now) {
  const PasswordJob& job = outcome.job;
  const auto it = sessions_.find(job.session);
  if (it == sessions_.end()) return {};
  it->second.hello_pending = false;
  Ctx ctx(job.session, job.id, now);
  const auto existing = players_.find(job.name);
  if (job.stored_hash) {
    if (!outcome.verified || existing == players_.end() ||
        existing->second.row.password_hash != *job.stored_hash)
      ctx.error(ErrorCode::AuthFailed, "wrong password");
    else
      login(ctx, job.name, job.bot, std::nullopt);
  } else if (!outcome.new_hash) {
    ctx.error(ErrorCode::Internal, "could not hash the password");
  } else if (existing != players_.end() &&
             (!existing->second.row.password_hash.empty() || existing->second.session ||
              !existing->second.seats.empty() || holds_offers(job.name))) {
    ctx.error(ErrorCode::NameTaken, "that name was taken meanwhile");
  } else {
    login(ctx, job.name, job.bot, outcome.new_hash);
  }
  if (ctx.errored && !it->second.errors.allow(now.mono)) {
    ctx.send(job.session, protocol::make_error(ErrorCode::TooManyErrors,
                                               "too many bad requests: closing the connection"));
    ctx.fx.close.push_back(job.session);
  }
  return std::move(ctx.fx);
}

void Lobby::login(Ctx& ctx, const std::string& name, bool bot, std::optional<std::string> new_hash,
                  std::optional<std::string> kept_token) {
  PlayerState& p = players_[name];
  p.row.name = name;
  p.row.bot = bot;
  if (new_hash) p.row.password_hash = *new_hash;
  if (p.session && *p.session != ctx.requester) {
    const SessionId old = *p.session;
    ctx.send(old, protocol::make_error(ErrorCode::Replaced, "you logged in on another connection"));
    ctx.fx.close.push_back(old);
    SessionState& old_state = sessions_.at(old);
    old_state.player.reset();
    for (GameId g : old_state.watching)
      if (auto r = rooms_.find(g); r != rooms_.end()) r->second.spectators.erase(old);
    old_state.watching.clear();
  }
  // A token login keeps its token: if the welcome is lost (the connection drops, the server
  // crashes after storing the login), the client can still come back with the token it has.
  const std::string token = kept_token ? *kept_token : new_token();
  p.row.token_digest = token_digest(token);
  ctx.fx.writes.writes.emplace_back(p.row);
  p.session = ctx.requester;
  sessions_.at(ctx.requester).player = name;

  protocol::Welcome w;
  w.name = name;
  w.token = token;
  w.server = config_.server_name;
  w.player = {name, rounded(p.row.rating.rating), bot};
  for (GameId g : p.seats) w.games.push_back(std::to_string(g));
  ctx.reply(w);
  for (GameId g : p.seats) {
    Room& room = rooms_.at(g);
    const Color c = *room.game.color_of(name);
    ctx.reply(room.game.state(c, ctx.now, static_cast<int>(room.spectators.size())));
    route(ctx, room, room.game.set_online(c, true, ctx.now));
  }
  // Challenges that waited for this player while they were away.
  for (const auto& [id, c] : challenges_) {
    if (c.to != name || !c.kept_until) continue;
    const PlayerState& from = player(c.from);
    ctx.reply(protocol::ChallengeReceived{id,
                                          {c.from, rounded(from.row.rating.rating), from.row.bot},
                                          c.request.rules,
                                          c.request.time,
                                          c.request.color,
                                          c.request.rated,
                                          format_timestamp(*c.kept_until)});
  }
  if (auto turns = your_turn(name, ctx.now); !turns.games.empty()) ctx.reply(turns);
}

PlayerInfo Lobby::info_of(const PlayerState& p) const {
  return {p.row.name, p.row.bot, rounded(p.row.rating.rating)};
}

std::optional<SessionId> Lobby::session_of(const std::string& name) const {
  const auto it = players_.find(name);
  return it == players_.end() ? std::nullopt : it->second.session;
}

void Lobby::on_players(Ctx& ctx) {
  protocol::PlayerList list;
  for (const auto& [name, p] : players_)
    if (p.session)
      list.players.push_back(
          {name, rounded(p.row.rating.rating), p.row.bot, static_cast<int>(p.seats.size())});
  ctx.reply(list);
}

// ---- games ------------------------------------------------------------------------------------

Expected<RuleVariant, std::string> Lobby::variant(const std::string& name) {
  if (const auto it = variants_.find(name); it != variants_.end()) return it->second;
  auto v = find_variant(name, config_.rules_dir);
  if (v) variants_.emplace(name, *v);
  return v;
}

Color Lobby::random_color() { return (rng_() & 1) ? Color::White : Color::Black; }

Lobby::Room* Lobby::find_room(Ctx& ctx, const std::string& game, bool) {
  const auto id = parse_game_id(game);
  const auto it = id ? rooms_.find(*id) : rooms_.end();
  if (it == rooms_.end()) {
    ctx.error(ErrorCode::NoSuchGame, "no game " + game, game);
    return nullptr;
  }
  return &it->second;
}

void Lobby::on_create(Ctx& ctx, const protocol::Create& m) {
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  PlayerState& me = player(*sessions_.at(ctx.requester).player);
  if (me.open.size() >= config_.max_open_games_per_player)
    return ctx.error(ErrorCode::NotAllowed, "you have too many open games");
  const auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  if (m.time.correspondence() &&
      correspondence_games(me.row.name) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  GameSettings settings{m.rules, *v, m.time, m.rated, std::nullopt};
  if (m.is_private) settings.invite = random_code(kInviteLength);
  const GameId id = next_game_id_++;
  Room& room = rooms_.emplace(id, Room{GameRoom(id, settings, config_.claim_grace), {}, *kept})
                   .first->second;
  const Color color = m.color == protocol::ColorChoice::White   ? Color::White
                      : m.color == protocol::ColorChoice::Black ? Color::Black
                                                                : random_color();
  room.game.sit(color, info_of(me));
  me.open.insert(id);
  if (*kept) {
    protocol::Create stored = m;
    stored.color =
        color == Color::White ? protocol::ColorChoice::White : protocol::ColorChoice::Black;
    ctx.fx.writes.writes.emplace_back(offer_row("g" + std::to_string(id), me.row.name, stored,
                                                settings.invite, ctx.now.wall, **kept));
  }
  ctx.reply(protocol::Created{std::to_string(id), settings.invite});
}

void Lobby::on_list(Ctx& ctx) {
  protocol::Games list;
  for (const auto& [id, room] : rooms_) {
    if (list.games.size() >= config_.max_list) break;
    if (room.game.settings().invite || room.game.status() == protocol::GameStatus::Finished)
      continue;
    list.games.push_back(room.game.summary(static_cast<int>(room.spectators.size())));
    if (room.kept_until && room.game.status() == protocol::GameStatus::Open)
      list.games.back().expires_at = format_timestamp(*room.kept_until);
  }
  ctx.reply(list);
}

void Lobby::on_join(Ctx& ctx, const protocol::Join& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  const auto& invite = room->game.settings().invite;
  if (invite && !equal_secret(m.invite.value_or(""), *invite))
    return ctx.error(ErrorCode::NoSuchGame, "no game " + m.game + " (or a wrong invite code)",
                     m.game);
  if (room->game.status() != protocol::GameStatus::Open)
    return ctx.error(ErrorCode::GameFull, "both seats are taken", m.game);
  const std::string& me = *sessions_.at(ctx.requester).player;
  if (room->game.color_of(me))
    return ctx.error(ErrorCode::NotAllowed, "you created this game", m.game);
  if (room->game.settings().time.correspondence() &&
      correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games", m.game);
  if (room->kept_until) {
    ctx.fx.writes.writes.emplace_back(OfferRemoved{"g" + room->game.id_text()});
    room->kept_until.reset();
  }
  const Color empty = room->game.seat(Color::White) ? Color::Black : Color::White;
  room->game.sit(empty, info_of(player(me)));
  start_room(ctx, *room);
}

void Lobby::start_room(Ctx& ctx, Room& room) {
  RoomOutput out = room.game.start(ctx.now);
  if (room.game.deadline()) clocked_.insert(room.game.id());
  ctx.fx.writes.writes.emplace_back(room.game.row());
  for (Color c : {Color::White, Color::Black}) {
    PlayerState& p = player(room.game.seat(c)->name);
    p.open.erase(room.game.id());
    p.seats.insert(room.game.id());
  }
  // A seat whose player is offline (a challenge accepted as its sender dropped) starts offline.
  for (Color c : {Color::White, Color::Black})
    if (!session_of(room.game.seat(c)->name)) {
      RoomOutput presence = room.game.set_online(c, false, ctx.now);
      for (auto& e : presence.events) out.events.push_back(std::move(e));
    }
  route(ctx, room, std::move(out));
  if (room.game.settings().time.correspondence())
    tell_turns(ctx, room.game.seat(room.game.position().side_to_move())->name);
}

void Lobby::start_game(Ctx& ctx, GameSettings settings, const std::string& white,
                       const std::string& black, Instant) {
  const GameId id = next_game_id_++;
  Room& room =
      rooms_
          .emplace(id,
                   Room{GameRoom(id, std::move(settings), config_.claim_grace), {}, std::nullopt})
          .first->second;
  room.game.sit(Color::White, info_of(player(white)));
  room.game.sit(Color::Black, info_of(player(black)));
  start_room(ctx, room);
}

void Lobby::on_watch(Ctx& ctx, const protocol::Watch& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  const std::string& me = *sessions_.at(ctx.requester).player;
  const auto seat = room->game.color_of(me);
  const auto& invite = room->game.settings().invite;
  if (invite && !seat && !equal_secret(m.invite.value_or(""), *invite))
    return ctx.error(ErrorCode::NoSuchGame, "no game " + m.game + " (or a wrong invite code)",
                     m.game);
  if (!seat) {
    room->spectators.insert(ctx.requester);
    sessions_.at(ctx.requester).watching.insert(room->game.id());
  }
  ctx.reply(room->game.state(seat, ctx.now, static_cast<int>(room->spectators.size())));
}

void Lobby::on_leave(Ctx& ctx, const protocol::Leave& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  SessionState& s = sessions_.at(ctx.requester);
  const GameId id = room->game.id();
  if (s.watching.erase(id)) {
    room->spectators.erase(ctx.requester);
    return ctx.reply(protocol::Ok{});
  }
  PlayerState& me = player(*s.player);
  if (me.open.contains(id)) {
    cancel_open_game(ctx, id);
    return ctx.reply(protocol::Ok{});
  }
  if (room->game.color_of(me.row.name) && room->game.status() == protocol::GameStatus::Active)
    return ctx.error(ErrorCode::NotAllowed, "the game is in progress: resign or abort it", m.game);
  ctx.error(ErrorCode::NotAPlayer, "you are neither playing nor watching this game", m.game);
}

void Lobby::cancel_open_game(Ctx& ctx, GameId id) {
  const auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  if (it->second.kept_until)
    ctx.fx.writes.writes.emplace_back(OfferRemoved{"g" + std::to_string(id)});
  for (Color c : {Color::White, Color::Black})
    if (const auto& seat = it->second.game.seat(c)) player(seat->name).open.erase(id);
  for (SessionId s : it->second.spectators) sessions_.at(s).watching.erase(id);
  rooms_.erase(it);
}

void Lobby::on_game_request(Ctx& ctx, const std::string& game, const protocol::ClientMessage& m) {
  Room* room = find_room(ctx, game);
  if (!room) return;
  const auto seat = room->game.color_of(*sessions_.at(ctx.requester).player);
  if (!seat) return ctx.error(ErrorCode::NotAPlayer, "you have no seat in this game", game);
  route(ctx, *room, room->game.handle(*seat, m, ctx.now));
}

void Lobby::on_rematch(Ctx& ctx, const protocol::Rematch& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  const std::string& me = *sessions_.at(ctx.requester).player;
  const auto seat = room->game.color_of(me);
  if (!seat) return ctx.error(ErrorCode::NotAPlayer, "you have no seat in this game", m.game);
  if (room->game.status() != protocol::GameStatus::Finished)
    return ctx.error(ErrorCode::GameNotActive, "the game is not over yet", m.game);
  const std::string opponent = room->game.seat(~*seat)->name;
  const auto opponent_session = session_of(opponent);
  if (!opponent_session)
    return ctx.error(ErrorCode::NotAllowed, "your opponent is not online", m.game);
  if (!room->game.offer_rematch(*seat)) {
    ctx.reply(protocol::Ok{});
    ctx.send(*opponent_session, protocol::RematchOffer{m.game, me});
    return;
  }
  GameSettings settings = room->game.settings();
  if (settings.invite) settings.invite = random_code(kInviteLength);
  // Colours swap: the old black plays white.
  start_game(ctx, std::move(settings), room->game.seat(Color::Black)->name,
             room->game.seat(Color::White)->name, ctx.now);
}

void Lobby::on_chat(Ctx& ctx, const protocol::ChatSend& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  SessionState& s = sessions_.at(ctx.requester);
  if (!room->game.color_of(*s.player) && !room->spectators.contains(ctx.requester))
    return ctx.error(ErrorCode::NotAPlayer, "watch the game to chat in it", m.game);
  if (m.text.empty()) return ctx.error(ErrorCode::BadField, "text: empty", m.game);
  if (m.text.size() > config_.max_chat_bytes)
    return ctx.error(ErrorCode::TooLong,
                     "text: at most " + std::to_string(config_.max_chat_bytes) + " bytes", m.game);
  if (!s.chat.allow(ctx.now.mono))
    return ctx.error(ErrorCode::RateLimited, "chatting too fast", m.game);
  ctx.send_all(audience(*room, Audience::Everyone), protocol::Chat{m.game, *s.player, m.text});
}

void Lobby::on_seek(Ctx& ctx, const protocol::Seek& m) {
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  const std::string me = *sessions_.at(ctx.requester).player;
  const auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  if (m.time.correspondence() && correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  if (const auto mine = std::find_if(seeks_.begin(), seeks_.end(),
                                     [&](const SeekEntry& e) { return e.player == me; });
      mine != seeks_.end())
    remove_seek(ctx, mine);
  const auto match = std::find_if(seeks_.begin(), seeks_.end(), [&](const SeekEntry& e) {
    return e.rules == m.rules && e.time == m.time && e.rated == m.rated &&
           (!m.time.correspondence() ||
            correspondence_games(e.player) < config_.max_correspondence_games);
  });
  if (match == seeks_.end()) {
    SeekEntry entry{me, m.rules, m.time, m.rated, {}, *kept};
    if (*kept) {
      entry.id = "s" + std::to_string(next_seek_++);
      ctx.fx.writes.writes.emplace_back(
          offer_row(entry.id, me, m, std::nullopt, ctx.now.wall, **kept));
    }
    seeks_.push_back(std::move(entry));
    return ctx.reply(protocol::Seeking{m.rules, m.time, m.rated});
  }
  const std::string other = match->player;
  remove_seek(ctx, match);
  const bool me_white = random_color() == Color::White;
  start_game(ctx, GameSettings{m.rules, *v, m.time, m.rated, std::nullopt}, me_white ? me : other,
             me_white ? other : me, ctx.now);
}

void Lobby::on_challenge(Ctx& ctx, const protocol::ChallengeSend& m) {
  const std::string& me = *sessions_.at(ctx.requester).player;
  const auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  const auto target = session_of(m.player);
  // A kept challenge may wait for a known player who is away.
  const bool known = players_.contains(m.player) && *kept;
  if ((!target && !known) || m.player == me)
    return ctx.error(ErrorCode::NoSuchPlayer, "no other player named " + m.player + " is online");
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  if (m.time.correspondence() && correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  const std::string id = "c" + std::to_string(next_challenge_++);
  challenges_[id] = {me, m.player, m, *kept};
  if (*kept)
    ctx.fx.writes.writes.emplace_back(offer_row(id, me, m, std::nullopt, ctx.now.wall, **kept));
  const PlayerState& p = player(me);
  ctx.reply(protocol::ChallengeSent{id, m.player});
  if (target)
    ctx.send(*target, protocol::ChallengeReceived{
                          id,
                          {me, rounded(p.row.rating.rating), p.row.bot},
                          m.rules,
                          m.time,
                          m.color,
                          m.rated,
                          *kept ? std::optional(format_timestamp(**kept)) : std::nullopt});
}

void Lobby::on_accept(Ctx& ctx, const protocol::Accept& m) {
  const std::string& me = *sessions_.at(ctx.requester).player;
  const auto it = challenges_.find(m.challenge);
  if (it == challenges_.end() || it->second.to != me)
    return ctx.error(ErrorCode::NoSuchChallenge, "no challenge " + m.challenge + " for you");
  const ChallengeEntry c = it->second;
  if (c.request.time.correspondence() &&
      (correspondence_games(me) >= config_.max_correspondence_games ||
       correspondence_games(c.from) >= config_.max_correspondence_games))
    return ctx.error(ErrorCode::NotAllowed, "too many correspondence games to start another");
  challenges_.erase(it);
  if (c.kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{m.challenge});
  auto v = variant(c.request.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  const bool sender_white =
      c.request.color == protocol::ColorChoice::White ||
      (c.request.color == protocol::ColorChoice::Random && random_color() == Color::White);
  start_game(ctx, GameSettings{c.request.rules, *v, c.request.time, c.request.rated, std::nullopt},
             sender_white ? c.from : c.to, sender_white ? c.to : c.from, ctx.now);
}

void Lobby::on_decline(Ctx& ctx, const protocol::Decline& m) {
  const std::string& me = *sessions_.at(ctx.requester).player;
  const auto it = challenges_.find(m.challenge);
  if (it == challenges_.end() || (it->second.to != me && it->second.from != me))
    return ctx.error(ErrorCode::NoSuchChallenge, "no challenge " + m.challenge + " for you");
  const std::string other = it->second.to == me ? it->second.from : it->second.to;
  if (it->second.kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{m.challenge});
  challenges_.erase(it);
  ctx.reply(protocol::Ok{});
  if (auto s = session_of(other)) ctx.send(*s, protocol::ChallengeClosed{m.challenge, "declined"});
}

void Lobby::drop_challenges_of(Ctx& ctx, const std::string& name) {
  for (auto it = challenges_.begin(); it != challenges_.end();) {
    if ((it->second.from != name && it->second.to != name) || it->second.kept_until) {
      ++it;
      continue;
    }
    const std::string other = it->second.from == name ? it->second.to : it->second.from;
    if (auto s = session_of(other)) ctx.send(*s, protocol::ChallengeClosed{it->first, "offline"});
    it = challenges_.erase(it);
  }
}

// ---- routing and results ----------------------------------------------------------------------

std::vector<SessionId> Lobby::audience(const Room& room, Audience to) const {
  std::vector<SessionId> out;
  const auto add_seat = [&](Color c) {
    if (const auto& seat = room.game.seat(c))
      if (auto s = session_of(seat->name)) out.push_back(*s);
  };
  if (to == Audience::White || to == Audience::Everyone) add_seat(Color::White);
  if (to == Audience::Black || to == Audience::Everyone) add_seat(Color::Black);
  if (to == Audience::Spectators || to == Audience::Everyone)
    for (SessionId s : room.spectators)
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

void Lobby::route(Ctx& ctx, Room& room, RoomOutput out) {
  if (out.error) return ctx.error(*out.error);
  if (out.stored_move) ctx.fx.writes.writes.emplace_back(*out.stored_move);
  if (out.ended) {
    protocol::End* end = nullptr;
    for (auto& e : out.events)
      if (auto* p = std::get_if<protocol::End>(&e.message)) end = p;
    finish(ctx, room, end);
  }
  for (const auto& e : out.events) ctx.send_all(audience(room, e.to), e.message);
  if (out.stored_move && !out.ended && room.game.settings().time.correspondence())
    tell_turns(ctx, room.game.seat(room.game.position().side_to_move())->name);
}

void Lobby::finish(Ctx& ctx, Room& room, protocol::End* end) {
  const auto& result = room.game.result();
  PlayerState& white = player(room.game.seat(Color::White)->name);
  PlayerState& black = player(room.game.seat(Color::Black)->name);
  if (room.game.settings().rated && result && result->winner) {
    const double white_score = *result->winner == Color::White ? 1.0 : 0.0;
    const Rating w = glicko2_update(white.row.rating, black.row.rating, white_score);
    const Rating b = glicko2_update(black.row.rating, white.row.rating, 1.0 - white_score);
    if (end) {
      end->white_rating = {rounded(w.rating), rounded(w.rating) - rounded(white.row.rating.rating)};
      end->black_rating = {rounded(b.rating), rounded(b.rating) - rounded(black.row.rating.rating)};
    }
    white.row.rating = w;
    black.row.rating = b;
    ++white.row.rated_games;
    ++black.row.rated_games;
    ctx.fx.writes.writes.emplace_back(white.row);
    ctx.fx.writes.writes.emplace_back(black.row);
  }
  ctx.fx.writes.writes.emplace_back(room.game.row());
  white.seats.erase(room.game.id());
  black.seats.erase(room.game.id());
  clocked_.erase(room.game.id());
  finished_order_.emplace_back(ctx.now.mono, room.game.id());
}

// ---- correspondence: kept offers and whose turn it is ------------------------------------------

Expected<std::optional<Timestamp>, std::string> Lobby::offer_expiry(
    const Ctx& ctx, const std::optional<std::int64_t>& lifetime, const TimeControl& time) const {
  if (lifetime) {
    const auto max_seconds = config_.max_offer_lifetime.count() / 1000;
    if (*lifetime < 1 || *lifetime > max_seconds)
      return Unexpected("lifetime: must be 1 to " + std::to_string(max_seconds) + " seconds");
    return std::optional<Timestamp>(ctx.now.wall + std::chrono::seconds(*lifetime));
  }
  if (time.correspondence()) return std::optional<Timestamp>(ctx.now.wall + config_.offer_lifetime);
  return std::optional<Timestamp>();
}

void Lobby::remove_seek(Ctx& ctx, std::vector<SeekEntry>::iterator it) {
  if (it->kept_until) ctx.fx.writes.writes.emplace_back(OfferRemoved{it->id});
  seeks_.erase(it);
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
  for (auto it = seeks_.begin(); it != seeks_.end();) {
    if (!expired(it->kept_until)) {
      ++it;
      continue;
    }
    ctx.fx.writes.writes.emplace_back(OfferRemoved{it->id});
    it = seeks_.erase(it);
  }
  for (auto it = challenges_.begin(); it != challenges_.end();) {
    if (!expired(it->second.kept_until)) {
      ++it;
      continue;
    }
    ctx.fx.writes.writes.emplace_back(OfferRemoved{it->first});
    for (const std::string* who : {&it->second.from, &it->second.to})
      if (auto session = session_of(*who))
        ctx.send(*session, protocol::ChallengeClosed{it->first, "expired"});
    it = challenges_.erase(it);
  }
}

bool Lobby::holds_offers(const std::string& name) const {
  const auto it = players_.find(name);
  if (it != players_.end() && !it->second.open.empty()) return true;
  for (const auto& seek : seeks_)
    if (seek.player == name) return true;
  for (const auto& [id, c] : challenges_)
    if (c.from == name || c.to == name) return true;
  return false;
}

std::size_t Lobby::correspondence_games(const std::string& name) const {
  const auto it = players_.find(name);
  if (it == players_.end()) return 0;
  std::size_t n = 0;
  for (GameId g : it->second.seats)
    if (rooms_.at(g).game.settings().time.correspondence()) ++n;
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
  return out;
}

void Lobby::tell_turns(Ctx& ctx, const std::string& name) {
  if (const auto session = session_of(name)) ctx.send(*session, your_turn(name, ctx.now));
}

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
  while (!finished_order_.empty() &&
         now.mono - finished_order_.front().first >= config_.finished_retention) {
    const auto it = rooms_.find(finished_order_.front().second);
    finished_order_.pop_front();
    if (it == rooms_.end()) continue;
    for (SessionId s : it->second.spectators) sessions_.at(s).watching.erase(it->first);
    rooms_.erase(it);
  }
  return std::move(ctx.fx);
}

Effects Lobby::shutdown(const std::string& message) {
  Ctx ctx(0, std::nullopt, Instant{});
  std::vector<SessionId> all;
  for (const auto& [id, s] : sessions_) all.push_back(id);
  ctx.send_all(all, protocol::Shutdown{message});
  ctx.fx.close = all;
  return std::move(ctx.fx);
}

// ---- archive and status -----------------------------------------------------------------------

void Lobby::on_history(Ctx& ctx, const protocol::HistoryRequest& m) {
  protocol::HistoryRequest q = m;
  if (!q.player) q.player = *sessions_.at(ctx.requester).player;
  if (!players_.contains(*q.player))
    return ctx.error(ErrorCode::NoSuchPlayer, "no player named " + *q.player);
  q.limit = std::clamp(q.limit, 1, kMaxListLimit);
  ctx.fx.queries.push_back({ctx.requester, *sessions_.at(ctx.requester).player, ctx.id, q});
  ctx.id_used = true;
}

void Lobby::on_record(Ctx& ctx, const protocol::RecordRequest& m) {
  const auto id = parse_game_id(m.game);
  const auto room = id ? rooms_.find(*id) : rooms_.end();
  if (!id || (room != rooms_.end() && room->second.game.status() == protocol::GameStatus::Open))
    return ctx.error(ErrorCode::NoSuchGame, "no started game " + m.game, m.game);
  // The archive checks a private game's invite (answer_query), whether it is in memory or not.
  ctx.fx.queries.push_back({ctx.requester, *sessions_.at(ctx.requester).player, ctx.id, m});
  ctx.id_used = true;
}

void Lobby::on_leaderboard(Ctx& ctx, const protocol::LeaderboardRequest& m) {
  std::vector<const PlayerState*> rated;
  for (const auto& [name, p] : players_)
    if (p.row.rated_games > 0) rated.push_back(&p);
  std::sort(rated.begin(), rated.end(), [](const PlayerState* a, const PlayerState* b) {
    if (a->row.rating.rating != b->row.rating.rating)
      return a->row.rating.rating > b->row.rating.rating;
    return a->row.name < b->row.name;
  });
  protocol::Leaderboard board;
  const auto limit = static_cast<std::size_t>(std::clamp(m.limit, 1, kMaxListLimit));
  for (const PlayerState* p : rated) {
    if (board.players.size() >= limit) break;
    board.players.push_back({p->row.name, rounded(p->row.rating.rating),
                             rounded(p->row.rating.deviation), p->row.rated_games, p->row.bot});
  }
  ctx.reply(board);
}

std::size_t Lobby::online_players() const {
  return static_cast<std::size_t>(
      std::count_if(players_.begin(), players_.end(),
                    [](const auto& p) { return p.second.session.has_value(); }));
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

Outbound answer_query(Storage& storage, const ArchiveQuery& query) {
  std::string line;
  try {
    if (const auto* h = std::get_if<protocol::HistoryRequest>(&query.request)) {
      line = protocol::encode(
          ServerMessage{protocol::History{
              *h->player, storage.finished_games(*h->player, h->limit, query.player)}},
          query.id);
    } else {
      const auto& r = std::get<protocol::RecordRequest>(query.request);
      const auto id = parse_game_id(r.game);
      const auto row = id ? storage.game_row(*id) : std::nullopt;
      // A private game is shown to its players and to whoever has its invite; to anyone else it
      // does not exist, so its id gives nothing away.
      const bool hidden = row && row->invite && query.player != row->white.name &&
                          query.player != row->black.name &&
                          !equal_secret(r.invite.value_or(""), *row->invite);
      const auto record = row && !hidden ? storage.game_record(*id) : std::nullopt;
      if (!record) {
        line = protocol::encode(
            ServerMessage{protocol::make_error(
                ErrorCode::NoSuchGame, "no game " + r.game + " (or a wrong invite code)", r.game)},
            query.id);
      } else {
        const nlohmann::json body = r.format == protocol::RecordFormat::Json
                                        ? to_json(*record)
                                        : nlohmann::json(to_text(*record));
        line = protocol::encode(ServerMessage{protocol::Record{r.game, r.format, body}}, query.id);
      }
    }
  } catch (const std::exception& e) {
    line = protocol::encode(ServerMessage{protocol::make_error(
                                ErrorCode::Internal, std::string("archive: ") + e.what())},
                            query.id);
  }
  return {query.session, std::make_shared<const std::string>(std::move(line))};
}

}  // namespace amazons::server
