#include "client/tournament_text.h"

#include <cmath>
#include <cstdio>

#include "client/game_text.h"
#include "client/online_client.h"
#include "client/words.h"

namespace amazons::client {
namespace {
const std::string kDot = " \u00B7 ";
}

std::string kind_name(const Catalogue& t, const std::string& kind) {
  if (kind == "arena") return t("tournament.kind.arena");
  if (kind == "round_robin") return t("tournament.kind.round_robin");
  if (kind == "swiss") return t("tournament.kind.swiss");
  return kind;
}

std::string tournament_status(const Catalogue& t, const protocol::TournamentSummary& x) {
  if (x.status == "created")
    return t("tournament.starts_lower", {{"when", short_timestamp(x.start_at)}});
  if (x.status == "running")
    return x.kind == "arena" || x.round <= 0
               ? t("tournament.status.running")
               : t("tournament.status.running_round", {{"round", x.round}});
  if (x.status == "finished") return t("tournament.status.finished");
  return x.status;
}

std::string tournament_line(const Catalogue& t, const protocol::TournamentSummary& x) {
  return x.name + kDot + kind_name(t, x.kind) + kDot + tournament_status(t, x) + kDot +
         t("tournament.players", {{"count", x.players}}) + kDot + rules_name(t, x.rules) + kDot +
         time_choice_text(t, x.time) + kDot + t(x.rated ? "game.rated" : "game.casual");
}

std::string tiebreak_column(const Catalogue& t, const std::string& kind) {
  if (kind == "round_robin") return t("tournament.tiebreak.sb");
  if (kind == "swiss") return t("tournament.tiebreak.buchholz");
  return t("tournament.wins");
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

StandingRow standing_row(const Catalogue& t, const protocol::TournamentStanding& s) {
  StandingRow row;
  row.rank = std::to_string(s.rank) + ".";
  row.name = player_text(t, protocol::PlayerRef{s.name, s.rating, false});
  row.points = points_text(s.points);
  row.tiebreak = points_text(s.tiebreak);
  row.note = s.withdrawn ? t("tournament.withdrawn") : s.on_fire ? t("tournament.on_fire") : "";
  return row;
}

std::string pairing_line(const Catalogue& t, const protocol::TournamentPairing& p) {
  std::string line;
  if (p.state == "bye" || p.black.empty()) {
    line = t("tournament.pairing.bye", {{"player", p.white}});
  } else {
    std::string state = p.state;
    if (p.state == "forfeit" && p.result && (*p.result == "white" || *p.result == "black"))
      state = t("tournament.pairing.won_forfeit",
                {{"player", *p.result == "white" ? p.white : p.black}});
    else if (p.state == "finished" && p.result)
      state = *p.result == "draw"    ? t("tournament.pairing.draw")
              : *p.result == "white" ? t("tournament.pairing.won", {{"player", p.white}})
              : *p.result == "black" ? t("tournament.pairing.won", {{"player", p.black}})
                                     : *p.result;
    else if (p.state == "void")
      state = t("tournament.pairing.void");
    else if (p.state == "playing")
      state = t("tournament.pairing.playing");
    else if (p.state == "pending")
      state = t("tournament.pairing.pending");
    line = t("game.players", {{"white", p.white}, {"black", p.black}}) + kDot + state;
  }
  if (p.round <= 0) return line;
  return t("tournament.pairing.in_round", {{"round", p.round}, {"pairing", line}});
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
