// The lobby as a cluster node, pure: what it hands to the cluster (Effects::cluster), how it
// talks to players of other nodes through remote sessions, and what it makes of the answers:
// logins, routing, takeovers of games, the directories, your-turn lists and limits across nodes.
// Moderation, kept offers, seeks and tournaments are in test_cluster_lobby_offers.cpp; the nodes
// working together, on a real Redis and PostgreSQL, in tests/cluster/test_nodes.cpp.
#include <doctest/doctest.h>

#include "common/protocol.h"
#include "server/core/lobby.h"
#include "server/node/cluster_wire.h"
#include "tests/server/cluster_lobby_harness.h"

using namespace amazons;
using namespace amazons::server;
using namespace amazons::protocol;
using namespace amazons::test::cluster_lobby;

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

TEST_CASE(
    "cluster lobby: a stale remote session that leaves hands the player back to the one still "
    "there") {
  Node a("a");
  a.login(1, "alice");
  a.lobby.handle_line(1, R"({"type":"create","color":"white"})", at(0));
  a.lobby.lease_taken("100", 42);
  const RemoteSession bob_on_b{"b", 5};
  a.lobby.remote_request(bob_on_b, remote("bob"), R"({"type":"join","game":"100"})", at(10));
  // Bob's attach from a connection of his on node c that closed while the attach was on its
  // way: it arrives after his live session on b, and its Detach a moment later.
  const RemoteSession stale{"c", 8};
  a.lobby.remote_attach(stale, remote("bob"), 100, at(20));
  auto left = a.lobby.remote_detach(stale, at(30));
  // Bob is still here through b: alice does not see him leave, and b's session gets the game
  // again (what went to c's meanwhile is lost with it).
  CHECK_FALSE(first<Presence>(left, 1).has_value());
  std::optional<SessionId> bob_here;
  for (const auto& m : left.messages)
    if (a.lobby.remote_of(m.to) == bob_on_b) bob_here = m.to;
  REQUIRE(bob_here.has_value());
  CHECK(first<State>(left, *bob_here)->moves.empty());
  // Alice's move reaches him there.
  auto moved = a.lobby.handle_line(1, R"({"type":"move","game":"100","move":"d1-d7/g7"})", at(40));
  CHECK(first<Moved>(moved, *bob_here)->move == "d1-d7/g7");
  // When b's session leaves too, he is away.
  CHECK_FALSE(first<Presence>(a.lobby.remote_detach(bob_on_b, at(50)), 1)->online);
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
  // Not a fault of the server: "try again in a moment, or another node" (docs/PROTOCOL.md).
  CHECK(fx.errors == std::vector<ErrorCode>{ErrorCode::Unavailable, ErrorCode::Unavailable});
  // Their next move is handed on: another node runs the game now.
  CHECK(a.lobby.handle_line(1, R"({"type":"move","game":"100","move":"d1-d7/g7"})", at(20))
            .cluster.forwards.size() == 1);
}

TEST_CASE("cluster lobby: a game taken over is restored with every move, its players told") {
  Node a("a");
  a.login(1, "alice");
  const StoredGame g = alice_against_bob(55);
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

TEST_CASE(
    "cluster lobby: a game taken over reaches a player on another node through the directory") {
  // Node a ran alice's game against bob, who plays through node b; a died and c takes the game
  // over. Bob's connection on b stayed open: c finds him in b's directory and sends him the state.
  Node b("b"), c("c");
  b.login(5, "bob");
  c.set_peer("b", b);
  const StoredGame g = alice_against_bob(55);
  const auto fx = c.lobby.adopt(g, 9, at(100));
  std::optional<State> told;
  for (const auto& m : fx.messages)
    if (c.lobby.remote_of(m.to) == RemoteSession{"b", 5}) {
      const auto env = decode_server(*m.line);
      if (const auto* st = std::get_if<State>(&env->message)) told = *st;
    }
  REQUIRE(told.has_value());
  CHECK(told->game == "55");
  CHECK(told->color == Color::Black);
  CHECK(told->moves == std::vector<std::string>{"d1-d7/g7"});
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
  b.lobby.set_peer("a", through_bus(a.lobby.directory()), at(0));
  a.lobby.set_peer("b", through_bus(b.lobby.directory()), at(0));
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

// The "your turn" of a player who plays on several nodes: the node running a game tells the
// player's node, which sends the player every node's games in one list.
TEST_CASE("cluster lobby: your turn lists the games every node runs, through the player's node") {
  Node a("a");
  a.login(1, "alice");
  Create create;
  create.color = ColorChoice::White;
  create.time = per_day;
  auto created = a.lobby.handle_line(1, encode(ClientMessage{create}), at(10));
  const std::string game = first<Created>(created, 1)->game;
  a.lobby.lease_taken(game, 7);
  // Bob is connected to node b; he joins alice's game on a.
  const RemoteSession bob{"b", 5};
  auto joined =
      a.lobby.remote_request(bob, remote("bob"), encode(ClientMessage{Join{game, {}}}), at(20));
  // Alice is to move: a tells her itself; bob's count of games there goes to his node.
  CHECK(first<YourTurn>(joined, 1)->games.at(0).game == game);
  REQUIRE(joined.cluster.turns.size() == 1);
  CHECK(joined.cluster.turns[0].to == bob);
  CHECK(joined.cluster.turns[0].turns.games.empty());
  CHECK(joined.cluster.turns[0].correspondence == 1);
  // Alice moves: now bob is to move, and his node is told, with the time he has.
  auto moved = a.lobby.handle_line(
      1, R"({"type":"move","game":")" + game + R"(","move":"d1-d7/g7"})", at(30));
  REQUIRE(moved.cluster.turns.size() == 1);
  const TurnsElsewhere told = moved.cluster.turns[0];
  CHECK(told.to == bob);
  REQUIRE(told.turns.games.size() == 1);
  CHECK(told.turns.games[0].game == game);
  CHECK(told.turns.games[0].opponent == "alice");
  CHECK(told.turns.games[0].left_ms == 24LL * 3600 * 1000);
  // Nothing in the message to alice's own session lists the game: it is bob's turn.
  CHECK_FALSE(first<YourTurn>(moved, 1).has_value());
  // The wire carries it whole.
  const auto wired =
      wire::decode(wire::encode(wire::Turns{told.to.session, told.turns, told.correspondence}));
  REQUIRE(wired.has_value());
  const auto& turns = std::get<wire::Turns>(*wired);

  // Bob's node b: he also plays a correspondence game there, against carol, and is to move.
  Node b("b");
  b.login(5, "bob");
  b.login(6, "carol");
  create.color = ColorChoice::Black;
  auto own = b.lobby.handle_line(5, encode(ClientMessage{create}), at(10));
  const std::string own_game = first<Created>(own, 5)->game;
  b.lobby.handle_line(6, encode(ClientMessage{Join{own_game, {}}}), at(11));
  b.lobby.handle_line(6, R"({"type":"move","game":")" + own_game + R"(","move":"d1-d7/g7"})",
                      at(12));
  // a's word arrives: bob is sent both games.
  const auto merged =
      b.lobby.remote_turns("a", turns.session, turns.turns, turns.correspondence, at(35));
  const auto both = first<YourTurn>(merged, 5);
  REQUIRE(both.has_value());
  REQUIRE(both->games.size() == 2);
  CHECK(both->games[0].game == own_game);
  CHECK(both->games[1].game == game);
  CHECK(both->games[1].left_ms == 24LL * 3600 * 1000);
  // Asked an hour later, his node answers the same, the hour counted off a's game.
  const auto asked = b.lobby.handle_line(5, R"({"type":"turns"})", at(3'600'035));
  const auto later = first<YourTurn>(asked, 5);
  REQUIRE(later->games.size() == 2);
  CHECK(later->games[1].left_ms == 23LL * 3600 * 1000);

  // Bob moves on a (through his remote session there): a tells b that nothing waits for him.
  auto answered = a.lobby.remote_request(
      bob, remote("bob"), R"({"type":"move","game":")" + game + R"(","move":"d10-d8/d9"})", at(40));
  REQUIRE(answered.cluster.turns.size() == 1);
  CHECK(answered.cluster.turns[0].turns.games.empty());
  CHECK(answered.cluster.turns[0].correspondence == 1);
  const auto after = b.lobby.remote_turns("a", 5, answered.cluster.turns[0].turns, 1, at(41));
  CHECK(first<YourTurn>(after, 5)->games.size() == 1);

  // His count of correspondence games, as his node tells other nodes: one here, one on a.
  CHECK(b.lobby.player_of(5)->correspondence == 2);
  // a's node is gone: what it said is forgotten.
  b.lobby.node_gone("a", at(50));
  CHECK(first<YourTurn>(b.lobby.handle_line(5, R"({"type":"turns"})", at(51)), 5)->games.size() ==
        1);
  CHECK(b.lobby.player_of(5)->correspondence == 1);
}

TEST_CASE("cluster lobby: the correspondence limit counts a player's games on every node") {
  LobbyConfig config = node_config("b");
  config.max_correspondence_games = 2;
  Lobby b(config, LoadedState{}, at(0));
  b.add_game_ids(100, kGameIdBlock);
  b.connect(5, at(0));
  auto hello = b.handle_line(5, R"({"type":"hello","protocol":1,"name":"bob"})", at(0));
  LoginOutcome out;
  out.job = hello.cluster.logins.at(0);
  out.row.name = "bob";
  b.complete_login(out, at(0));
  Create create;
  create.time = per_day;
  // Node a says bob has two correspondence games there: a third is refused here...
  b.remote_turns("a", 5, YourTurn{}, 2, at(1));
  const auto refused = b.handle_line(5, encode(ClientMessage{create}), at(2));
  REQUIRE(first<Error>(refused, 5).has_value());
  CHECK(first<Error>(refused, 5)->message.find("too many correspondence games") !=
        std::string::npos);
  // ... and on a node where he has none, which learns his count from his node.
  LobbyConfig c_config = node_config("c");
  c_config.max_correspondence_games = 2;
  Lobby node_c(c_config, LoadedState{}, at(0));
  node_c.add_game_ids(2000, kGameIdBlock);
  RemotePlayer bob = remote("bob");
  bob.correspondence = b.player_of(5)->correspondence;
  CHECK(bob.correspondence == 2);
  const auto there =
      node_c.remote_request(RemoteSession{"b", 5}, bob, encode(ClientMessage{create}), at(3));
  bool refused_there = false;
  for (const auto& m : there.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Error>(e->message))
      refused_there = true;
  CHECK(refused_there);
  // Told he has fewer, the same request is taken.
  b.remote_turns("a", 5, YourTurn{}, 1, at(4));
  bob.correspondence = b.player_of(5)->correspondence;
  const auto taken =
      node_c.remote_request(RemoteSession{"b", 5}, bob, encode(ClientMessage{create}), at(5));
  bool created_there = false;
  for (const auto& m : taken.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Created>(e->message))
      created_there = true;
  CHECK(created_there);
}
