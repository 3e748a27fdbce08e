// What the native clients say about games, in the person's language (catalogue.h): sides,
// results, whose move it is, the input's hints, time controls, rules, levels, the server's
// refusals. The same keys as the web client's where the words are the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "client/catalogue.h"
#include "client/game_view_model.h"
#include "client/move_input.h"
#include "client/server_host.h"
#include "common/game_record.h"
#include "common/time_control.h"
#include "common/types.h"
#include "common/variant.h"
#include "net/address.h"
#include "net/connection.h"

namespace amazons::client {

std::string side_name(const Catalogue& t, Color c);  // "White", "白方"
// "White wins", "Game aborted".
std::string result_title(const Catalogue& t, const GameResult& r);
// Why the game ended, as a sentence; for an illegal move the game driver's detail when given.
std::string result_reason(const Catalogue& t, const GameResult& r, const std::string& detail = {});
// The line under the players: the result, "White to move", "Black is thinking...".
std::string game_status(const Catalogue& t, const GameViewModel& vm);
// What to do in this stage of entering a move ("Pick up one of your queens."); empty when
// disabled.
std::string stage_hint(const Catalogue& t, InputStage s);
// A time control as the forms offer it: "No clock", "5 min + 5 s", "1 day per move".
std::string time_choice_text(const Catalogue& t, const TimeControl& tc);
// A rule variant's name: rules.NAME when the catalogue has it ("标准"), else the name.
std::string rules_name(const Catalogue& t, const std::string& name);
// A rule variant with its board: "standard (10×10)", "标准 (10×10)".
std::string variant_text(const Catalogue& t, const RuleVariant& v);
// An engine level's name ("Hard", "困难") and what it is like, from its name in ai.json; the
// configuration's own words for a level the catalogue does not know.
std::string level_name(const Catalogue& t, std::string_view level);
std::string level_description(const Catalogue& t, std::string_view level,
                              const std::string& configured);
// A player's name as shown: the computer's (kept as "Computer (LEVEL)" in records, where it tells
// the computer apart) in the person's words, "电脑（中等）"; anyone else's as written.
std::string player_name(const Catalogue& t, const PlayerInfo& p);
// One line for a saved game: "Ann vs Bob, 2026-11-29 14:25 - White wins, 31 moves".
std::string game_summary(const Catalogue& t, const GameRecord& r);
// A refusal from the server in the client's words: error.CODE, error.illegal_move.REASON, else
// error.unknown naming the code. The server's own message belongs in a log, not here.
std::string error_text(const Catalogue& t, std::string_view code, std::string_view reason = {});
// A failed request or a lost connection in the client's words: a refusal by its code (as
// error_text), anything else by its kind ("the server cannot be reached"). The ClientError's own
// message (English, with the system's detail) is for the log.
std::string client_error_text(const Catalogue& t, const net::ClientError& e);
// Why a typed server address or player name cannot be used, in the client's words
// (online.address.CODE, online.name_problem.CODE).
std::string address_error_text(const Catalogue& t, const net::AddressError& e);
std::string name_problem_text(const Catalogue& t, std::string_view problem);
// Why the server hosted on this computer cannot start or has stopped, in the client's words
// (host.failure.KIND), the system's reason by its errno (host.cause.*) where it is a common one.
std::string host_failure_text(const Catalogue& t, const HostFailure& f);
// What a line of the moderation audit log acted on, in the person's words. The server writes the
// target as it records it (server/core/lobby_moderation.cpp, server/app/admin.cpp): "game G",
// "game G to White", "report N on P", "server", "NAME ROLE"; those forms are read here, and any
// other target (a player's name, an address) is shown as written.
std::string audit_target_text(const Catalogue& t, std::string_view action,
                              const std::string& target);
// The reason of an audit line: for a removed chat line the server adds "(line N in game G:
// "TEXT")" to the moderator's reason, said here in the person's words.
std::string audit_reason_text(const Catalogue& t, std::string_view action,
                              const std::string& reason);
// How long a player has left for the move, roughly, as the web client says it: "2 d 3 h left",
// "5 h 12 min left", "under a minute left"; "no clock" without one.
std::string time_left_text(const Catalogue& t, const std::optional<std::int64_t>& ms);

}  // namespace amazons::client
