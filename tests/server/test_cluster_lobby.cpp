// The lobby as a cluster node, pure: what it hands to the cluster (Effects::cluster), how it
// talks to players of other nodes through remote sessions, and what it makes of the answers.
// The nodes working together, on a real Redis and PostgreSQL, are in tests/cluster/test_nodes.cpp.
#include <doctest/doctest.h>

#include <algorithm>

#include "common/notation.h"
#include "common/protocol.h"
#include "server/cluster_wire.h"
#include "server/lobby.h"

using namespace amazons;
using namespace amazons::server;
using namespace amazons::protocol;

namespace {

LobbyConfig node_config(const std::string& node) {
  LobbyConfig c;
  c.rules_dir = AMAZONS_CONFIG_DIR "/rules";
  c.node = node;
  return c;
}

Instant at(long long ms) { return {Millis{ms}, Timestamp{Millis{1'800'000'000'000 + ms}}}; }

// Every message of the effects to one session, decoded.
std::vector<ServerEnvelope> to(const Effects& fx, SessionId s) {
  std::vector<ServerEnvelope> out;
  for (const auto& m : fx.messages)
    if (m.to == s) out.push_back(*decode_server(*m.line));
  return out;
}
template <class M>
std::optional<M> first(const Effects& fx, SessionId s) {
  for (const auto& e : to(fx, s))
    if (const auto* m = std::get_if<M>(&e.message)) return *m;
  return std::nullopt;
}

// A node's lobby with a block of ids, and a player logged in the way the cluster would log them
// in (the login job's outcome).
struct Node {
  Lobby lobby;
  explicit Node(const std::string& name) : lobby(node_config(name), LoadedState{}, at(0)) {
    lobby.add_game_ids(100, kGameIdBlock);
  }
  Effects login(SessionId s, const std::string& name, std::vector<GameId> elsewhere = {}) {
    lobby.connect(s, at(0));
    Hello h;
    h.name = name;
    auto fx = lobby.handle_line(s, encode(ClientMessage{h}, nlohmann::json(1)), at(0));
    REQUIRE(fx.cluster.logins.size() == 1);
    CHECK(fx.messages.empty());  // the welcome waits for the cluster's answer
    LoginOutcome out;
    out.job = fx.cluster.logins.front();
    out.row.name = name;
    out.games = std::move(elsewhere);
    return lobby.complete_login(out, at(0));
  }
};

RemotePlayer remote(const std::string& name) { return {name, false, Rating{}, 0}; }

}  // namespace

TEST_CASE("cluster lobby: a login waits for the cluster, and games elsewhere are attached") {
  Node a("a");
  const auto fx = a.login(1, "alice", {7, 9});
  const auto welcome = first<Welcome>(fx, 1);
  REQUIRE(welcome.has_value());
  CHECK(welcome->games == std::vector<std::string>{"7", "9"});
  CHECK(to(fx, 1).front().id == nlohmann::json(1));  // the hello's id on the welcome
  REQUIRE(fx.cluster.attaches.size() == 2);
  CHECK(fx.cluster.attaches[0].game == 7);
  CHECK(fx.cluster.attaches[0].session == 1);
  CHECK(fx.cluster.attaches[0].player.name == "alice");
  // A refusal answers the hello with the cluster's reason.
  a.lobby.connect(2, at(0));
  auto hello =
      a.lobby.handle_line(2, R"({"type":"hello","protocol":1,"name":"bob","id":5})", at(0));
  LoginOutcome refused;
  refused.job = hello.cluster.logins.at(0);
  refused.error = make_error(ErrorCode::NameTaken, "that name is in use");
  const auto no = a.lobby.complete_login(refused, at(0));
  const auto e = first<Error>(no, 2);
  REQUIRE(e.has_value());
  CHECK(e->code == ErrorCode::NameTaken);
  CHECK(to(no, 2).front().id == nlohmann::json(5));
}

TEST_CASE("cluster lobby: a request about a game another node runs is handed on, whole") {
  Node a("a");
  a.login(1, "alice");
  const auto fx =
      a.lobby.handle_line(1, R"({"type":"move","game":"7","move":"d1-d7/g7","id":3})", at(10));
  CHECK(fx.messages.empty());
  REQUIRE(fx.cluster.forwards.size() == 1);
  const Forward& f = fx.cluster.forwards.front();
  CHECK(f.key == "7");
  CHECK(f.session == 1);
  CHECK(f.player.name == "alice");
  const auto line = decode_client(f.line);
  REQUIRE(line.has_value());
  CHECK(line->id == nlohmann::json(3));
  CHECK(std::get<MoveMsg>(line->message).move == "d1-d7/g7");
  // A challenge held elsewhere goes the same way, by its id; a bad game id is refused here.
  CHECK(a.lobby.handle_line(1, R"({"type":"accept","challenge":"c12"})", at(10))
            .cluster.forwards.at(0)
            .key == "c12");
  const auto bad = a.lobby.handle_line(1, R"({"type":"watch","game":"x"})", at(10));
  CHECK(bad.cluster.forwards.empty());
  CHECK(first<Error>(bad, 1)->code == ErrorCode::NoSuchGame);
}

TEST_CASE("cluster lobby: a player of another node plays through a remote session") {
  Node a("a");
  a.login(1, "alice");
  auto created = a.lobby.handle_line(1, R"({"type":"create","color":"white"})", at(10));
  const auto game = first<Created>(created, 1)->game;
  CHECK(game == "100");  // from the node's block of ids
  CHECK(created.cluster.acquire == std::vector<std::string>{"100"});
  a.lobby.lease_taken("100", 42);

  // Bob, connected to node b as its session 5, joins.
  const RemoteSession bob{"b", 5};
  auto joined = a.lobby.remote_request(bob, remote("bob"),
                                       R"({"type":"join","game":"100","id":"j"})", at(20));
  SessionId bob_here = 0;
  for (const auto& m : joined.messages)
    if (is_remote_session(m.to)) bob_here = m.to;
  REQUIRE(bob_here != 0);
  CHECK(a.lobby.remote_of(bob_here) == bob);
  const auto start = first<Start>(joined, bob_here);
  REQUIRE(start.has_value());
  CHECK(start->color == Color::Black);
  CHECK(to(joined, bob_here).front().id == nlohmann::json("j"));
  CHECK(first<Start>(joined, 1)->color == Color::White);
  // Every write of the game is fenced with the lease's token.
  REQUIRE_FALSE(joined.writes.fences.empty());
  CHECK(joined.writes.fences.front() == Fence{100, 42});

  auto moved = a.lobby.handle_line(1, R"({"type":"move","game":"100","move":"d1-d7/g7"})", at(30));
  CHECK(first<Moved>(moved, bob_here)->move == "d1-d7/g7");
  CHECK(std::count(moved.writes.fences.begin(), moved.writes.fences.end(), Fence{100, 42}) >= 1);

  // Bob's node says he left: alice sees him go.
  auto left = a.lobby.remote_detach(bob, at(40));
  const auto presence = first<Presence>(left, 1);
  REQUIRE(presence.has_value());
  CHECK_FALSE(presence->online);
  CHECK_FALSE(a.lobby.remote_of(bob_here).has_value());
  // Back through another node: attached to his seat, he gets the state, alice his presence.
  const RemoteSession bob_on_c{"c", 8};
  auto back = a.lobby.remote_attach(bob_on_c, remote("bob"), 100, at(50));
  CHECK(first<Presence>(back, 1)->online);
  bool state = false;
  for (const auto& m : back.messages)
    if (a.lobby.remote_of(m.to) == bob_on_c &&
        std::holds_alternative<State>(decode_server(*m.line)->message))
      state = true;
  CHECK(state);
}

TEST_CASE("cluster lobby: what a node does not run goes back to the asking node") {
  Node a("a");
  const RemoteSession bob{"b", 5};
  auto fx = a.lobby.remote_request(bob, remote("bob"), R"({"type":"watch","game":"77"})", at(0));
  REQUIRE(fx.cluster.bounces.size() == 1);
  CHECK(fx.cluster.bounces[0].to == bob);
  CHECK(fx.cluster.bounces[0].key == "77");
  CHECK(fx.cluster.forwards.empty());  // never handed on from here: no request goes in circles
  auto attach = a.lobby.remote_attach(RemoteSession{"c", 2}, remote("carl"), 77, at(0));
  REQUIRE(attach.cluster.bounces.size() == 1);
  CHECK(attach.cluster.bounces[0].line.empty());
}

TEST_CASE("cluster lobby: a lost lease drops the game and closes whoever follows it here") {
  Node a("a");
  a.login(1, "alice");
  a.login(2, "bob");
  a.lobby.handle_line(1, R"({"type":"create","color":"white"})", at(0));
  a.lobby.handle_line(2, R"({"type":"join","game":"100"})", at(0));
  CHECK(a.lobby.runs(100));
  const auto fx = a.lobby.lease_lost("100", at(10));
  CHECK_FALSE(a.lobby.runs(100));
  std::vector<SessionId> closed = fx.close;
  std::sort(closed.begin(), closed.end());
  CHECK(closed == std::vector<SessionId>{1, 2});
  // Their next move is handed on: another node runs the game now.
  CHECK(a.lobby.handle_line(1, R"({"type":"move","game":"100","move":"d1-d7/g7"})", at(20))
            .cluster.forwards.size() == 1);
}

TEST_CASE("cluster lobby: a game taken over is restored with every move, its players told") {
  Node a("a");
  a.login(1, "alice");
  StoredGame g;
  g.row.id = 55;
  g.row.variant = standard_variant();
  g.row.rules = "standard";
  g.row.white = {"alice", false, 1500};
  g.row.black = {"bob", false, 1500};
  g.row.started_at = Timestamp{Millis{1'800'000'000'000}};
  g.moves.push_back({55, 1, *parse_move("d1-d7/g7"), Millis{100}, std::nullopt});
  const auto fx = a.lobby.adopt(g, 9, at(100));
  CHECK(a.lobby.runs(55));
  const auto st = first<State>(fx, 1);
  REQUIRE(st.has_value());
  CHECK(st->moves == std::vector<std::string>{"d1-d7/g7"});
  CHECK(st->color == Color::White);
  const auto held = a.lobby.held_keys();
  CHECK(std::find(held.begin(), held.end(), std::pair<std::string, std::int64_t>{"55", 9}) !=
        held.end());
}

TEST_CASE("cluster lobby: list and players show every node, from the others' directories") {
  Node a("a"), b("b");
  a.login(1, "alice");
  a.lobby.handle_line(1, R"({"type":"create"})", at(0));
  b.login(1, "bob");
  // Each node's directory, as the bus carries it.
  const auto through_bus = [](const PeerView& v) {
    auto decoded = wire::decode(wire::encode(wire::Directory{v}));
    REQUIRE(decoded.has_value());
    return std::get<wire::Directory>(*decoded).view;
  };
  b.lobby.set_peer("a", through_bus(a.lobby.directory()));
  a.lobby.set_peer("b", through_bus(b.lobby.directory()));
  for (Node* n : {&a, &b}) {
    const auto list = first<Games>(n->lobby.handle_line(1, R"({"type":"list"})", at(5)), 1);
    REQUIRE(list->games.size() == 1);
    CHECK(list->games[0].game == "100");
    const auto players =
        first<PlayerList>(n->lobby.handle_line(1, R"({"type":"players"})", at(5)), 1);
    REQUIRE(players->players.size() == 2);
    CHECK(players->players[0].name == "alice");
    CHECK(players->players[1].name == "bob");
  }
  // A challenge reaches a player of another node through a remote session there.
  const auto fx = b.lobby.handle_line(1, R"({"type":"challenge","player":"alice"})", at(6));
  const auto sent = first<ChallengeSent>(fx, 1);
  REQUIRE(sent.has_value());
  CHECK(fx.cluster.acquire == std::vector<std::string>{sent->challenge});
  bool delivered = false;
  for (const auto& m : fx.messages)
    if (b.lobby.remote_of(m.to) == RemoteSession{"a", 1})
      delivered = std::holds_alternative<ChallengeReceived>(decode_server(*m.line)->message);
  CHECK(delivered);
  // A node that is gone takes its players and games out of the lists.
  a.lobby.node_gone("b", at(7));
  CHECK(first<PlayerList>(a.lobby.handle_line(1, R"({"type":"players"})", at(8)), 1)
            ->players.size() == 1);
}

TEST_CASE("cluster lobby: a node runs no tournament yet, and lists none") {
  Node a("a");
  a.login(1, "alice");
  const auto list = a.lobby.handle_line(1, R"({"type":"tournaments","id":2})", at(10));
  const auto tournaments = first<TournamentList>(list, 1);
  REQUIRE(tournaments.has_value());
  CHECK(tournaments->tournaments.empty());
  CHECK(!first<Error>(list, 1).has_value());
  const auto create = a.lobby.handle_line(
      1,
      R"({"type":"tournament_create","name":"x","kind":"round_robin","rules":"standard","time":null,"rated":false,"start_in":60,"max_players":0,"bots_allowed":true,"id":3})",
      at(10));
  const auto refused = first<Error>(create, 1);
  REQUIRE(refused.has_value());
  CHECK(refused->code == ErrorCode::NotAllowed);
  CHECK(first<Error>(a.lobby.handle_line(1, R"({"type":"tournament_join","tournament":3})", at(10)),
                     1)
            ->code == ErrorCode::NotAllowed);
}

TEST_CASE("cluster wire: every message survives the bus, and malformed bodies are refused") {
  const RemotePlayer p{"alice", true, Rating{1612.5, 80.25, 0.061}, 3};
  const std::vector<wire::NodeMessage> all = {
      wire::Request{4, p, "17", R"({"type":"move"})"},
      wire::AttachGame{4, p, 17},
      wire::Detach{4},
      wire::Lines{{{4, "a"}, {5, "b"}}, {5}},
      wire::Bounced{4, "c3", ""},
      wire::Replaced{9},
      wire::Reset{},
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
       R"({"t":"dir","games":"{\"type\":\"games\",\"games\":[]}","players":[],"playing":{"a":-1}})"})
    CHECK_MESSAGE(!wire::decode(bad).has_value(), bad);
}
