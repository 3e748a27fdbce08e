// The wire between cluster nodes (server/node/cluster_wire.h): every message the nodes send each
// other over the bus comes back equal from its encoding, and malformed bodies are refused.
#include <doctest/doctest.h>

#include <vector>

#include "server/node/cluster_wire.h"

using namespace amazons;
using namespace amazons::server;
using namespace amazons::protocol;

TEST_CASE("cluster wire: every message survives the bus, and malformed bodies are refused") {
  const RemotePlayer p{"alice", true, Rating{1612.5, 80.25, 0.061}, 3, 2};
  TurnInfo turn;
  turn.game = "17";
  turn.opponent = "bob";
  turn.rules = "standard";
  turn.time = TimeControl::fixed_per_move(Millis{86'400'000});
  turn.plies = 3;
  turn.left_ms = 5000;
  turn.deadline = "2027-01-01T00:00:00Z";
  const std::vector<wire::NodeMessage> all = {
      wire::Request{4, p, "17", R"({"type":"move"})"},
      wire::AttachGame{4, p, 17},
      wire::Detach{4},
      wire::Lines{{{4, "a"}, {5, "b"}}, {5}},
      wire::Bounced{4, "c3", ""},
      wire::Replaced{9},
      wire::Reset{},
      wire::Tick{},
      wire::Turns{4, YourTurn{{turn}}, 2},
      wire::Moderated{SanctionRow{SanctionKind::BanAddress, "10.0.0.1", "spam", "mod",
                                  Timestamp{Millis{1'800'000'000'000}}, std::nullopt}},
      wire::Moderated{SanctionRow{SanctionKind::Mute, "bob", "", "mod",
                                  Timestamp{Millis{1'800'000'000'000}},
                                  Timestamp{Millis{1'800'000'360'000}}}},
      wire::Moderated{SanctionRemoved{SanctionKind::BanName, "bob"}},
      wire::Moderated{KickOrder{"bob", "cool off"}},
      wire::Moderated{ReportRow{104, Timestamp{Millis{5}}, "ann", "bob", 1234, "rude", "17",
                                "rude words", std::nullopt, std::nullopt, ""}},
      wire::Moderated{ReportRow{105, Timestamp{Millis{5}}, "ann", "bob", std::nullopt, std::nullopt,
                                std::nullopt, "spam", "mod", Timestamp{Millis{9}}, "warned"}},
      wire::Directory{PeerView{{}, {{"alice", p.rating, 3, true, 4}}, {{"alice", 2}}}}};
  for (const auto& m : all) {
    const auto back = wire::decode(wire::encode(m));
    REQUIRE_MESSAGE(back.has_value(), wire::encode(m));
    CHECK(*back == m);
  }
  for (
      const char* bad :
      {"", "[]", "{}", R"({"t":"nope"})", R"({"t":"detach","s":"x"})", R"({"t":"detach","s":0})",
       R"({"t":"detach","s":281474976710656})", R"({"t":"lines","m":[[1]],"c":[]})",
       R"({"t":"req","s":1,"p":{"name":"bad name","bot":false,"r":1,"d":1,"v":1,"g":0},"k":"1","l":""})",
       R"({"t":"dir","games":"{}","players":[],"playing":{}})",
       R"({"t":"turns","s":1,"y":"{\"type\":\"games\",\"games\":[]}","c":0})",
       R"({"t":"lift","kind":"jail","target":"bob"})", R"({"t":"kick","player":"bob"})",
       R"({"t":"report","id":0,"at":1,"reporter":"a","player":"b","line":null,"text":null,"game":null,"reason":"","resolved_by":null,"resolved_at":null,"note":""})",
       R"({"t":"turns","s":1,"y":"{\"type\":\"your_turn\",\"games\":[]}","c":-1})",
       R"({"t":"req","s":1,"p":{"name":"al","bot":false,"r":1,"d":1,"v":1,"g":0,"c":-2},"k":"1","l":""})",
       R"({"t":"dir","games":"{\"type\":\"games\",\"games\":[]}","players":[],"playing":{"a":-1}})"})
    CHECK_MESSAGE(!wire::decode(bad).has_value(), bad);
}
