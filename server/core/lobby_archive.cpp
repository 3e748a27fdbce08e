// The archive: history, records, the leaderboard, and answering archive queries from storage.
#include "server/core/lobby.h"

#include <algorithm>

#include "server/core/auth.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;
using namespace lobby_detail;

// ---- archive and status -----------------------------------------------------------------------

void Lobby::on(Ctx& ctx, const protocol::HistoryRequest& m) {
  protocol::HistoryRequest q = m;
  if (!q.player) q.player = requester_name(ctx);
  // A cluster node does not know every player: the database answers (answer_query).
  if (!known_player(*q.player))
    return ctx.error(ErrorCode::NoSuchPlayer, "no player named " + *q.player);
  q.limit = std::clamp(q.limit, 1, kMaxListLimit);
  ctx.fx.queries.push_back({ctx.requester, requester_name(ctx), ctx.id, q});
  ctx.id_used = true;
}

void Lobby::on(Ctx& ctx, const protocol::RecordRequest& m) {
  const auto id = parse_game_id(m.game);
  const auto room = id ? rooms_.find(*id) : rooms_.end();
  // A code is budgeted as for join and watch (find_room), before anything is told of the game.
  // Unless the game in memory shows that it is right, it is counted as a wrong one: the archive
  // checks it on the storage thread, whose answer goes straight to the requester.
  if (m.invite) {
    if (over_auth_budget(ctx, "invite", m.game)) return;
    const auto& code = room != rooms_.end() ? room->second.game.settings().invite : std::nullopt;
    if (room == rooms_.end() || (code && !equal_secret(*m.invite, *code))) auth_failed(ctx);
  }
  if (!id || (room != rooms_.end() && room->second.game.status() == protocol::GameStatus::Open))
    return ctx.error(ErrorCode::NoSuchGame, no_game_message(m.game), m.game);
  // The archive checks a private game's invite (answer_query), whether it is in memory or not.
  ctx.fx.queries.push_back({ctx.requester, requester_name(ctx), ctx.id, m});
  ctx.id_used = true;
}

namespace {
protocol::LeaderboardEntry leader_entry(const PlayerRow& p) {
  return {p.name, rounded(p.rating.rating), rounded(p.rating.deviation), p.rated_games, p.bot};
}
}  // namespace

void Lobby::on(Ctx& ctx, const protocol::LeaderboardRequest& m) {
  if (clustered()) {
    // Ratings change on every node: the shared database has them all.
    protocol::LeaderboardRequest q = m;
    q.limit = std::clamp(q.limit, 1, kMaxListLimit);
    ctx.fx.queries.push_back({ctx.requester, requester_name(ctx), ctx.id, q});
    ctx.id_used = true;
    return;
  }
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
    board.players.push_back(leader_entry(p->row));
  }
  ctx.reply(board);
}

Outbound answer_query(Storage& storage, const ArchiveQuery& query) {
  if (std::holds_alternative<protocol::AuditRequest>(query.request))
    return answer_audit(storage, query);
  std::string line;
  try {
    if (const auto* h = std::get_if<protocol::HistoryRequest>(&query.request)) {
      auto games = storage.finished_games(*h->player, h->limit, query.player);
      if (games.empty() && !storage.player(*h->player))
        line = protocol::encode(ServerMessage{protocol::make_error(
                                    ErrorCode::NoSuchPlayer, "no player named " + *h->player)},
                                query.id);
      else
        line = protocol::encode(ServerMessage{protocol::History{*h->player, std::move(games)}},
                                query.id);
    } else if (std::holds_alternative<protocol::TournamentsRequest>(query.request)) {
      // Each as its director last stored it; a row that does not parse is left out.
      std::vector<Tournament> all;
      for (const TournamentRow& row : storage.tournaments()) try {
          if (auto t = Tournament::from_json(nlohmann::json::parse(row.state)))
            all.push_back(std::move(*t));
        } catch (const nlohmann::json::exception&) {
        }
      std::vector<const Tournament*> listed;
      for (const Tournament& t : all) listed.push_back(&t);
      line = protocol::encode(ServerMessage{tournament_list(std::move(listed), query.limit)},
                              query.id);
    } else if (const auto* l = std::get_if<protocol::LeaderboardRequest>(&query.request)) {
      protocol::Leaderboard board;
      for (const PlayerRow& p : storage.leaderboard(l->limit))
        board.players.push_back(leader_entry(p));
      line = protocol::encode(ServerMessage{std::move(board)}, query.id);
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
        line = protocol::encode(ServerMessage{protocol::make_error(
                                    ErrorCode::NoSuchGame, no_game_message(r.game), r.game)},
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
