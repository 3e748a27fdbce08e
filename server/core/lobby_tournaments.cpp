// Tournaments: create, list, show, join and withdraw; the tick that starts them, pairs them and
// starts their games; scoring a finished game. The rules live in the pure core
// (server/core/tournament.h); this file connects it to players, games, storage and the wire.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "server/core/cluster_key.h"
#include "server/core/lobby.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using namespace lobby_detail;

namespace {

// The core keeps time as milliseconds since the epoch.
Millis wall_ms(const Instant& now) { return now.wall.time_since_epoch(); }

// Limits on a create request's times, so that a tournament starts and ends within reason.
constexpr int kMaxStartInSeconds = 30 * 24 * 3600;

// Cluster mode: how often the director looks up the games of its tournaments that other nodes
// run (taken over after a failover) for their results.
constexpr Millis kTournamentGamesCheck{1000};

// The lease key of a tournament on a cluster: "t17".
std::string tournament_key(TournamentId id) { return ClusterKey::tournament(id).text(); }

}  // namespace

protocol::TournamentSummary lobby_detail::tournament_summary(const Tournament& t) {
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
  ids_.used(IdSource::Kind::Tournament, id);
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
  // On a cluster its players are reached on whichever node they are connected to.
  for (const auto& p : t.players())
    if (const auto s = reach(ctx, p.name); s && std::find(to.begin(), to.end(), *s) == to.end())
      to.push_back(*s);
  ctx.send_all(to, tournament_info(t));
}

void Lobby::on(Ctx& ctx, const protocol::TournamentCreate& m) {
  const PlayerState& me = player(requester_name(ctx));
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
  // On a cluster, this node directs the tournament under its lease.
  const TournamentId id = new_id(ctx, IdSource::Kind::Tournament);
  if (id == 0) return ctx.error(ErrorCode::Unavailable, no_id_reason());
  ctx.fx.cluster.acquire.push_back(tournament_key(id));
  const Tournament& t = tournaments_.insert_or_assign(id, Tournament(id, s)).first->second;
  tournament_watchers_[id].insert(ctx.requester);
  tournament_changed(ctx, t);  // the requester is a watcher: this is the reply
}

void Lobby::on(Ctx& ctx, const protocol::TournamentsRequest&) {
  if (clustered()) {
    // Every node directs some: the shared database has them all, as last stored.
    ArchiveQuery q{ctx.requester, requester_name(ctx), ctx.id, protocol::TournamentsRequest{}};
    q.limit = config_.max_list;
    ctx.fx.queries.push_back(std::move(q));
    ctx.id_used = true;
    return;
  }
  std::vector<const Tournament*> all;
  for (const auto& [id, t] : tournaments_) all.push_back(&t);
  ctx.reply(tournament_list(all, config_.max_list));
}

protocol::TournamentList lobby_detail::tournament_list(std::vector<const Tournament*> all,
                                                       std::size_t limit) {
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
    if (list.tournaments.size() >= limit) break;
    list.tournaments.push_back(tournament_summary(*t));
  }
  return list;
}

void Lobby::on(Ctx& ctx, const protocol::TournamentShow& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  tournament_watchers_[t->id()].insert(ctx.requester);
  ctx.reply(tournament_info(*t));
}

void Lobby::on(Ctx& ctx, const protocol::TournamentJoin& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  const PlayerState& me = player(requester_name(ctx));
  if (auto ok = t->join(me.row.name, me.row.rating.rating, me.row.bot); !ok)
    return ctx.error(ErrorCode::NotAllowed, ok.error());
  ctx.reply(protocol::Ok{});
  tournament_changed(ctx, *t);
}

void Lobby::on(Ctx& ctx, const protocol::TournamentWithdraw& m) {
  Tournament* t = find_tournament(ctx, m.id);
  if (!t) return;
  if (auto ok = t->withdraw(requester_name(ctx)); !ok)
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
      if (!v || (clustered() && !ready_to_pair(ctx, p)) || !players_.contains(p.white) ||
          !players_.contains(p.black))
        continue;
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
  if (clustered()) check_tournament_games(ctx);
}

bool Lobby::ready_to_pair(Ctx& ctx, const Pairing& p) {
  bool ready = true;
  for (const std::string* name : {&p.white, &p.black}) {
    // Connected on some node: reached there, so that they hear of the game as it starts.
    if (reach(ctx, *name) || players_.contains(*name)) continue;
    // Online nowhere: the game starts without them, once their stored row is here.
    if (reading_players_.insert(*name).second) ctx.fx.cluster.read_players.push_back(*name);
    ready = false;
  }
  return ready;
}

void Lobby::check_tournament_games(Ctx& ctx) {
  if (ctx.now.mono < next_tournament_check_) return;
  next_tournament_check_ = ctx.now.mono + kTournamentGamesCheck;
  std::vector<std::pair<GameId, std::optional<GameResult>>> ended_here;
  for (const auto& [game, tournament] : tournament_games_) {
    const auto room = rooms_.find(game);
    if (room == rooms_.end())
      ctx.fx.cluster.read_games.push_back(game);
    else if (room->second.game.status() == protocol::GameStatus::Finished)
      // Ended here before this node took the tournament over (it kept the room a while).
      ended_here.emplace_back(game, room->second.game.result());
  }
  for (const auto& [game, result] : ended_here) tournament_game_over(ctx, game, result);
}

Effects Lobby::adopt_tournament(const TournamentRow& row, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  if (tournaments_.contains(row.id)) return std::move(ctx.fx);
  const std::size_t problems = restore_problems_.size();
  restore_tournament(row);
  if (restore_problems_.size() != problems) {
    // Not a tournament this node can direct: let it go rather than hold it for nothing.
    ctx.fx.cluster.release.push_back(tournament_key(row.id));
    return std::move(ctx.fx);
  }
  // Its games that other nodes run are looked up at once: some may have ended meanwhile.
  next_tournament_check_ = Millis{0};
  return std::move(ctx.fx);
}

Effects Lobby::tournament_reads(const std::vector<PlayerRow>& players,
                                const std::vector<GameRow>& games, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  // Whoever is still missing (a read that failed) is asked for again at the next pairing.
  reading_players_.clear();
  for (const PlayerRow& row : players) {
    PlayerState& p = player_entry(row.name);
    if (p.row.name.empty()) p.row = row;
  }
  for (const GameRow& row : games)
    if (row.result) tournament_game_over(ctx, row.id, row.result);
  return std::move(ctx.fx);
}

void Lobby::tournament_game_over(Ctx& ctx, GameId game, const std::optional<GameResult>& result) {
  const auto it = tournament_games_.find(game);
  if (it == tournament_games_.end()) return;
  const auto t = tournaments_.find(it->second);
  tournament_games_.erase(it);
  if (t == tournaments_.end()) return;
  const auto pairing = t->second.pairing_of_game(game);
  if (!pairing) return;
  // An aborted game (no winner) counts as a draw: neither player is to blame alone.
  const TournamentResult r = !result || !result->winner        ? TournamentResult::Draw
                             : *result->winner == Color::White ? TournamentResult::WhiteWins
                                                               : TournamentResult::BlackWins;
  // New pairings this makes get their games at the next tick, after this game's end is out.
  t->second.record_result(*pairing, r, wall_ms(ctx.now));
  tournament_changed(ctx, t->second);
}

}  // namespace amazons::server
