// Tournaments through the lobby (server/core/lobby_tournaments.cpp): created, joined, started by
// the tick, games started and scored, state kept across a restart, standings pushed.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "lobby_harness.h"
#include "server/net/config.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;
using server::SessionId;

namespace {

server::LobbyConfig open_config() {
  auto c = LobbyHarness::default_config();
  c.players_create_tournaments = true;
  return c;
}

TournamentCreate swiss(int rounds) {
  TournamentCreate c;
  c.name = "Tuesday Swiss";
  c.kind = "swiss";
  c.time = TimeControl::fischer(Millis{60'000}, Millis{1'000});
  c.rated = false;
  c.start_in = 10;
  c.rounds = rounds;
  return c;
}

// Every game start waiting in the players' inboxes: game id -> (white, black).
std::map<std::string, std::pair<std::string, std::string>> starts(
    LobbyHarness& h, const std::map<std::string, SessionId>& who) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  for (const auto& [name, s] : who)
    while (h.has<Start>(s)) {
      const auto st = h.take<Start>(s);
      out[st.game] = {st.white.name, st.black.name};
    }
  return out;
}

// Black resigns every one of these games: white wins them all.
void white_wins(LobbyHarness& h, const std::map<std::string, SessionId>& who,
                const std::map<std::string, std::pair<std::string, std::string>>& games) {
  for (const auto& [game, players] : games) {
    Resign r;
    r.game = game;
    h.send(who.at(players.second), r);
  }
}

std::vector<std::string> order(const TournamentInfo& info) {
  std::vector<std::string> out;
  for (const auto& s : info.standings) out.push_back(s.name);
  return out;
}

}  // namespace

TEST_CASE("lobby: moderators create tournaments, and players only where the host allows it") {
  LobbyHarness h;
  const auto a = h.login("ann");
  h.send(a, swiss(3));
  CHECK(h.error(a) == ErrorCode::Forbidden);
  // A moderator may, whatever the setting (granted as `amazons-server admin grant` does it).
  const auto mod = h.login("mia");
  const server::WriteBatch grant{{server::RoleRow{"mia", Role::Moderator}}};
  h.storage().apply(std::span(&grant, 1));
  h.lobby().set_moderation(h.storage().moderation());
  h.send(mod, swiss(3));
  CHECK(h.take<TournamentInfo>(mod).tournament.status == "created");
  h.send(a, swiss(3));
  CHECK(h.error(a) == ErrorCode::Forbidden);
  const auto parsed = server::apply_config_json(
      server::ServerConfig{},
      nlohmann::json::parse(R"({"limits": {"players_create_tournaments": true}})"));
  REQUIRE(parsed);
  CHECK(parsed->lobby.players_create_tournaments);
  CHECK_FALSE(server::apply_config_json(
      server::ServerConfig{},
      nlohmann::json::parse(R"({"limits": {"players_create_tournaments": 1}})")));
  LobbyHarness open(open_config());
  const auto b = open.login("ann");
  auto bad = swiss(0);
  open.send(b, bad);
  CHECK(open.error(b) == ErrorCode::BadField);
  bad = swiss(3);
  bad.kind = "knockout";
  open.send(b, bad);
  CHECK(open.error(b) == ErrorCode::BadField);
  open.send(b, swiss(3));
  CHECK(open.take<TournamentInfo>(b).tournament.status == "created");
}

TEST_CASE("lobby: a Swiss tournament of four is played to the end across a restart") {
  LobbyHarness h(open_config());
  std::map<std::string, SessionId> who;
  for (const char* n : {"a", "b", "c", "d"}) who[n] = h.login(n);
  h.send(who["a"], swiss(2), 7);
  const auto created = h.take<TournamentInfo>(who["a"]);
  const auto id = created.tournament.id;
  CHECK(created.tournament.kind == "swiss");
  CHECK(created.rounds == 2);
  for (auto& [n, s] : who) {
    h.send(s, TournamentJoin{id});
    h.take<Ok>(s);
  }
  const auto spectator = h.login("eve");
  h.send(spectator, TournamentShow{id});
  CHECK(h.take<TournamentInfo>(spectator).standings.size() == 4);

  h.advance(Millis{5'000});
  CHECK(starts(h, who).empty());  // not yet its time
  h.advance(Millis{5'000});
  // Round 1, all level and rated alike, by name: a-c, b-d.
  const auto round1 = starts(h, who);
  REQUIRE(round1.size() == 2);
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& [g, p] : round1) pairs.insert(p);
  CHECK(pairs == std::set<std::pair<std::string, std::string>>{{"a", "c"}, {"b", "d"}});
  // The games are marked as the tournament's in the game list.
  h.send(spectator, List{});
  const auto list = h.take<Games>(spectator);
  REQUIRE(list.games.size() == 2);
  for (const auto& g : list.games) CHECK(g.tournament == id);

  white_wins(h, who, round1);
  // The spectator sees the standings move.
  TournamentInfo seen;
  while (h.has<TournamentInfo>(spectator)) seen = h.take<TournamentInfo>(spectator);
  CHECK(seen.standings[0].points == 1);

  // The server restarts between the rounds; round 2 was paired but not started.
  h.reopen();
  for (auto& [n, s] : who) s = h.login(n);
  h.advance(Millis{100});
  const auto round2 = starts(h, who);
  REQUIRE(round2.size() == 2);
  pairs.clear();
  for (const auto& [g, p] : round2) pairs.insert(p);
  CHECK(pairs == std::set<std::pair<std::string, std::string>>{{"a", "b"}, {"c", "d"}});
  white_wins(h, who, round2);
  h.advance(Millis{100});

  // a 2; b and c 1 with Buchholz 2 each, never met, same rating: by name; d 0.
  const auto viewer = h.login("eve");
  h.send(viewer, TournamentShow{id});
  const auto final_info = h.take<TournamentInfo>(viewer);
  CHECK(final_info.tournament.status == "finished");
  CHECK(order(final_info) == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(final_info.standings[1].tiebreak == 2);
  CHECK(final_info.pairings.size() == 4);

  // Finished tournaments stay listed, after another restart too.
  h.reopen();
  const auto later = h.login("eve");
  h.send(later, TournamentsRequest{});
  const auto all = h.take<TournamentList>(later);
  REQUIRE(all.tournaments.size() == 1);
  CHECK(all.tournaments[0].status == "finished");
  CHECK(all.tournaments[0].name == "Tuesday Swiss");
}

TEST_CASE("lobby: arena players join late and withdraw - bots are refused where not allowed") {
  LobbyHarness h(open_config());
  const auto a = h.login("a");
  const auto b = h.login("b");
  const auto bot = h.login("robot", true);
  TournamentCreate c;
  c.name = "Blitz arena";
  c.kind = "arena";
  c.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  c.start_in = 0;
  c.duration = 60;
  c.bots_allowed = false;
  h.send(a, c);
  const auto id = h.take<TournamentInfo>(a).tournament.id;
  h.send(bot, TournamentJoin{id});
  CHECK(h.take<Error>(bot).message == "bots may not play in this tournament");
  h.send(a, TournamentJoin{id});
  h.advance(Millis{100});  // started with one player: finished at once
  TournamentInfo last;
  while (h.has<TournamentInfo>(a)) last = h.take<TournamentInfo>(a);
  CHECK(last.tournament.status == "finished");

  c.start_in = 1;
  c.bots_allowed = true;
  h.send(a, c);
  const auto id2 = h.take<TournamentInfo>(a).tournament.id;
  for (auto s : {a, b}) h.send(s, TournamentJoin{id2});
  h.advance(Millis{1'000});
  CHECK(h.has<Start>(a));
  h.send(bot, TournamentJoin{id2});  // an arena takes players while it runs
  h.take<Ok>(bot);
  h.send(b, TournamentWithdraw{id2});
  h.take<Ok>(b);
  h.send(b, TournamentWithdraw{id2});
  CHECK(h.error(b) == ErrorCode::NotAllowed);
  h.send(b, TournamentShow{999});
  CHECK(h.error(b) == ErrorCode::BadField);
}

TEST_CASE("lobby: tournament requests are answered with their request id") {
  LobbyHarness h(open_config());
  const auto a = h.login("a");
  h.send(a, swiss(2), 5);
  h.send(a, TournamentJoin{1}, 6);
  h.send(a, TournamentJoin{1}, 7);
  std::map<std::string, std::string> replies;  // id -> type
  for (const auto& e : h.drain(a))
    if (e.id) replies[e.id->dump()] = std::string(type_of(e.message));
  CHECK(replies["5"] == "tournament");
  CHECK(replies["6"] == "ok");
  CHECK(replies["7"] == "error");
}
