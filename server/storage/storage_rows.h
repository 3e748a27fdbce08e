// What both database backends share: reading a game row from a result set and turning rows
// into archive entries and game records. A row type R offers integer(col), real(col),
// text(col) and is_null(col); columns follow kGameColumns.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/notation.h"
#include "common/protocol_enums.h"
#include "server/core/storage.h"

namespace amazons::server::rows {

// The columns of a game, in the order read_game() expects them.
inline constexpr const char* kGameColumns =
    "id, rules, variant, time_control, white, white_bot, white_rating, black, black_bot, "
    "black_rating, rated, invite, winner, reason, started_at, ended_at, owner_token";

inline std::int64_t to_ms(Timestamp t) { return t.time_since_epoch().count(); }
inline Timestamp from_ms(std::int64_t ms) { return Timestamp{Millis{ms}}; }

template <class R>
GameRow read_game(const R& q) {
  GameRow g;
  g.id = q.integer(0);
  g.rules = q.text(1);
  auto variant = variant_from_json(nlohmann::json::parse(q.text(2)));
  if (!variant)
    throw StorageError("game " + std::to_string(g.id) + ": variant: " + variant.error());
  g.variant = *variant;
  auto tc = time_control_from_json(nlohmann::json::parse(q.text(3)));
  if (!tc) throw StorageError("game " + std::to_string(g.id) + ": time control: " + tc.error());
  g.time = *tc;
  g.white = {q.text(4), q.integer(5) != 0,
             q.is_null(6) ? std::nullopt : std::optional<int>(static_cast<int>(q.integer(6)))};
  g.black = {q.text(7), q.integer(8) != 0,
             q.is_null(9) ? std::nullopt : std::optional<int>(static_cast<int>(q.integer(9)))};
  g.rated = q.integer(10) != 0;
  if (!q.is_null(11)) g.invite = q.text(11);
  if (!q.is_null(13)) {
    GameResult r;
    if (!q.is_null(12)) r.winner = q.text(12) == "white" ? Color::White : Color::Black;
    const auto reason = end_reason_from_code(q.text(13));
    if (!reason) throw StorageError("game " + std::to_string(g.id) + ": unknown end reason");
    r.reason = *reason;
    g.result = r;
  }
  g.started_at = from_ms(q.integer(14));
  if (!q.is_null(15)) g.ended_at = from_ms(q.integer(15));
  g.owner_token = q.integer(16);
  return g;
}

inline MoveRow read_move(GameId id, int ply, const std::string& text, std::int64_t elapsed,
                         std::optional<std::int64_t> clock) {
  auto move = parse_move(text);
  if (!move) throw StorageError("game " + std::to_string(id) + ": bad move text " + text);
  return {id, ply, *move, Millis{elapsed},
          clock ? std::optional<Millis>(Millis{*clock}) : std::nullopt};
}

inline protocol::ArchiveEntry archive_entry(const GameRow& g, int plies) {
  protocol::ArchiveEntry e;
  e.game = std::to_string(g.id);
  e.rules = g.rules;
  e.time = g.time;
  e.white = {g.white.name, g.white.rating.value_or(protocol::kInitialRating), g.white.bot};
  e.black = {g.black.name, g.black.rating.value_or(protocol::kInitialRating), g.black.bot};
  e.rated = g.rated;
  e.winner = g.result->winner;
  e.reason = g.result->reason;
  e.plies = plies;
  if (g.ended_at) e.ended_at = format_timestamp(*g.ended_at);
  return e;
}

inline GameRecord game_record(const GameRow& g, const std::vector<MoveRow>& moves) {
  GameRecord rec;
  rec.rules = g.variant;
  rec.white = g.white;
  rec.black = g.black;
  rec.time_control = g.time;
  for (const MoveRow& m : moves) rec.moves.push_back({m.move, m.elapsed, m.clock_left});
  rec.result = g.result;
  rec.started_at = g.started_at;
  rec.ended_at = g.ended_at;
  return rec;
}

// The values a game row is written with, as text (empty optional: NULL).
struct GameValues {
  std::optional<std::int64_t> white_rating, black_rating, ended_at;
  std::optional<std::string> winner, reason;
  std::string variant, time;
};
inline GameValues game_values(const GameRow& g) {
  GameValues v;
  if (g.white.rating) v.white_rating = *g.white.rating;
  if (g.black.rating) v.black_rating = *g.black.rating;
  if (g.result) {
    if (g.result->winner) v.winner = std::string(color_name(*g.result->winner));
    v.reason = std::string(code(g.result->reason));
  }
  if (g.ended_at) v.ended_at = to_ms(*g.ended_at);
  v.variant = to_json(g.variant).dump();
  v.time = to_json(g.time).dump();
  return v;
}

// ---- moderation (schema 4) ----

inline constexpr const char* kSanctionColumns =
    "kind, target, reason, by_name, created_at, expires_at";
inline constexpr const char* kReportColumns =
    "id, at, reporter, player, line, text, game, reason, resolved_by, resolved_at, note";
inline constexpr const char* kAuditColumns = "at, actor, action, target, reason, duration_ms";

template <class R>
std::optional<std::string> opt_text(const R& q, int col) {
  return q.is_null(col) ? std::nullopt : std::optional<std::string>(q.text(col));
}
template <class R>
std::optional<std::int64_t> opt_integer(const R& q, int col) {
  return q.is_null(col) ? std::nullopt : std::optional<std::int64_t>(q.integer(col));
}

template <class R>
SanctionRow read_sanction(const R& q) {
  const auto kind = sanction_from(q.text(0));
  if (!kind) throw StorageError("sanction of unknown kind " + q.text(0));
  SanctionRow r{*kind, q.text(1), q.text(2), q.text(3), from_ms(q.integer(4)), std::nullopt};
  if (!q.is_null(5)) r.expires_at = from_ms(q.integer(5));
  return r;
}

template <class R>
ReportRow read_report(const R& q) {
  ReportRow r;
  r.id = q.integer(0);
  r.at = from_ms(q.integer(1));
  r.reporter = q.text(2);
  r.player = q.text(3);
  r.line = opt_integer(q, 4);
  r.text = opt_text(q, 5);
  r.game = opt_text(q, 6);
  r.reason = q.text(7);
  r.resolved_by = opt_text(q, 8);
  if (!q.is_null(9)) r.resolved_at = from_ms(q.integer(9));
  r.note = q.text(10);
  return r;
}

template <class R>
AuditRow read_audit(const R& q) {
  AuditRow r{from_ms(q.integer(0)), q.text(1), q.text(2), q.text(3), q.text(4), std::nullopt};
  if (!q.is_null(5)) r.duration = Millis{q.integer(5)};
  return r;
}

// A role as stored; unknown text (a newer server's role) counts as a player.
inline protocol::Role role_from(const std::string& text) {
  return protocol::enum_from<protocol::Role>(text).value_or(protocol::Role::Player);
}

// The settings key of the registrations switch; its value is "open" or "closed".
inline constexpr const char* kRegistrationsKey = "registrations";

}  // namespace amazons::server::rows
