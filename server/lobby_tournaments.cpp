// Tournaments: create, list, show, join and withdraw; the tick that starts them, pairs them and
// starts their games; scoring a finished game. The rules live in the pure core
// (server/tournament.h); this file connects it to players, games, storage and the wire.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "server/lobby.h"
#include "server/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using namespace lobby_detail;

namespace {

// The core keeps time as milliseconds since the epoch.
Millis wall_ms(const Instant& now) { return now.wall.time_since_epoch(); }

// Limits on a create request's times, so that a tournament starts and ends within reason.
constexpr int kMaxStartInSeconds = 30 * 24 * 3600;

}  // namespace

void Lobby::restore_tournament(const TournamentRow& row) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(row.state);
  } catch (const nlohmann::json::exception& e) {
    restore_problems_.push_back("tournament " + std::to_string(row.id) + ": " + e.what());
    return;
  }
  auto t = Tournament::from_json(j);
  if (!t) {
    restore_problems_.push_back("tournament " + std::to_string(row.id) + ": " + t.error());
    return;
  }
  const TournamentId id = t->id();
  next_tournament_id_ = std::max(next_tournament_id_, id + 1);
  for (const Pairing& p : t->pairings())
    if (p.state == Pairing::State::Playing) tournament_games_[p.game] = id;
  tournaments_.insert_or_assign(id, std::move(*t));
}

// Moderators and admins always; other players where the host allows it.
bool Lobby::may_create_tournament(const PlayerState& p) const {
  return config_.players_create_tournaments || role_of(p.row.name) != protocol::Role::Player;
}

Tournament* Lobby::find_tournament(Ctx& ctx, std::int64_t id) {
  const auto it = tournaments_.find(id);
  if (it == tournaments_.end()) {
    ctx.error(ErrorCode::BadField, "no tournament " + std::to_string(id));
    return nullptr;
  }
  return &it->second;
}

protocol::TournamentSummary Lobby::tournament_summary(const Tournament& t) const {
  const auto& s = t.settings();
  protocol::TournamentSummary out;
  out.id = t.id();
  out.name = s.name;
  out.kind = to_string(s.kind);
  out.status = to_string(t.status());
  out.rules = s.variant;
  out.time = s.time_control;
  out.rated = s.rated;
  out.players = static_cast<int>(std::count_if(t.players().begin(), t.players().end(),
                                               [](const auto& p) { return !p.withdrawn; }));
  out.round = t.round();
  out.start_at = format_timestamp(Timestamp{s.start_at});
  return out;
}

protocol::TournamentInfo Lobby::tournament_info(const Tournament& t) const {
  const auto& s = t.settings();
  protocol::TournamentInfo out;
  out.tournament = tournament_summary(t);
  if (const auto end = t.ends_at()) out.ends_at = format_timestamp(Timestamp{*end});
  out.duration = static_cast<int>(s.duration.count() / 1000);
  out.rounds = s.rounds;
  out.max_players = s.max_players;
  out.bots_allowed = s.bots_allowed;
  for (const Standing& st : t.standings())
    out.standings.push_back({st.rank, st.name, st.points, st.tiebreak, st.games, st.wins, st.losses,
                             st.draws, st.on_fire, st.withdrawn, rounded(st.rating)});
  for (const Pairing& p : t.pairings()) {
    protocol::TournamentPairing v;
    v.round = p.round;
    v.white = p.white;
    v.black = p.black;
    v.state = to_string(p.state);
    if (p.result) v.result = to_string(*p.result);
    if (p.game != 0) v.game = std::to_string(p.game);
    out.pairings.push_back(std::move(v));
  }
  return out;
}

void Lobby::tournament_changed(Ctx& ctx, const Tournament& t) {
  ctx.fx.writes.writes.emplace_back(
      TournamentRow{t.id(), t.settings().name, to_string(t.status()), t.to_json().dump()});
  std::vector<SessionId> to;
  if (const auto it = tournament_watchers_.find(t.id()); it != tournament_watchers_.end())
    to.assign(it->second.begin(), it->second.end());
  for (const auto& p : t.players())
    if (const auto s = session_of(p.name); s && std::find(to.begin(), to.end(), *s) == to.end())
      to.push_back(*s);
  ctx.send_all(to, tournament_info(t));
}

void Lobby::on_tournament_create(Ctx& ctx, const protocol::TournamentCreate& m) {
  const PlayerState& me = player(*sessions_.at(ctx.requester).player);
  if (!may_create_tournament(me))
    return ctx.error(ErrorCode::Forbidden, "only moderators may create tournaments here");
  const auto kind = parse_tournament_kind(m.kind);
  if (!kind) return ctx.error(ErrorCode::BadField, "kind: arena, round_robin or swiss");
  if (auto v = variant(m.rules); !v) return ctx.error(ErrorCode::BadField, "rules: " + v.error());
  if (m.start_in < 0 || m.start_in > kMaxStartInSeconds)
    return ctx.error(ErrorCode::BadField, "start_in: 0 to 30 days, in seconds");
  TournamentSettings s;
  s.name = m.name;
  s.kind = *kind;
  s.variant = m.rules;
  s.time_control = m.time;
  s.rated = m.rated;
  s.start_at = wall_ms(ctx.now) + Millis{std::int64_t{m.start_in} * 1000};
  s.duration = Millis{std::int64_t{m.duration} * 1000};
  s.rounds = m.rounds;
  s.max_players = m.max_players;
  s.bots_allowed = m.bots_allowed;
  if (auto ok = check(s); !ok) return ctx.error(ErrorCode::BadField, ok.error());
  const TournamentId id = next_tournament_id_++;
  const Tournament& t = tournaments_.insert_or_assign(id, Tournament(id, s)).first->second;
  tournament_watchers_[id].insert(ctx.requester);
  tournament_changed(ctx, t);  // the requester is a watcher: this is the reply
}

void Lobby::on_tournaments(Ctx& ctx) {
  std::vector<const Tournament*> all;
  for (const auto& [id, t] : tournaments_) all.push_back(&t);
  // Running and coming ones first, soonest first; then the archive, newest first.
  std::stable_sort(all.begin(), all.end(), [](const Tournament* a, const Tournament* b) {
    const bool fa = a->status() == TournamentStatus::Finished;
    const bool fb = b->status() == TournamentStatus::Finished;
    if (fa != fb) return fb;
    if (fa) return a->id() > b->id();
    return a->settings().start_at < b->settings().start_at;
  });
  protocol::TournamentList list;
  for (const Tournament* t : all) {
    if (list.tournaments.size() >= config_.max_list) break;
    list.tournaments.push_back(tournament_summary(*t));
  }
  ctx.reply(list);
}

void Lobby::on_tournament_show(Ctx& ctx, const protocol::TournamentShow& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  tournament_watchers_[t->id()].insert(ctx.requester);
  ctx.reply(tournament_info(*t));
}

void Lobby::on_tournament_join(Ctx& ctx, const protocol::TournamentJoin& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  const PlayerState& me = player(*sessions_.at(ctx.requester).player);
  if (auto ok = t->join(me.row.name, me.row.rating.rating, me.row.bot); !ok)
    return ctx.error(ErrorCode::NotAllowed, ok.error());
  ctx.reply(protocol::Ok{});
  tournament_changed(ctx, *t);
}

void Lobby::on_tournament_withdraw(Ctx& ctx, const protocol::TournamentWithdraw& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  if (auto ok = t->withdraw(*sessions_.at(ctx.requester).player); !ok)
    return ctx.error(ErrorCode::NotAllowed, ok.error());
  ctx.reply(protocol::Ok{});
  tournament_changed(ctx, *t);
}

void Lobby::tick_tournaments(Ctx& ctx) {
  for (auto& [id, t] : tournaments_) {
    if (t.status() == TournamentStatus::Finished) continue;
    const auto status = t.status();
    const auto pairings = t.pairings().size();
    t.tick(wall_ms(ctx.now));
    bool changed = status != t.status() || pairings != t.pairings().size();
    for (std::size_t i = 0; i < t.pairings().size(); ++i) {
      const Pairing& p = t.pairings()[i];
      if (p.state != Pairing::State::Pending) continue;
      auto v = variant(t.settings().variant);
      if (!v || !players_.contains(p.white) || !players_.contains(p.black)) continue;
      const GameId game =
          start_game(ctx,
                     GameSettings{t.settings().variant, *v, t.settings().time_control,
                                  t.settings().rated, std::nullopt},
                     p.white, p.black, ctx.now);
      if (game == 0) continue;
      t.game_started(static_cast<int>(i), game);
      tournament_games_[game] = id;
      changed = true;
    }
    if (changed) tournament_changed(ctx, t);
  }
}

void Lobby::tournament_game_over(Ctx& ctx, const Room& room) {
  const auto it = tournament_games_.find(room.game.id());
  if (it == tournament_games_.end()) return;
  const auto t = tournaments_.find(it->second);
  tournament_games_.erase(it);
  if (t == tournaments_.end()) return;
  const auto pairing = t->second.pairing_of_game(room.game.id());
  if (!pairing) return;
  // An aborted game (no winner) counts as a draw: neither player is to blame alone.
  const auto& result = room.game.result();
  const TournamentResult r = !result || !result->winner        ? TournamentResult::Draw
                             : *result->winner == Color::White ? TournamentResult::WhiteWins
                                                               : TournamentResult::BlackWins;
  // New pairings this makes get their games at the next tick, after this game's end is out.
  t->second.record_result(*pairing, r, wall_ms(ctx.now));
  tournament_changed(ctx, t->second);
}

}  // namespace amazons::server
