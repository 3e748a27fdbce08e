// The tournament core (server/core/tournament.h) driven through whole tournaments, the expected
// pairings and standings worked out by hand from the rules written at the top of that header.
#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/core/tournament.h"

using namespace amazons;
using namespace amazons::server;

namespace {

// p1..pN, rated 2000, 1900, ... so that the rating order is the name order.
Tournament make(TournamentKind kind, int players, int rounds = 0) {
  TournamentSettings s;
  s.name = "test";
  s.kind = kind;
  s.start_at = Millis{100};
  s.duration = Millis{1'000};
  s.rounds = rounds;
  Tournament t(1, s);
  for (int i = 1; i <= players; ++i)
    REQUIRE(t.join("p" + std::to_string(i), 2100 - 100 * i, false));
  return t;
}

std::string key(const Pairing& p) { return p.white + "-" + p.black; }

// The games of round r as "white-black", in the order they were made; byes as "name-".
std::vector<std::string> round_of(const Tournament& t, int r) {
  std::vector<std::string> out;
  for (const auto& p : t.pairings())
    if (p.round == r) out.push_back(key(p));
  return out;
}

int find(const Tournament& t, const std::string& white, const std::string& black) {
  for (std::size_t i = 0; i < t.pairings().size(); ++i)
    if (t.pairings()[i].white == white && t.pairings()[i].black == black)
      return static_cast<int>(i);
  FAIL("no pairing " << white << "-" << black);
  return -1;
}

int number(const std::string& name) { return std::stoi(name.substr(1)); }

// Starts every new pairing's game (as the lobby does) and hands back the indices.
std::vector<int> started(Tournament& t, std::vector<int> fresh) {
  for (int i : fresh) t.game_started(i, 1000 + i);
  return fresh;
}

std::vector<std::string> order(const Tournament& t) {
  std::vector<std::string> out;
  for (const auto& s : t.standings()) out.push_back(s.name);
  return out;
}

void check_colours_and_repeats(const Tournament& t, int max_colour_gap) {
  std::map<std::string, int> balance;
  std::set<std::pair<std::string, std::string>> met;
  for (const auto& p : t.pairings()) {
    if (p.black.empty()) continue;
    ++balance[p.white];
    --balance[p.black];
    const auto pair = std::minmax(p.white, p.black);
    CHECK_MESSAGE(met.insert(pair).second, "repeat " << key(p));
  }
  for (const auto& [name, b] : balance) CHECK_MESSAGE(std::abs(b) <= max_colour_gap, name);
}

}  // namespace

TEST_CASE(
    "tournament: round-robin of eight follows the Berger tables and ranks by Sonneborn-Berger") {
  Tournament t = make(TournamentKind::RoundRobin, 8);
  CHECK(t.tick(Millis{99}).empty());
  CHECK(t.status() == TournamentStatus::Created);
  // The FIDE Berger table for eight: round 1 1-8 2-7 3-6 4-5, round 2 8-5 6-4 7-3 1-2.
  started(t, t.tick(Millis{100}));
  CHECK(t.status() == TournamentStatus::Running);
  CHECK(round_of(t, 1) == std::vector<std::string>{"p1-p8", "p2-p7", "p3-p6", "p4-p5"});
  // Results: the lower number wins, except p8 beats p1 and p5 beats p2.
  auto winner = [](const std::string& a, const std::string& b) {
    const int x = number(a), y = number(b);
    if (std::set{x, y} == std::set{1, 8}) return 8;
    if (std::set{x, y} == std::set{2, 5}) return 5;
    return std::min(x, y);
  };
  for (int round = 1; round <= 7; ++round) {
    CHECK(t.round() == round);
    std::vector<int> current;
    for (std::size_t i = 0; i < t.pairings().size(); ++i)
      if (t.pairings()[i].round == round) current.push_back(static_cast<int>(i));
    REQUIRE(current.size() == 4);
    for (std::size_t k = 0; k < current.size(); ++k) {
      const Pairing p = t.pairings()[static_cast<std::size_t>(current[k])];
      CHECK(p.state == Pairing::State::Playing);
      const auto r = winner(p.white, p.black) == number(p.white) ? TournamentResult::WhiteWins
                                                                 : TournamentResult::BlackWins;
      const auto fresh = started(t, t.record_result(current[k], r, Millis{200 + round}));
      // The next round is made only when the last game of this one ends.
      CHECK(fresh.empty() == (k + 1 < current.size() || round == 7));
    }
    if (round == 2)
      CHECK(round_of(t, 2) == std::vector<std::string>{"p8-p5", "p1-p2", "p7-p3", "p6-p4"});
  }
  CHECK(t.status() == TournamentStatus::Finished);
  CHECK(t.pairings().size() == 28);
  check_colours_and_repeats(t, 1);
  // By hand: p1 6 (lost to p8); p2 5 and p3 5, SB p2 = p3 5 + p4 4 + p6 2 + p7 1 + p8 1 = 13,
  // p3 = p4 4 + p5 4 + 2 + 1 + 1 = 12; p4 4 and p5 4, SB p5 = p2 5 + 2 + 1 + 1 = 9 ahead of
  // p4 = p5 4 + 2 + 1 + 1 = 8 although p4 beat p5; p6 2; p7 1 and p8 1, SB p8 = p1 6, p7 = 1.
  const auto s = t.standings();
  CHECK(order(t) == std::vector<std::string>{"p1", "p2", "p3", "p5", "p4", "p6", "p8", "p7"});
  CHECK(s[0].points == 6);
  CHECK(s[1].tiebreak == 13);
  CHECK(s[2].tiebreak == 12);
  CHECK(s[3].tiebreak == 9);
  CHECK(s[4].tiebreak == 8);
  CHECK(s[6].tiebreak == 6);
  CHECK(s[7].tiebreak == 1);
  CHECK(s[7].points == 1);
}

TEST_CASE("tournament: Swiss of eight pairs top half against bottom half within score groups") {
  Tournament t = make(TournamentKind::Swiss, 8, 3);
  started(t, t.tick(Millis{100}));
  // Round 1, one group: S1 p1..p4 against S2 p5..p8, the higher-ranked white.
  CHECK(round_of(t, 1) == std::vector<std::string>{"p1-p5", "p2-p6", "p3-p7", "p4-p8"});
  started(t, t.record_result(find(t, "p1", "p5"), TournamentResult::WhiteWins, Millis{200}));
  started(t, t.record_result(find(t, "p2", "p6"), TournamentResult::WhiteWins, Millis{200}));
  started(t, t.record_result(find(t, "p3", "p7"), TournamentResult::WhiteWins, Millis{200}));
  const auto r2 =
      started(t, t.record_result(find(t, "p4", "p8"), TournamentResult::BlackWins, Millis{200}));
  CHECK(r2.size() == 4);
  // Round 2. 1 point: p1 p2 p3 p8 -> p1-p3, p2-p8; 0 points: p4 p5 p6 p7 -> p4-p6, p5-p7.
  // Colours: p1 and p3 both +1 and white last, so the higher p1 white; p2 +1 against p8 -1,
  // p8 white; p4 +1 against p6 -1, p6 white; p5 and p7 both -1, black last, p5 white.
  CHECK(round_of(t, 2) == std::vector<std::string>{"p1-p3", "p8-p2", "p6-p4", "p5-p7"});
  started(t, t.record_result(find(t, "p1", "p3"), TournamentResult::WhiteWins, Millis{300}));
  started(t, t.record_result(find(t, "p8", "p2"), TournamentResult::WhiteWins, Millis{300}));
  started(t, t.record_result(find(t, "p6", "p4"), TournamentResult::BlackWins, Millis{300}));
  started(t, t.record_result(find(t, "p5", "p7"), TournamentResult::WhiteWins, Millis{300}));
  // Round 3. 2: p1 p8; 1: p2 p3 p4 p5 -> p2-p4, p3-p5; 0: p6 p7. Colours: p1 (+2) black;
  // p2 and p4 level and both black last, p2 white; p5 white last so black; p7 (-2) white.
  CHECK(round_of(t, 3) == std::vector<std::string>{"p8-p1", "p2-p4", "p3-p5", "p7-p6"});
  started(t, t.record_result(find(t, "p8", "p1"), TournamentResult::WhiteWins, Millis{400}));
  started(t, t.record_result(find(t, "p2", "p4"), TournamentResult::WhiteWins, Millis{400}));
  started(t, t.record_result(find(t, "p3", "p5"), TournamentResult::BlackWins, Millis{400}));
  started(t, t.record_result(find(t, "p7", "p6"), TournamentResult::BlackWins, Millis{400}));
  CHECK(t.status() == TournamentStatus::Finished);
  check_colours_and_repeats(t, 2);
  // Final points: p8 3; p1 p2 p5 2; p3 p4 p6 1; p7 0. Buchholz: p1 = p5 2 + p3 1 + p8 3 = 6,
  // p2 = p6 1 + p8 3 + p4 1 = 5, p5 = p1 2 + p7 0 + p3 1 = 3; p4 = p8 3 + p6 1 + p2 2 = 6,
  // p3 = p7 0 + p1 2 + p5 2 = 4, p6 = p2 2 + p4 1 + p7 0 = 3.
  CHECK(order(t) == std::vector<std::string>{"p8", "p1", "p2", "p5", "p4", "p3", "p6", "p7"});
  const auto s = t.standings();
  CHECK(s[0].points == 3);
  CHECK(s[1].tiebreak == 6);
  CHECK(s[2].tiebreak == 5);
  CHECK(s[3].tiebreak == 3);
  CHECK(s[4].tiebreak == 6);
  CHECK(s[5].tiebreak == 4);
  CHECK(s[6].tiebreak == 3);
}

TEST_CASE("tournament: Swiss byes go to the lowest player without one, and score a point") {
  Tournament t = make(TournamentKind::Swiss, 7, 3);
  started(t, t.tick(Millis{100}));
  std::vector<std::string> byes;
  for (int round = 1; round <= 3; ++round) {
    for (const auto& p : t.pairings())
      if (p.round == round && p.black.empty()) byes.push_back(p.white);
    std::vector<int> current;
    for (std::size_t i = 0; i < t.pairings().size(); ++i)
      if (t.pairings()[i].round == round && t.pairings()[i].state == Pairing::State::Playing)
        current.push_back(static_cast<int>(i));
    CHECK(current.size() == 3);
    for (int i : current) {  // the higher-rated always wins
      const auto& p = t.pairings()[static_cast<std::size_t>(i)];
      started(t, t.record_result(i,
                                 number(p.white) < number(p.black) ? TournamentResult::WhiteWins
                                                                   : TournamentResult::BlackWins,
                                 Millis{200}));
    }
  }
  // Round 1: p7 the lowest. Round 2: 1 point p1 p2 p3 p7, 0 p4 p5 p6: p6 the lowest without
  // a bye. Round 3 (p1-p3, p2-p7, p4-p5 in round 2): 2 p1 p2; 1 p3 p4 p6 p7; 0 p5: p5.
  CHECK(byes == std::vector<std::string>{"p7", "p6", "p5"});
  CHECK(t.status() == TournamentStatus::Finished);
  check_colours_and_repeats(t, 2);
  for (const auto& s : t.standings())
    if (s.name == "p7") CHECK(s.points == 1);  // lost both games, the bye's point
}

TEST_CASE("tournament: arena pairs whoever is free, avoids rematches and doubles wins on fire") {
  Tournament t = make(TournamentKind::Arena, 8);
  // All at 0 points: by rating, next to each other; level colours, the higher-ranked white.
  started(t, t.tick(Millis{100}));
  CHECK(round_of(t, 0) == std::vector<std::string>{"p1-p2", "p3-p4", "p5-p6", "p7-p8"});
  // p1 and p2 are the only free players and just met; the others still play: they wait.
  CHECK(started(t, t.record_result(find(t, "p1", "p2"), TournamentResult::WhiteWins, Millis{110}))
            .empty());
  // p3 comes free: p1 (2) meets p3 (2), p2 meets p4. Both pairs level on colour and white last
  // / black last, so the higher-ranked white.
  CHECK(started(t, t.record_result(find(t, "p3", "p4"), TournamentResult::WhiteWins, Millis{120}))
            .size() == 2);
  CHECK(t.pairings()[4].white == "p1");
  CHECK(t.pairings()[4].black == "p3");
  CHECK(key(t.pairings()[5]) == "p2-p4");
  // p1's second win in a row: 4 points, now on fire. p1 and p3 wait (just met).
  CHECK(started(t, t.record_result(find(t, "p1", "p3"), TournamentResult::WhiteWins, Millis{130}))
            .empty());
  CHECK(t.standings()[0].on_fire);
  // p6 beats p5: free p1 4, p3 2, p6 2, p5 0 -> p1-p6 (p3 just met p1), p3-p5. p1 has two
  // whites so black; p5 has a white, p3 is level, so p5 black.
  CHECK(started(t, t.record_result(find(t, "p5", "p6"), TournamentResult::BlackWins, Millis{140}))
            .size() == 2);
  find(t, "p6", "p1");
  find(t, "p3", "p5");
  // A third win on fire scores 4: p1 8.
  started(t, t.record_result(find(t, "p6", "p1"), TournamentResult::BlackWins, Millis{150}));
  // p7 and p8 draw (1 each): free p1 8, p6 2, p7 1, p8 1 -> p1-p7, p6-p8.
  CHECK(started(t, t.record_result(find(t, "p7", "p8"), TournamentResult::Draw, Millis{160}))
            .size() == 2);
  const int p1p7 = t.pairings()[t.pairings().size() - 2].white == "p1" ? find(t, "p1", "p7")
                                                                       : find(t, "p7", "p1");
  // A draw on fire scores 2 and ends the streak.
  started(t, t.record_result(p1p7, TournamentResult::Draw, Millis{170}));
  CHECK_FALSE(t.standings()[0].on_fire);
  // Time is up: the games still being played (p2-p4, p3-p5, p6-p8) do not count.
  CHECK(t.tick(Millis{1'100}).empty());
  CHECK(t.status() == TournamentStatus::Finished);
  CHECK(t.record_result(find(t, "p2", "p4"), TournamentResult::WhiteWins, Millis{1'200}).empty());
  CHECK(t.pairings()[static_cast<std::size_t>(find(t, "p2", "p4"))].state == Pairing::State::Void);
  // p1 2 + 2 + 4 (third win in a row) + 2 (draw on fire) = 10; p3 2 and p6 2
  // with one win each, not met: by rating p3; p7 2 (two draws, no win); p8 1; p2 p4 p5 0.
  CHECK(order(t) == std::vector<std::string>{"p1", "p3", "p6", "p7", "p8", "p2", "p4", "p5"});
  const auto s = t.standings();
  CHECK(s[0].points == 10);
  CHECK(s[0].wins == 3);
  CHECK(s[0].draws == 1);
  CHECK(s[3].points == 2);
  CHECK(s[3].tiebreak == 0);
  CHECK(s[4].points == 1);
}

TEST_CASE("tournament: the direct encounter separates two players level on points and tie-break") {
  Tournament t = make(TournamentKind::Arena, 4);
  started(t, t.tick(Millis{100}));
  started(t, t.record_result(find(t, "p1", "p2"), TournamentResult::BlackWins, Millis{110}));
  // Free p2 (2) and p3 (2) after p3 wins; p1 and p4 at 0.
  started(t, t.record_result(find(t, "p3", "p4"), TournamentResult::WhiteWins, Millis{120}));
  const int p2p3 = find(t, "p2", "p3");
  const int p1p4 = find(t, "p4", "p1");  // p4 has a black, p1 a white: p4 white
  started(t, t.record_result(p2p3, TournamentResult::BlackWins, Millis{130}));
  started(t, t.record_result(p1p4, TournamentResult::BlackWins, Millis{140}));
  t.tick(Millis{1'100});
  // p3 4; p1 and p2 2 points and one win each; p2 beat p1, so p2 first despite the rating.
  CHECK(order(t) == std::vector<std::string>{"p3", "p2", "p1", "p4"});
}

TEST_CASE("tournament: joining and withdrawing") {
  SUBCASE("before the start a withdrawal removes the player; limits and bots are enforced") {
    TournamentSettings s;
    s.name = "small";
    s.kind = TournamentKind::Swiss;
    s.rounds = 2;
    s.max_players = 2;
    s.bots_allowed = false;
    Tournament t(7, s);
    CHECK(t.join("a", 1500, false));
    CHECK_FALSE(t.join("a", 1500, false));
    CHECK(t.join("bot", 1500, true).error() == "bots may not play in this tournament");
    CHECK(t.join("b", 1500, false));
    CHECK(t.join("c", 1500, false).error() == "the tournament is full");
    CHECK(t.withdraw("b"));
    CHECK(t.players().size() == 1);
    CHECK(t.join("c", 1500, false));
    t.tick(Millis{0});
    CHECK(t.status() == TournamentStatus::Running);
    CHECK(t.join("d", 1500, false).error() == "the tournament has started");
  }
  SUBCASE("fewer than two players at the start: finished without games") {
    Tournament t = make(TournamentKind::Arena, 1);
    t.tick(Millis{100});
    CHECK(t.status() == TournamentStatus::Finished);
    CHECK(t.pairings().empty());
  }
  SUBCASE("arena: joined late and paired; withdrawn not paired again") {
    Tournament t = make(TournamentKind::Arena, 3);
    started(t, t.tick(Millis{100}));  // p1-p2, p3 waits
    CHECK(t.join("p4", 1000, false));
    CHECK(started(t, t.tick(Millis{101})).size() == 1);  // p3-p4
    CHECK(t.withdraw("p3"));
    started(t, t.record_result(find(t, "p3", "p4"), TournamentResult::WhiteWins, Millis{110}));
    started(t, t.record_result(find(t, "p1", "p2"), TournamentResult::WhiteWins, Millis{120}));
    for (std::size_t i = 2; i < t.pairings().size(); ++i) {
      CHECK(t.pairings()[i].white != "p3");
      CHECK(t.pairings()[i].black != "p3");
    }
    CHECK(t.standings()[0].name == "p1");  // p3's game counted: 2 points each, p1 rated higher
    CHECK(t.standings()[1].name == "p3");
    CHECK(t.standings()[1].withdrawn);
  }
  SUBCASE("round-robin: the games of a withdrawn player are forfeited") {
    Tournament t = make(TournamentKind::RoundRobin, 4);
    started(t, t.tick(Millis{100}));  // 1-4, 2-3
    CHECK(t.withdraw("p4"));
    for (const auto& i : std::vector<int>{find(t, "p1", "p4"), find(t, "p2", "p3")})
      started(t, t.record_result(i, TournamentResult::WhiteWins, Millis{110}));
    // Round 2: 4-3 forfeited to p3, 1-2 played.
    const auto& f = t.pairings()[static_cast<std::size_t>(find(t, "p4", "p3"))];
    CHECK(f.state == Pairing::State::Forfeit);
    CHECK(f.result == TournamentResult::BlackWins);
  }
  SUBCASE("round-robin with an odd count: facing the empty seat is a rest without a point") {
    Tournament t = make(TournamentKind::RoundRobin, 3);
    started(t, t.tick(Millis{100}));
    CHECK(round_of(t, 1) == std::vector<std::string>{"p1-", "p2-p3"});
    CHECK(t.standings().back().points == 0);
  }
}

TEST_CASE("tournament: the state survives a round trip through JSON, and bad state is refused") {
  Tournament t = make(TournamentKind::Swiss, 5, 3);
  started(t, t.tick(Millis{100}));
  started(t, t.record_result(0, TournamentResult::BlackWins, Millis{150}));
  const auto j = t.to_json();
  auto back = Tournament::from_json(nlohmann::json::parse(j.dump()));
  REQUIRE(back);
  CHECK(back->to_json() == j);
  CHECK(back->pairings() == t.pairings());
  CHECK(back->players() == t.players());
  CHECK(back->settings() == t.settings());
  CHECK(back->pairing_of_game(1001) == 1);
  // It goes on the same way from the copy.
  CHECK(back->record_result(1, TournamentResult::WhiteWins, Millis{160}) ==
        t.record_result(1, TournamentResult::WhiteWins, Millis{160}));
  CHECK(back->pairings() == t.pairings());

  auto bad = j;
  bad["pairings"][0]["white"] = "nobody";
  CHECK_FALSE(Tournament::from_json(bad));
  bad = j;
  bad["settings"]["kind"] = "knockout";
  CHECK_FALSE(Tournament::from_json(bad));
  bad = j;
  bad["players"] = 3;
  CHECK_FALSE(Tournament::from_json(bad));
  CHECK_FALSE(Tournament::from_json(nlohmann::json::array()));
}

TEST_CASE("tournament: settings are checked") {
  TournamentSettings s;
  s.name = "x";
  s.kind = TournamentKind::Arena;
  CHECK_FALSE(check(s));  // no duration
  s.duration = Millis{60'000};
  CHECK(check(s));
  s.kind = TournamentKind::Swiss;
  CHECK_FALSE(check(s));  // no rounds
  s.rounds = 5;
  CHECK(check(s));
  s.max_players = 1;
  CHECK_FALSE(check(s));
  s.max_players = 0;
  s.name = "";
  CHECK_FALSE(check(s));
}
