// What the clients say about a tournament (client/tournament_text.h), from the protocol's
// summaries, standings and pairings; and how the forms read a private game's invite
// (client/game_choices.h).
#include <doctest/doctest.h>

#include <cmath>

#include "client/game_choices.h"
#include "client/tournament_text.h"
#include "client/words.h"
#include "tests/client/catalogues.h"

using namespace amazons;
using namespace amazons::client;

namespace {
const Catalogue& en = test::english();
const Catalogue& zh = test::chinese();
}  // namespace

TEST_CASE("tournament text: the list line says kind, status, players, rules, clock and rating") {
  protocol::TournamentSummary t;
  t.name = "Sunday arena";
  t.kind = "arena";
  t.status = "created";
  t.rules = "standard";
  t.time = TimeControl::fischer(std::chrono::minutes(3), std::chrono::seconds(2));
  t.rated = true;
  t.players = 1;
  t.start_at = "2026-12-06T18:00:00.000Z";
  CHECK(tournament_status(en, t) == "starts 2026-12-06 18:00 UTC");
  CHECK(tournament_line(en, t) ==
        "Sunday arena \u00B7 Arena \u00B7 starts 2026-12-06 18:00 UTC \u00B7 "
        "1 player \u00B7 standard \u00B7 " +
            time_choice_text(en, t.time) + " \u00B7 rated");
  t.start_at = "soon";  // not the server's format: shown as it came
  CHECK(tournament_status(en, t) == "starts soon");
  t.status = "running";
  t.round = 4;
  CHECK(tournament_status(en, t) == "running");  // an arena has no rounds
  t.kind = "swiss";
  CHECK(tournament_status(en, t) == "running, round 4");
  t.status = "finished";
  t.players = 8;
  t.rated = false;
  CHECK(tournament_line(en, t).find("Swiss \u00B7 finished \u00B7 8 players") != std::string::npos);
  CHECK(tournament_line(en, t).ends_with("casual"));
  CHECK(tournament_line(zh, t).find("瑞士制 \u00B7 已结束 \u00B7 8 名棋手 \u00B7 标准") !=
        std::string::npos);
  CHECK(kind_name(en, "round_robin") == "Round robin");
  CHECK(kind_name(en, "knockout") == "knockout");
  CHECK(tiebreak_column(en, "round_robin") == "SB");
  CHECK(tiebreak_column(en, "arena") == "Wins");
}

TEST_CASE("tournament text: points without trailing zeros, standings rows and pairings") {
  CHECK(points_text(3) == "3");
  CHECK(points_text(2.5) == "2.5");
  CHECK(points_text(0.25) == "0.25");
  CHECK(points_text(-0.0) == "0");
  CHECK(points_text(std::nan("")) == "?");

  protocol::TournamentStanding s{2, "bob", 4.5, 11.25, 6, 4, 1, 1, true, false, 1612};
  const StandingRow row = standing_row(en, s);
  CHECK(row == StandingRow{"2.", "bob (1612)", "4.5", "11.25", "on fire"});
  CHECK(standing_row(zh, s).note == "火热");
  s.withdrawn = true;
  CHECK(standing_row(en, s).note == "withdrawn");

  protocol::TournamentPairing p{2, "alice", "bob", "playing", std::nullopt, "17"};
  CHECK(pairing_line(en, p) == "Round 2: alice vs bob \u00B7 playing");
  p.state = "finished";
  p.result = "white";
  CHECK(pairing_line(en, p) == "Round 2: alice vs bob \u00B7 alice won");
  p.result = "black";
  CHECK(pairing_line(en, p) == "Round 2: alice vs bob \u00B7 bob won");
  p.result = "draw";
  CHECK(pairing_line(en, p) == "Round 2: alice vs bob \u00B7 draw");
  p.state = "forfeit";
  p.result = "black";
  CHECK(pairing_line(en, p) == "Round 2: alice vs bob \u00B7 bob won by forfeit");
  p.round = 0;
  p.state = "void";
  CHECK(pairing_line(en, p) == "alice vs bob \u00B7 void (still playing at the end)");
  CHECK(pairing_line(en, {3, "carol", "", "bye", std::nullopt, std::nullopt}) ==
        "Round 3: carol: bye");
  CHECK(pairing_line(zh, {3, "carol", "", "bye", std::nullopt, std::nullopt}) ==
        "第 3 轮：carol：轮空");

  protocol::TournamentInfo info;
  info.standings = {{1, "alice", 1, 0, 1, 1, 0, 0, false, false, 1500},
                    {2, "bob", 0, 0, 1, 0, 1, 0, false, true, 1500}};
  info.pairings = {{1, "alice", "bob", "finished", "white", "16"},
                   {2, "bob", "alice", "playing", std::nullopt, "17"}};
  CHECK(takes_part(info, "alice"));
  CHECK_FALSE(takes_part(info, "bob"));  // withdrawn
  CHECK_FALSE(takes_part(info, "carol"));
  CHECK(current_game(info, "alice") == "17");
  CHECK_FALSE(current_game(info, "carol").has_value());
}

TEST_CASE("invites: the game and code typed, with a comma, or the invite link pasted") {
  using T = InviteTarget;
  CHECK(parse_invite("17 ABCDEFGHJK") == T{"17", "ABCDEFGHJK"});
  CHECK(parse_invite("  17,ABCDE FGHJK ") == T{"17", "ABCDEFGHJK"});
  CHECK(parse_invite("http://192.168.1.10:7420/#/join/17/ABCDEFGHJK") == T{"17", "ABCDEFGHJK"});
  CHECK(parse_invite("see https://host/#/join/3/XYZ23 today") == T{"3", "XYZ23"});
  CHECK_FALSE(parse_invite(""));
  CHECK_FALSE(parse_invite("17"));
  CHECK_FALSE(parse_invite("   "));
  CHECK_FALSE(parse_invite("https://host/#/join/17"));
  CHECK_FALSE(parse_invite("https://host/#/join//CODE"));
  CHECK_FALSE(parse_invite("https://host/#/join/17/"));
  // The link the desktop client shows while it hosts; the web client opens it, this reads it.
  CHECK(invite_link("https://192.168.1.10:7420/", {"17", "ABCDEFGHJK"}) ==
        "https://192.168.1.10:7420/#/join/17/ABCDEFGHJK");
  CHECK(invite_link("http://[::1]:7420", {"3", "XYZ23"}) == "http://[::1]:7420/#/join/3/XYZ23");
  CHECK(parse_invite(invite_link("http://h:1/", {"17", "ABCDEFGHJK"})) == T{"17", "ABCDEFGHJK"});
}
