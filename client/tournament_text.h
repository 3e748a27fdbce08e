// Words the clients show about a server's tournaments: the list line, the standings rows and the
// pairings. Shared by the desktop and terminal clients so both say things the same way.
#pragma once

#include <optional>
#include <string>

#include "client/catalogue.h"
#include "common/protocol.h"

namespace amazons::client {

// Every text here is in the catalogue's language.
// "Arena", "Round robin", "Swiss"; an unknown kind as the server sent it.
std::string kind_name(const Catalogue& t, const std::string& kind);
// "starts 2026-12-01 21:40 UTC", "running, round 2", "running" (an arena), "finished".
std::string tournament_status(const Catalogue& t, const protocol::TournamentSummary& x);
// "Sunday arena · Arena · running · 6 players · standard · 3 min + 2 s · rated".
std::string tournament_line(const Catalogue& t, const protocol::TournamentSummary& x);
// The column of what decides ties after the points, by kind: "SB", "Buchholz", "Wins".
std::string tiebreak_column(const Catalogue& t, const std::string& kind);
// "3", "2.5", "0.25": points without trailing zeros.
std::string points_text(double points);

// One row of the standings, in columns.
struct StandingRow {
  std::string rank, name, points, tiebreak, note;
  friend bool operator==(const StandingRow&, const StandingRow&) = default;
};
// rank "1."; name "bob (1612)"; note "on fire" (arena), "withdrawn", or "".
StandingRow standing_row(const Catalogue& t, const protocol::TournamentStanding& s);

// "Round 2: alice vs bob · playing", "alice vs bob · alice won", "carol: bye",
// "dave vs erin · dave won by forfeit", "alice vs bob · void (still playing at the end)".
std::string pairing_line(const Catalogue& t, const protocol::TournamentPairing& p);

// Whether `name` is in the tournament and has not withdrawn.
bool takes_part(const protocol::TournamentInfo& t, const std::string& name);
// The game `name` plays in the tournament right now, if any.
std::optional<std::string> current_game(const protocol::TournamentInfo& t, const std::string& name);

}  // namespace amazons::client
