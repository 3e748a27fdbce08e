#include "client/tournament_text.h"

#include <cmath>
#include <cstdio>

#include "client/game_choices.h"
#include "client/game_text.h"

namespace amazons::client {
namespace {
const std::string kDot = " \u00B7 ";
}

std::string kind_name(const std::string& kind) {
  if (kind == "arena") return "Arena";
  if (kind == "round_robin") return "Round robin";
  if (kind == "swiss") return "Swiss";
  return kind;
}

std::string tournament_status(const protocol::TournamentSummary& t) {
  if (t.status == "created") return "starts " + short_timestamp(t.start_at);
  if (t.status == "running")
    return t.kind == "arena" || t.round <= 0 ? "running"
                                             : "running, round " + std::to_string(t.round);
  return t.status;
}

std::string tournament_line(const protocol::TournamentSummary& t) {
  return t.name + kDot + kind_name(t.kind) + kDot + tournament_status(t) + kDot +
         std::to_string(t.players) + (t.players == 1 ? " player" : " players") + kDot + t.rules +
         kDot + time_text(t.time) + kDot + (t.rated ? "rated" : "casual");
}

std::string tiebreak_name(const std::string& kind) {
  if (kind == "round_robin") return "Sonneborn-Berger";
  if (kind == "swiss") return "Buchholz";
  return "wins";
}

std::string tiebreak_column(const std::string& kind) {
  if (kind == "round_robin") return "SB";
  if (kind == "swiss") return "Buchholz";
  return "Wins";
}

std::string points_text(double points) {
  if (!std::isfinite(points)) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", points);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

StandingRow standing_row(const protocol::TournamentStanding& s) {
  StandingRow row;
  row.rank = std::to_string(s.rank) + ".";
  row.name = s.name + " (" + std::to_string(s.rating) + ")";
  row.points = points_text(s.points);
  row.tiebreak = points_text(s.tiebreak);
  row.record = std::to_string(s.games) + (s.games == 1 ? " game: " : " games: ") +
               std::to_string(s.wins) + " W " + std::to_string(s.losses) + " L " +
               std::to_string(s.draws) + " D";
  row.note = s.withdrawn ? "withdrawn" : s.on_fire ? "on fire" : "";
  return row;
}

std::string pairing_line(const protocol::TournamentPairing& p) {
  std::string line = p.round > 0 ? "Round " + std::to_string(p.round) + ": " : "";
  if (p.state == "bye" || p.black.empty()) return line + p.white + kDot + "bye";
  line += p.white + " vs " + p.black + kDot;
  if (p.state == "forfeit" && p.result && (*p.result == "white" || *p.result == "black"))
    return line + (*p.result == "white" ? p.white : p.black) + " won by forfeit";
  if (p.state == "finished" && p.result)
    return line + (*p.result == "draw"    ? "draw"
                   : *p.result == "white" ? p.white + " won"
                   : *p.result == "black" ? p.black + " won"
                                          : *p.result);
  if (p.state == "void") return line + "void (the arena ended)";
  return line + p.state;
}

bool takes_part(const protocol::TournamentInfo& t, const std::string& name) {
  for (const auto& s : t.standings)
    if (s.name == name) return !s.withdrawn;
  return false;
}

std::optional<std::string> current_game(const protocol::TournamentInfo& t,
                                        const std::string& name) {
  for (const auto& p : t.pairings)
    if (p.state == "playing" && p.game && (p.white == name || p.black == name)) return p.game;
  return std::nullopt;
}

}  // namespace amazons::client
