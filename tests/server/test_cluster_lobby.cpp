// The lobby as a cluster node, pure: what it hands to the cluster (Effects::cluster), how it
// talks to players of other nodes through remote sessions, and what it makes of the answers.
// The nodes working together, on a real Redis and PostgreSQL, are in tests/cluster/test_nodes.cpp.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <algorithm>
#include <set>
#include <span>

#include "common/notation.h"
#include "common/protocol.h"
#include "server/core/lobby.h"
#include "server/node/cluster_wire.h"
#include "server/storage/open_storage.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::server;
using namespace amazons::protocol;

namespace {

LobbyConfig node_config(const std::string& node) {
  LobbyConfig c;
  c.rules_dir = amazons::test::config_dir() + "/rules";
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
  explicit Node(const std::string& name, const LoadedState& state = {})
      : lobby(node_config(name), state, at(0)) {
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
    out.row.password_hash = password_hash;
    return lobby.complete_login(out, at(0));
  }
  // A registered player (a name with a password, here a stand-in for its hash): only they keep
  // offers beyond their connection.
  Effects login_registered(SessionId s, const std::string& name) {
    password_hash = "$argon2id$stand-in";
    auto fx = login(s, name);
    password_hash.clear();
    return fx;
  }
  std::string password_hash;  // the row's, at the next login
  // Another node's directory, as the bus carries it.
  void set_peer(const std::string& node, const Node& other) {
    auto decoded = wire::decode(wire::encode(wire::Directory{other.lobby.directory()}));
    REQUIRE(decoded.has_value());
    lobby.set_peer(node, std::get<wire::Directory>(*decoded).view, at(0));
  }
};

RemotePlayer remote(const std::string& name) { return {name, false, Rating{}, 0}; }

// Game `id` as the shared database has it for the node that takes it over: alice (White)
// against bob, one move played.
StoredGame alice_against_bob(GameId id) {
  StoredGame g;
  g.row.id = id;
  g.row.variant = standard_variant();
  g.row.rules = "standard";
  g.row.white = {"alice", false, kInitialRating};
  g.row.black = {"bob", false, kInitialRating};
  g.row.started_at = Timestamp{Millis{1'800'000'000'000}};
  g.moves.push_back({id, 1, *parse_move("d1-d7/g7"), Millis{100}, std::nullopt});
  return g;
}

// A correspondence time control: a day a move.
const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});

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

template <class E>
E event(const Effects& fx) {
  REQUIRE(fx.cluster.moderation.size() == 1);
  REQUIRE(std::holds_alternative<E>(fx.cluster.moderation.front()));
  return std::get<E>(fx.cluster.moderation.front());
}

namespace {

// A moderator (session 1) on node a; bob (5) and carol (6) on node b.
struct ModeratorHereTwoThere {
  static LoadedState roles() {
    LoadedState state;
    state.moderation.roles["mod"] = Role::Moderator;
    return state;
  }
  Node a{"a", roles()};
  Node b{"b", roles()};
  ModeratorHereTwoThere() {
    a.login(1, "mod");
    b.login(5, "bob");
    b.login(6, "carol");
  }
};
}  // namespace

TEST_CASE("cluster lobby: a moderator's decision on one node is applied by every node") {
  ModeratorHereTwoThere nodes;
  Node& a = nodes.a;
  Node& b = nodes.b;
  // Bob and Carol play on node b; node a knows them only from b's directory.
  auto created = b.lobby.handle_line(6, encode(ClientMessage{Create{}}), at(1));
  const std::string game = first<Created>(created, 6)->game;
  b.lobby.handle_line(5, encode(ClientMessage{Join{game, {}}}), at(2));
  a.lobby.set_peer("b", b.lobby.directory(), at(3));

  // A mute on a, of a player a has never seen: taken, and told to every node.
  const auto muted =
      a.lobby.handle_line(1, encode(ClientMessage{Mute{"bob", 3600, "spam"}}), at(10));
  CHECK(first<Ok>(muted, 1).has_value());
  const auto mute = event<SanctionRow>(muted);
  CHECK(mute.kind == SanctionKind::Mute);
  CHECK(mute.target == "bob");
  // Not yet on b: bob still chats there; once b applies it he may not.
  CHECK(first<Chat>(b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(11)), 5)
            .has_value());
  b.lobby.moderated(mute, at(12));
  const auto refused = b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(13));
  REQUIRE(first<Error>(refused, 5).has_value());
  CHECK(first<Error>(refused, 5)->code == ErrorCode::Muted);
  CHECK(first<Error>(refused, 5)->reason == "spam");
  // Lifted on a, lifted on b.
  const auto unmuted = a.lobby.handle_line(1, encode(ClientMessage{Unmute{"bob", "ok"}}), at(14));
  b.lobby.moderated(event<SanctionRemoved>(unmuted), at(15));
  CHECK(first<Chat>(b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(16)), 5)
            .has_value());

  // A chat line's id names its game, so a report of it made on a goes to b, which keeps it.
  const auto said =
      b.lobby.handle_line(6, encode(ClientMessage{ChatSend{game, "rude words"}}), at(20));
  const std::int64_t line = first<Chat>(said, 6)->line.value();
  CHECK(std::to_string(line >> kChatLineGameShift) == game);
  Report report;
  report.line = line;
  report.reason = "rude";
  const auto handed = a.lobby.handle_line(1, encode(ClientMessage{report}), at(21));
  REQUIRE(handed.cluster.forwards.size() == 1);
  CHECK(handed.cluster.forwards[0].key == game);
  const auto filed = b.lobby.remote_request(RemoteSession{"a", 1}, remote("mod"),
                                            handed.cluster.forwards[0].line, at(22));
  const auto row = event<ReportRow>(filed);
  CHECK(row.player == "carol");
  CHECK(row.text == "rude words");
  CHECK(row.id >= 100);  // from b's block of ids, so that no two nodes number one alike
  // Every node lists it, and a resolution anywhere closes it everywhere.
  a.lobby.moderated(row, at(23));
  const auto listed = a.lobby.handle_line(1, encode(ClientMessage{ReportsRequest{}}), at(24));
  REQUIRE(first<ReportList>(listed, 1)->reports.size() == 1);
  const auto resolved =
      a.lobby.handle_line(1, encode(ClientMessage{Resolve{row.id, "warned"}}), at(25));
  CHECK(first<Ok>(resolved, 1).has_value());
  b.lobby.moderated(event<ReportRow>(resolved), at(26));
  b.login(7, "mod");  // a moderator on b sees no open report
  CHECK(
      first<ReportList>(b.lobby.handle_line(7, encode(ClientMessage{ReportsRequest{}}), at(27)), 7)
          ->reports.empty());

  // A kick of bob, who is connected to b: a says yes, and b closes his connection.
  const auto kicked =
      a.lobby.handle_line(1, encode(ClientMessage{Kick{"bob", "cool off"}}), at(30));
  CHECK(first<Ok>(kicked, 1).has_value());
  const auto closed = b.lobby.moderated(event<KickOrder>(kicked), at(31));
  REQUIRE(first<Error>(closed, 5).has_value());
  CHECK(first<Error>(closed, 5)->code == ErrorCode::Kicked);
  CHECK(std::count(closed.close.begin(), closed.close.end(), SessionId{5}) == 1);
  // Nobody is kicked who is online on no node.
  const auto nobody = a.lobby.handle_line(1, encode(ClientMessage{Kick{"zed", ""}}), at(32));
  CHECK(first<Error>(nobody, 1)->code == ErrorCode::NoSuchPlayer);

  // A ban of carol's name: b closes her connection with the reason.
  Ban ban;
  ban.player = "carol";
  ban.reason = "cheating";
  const auto banned = a.lobby.handle_line(1, encode(ClientMessage{ban}), at(40));
  const auto shut = b.lobby.moderated(event<SanctionRow>(banned), at(41));
  REQUIRE(first<Error>(shut, 6).has_value());
  CHECK(first<Error>(shut, 6)->code == ErrorCode::Banned);
  CHECK(first<Error>(shut, 6)->reason == "cheating");
}

TEST_CASE("cluster lobby: kept offers stay with their node, and are taken over from their rows") {
  Node a("a");
  a.login_registered(1, "alice");
  // A correspondence seek stays in the pairing queue when she goes; a real-time one does not.
  Seek seek;
  seek.time = per_day;
  a.lobby.handle_line(1, encode(ClientMessage{seek}), at(1));
  const auto gone = a.lobby.disconnect(1, at(2));
  CHECK(gone.cluster.drop_seeks.empty());
  CHECK(gone.cluster.unseeks.empty());
  a.login_registered(2, "bea");
  Seek quick;
  quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  a.lobby.handle_line(2, encode(ClientMessage{quick}), at(3));
  CHECK(a.lobby.disconnect(2, at(4)).cluster.drop_seeks == std::vector<std::string>{"bea"});
  // With a lifetime, it goes when that runs out, and only if nobody replaced it elsewhere.
  a.login_registered(3, "cid");
  quick.lifetime = 60;
  a.lobby.handle_line(3, encode(ClientMessage{quick}), at(5));
  CHECK(a.lobby.disconnect(3, at(6)).cluster.drop_seeks.empty());
  CHECK(a.lobby.tick(at(30'000)).cluster.drop_seeks.empty());
  CHECK(a.lobby.tick(at(61'000)).cluster.drop_seeks == std::vector<std::string>{"cid"});

  // Node b takes over an open game and a challenge of a node that died, from their rows.
  Node b("b");
  PlayerRow alice_row;
  alice_row.name = "alice";
  alice_row.rating.rating = 1712;
  Create create;
  create.time = per_day;
  create.color = ColorChoice::White;
  const OfferRow open{"g7",         "alice",    encode(ClientMessage{create}),
                      std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  CHECK(b.lobby.adopt_offer(open, alice_row, 41, at(10)).cluster.release.empty());
  CHECK(b.lobby.runs(7));
  ChallengeSend to_dave;
  to_dave.player = "dave";
  to_dave.time = per_day;
  const OfferRow challenge{"c8",         "alice",    encode(ClientMessage{to_dave}),
                           std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  b.lobby.adopt_offer(challenge, alice_row, 42, at(10));
  const auto held = b.lobby.held_keys();
  CHECK(std::count(held.begin(), held.end(), std::pair<std::string, std::int64_t>{"7", 41}) == 1);
  CHECK(std::count_if(held.begin(), held.end(), [](const auto& k) { return k.first == "c8"; }) ==
        1);
  // Joined from node c, the game starts, with alice's stored rating, fenced with the token.
  const auto joined = b.lobby.remote_request(RemoteSession{"c", 4}, remote("eve"),
                                             encode(ClientMessage{Join{"7", {}}}), at(11));
  CHECK(std::count(joined.writes.fences.begin(), joined.writes.fences.end(), Fence{7, 41}) >= 1);
  bool started = false;
  for (const auto& m : joined.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      CHECK(std::get<Start>(e->message).white.rating == 1712);
      started = true;
    }
  CHECK(started);
  // Dave shows up in node c's directory: he is sent the challenge, once.
  PeerView c_view;
  c_view.players.push_back({"dave", Rating{}, 0, false, 9});
  const auto told = b.lobby.set_peer("c", c_view, at(12));
  std::vector<SessionId> to_dave_here;
  for (const auto& m : told.messages)
    if (const auto e = decode_server(*m.line);
        e && std::holds_alternative<ChallengeReceived>(e->message)) {
      CHECK(std::get<ChallengeReceived>(e->message).challenge == "c8");
      CHECK(b.lobby.remote_of(m.to) == RemoteSession{"c", 9});
      to_dave_here.push_back(m.to);
    }
  CHECK(to_dave_here.size() == 1);
  CHECK(b.lobby.set_peer("c", c_view, at(13)).messages.empty());
}

// Whether the effects store the row `id`, or remove it (`expiring`: only the row that expires
// then).
bool stores(const Effects& fx, const std::string& id) {
  return std::any_of(fx.writes.writes.begin(), fx.writes.writes.end(), [&](const auto& w) {
    const auto* o = std::get_if<OfferRow>(&w);
    return o && o->id == id;
  });
}
bool removes(const Effects& fx, const std::string& id,
             std::optional<Timestamp> expiring = std::nullopt) {
  return std::any_of(fx.writes.writes.begin(), fx.writes.writes.end(), [&](const auto& w) {
    const auto* o = std::get_if<OfferRemoved>(&w);
    return o && o->id == id && o->expiring == expiring;
  });
}

TEST_CASE("cluster lobby: a kept seek is a row of its player's, put back in the queue elsewhere") {
  Node a("a");
  a.login_registered(1, "alice");
  Seek seek;
  seek.time = per_day;
  const auto kept = a.lobby.handle_line(1, encode(ClientMessage{seek}), at(1));
  CHECK(stores(kept, "s:alice"));
  REQUIRE(kept.cluster.seeks.size() == 1);
  // Withdrawn: out of the queue, wherever it was made, and out of the table.
  const auto withdrawn = a.lobby.handle_line(1, encode(ClientMessage{Unseek{}}), at(2));
  CHECK(withdrawn.cluster.unseeks == std::vector<std::string>{"alice"});
  CHECK(removes(withdrawn, "s:alice"));
  // A real-time seek is not kept: it replaces her last seek in the table too.
  Seek quick;
  quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  const auto replaced = a.lobby.handle_line(1, encode(ClientMessage{quick}), at(3));
  CHECK(removes(replaced, "s:alice"));
  CHECK_FALSE(stores(replaced, "s:alice"));
  // Expired here: out of the queue, and its row goes, but only that row (not a newer seek of
  // hers another node stored since).
  a.login_registered(2, "cid");
  quick.lifetime = 60;
  CHECK(stores(a.lobby.handle_line(2, encode(ClientMessage{quick}), at(5)), "s:cid"));
  const auto expired = a.lobby.tick(at(61'000));
  CHECK(expired.cluster.drop_seeks == std::vector<std::string>{"cid"});
  CHECK(removes(expired, "s:cid", at(5).wall + Millis{60'000}));
  // Paired: both seeks leave the queue, so both rows go, wherever they were stored.
  a.login_registered(3, "dan");
  const auto asked = a.lobby.handle_line(3, encode(ClientMessage{seek}), at(62'000));
  REQUIRE(asked.cluster.seeks.size() == 1);
  SeekOutcome paired;
  paired.job = asked.cluster.seeks[0];
  paired.paired = true;
  paired.opponent = "eve";
  const auto started = a.lobby.complete_seek(paired, at(62'010));
  CHECK(removes(started, "s:dan"));
  CHECK(removes(started, "s:eve"));
  CHECK(first<Start>(started, 3).has_value());

  // Node b puts a kept seek whose node died back in the queue, as its own, for nobody to hear.
  Node b("b");
  const OfferRow row{"s:fay",      "fay",      encode(ClientMessage{seek}),
                     std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  PlayerRow fay;
  fay.name = "fay";
  fay.rating.rating = 1650;
  const auto back = b.lobby.adopt_offer(row, fay, 0, at(10));
  REQUIRE(back.cluster.seeks.size() == 1);
  CHECK(back.cluster.seeks[0].session == 0);
  CHECK(back.cluster.seeks[0].name == "fay");
  CHECK(back.cluster.seeks[0].pool == asked.cluster.seeks[0].pool);       // the pool dan sought in
  CHECK(b.lobby.adopt_offer(row, fay, 0, at(11)).cluster.seeks.empty());  // once
  OfferRow old = row;
  old.id = "s:gil";
  old.owner = "gil";
  old.expires_at = at(0).wall;
  CHECK(b.lobby.adopt_offer(old, std::nullopt, 0, at(12)).cluster.seeks.empty());  // expired
  // Paired there with hal, online on node c: the game starts with fay away, at her stored
  // rating, and it is b's to expire no more.
  SeekOutcome met;
  met.job = back.cluster.seeks[0];
  met.paired = true;
  met.opponent = "hal";
  met.opponent_session = RemoteSession{"c", 4};
  const auto game = b.lobby.complete_seek(met, at(20));
  REQUIRE(game.cluster.acquire.size() == 1);
  bool told = false;
  for (const auto& m : game.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      CHECK(b.lobby.remote_of(m.to) == RemoteSession{"c", 4});
      const auto& start = std::get<Start>(e->message);
      CHECK((start.white.name == "fay" ? start.white : start.black).rating == 1650);
      told = true;
    }
  CHECK(told);
  CHECK(b.lobby.tick(at(3'700'000)).cluster.drop_seeks.empty());
}

// The last tournament row among the effects' writes.
std::optional<TournamentRow> tournament_row(const Effects& fx) {
  std::optional<TournamentRow> out;
  for (const auto& w : fx.writes.writes)
    if (const auto* t = std::get_if<TournamentRow>(&w)) out = *t;
  return out;
}

TEST_CASE(
    "cluster lobby: a tournament is directed by one node, played from the others, taken over") {
  ModeratorHereTwoThere nodes;
  Node& a = nodes.a;
  Node& b = nodes.b;
  amazons::test::TempDir dir;
  const auto storage = open_storage((dir.path() / "shared.db").string());
  const auto store = [&](const Effects& fx) {
    storage->apply(std::span<const WriteBatch>(&fx.writes, 1));
  };

  // Created on a: its id comes from a's block of ids, and a directs it under the lease "tID".
  TournamentCreate create;
  create.name = "Night arena";
  create.kind = "arena";
  create.rated = false;
  create.start_in = 60;
  create.duration = 3600;
  const auto created = a.lobby.handle_line(1, encode(ClientMessage{create}, 2), at(10));
  const auto info = first<TournamentInfo>(created, 1);
  REQUIRE(info.has_value());
  const std::int64_t id = info->tournament.id;
  const std::string key = "t" + std::to_string(id);
  CHECK(id >= 100);
  CHECK(created.cluster.acquire == std::vector<std::string>{key});
  const auto held = a.lobby.held_keys();
  CHECK(std::count_if(held.begin(), held.end(), [&](const auto& k) { return k.first == key; }) ==
        1);
  store(created);

  // Joining, and showing it, on b: handed to a, which answers the players through their
  // remote sessions there.
  for (SessionId s : {SessionId{5}, SessionId{6}}) {
    const auto handed =
        b.lobby.handle_line(s, encode(ClientMessage{TournamentJoin{id}}, 3), at(11));
    REQUIRE(handed.cluster.forwards.size() == 1);
    CHECK(handed.cluster.forwards[0].key == key);
    CHECK(handed.messages.empty());
    const auto joined =
        a.lobby.remote_request(RemoteSession{"b", s}, remote(s == 5 ? "bob" : "carol"),
                               handed.cluster.forwards[0].line, at(12));
    bool ok = false;
    for (const auto& m : joined.messages)
      if (const auto e = decode_server(*m.line); e && std::holds_alternative<Ok>(e->message)) {
        CHECK(a.lobby.remote_of(m.to) == RemoteSession{"b", s});
        ok = true;
      }
    CHECK(ok);
    store(joined);
  }
  const auto shown = b.lobby.handle_line(5, encode(ClientMessage{TournamentShow{id}}), at(13));
  REQUIRE(shown.cluster.forwards.size() == 1);
  const auto info_a = a.lobby.remote_request(RemoteSession{"b", 5}, remote("bob"),
                                             shown.cluster.forwards[0].line, at(13));
  REQUIRE(info_a.messages.size() == 1);
  CHECK(a.lobby.remote_of(info_a.messages[0].to) == RemoteSession{"b", 5});
  const auto shown_info = decode_server(*info_a.messages[0].line);
  REQUIRE(shown_info.has_value());
  const auto* full = std::get_if<TournamentInfo>(&shown_info->message);
  REQUIRE(full != nullptr);
  CHECK(full->tournament.id == id);
  CHECK(full->standings.size() == 2);

  // The list, on b, comes from the shared database, where a stored the tournament.
  const auto listed = b.lobby.handle_line(5, R"({"type":"tournaments","id":4})", at(14));
  CHECK(listed.messages.empty());
  REQUIRE(listed.queries.size() == 1);
  const auto answer = decode_server(*answer_query(*storage, listed.queries[0]).line);
  REQUIRE(answer.has_value());
  CHECK(answer->id == nlohmann::json(4));
  const auto& list = std::get<TournamentList>(answer->message).tournaments;
  REQUIRE(list.size() == 1);
  CHECK(list[0].id == id);
  CHECK(list[0].name == "Night arena");
  CHECK(list[0].players == 2);

  // At the start a pairs them and runs their game; both hear of it on b.
  const auto started = a.lobby.tick(at(61'000));
  std::set<RemoteSession> told;
  std::string game;
  for (const auto& m : started.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      told.insert(*a.lobby.remote_of(m.to));
      game = std::get<Start>(e->message).game;
    }
  CHECK(told == std::set<RemoteSession>{{"b", 5}, {"b", 6}});
  REQUIRE(!game.empty());
  CHECK(a.lobby.runs(std::stoll(game)));
  CHECK(std::count(started.cluster.acquire.begin(), started.cluster.acquire.end(), game) == 1);
  const auto row = tournament_row(started);
  REQUIRE(row.has_value());
  CHECK(row->status == "running");

  // a dies. c takes the tournament over from its row, and finds the game another node took
  // over (and finished) by looking its row up.
  CHECK(a.lobby.lease_lost(key, at(62'000)).messages.empty());
  const auto mine = a.lobby.held_keys();
  CHECK(std::none_of(mine.begin(), mine.end(), [&](const auto& k) { return k.first == key; }));
  // a no longer directs it: a request there goes to whoever does now.
  CHECK(a.lobby.handle_line(1, encode(ClientMessage{TournamentShow{id}}), at(62'000))
            .cluster.forwards.size() == 1);
  // The game, which a still runs, ends there; when a directs the tournament again (say it takes
  // it back), it scores the game from the room it kept.
  a.lobby.remote_request(RemoteSession{"b", 5}, remote("bob"), encode(ClientMessage{Resign{game}}),
                         at(62'050));
  CHECK(a.lobby.adopt_tournament(*row, at(62'060)).cluster.release.empty());
  const auto rescored = tournament_row(a.lobby.tick(at(62'070)));
  REQUIRE(rescored.has_value());
  const auto back = Tournament::from_json(nlohmann::json::parse(rescored->state));
  REQUIRE(back.has_value());
  CHECK(back->standings().at(0).name == "carol");
  CHECK(back->standings().at(0).wins == 1);

  Node c("c");
  CHECK(c.lobby.adopt_tournament(*row, at(62'000)).cluster.release.empty());
  const auto checked = c.lobby.tick(at(62'100));
  CHECK(checked.cluster.read_games == std::vector<GameId>{std::stoll(game)});
  CHECK(c.lobby.tick(at(62'200)).cluster.read_games.empty());  // not again at once
  GameRow over;
  over.id = std::stoll(game);
  over.result = GameResult{Color::White, EndReason::Resign};
  const auto scored = c.lobby.tournament_reads({}, {over}, at(63'000));
  const auto after = tournament_row(scored);
  REQUIRE(after.has_value());
  const auto t = Tournament::from_json(nlohmann::json::parse(after->state));
  REQUIRE(t.has_value());
  const auto& standings = t->standings();
  REQUIRE(standings.size() == 2);
  CHECK(standings[0].points == 2);  // an arena win
  CHECK(standings[0].wins == 1);
  CHECK(standings[1].losses == 1);
  // The arena pairs them again. Online on no node c knows of, they are read from the database;
  // then the game starts, run by c.
  const auto asks = c.lobby.tick(at(64'000));
  std::vector<std::string> names = asks.cluster.read_players;
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"bob", "carol"});
  CHECK(c.lobby.tick(at(64'100)).cluster.read_players.empty());  // asked once
  PlayerRow bob_row, carol_row;
  bob_row.name = "bob";
  carol_row.name = "carol";
  c.lobby.tournament_reads({bob_row, carol_row}, {}, at(64'500));
  const auto second = c.lobby.tick(at(65'000));
  REQUIRE(second.cluster.acquire.size() == 1);
  CHECK(c.lobby.runs(std::stoll(second.cluster.acquire[0])));
}
