// Games: create, list, join, watch, leave, in-game requests, rematch, chat, and routing a
// room's output and results.
#include "server/core/lobby.h"

#include <algorithm>

#include "common/notation.h"
#include "server/core/auth.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;
using namespace lobby_detail;

// ---- games ------------------------------------------------------------------------------------

Expected<RuleVariant, std::string> Lobby::variant(const std::string& name) {
  if (const auto it = variants_.find(name); it != variants_.end()) return it->second;
  auto v = find_variant(name, config_.rules_dir);
  if (v) variants_.emplace(name, *v);
  return v;
}

Color Lobby::random_color() { return (rng_() & 1) ? Color::White : Color::Black; }

std::int64_t Lobby::new_id(Ctx& ctx, IdSource::Kind kind) {
  // A node that cannot reach the cluster could not take the new game's lease.
  if (!cluster_ready_) return 0;
  const std::int64_t id = ids_.take(kind);
  if (ids_.wants_block()) ctx.fx.cluster.reserve_ids = true;
  return id;
}

std::string Lobby::no_id_reason() const {
  return cluster_ready_ ? "no game ids reserved yet: try again in a moment"
                        : "this server cannot reach the rest of its cluster just now: try again in "
                          "a moment";
}

void Lobby::write_game(Ctx& ctx, const Room& room, StorageWrite write) {
  ctx.fx.writes.writes.push_back(std::move(write));
  if (clustered()) ctx.fx.writes.fences.push_back(Fence{room.game.id(), room.token});
}

std::string no_game_message(std::string_view game) {
  return "no game " + std::string(game) + " (or a wrong invite code)";
}

Lobby::Room* Lobby::find_room(Ctx& ctx, const std::string& game,
                              const std::optional<std::string>& invite, bool moderating) {
  const auto id = parse_game_id(game);
  const auto it = id ? rooms_.find(*id) : rooms_.end();
  // Whether the requester sees the room without a code.
  const auto& me = sessions_.at(ctx.requester).player;
  const auto open_to_them = [&](const Room& room) {
    return !room.game.settings().invite || moderating || (me && room.game.color_of(*me)) ||
           room.spectators.contains(ctx.requester);
  };
  if (it != rooms_.end() && open_to_them(it->second)) return &it->second;
  // A code is a guess until it matches: within the address's budget only, and counted when
  // wrong, whether the id names a private game or none (the two must not be told apart).
  if (invite) {
    if (over_auth_budget(ctx, "invite", game)) return nullptr;
    if (it != rooms_.end() && equal_secret(*invite, *it->second.game.settings().invite))
      return &it->second;
    auth_failed(ctx);
  }
  ctx.error(ErrorCode::NoSuchGame, no_game_message(game), game);
  return nullptr;
}

void Lobby::on(Ctx& ctx, const protocol::Create& m) {
  auto v = variant(m.rules);
  if (!v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  PlayerState& me = player(requester_name(ctx));
  if (me.open.size() >= config_.max_open_games_per_player)
    return ctx.error(ErrorCode::NotAllowed, "you have too many open games");
  const auto kept = offer_expiry(ctx, m.lifetime, m.time);
  if (!kept) return ctx.error(ErrorCode::BadField, kept.error());
  if (m.time.correspondence() &&
      correspondence_games(me.row.name) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games");
  if (*kept)
    if (auto room_for = may_keep_offer(ctx, std::nullopt); !room_for)
      return ctx.error(ErrorCode::RateLimited, room_for.error());
  GameSettings settings{m.rules, *v, m.time, m.rated, std::nullopt};
  if (m.is_private) settings.invite = random_code(kInviteLength);
  const GameId id = new_id(ctx, IdSource::Kind::Game);
  if (id == 0) return ctx.error(ErrorCode::Unavailable, no_id_reason());
  ctx.fx.cluster.acquire.push_back(std::to_string(id));
  Room& room = rooms_.emplace(id, Room{GameRoom(id, settings, config_.claim_grace), {}, *kept})
                   .first->second;
  const Color color = m.color == protocol::ColorChoice::White   ? Color::White
                      : m.color == protocol::ColorChoice::Black ? Color::Black
                                                                : random_color();
  room.game.sit(color, info_of(me));
  room.address = sessions_.at(ctx.requester).group;
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

std::vector<protocol::GameSummary> Lobby::listed_games() const {
  std::vector<protocol::GameSummary> out;
  for (const auto& [id, room] : rooms_) {
    if (room.game.settings().invite || room.game.status() == protocol::GameStatus::Finished)
      continue;
    out.push_back(room.game.summary(static_cast<int>(room.spectators.size())));
    if (const auto t = tournament_games_.find(id); t != tournament_games_.end())
      out.back().tournament = t->second;
    if (room.kept_until && room.game.status() == protocol::GameStatus::Open)
      out.back().expires_at = format_timestamp(*room.kept_until);
  }
  return out;
}

void Lobby::on(Ctx& ctx, const protocol::List& m) {
  std::optional<GameId> before;
  if (m.cursor && !(before = parse_game_id(*m.cursor)))
    return ctx.error(ErrorCode::BadField, "cursor: expected a next_cursor from a games reply");
  protocol::Games list;
  list.games = listed_games();
  // A cluster lists every node's games, by id as one server would.
  for (const auto& [node, view] : peers_)
    list.games.insert(list.games.end(), view.games.begin(), view.games.end());
  // Newest first, a page at a time: games made later than a flood of old ones are on the first
  // page, and every game is on some page (issue 35: a cut at the oldest 200 hid the rest).
  const auto id_of = [](const protocol::GameSummary& g) {
    return parse_game_id(g.game).value_or(0);
  };
  if (before) std::erase_if(list.games, [&](const auto& g) { return id_of(g) >= *before; });
  std::stable_sort(list.games.begin(), list.games.end(),
                   [&](const auto& a, const auto& b) { return id_of(a) > id_of(b); });
  if (list.games.size() > config_.max_list) {
    list.games.resize(config_.max_list);
    list.next_cursor = list.games.back().game;
  }
  ctx.reply(list);
}

void Lobby::on(Ctx& ctx, const protocol::Join& m) {
  Room* room = find_room(ctx, m.game, m.invite);
  if (!room) return;
  if (room->game.status() != protocol::GameStatus::Open)
    return ctx.error(ErrorCode::GameFull, "both seats are taken", m.game);
  const std::string& me = requester_name(ctx);
  if (room->game.color_of(me))
    return ctx.error(ErrorCode::NotAllowed, "you created this game", m.game);
  if (room->game.settings().time.correspondence() &&
      correspondence_games(me) >= config_.max_correspondence_games)
    return ctx.error(ErrorCode::NotAllowed, "you have too many correspondence games", m.game);
  if (room->kept_until) {
    ctx.fx.writes.writes.emplace_back(OfferRemoved{"g" + room->game.id_text()});
    room->kept_until.reset();
  }
  // Whoever watched it (an invite looked at before signing in) now has a seat instead: one copy
  // of each event, not two.
  room->spectators.erase(ctx.requester);
  sessions_.at(ctx.requester).watching.erase(room->game.id());
  const Color empty = room->game.seat(Color::White) ? Color::Black : Color::White;
  room->game.sit(empty, info_of(player(me)));
  start_room(ctx, *room);
}

void Lobby::start_room(Ctx& ctx, Room& room) {
  RoomOutput out = room.game.start(ctx.now);
  if (room.game.deadline()) clocked_.insert(room.game.id());
  write_game(ctx, room, room.game.row());
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
  tell_seats(ctx, room);
}

GameId Lobby::start_game(Ctx& ctx, GameSettings settings, const std::string& white,
                         const std::string& black, Instant) {
  const GameId id = new_id(ctx, IdSource::Kind::Game);
  if (id == 0) {
    ctx.error(ErrorCode::Unavailable, no_id_reason());
    return 0;
  }
  ctx.fx.cluster.acquire.push_back(std::to_string(id));
  Room& room =
      rooms_
          .emplace(id,
                   Room{GameRoom(id, std::move(settings), config_.claim_grace), {}, std::nullopt})
          .first->second;
  room.game.sit(Color::White, info_of(player(white)));
  room.game.sit(Color::Black, info_of(player(black)));
  start_room(ctx, room);
  return id;
}

void Lobby::on(Ctx& ctx, const protocol::Watch& m) {
  Room* room = find_room(ctx, m.game, m.invite);
  if (!room) return;
  const auto& me = sessions_.at(ctx.requester).player;
  const auto seat = me ? room->game.color_of(*me) : std::nullopt;
  if (!seat) {
    room->spectators.insert(ctx.requester);
    sessions_.at(ctx.requester).watching.insert(room->game.id());
  }
  ctx.reply(room->game.state(seat, ctx.now, static_cast<int>(room->spectators.size())));
}

void Lobby::on(Ctx& ctx, const protocol::Leave& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  SessionState& s = sessions_.at(ctx.requester);
  const GameId id = room->game.id();
  if (s.watching.erase(id)) {
    room->spectators.erase(ctx.requester);
    return ctx.reply(protocol::Ok{});
  }
  if (!s.player)
    return ctx.error(ErrorCode::NotAPlayer, "you are neither playing nor watching this game",
                     m.game);
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
  ctx.fx.cluster.release.push_back(std::to_string(id));
}

void Lobby::seated_request(Ctx& ctx, const std::string& game, const protocol::ClientMessage& m) {
  Room* room = find_room(ctx, game);
  if (!room) return;
  const auto seat = room->game.color_of(requester_name(ctx));
  if (!seat) return ctx.error(ErrorCode::NotAPlayer, "you have no seat in this game", game);
  route(ctx, *room, room->game.handle(*seat, m, ctx.now));
}

void Lobby::on(Ctx& ctx, const protocol::MoveMsg& m) { seated_request(ctx, m.game, m); }
void Lobby::on(Ctx& ctx, const protocol::Resign& m) { seated_request(ctx, m.game, m); }
void Lobby::on(Ctx& ctx, const protocol::Abort& m) { seated_request(ctx, m.game, m); }
void Lobby::on(Ctx& ctx, const protocol::Claim& m) { seated_request(ctx, m.game, m); }

void Lobby::on(Ctx& ctx, const protocol::Rematch& m) {
  Room* room = find_room(ctx, m.game);
  if (!room) return;
  const std::string& me = requester_name(ctx);
  const auto seat = room->game.color_of(me);
  if (!seat) return ctx.error(ErrorCode::NotAPlayer, "you have no seat in this game", m.game);
  if (room->game.status() != protocol::GameStatus::Finished)
    return ctx.error(ErrorCode::GameNotActive, "the game is not over yet", m.game);
  const std::string opponent = room->game.seat(~*seat)->name;
  const auto opponent_session = reach(ctx, opponent);
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

void Lobby::on(Ctx& ctx, const protocol::ChatSend& m) {
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
  const auto line = admit_chat(ctx, m.game, m.text);
  if (!line) return;
  ctx.send_all(audience(*room, Audience::Everyone),
               protocol::Chat{m.game, *s.player, m.text, *line});
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
  if (out.stored_move) write_game(ctx, room, *out.stored_move);
  if (out.ended) {
    protocol::End* end = nullptr;
    for (auto& e : out.events)
      if (auto* p = std::get_if<protocol::End>(&e.message)) end = p;
    finish(ctx, room, end);
  }
  for (const auto& e : out.events) ctx.send_all(audience(room, e.to), e.message);
  if (out.stored_move || out.ended) tell_seats(ctx, room);
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
    for (const auto& [p, after] : {std::pair{&white, w}, std::pair{&black, b}}) {
      ctx.fx.writes.writes.emplace_back(
          PlayerRating{p->row.name, p->row.bot, p->row.rating, after});
      p->row.rating = after;
      ++p->row.rated_games;
    }
  }
  write_game(ctx, room, room.game.row());
  white.seats.erase(room.game.id());
  black.seats.erase(room.game.id());
  clocked_.erase(room.game.id());
  finished_order_.emplace_back(ctx.now.mono, room.game.id());
  tournament_game_over(ctx, room.game.id(), room.game.result());
}

}  // namespace amazons::server
