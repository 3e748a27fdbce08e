// What both database backends share: reading a game row from a result set and turning rows
// into archive entries and game records. A row type R offers integer(col), real(col),
// text(col) and is_null(col); columns follow kGameColumns.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/notation.h"
#include "server/storage.h"

namespace amazons::server::rows {

// The columns of a game, in the order read_game() expects them.
inline constexpr const char* kGameColumns =
    "id, rules, variant, time_control, white, white_bot, white_rating, black, black_bot, "
    "black_rating, rated, invite, winner, reason, started_at, ended_at";

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
  e.white = {g.white.name, g.white.rating.value_or(1500), g.white.bot};
  e.black = {g.black.name, g.black.rating.value_or(1500), g.black.bot};
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

}  // namespace amazons::server::rows
