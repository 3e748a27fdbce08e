// A cluster of real amazons-server nodes (--cluster) on loopback, sharing a real PostgreSQL and a
// real Redis that the test starts: games between players on different nodes, spectators on a
// third, the same lobby from every node, a node SIGKILLed mid-game, Redis restarted mid-game,
// and nodes racing for one name and one seek.
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <pqxx/pqxx>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cluster/membership.h"
#include "cluster/redis.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/position.h"
#include "common/protocol_enums.h"
#include "common/variant.h"
#include "net/line_client.h"
#include "server/storage/pg_storage.h"
#include "tests/integration/server_process.h"
#include "tests/pg_server.h"
#include "tests/redis_server.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using Clock = std::chrono::steady_clock;

namespace {

// Short leases and heartbeats, so that a failover takes seconds, not tens of them.
const nlohmann::json kConfig = {
    {"cluster", {{"lease_seconds", 2}, {"node_seconds", 2}, {"name_seconds", 6}}},
    {"limits", {{"claim_grace_seconds", 600}}}};

// Whether GET /ready answers 200.
bool ready(unsigned short port) {
  auto c = net::LineClient::connect("127.0.0.1", port);
  if (!c) return false;
  if (!c->send_line("GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r"))
    return false;
  const auto status = c->read_line(Millis{2000});
  return status && status->find(" 200 ") != std::string::npos;
}

template <class F>
bool eventually(F&& f, Millis within = Millis{10'000}) {
  const auto deadline = Clock::now() + within;
  while (Clock::now() < deadline) {
    if (f()) return true;
    std::this_thread::sleep_for(Millis{50});
  }
  return f();
}

// GET PATH on a node: the status code and the whole response (headers and body).
std::pair<int, std::string> http_get(unsigned short port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string req =
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
      char buf[4096];
      for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return {out.size() > 12 ? std::atoi(out.c_str() + 9) : 0, out};
}

// The value of one sample in a node's GET /metrics (-1 when the node does not show it).
double metric(unsigned short port, const std::string& name) {
  const std::string body = http_get(port, "/metrics").second;
  const auto at = body.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::atof(body.c_str() + at + name.size() + 2);
}

struct Cluster {
  ~Cluster() {
    // A case that stopped on a failed REQUIRE shows what every node logged.
    if (std::uncaught_exceptions() == 0) return;
    for (const auto& [name, node] : nodes)
      std::fprintf(stderr, "---- node %s ----\n%s", name.c_str(), log(name).c_str());
  }
  TempDir dir;
  amazons::test::RedisServer redis;
  std::string db = amazons::test::shared_pg_server().create_database();
  std::map<std::string, std::unique_ptr<ServerProcess>> nodes;

  ServerProcess& start(const std::string& name, const nlohmann::json& config = kConfig,
                       std::vector<std::string> extra = {}) {
    const auto d = dir.path() / name;
    std::filesystem::create_directories(d);
    Launch launch;
    launch.db = db;
    launch.stderr_file = d / "stderr.log";
    launch.quiet = false;  // the cluster's info lines tell what happened when a case fails
    std::vector<std::string> args{"--cluster", redis.url(), "--node", name, "--no-tls"};
    args.insert(args.end(), extra.begin(), extra.end());
    nodes[name] = std::make_unique<ServerProcess>(d, config, args, launch);
    const auto port = nodes[name]->port();
    REQUIRE_MESSAGE(eventually([&] { return ready(port); }), "node " << name << " is not ready");
    return *nodes[name];
  }
  unsigned short port(const std::string& name) { return nodes.at(name)->port(); }
  std::string log(const std::string& name) {
    std::ifstream in(dir.path() / name / "stderr.log");
    return {std::istreambuf_iterator<char>(in), {}};
  }
};

// A player's client that keeps its token, and can come back on any node.
struct Player {
  std::string name;
  std::string token;
  std::unique_ptr<Client> client;

  // `registered`: the name has a password (only registered players keep offers while away).
  Player(std::string n, unsigned short port, bool registered = false) : name(std::move(n)) {
    client = std::make_unique<Client>(port);
    token = client->hello(name, registered ? R"(,"password":"registered")" : "");
  }
  // Logs in again with the token on `port`; returns the welcome.
  Welcome resume(unsigned short port) {
    client = std::make_unique<Client>(port);
    client->send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"" + name + "\",\"token\":\"" +
                 token + "\"}");
    return client->expect<Welcome>();
  }
  // Comes back on `port` until the state of `game` arrives, as a client does: right after a
  // node died its connection may be closed once more, when its node learns of the death.
  State resume_game(unsigned short port, const std::string& game, bool watch = false) {
    const auto deadline = Clock::now() + Millis{30'000};
    while (Clock::now() < deadline) {
      resume(port);
      if (watch) client->send(Watch{game, std::nullopt});
      for (;;) {
        auto line = client->raw().read_line(Millis{500});
        if (!line) {
          if (client->raw().closed()) break;  // closed again: come back again
          if (Clock::now() >= deadline) break;
          continue;
        }
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        if (std::holds_alternative<Ping>(env->message)) client->send(Pong{});
        if (const auto* st = std::get_if<State>(&env->message); st && st->game == game) return *st;
      }
      std::this_thread::sleep_for(Millis{200});
    }
    FAIL("no state of game " << game << " within 30 s");
    return {};
  }
  Client& operator*() { return *client; }
  Client* operator->() { return client.get(); }
};

// The next message of type M with its envelope, skipping others (presence, your_turn...).
// An error with code `also` is returned too.
template <class M>
ServerEnvelope wait_for_envelope(Client& c, Millis timeout = Millis{10'000},
                                 std::optional<ErrorCode> also = std::nullopt) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now());
    REQUIRE_MESSAGE(left.count() > 0, "no " << M::kType << " in time");
    auto env = c.next(left);
    if (std::holds_alternative<M>(env.message)) return env;
    if (const auto* e = std::get_if<Error>(&env.message); e && also && e->code == *also) return env;
    REQUIRE_MESSAGE(!std::holds_alternative<Error>(env.message),
                    "an error while waiting for " << M::kType << ": " << encode(env.message));
  }
}
template <class M>
M wait_for(Client& c, Millis timeout = Millis{10'000}) {
  return std::get<M>(wait_for_envelope<M>(c, timeout).message);
}

// A game as both players and a spectator see it: plays legal moves and checks that everyone
// hears of each.
struct Table {
  std::string game;
  Position pos{standard_variant()};
  std::vector<std::string> moves;

  // The mover sends the first legal move; mover, opponent and watchers must all get `moved`.
  void play(Client& mover, Client& opponent, std::vector<Client*> watchers = {}) {
    MoveList list;
    generate_moves(pos, list);
    REQUIRE(list.size() > 0);
    const Move m = list[moves.size() * 7 % list.size()];
    const std::string text = to_string(m);
    mover.send(MoveMsg{game, text}, nlohmann::json(static_cast<int>(moves.size()) + 1));
    const auto env = wait_for_envelope<Moved>(mover);
    const auto* mine = std::get_if<Moved>(&env.message);
    CHECK(env.id == nlohmann::json(static_cast<int>(moves.size()) + 1));
    CHECK(mine->move == text);
    CHECK(wait_for<Moved>(opponent).move == text);
    for (Client* w : watchers) CHECK(wait_for<Moved>(*w).move == text);
    pos.do_move(m);
    moves.push_back(text);
  }
  // `turns` moves, `to_move` first and then the two in turn.
  void play_turns(int turns, Client& to_move, Client& other, std::vector<Client*> watchers = {}) {
    for (int i = 0; i < turns; ++i) {
      if (i % 2 == 0)
        play(to_move, other, watchers);
      else
        play(other, to_move, watchers);
    }
  }
};

std::vector<std::string> stored_moves(const std::string& db, const std::string& game) {
  server::PgStorage storage(db);
  const auto record = storage.game_record(std::stoll(game));
  std::vector<std::string> out;
  if (record)
    for (const auto& m : record->moves) out.push_back(to_string(m.move));
  return out;
}

// The `list` (ids) and `players` (names and game counts) a node answers.
std::string lobby_of(Client& c) {
  c.send(List{});
  const auto games = wait_for<Games>(c);
  c.send(Players{});
  const auto players = wait_for<PlayerList>(c);
  std::string out;
  for (const auto& g : games.games)
    out += g.game + ":" + std::string(protocol::enum_name(g.status)) + ":" +
           std::to_string(g.plies) + " ";
  out += "| ";
  for (const auto& p : players.players) out += p.name + ":" + std::to_string(p.games) + " ";
  return out;
}

// Alice (on `a`) creates a timed game, Bob (on `b`) joins it from his node's list.
Table start_game(Player& alice, Player& bob, bool rated = false,
                 TimeControl time = TimeControl::fischer(Millis{300'000}, Millis{0})) {
  Create create;
  create.rated = rated;
  create.time = time;
  create.color = ColorChoice::White;
  alice->send(create);
  Table t;
  t.game = wait_for<Created>(*alice).game;
  // Bob's node lists it once Alice's node has told the cluster.
  REQUIRE(eventually([&] {
    bob->send(List{});
    const auto games = wait_for<Games>(*bob);
    for (const auto& g : games.games)
      if (g.game == t.game) return true;
    return false;
  }));
  bob->send(Join{t.game, std::nullopt});
  CHECK(wait_for<Start>(*bob).color == Color::Black);
  CHECK(wait_for<Start>(*alice).color == Color::White);
  return t;
}

// Reads `your_turn` messages until one lists exactly `games` (in any order).
bool turns_become(Client& c, std::set<std::string> games, Millis within = Millis{10'000}) {
  const auto deadline = Clock::now() + within;
  while (Clock::now() < deadline) {
    const auto line = c.raw().read_line(Millis{200});
    if (!line) continue;
    const auto env = decode_server(*line);
    REQUIRE(env.has_value());
    if (std::holds_alternative<Ping>(env->message)) c.send(Pong{});
    const auto* turns = std::get_if<YourTurn>(&env->message);
    if (!turns) continue;
    std::set<std::string> listed;
    for (const auto& t : turns->games) listed.insert(t.game);
    if (listed == games) return true;
  }
  return false;
}

// Each racer's answer to its hello: how many were welcomed, and how many refused with name_taken.
struct HelloRace {
  int welcomed = 0, refused = 0;
};
template <class Racers>
HelloRace answers_to_hello(const Racers& racers) {
  HelloRace out;
  for (const auto& r : racers) {
    const auto env = r->next(Millis{10'000});
    if (std::holds_alternative<Welcome>(env.message)) ++out.welcomed;
    if (const auto* e = std::get_if<Error>(&env.message); e && e->code == ErrorCode::NameTaken)
      ++out.refused;
  }
  return out;
}

}  // namespace

TEST_SUITE("redis") {
  TEST_SUITE("postgres") {
    TEST_CASE("cluster: a game between players on two nodes, watched from a third") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);
      carol->send(Watch{t.game, std::nullopt});
      const auto state = wait_for<State>(*carol);
      CHECK(state.status == GameStatus::Active);
      CHECK(state.white->name == "alice");
      CHECK(state.black->name == "bob");
      t.play_turns(6, *alice, *bob, {&*carol});
      // Node a runs the game (alice created it there): bob's three moves went from b to a. The
      // figures reach /metrics at the next tick.
      CHECK(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") >= 1; }));
      CHECK(metric(c.port("c"), "amazons_cluster_leases") == 0);
      CHECK(
          eventually([&] { return metric(c.port("b"), "amazons_cluster_forwarded_total") >= 3; }));
      CHECK(eventually([&] { return metric(c.port("a"), "amazons_cluster_received_total") >= 3; }));
      CHECK(metric(c.port("a"), "amazons_cluster_forwarded_total") == 0);
      // Chat from the spectator's node reaches both players.
      carol->send(ChatSend{t.game, "nice game"});
      CHECK(wait_for<Chat>(*alice).text == "nice game");
      CHECK(wait_for<Chat>(*bob).from == "carol");
      CHECK(wait_for<Chat>(*carol).text == "nice game");
      bob->send(Resign{t.game});
      for (Client* cl : {&*alice, &*bob, &*carol}) {
        const auto end = wait_for<End>(*cl);
        CHECK(end.winner == Color::White);
        CHECK(end.reason == EndReason::Resign);
      }
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // A refused request from another node comes back with its reason.
      bob->send(MoveMsg{t.game, t.moves.front()});
      CHECK(wait_for<Error>(*bob).code == ErrorCode::GameNotActive);
    }

    TEST_CASE("cluster: your turn lists a player's correspondence games on every node") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      // Bob, on node b, plays one game node a runs and one node c runs.
      Table with_alice = start_game(alice, bob, false, per_day);
      Table with_carol = start_game(carol, bob, false, per_day);
      with_alice.play(*alice, *bob);
      with_carol.play(*carol, *bob);
      // He is to move in both: his node lists both, as the nodes running them told it.
      CHECK(turns_become(*bob, {with_alice.game, with_carol.game}));
      bob->send(Turns{});
      std::set<std::string> asked;
      for (const auto& t : wait_for<YourTurn>(*bob).games) {
        asked.insert(t.game);
        CHECK(t.left_ms > 23LL * 3600 * 1000);
        CHECK(t.opponent == (t.game == with_alice.game ? "alice" : "carol"));
      }
      CHECK(asked == std::set<std::string>{with_alice.game, with_carol.game});
      // He answers alice: only carol's game waits for him.
      with_alice.play(*bob, *alice);
      CHECK(turns_become(*bob, {with_carol.game}));
      // Back on another node, he is told again, by the node that runs it.
      bob.resume(c.port("a"));
      CHECK(turns_become(*bob, {with_carol.game}));
    }

    TEST_CASE("cluster: a moderator on one node mutes, kicks and bans players on the others") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player mod("mod", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      const auto [status, out] = test::PgServer::shell(
          std::string(test::kServerBinary) + " admin grant mod moderator --db '" + c.db + "' 2>&1");
      REQUIRE_MESSAGE(status == 0, out);
      Table t = start_game(carol, bob);  // node c runs it; bob plays from b
      // Every node reads the roles from the database every 2 s: the moderator's request is
      // refused (forbidden) until the node that takes it has.
      const auto until_allowed = [&](const ClientMessage& request) {
        for (int i = 0; i < 40; ++i) {
          mod->send(request);
          const auto reply = wait_for_envelope<Ok>(*mod, Millis{10'000}, ErrorCode::Forbidden);
          if (std::holds_alternative<Ok>(reply.message)) return true;
          std::this_thread::sleep_for(Millis{150});
        }
        return false;
      };
      REQUIRE(until_allowed(Mute{"bob", 3600, "spam"}));
      // The mute, decided on a, holds on c, where bob's chat goes.
      bool muted = false;
      for (int i = 0; i < 10 && !muted; ++i) {  // a second apart: within the chat rate limit
        bob->send(ChatSend{t.game, "hi"});
        for (;;) {
          const auto env = bob->next();
          if (const auto* e = std::get_if<Error>(&env.message)) {
            CHECK(e->code == ErrorCode::Muted);
            CHECK(e->reason == "spam");
            muted = true;
            break;
          }
          if (std::holds_alternative<Chat>(env.message)) break;
        }
        if (!muted) std::this_thread::sleep_for(Millis{1'000});
      }
      CHECK(muted);
      // Bob reports a line of carol's from b; it is filed on c, which keeps the line, and the
      // moderator on a sees it and removes the line.
      carol->send(ChatSend{t.game, "rude words"});
      const auto line = wait_for<Chat>(*bob).line.value();
      bob->send(Report{std::nullopt, line, "rude"});
      wait_for<Ok>(*bob);
      CHECK(eventually([&] {
        mod->send(ReportsRequest{});
        const auto list = wait_for<ReportList>(*mod);
        return list.reports.size() == 1 && list.reports[0].player == "carol" &&
               list.reports[0].text == "rude words";
      }));
      REQUIRE(until_allowed(RemoveChat{line, "rude"}));
      CHECK(wait_for<ChatRemoved>(*bob).line == line);
      CHECK(wait_for<ChatRemoved>(*carol).line == line);
      // A kick of bob, connected to b.
      mod->send(Kick{"bob", "cool off"});
      wait_for<Ok>(*mod);
      const auto kicked = wait_for<Error>(*bob);
      CHECK(kicked.code == ErrorCode::Kicked);
      CHECK(bob->closed_by_server());
      // A ban of carol's name, connected to c: closed with the reason, and refused on b.
      Ban ban;
      ban.player = "carol";
      ban.reason = "cheating";
      mod->send(ban);
      wait_for<Ok>(*mod);
      const auto banned = wait_for<Error>(*carol);
      CHECK(banned.code == ErrorCode::Banned);
      CHECK(banned.reason == "cheating");
      CHECK(carol->closed_by_server());
      // The ban reaches b over the bus, as it reached c: b may take it a moment after c closed
      // her (under load it welcomed her once and the test waited 10 s for an error). Come back
      // until b refuses, as a client would; b must refuse within 5 s.
      std::optional<Error> refused;
      for (int i = 0; i < 50 && !refused; ++i) {
        Client again(c.port("b"));
        again.send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"token\":\"" +
                   carol.token + "\"}");
        const auto first = again.next();
        if (const auto* e = std::get_if<Error>(&first.message))
          refused = *e;
        else
          std::this_thread::sleep_for(Millis{100});
      }
      REQUIRE(refused.has_value());
      CHECK(refused->code == ErrorCode::Banned);
    }

    TEST_CASE(
        "cluster: kept offers outlive their creator's connection and their node: an open game, a "
        "challenge and a seek") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});
      // Alice, on node a, leaves a correspondence game open and challenges dave, who is away.
      // (Registered players: only they keep offers while away.)
      {
        Player dave("dave", c.port("c"), true);  // known to the cluster, then gone
      }
      Player alice("alice", c.port("a"), true);
      Create create;
      create.time = per_day;
      create.color = ColorChoice::White;
      alice->send(create);
      const std::string game = wait_for<Created>(*alice).game;
      ChallengeSend challenge;
      challenge.player = "dave";
      challenge.time = per_day;
      alice->send(challenge);
      const std::string challenge_id = wait_for<ChallengeSent>(*alice).challenge;
      alice.client.reset();
      // Then node a dies: another node takes both over from the database.
      c.nodes.at("a")->stop(SIGKILL);
      Player bob("bob", c.port("b"));
      const auto listed = [&] {
        bob->send(List{});
        for (const auto& g : wait_for<Games>(*bob).games)
          if (g.game == game) return true;
        return false;
      };
      REQUIRE_MESSAGE(eventually(listed, Millis{20'000}), "alice's open game is not listed");
      bob->send(Join{game, std::nullopt});
      const auto start = wait_for<Start>(*bob);
      CHECK(start.color == Color::Black);
      CHECK(start.white.name == "alice");
      // Dave comes back on node c: the node holding the challenge now tells him, and he accepts.
      Player dave("dave", c.port("c"), true);
      const auto received = wait_for<ChallengeReceived>(*dave, Millis{15'000});
      CHECK(received.challenge == challenge_id);
      CHECK(received.from.name == "alice");
      dave->send(Accept{challenge_id});
      const auto accepted = wait_for<Start>(*dave);
      CHECK(std::set<std::string>{accepted.white.name, accepted.black.name} ==
            std::set<std::string>{"alice", "dave"});
      // A correspondence seek waits in the queue while its player is away, and pairs then.
      Player carol("carol", c.port("b"), true);
      Seek seek;
      seek.time = per_day;
      carol->send(seek);
      wait_for<Seeking>(*carol);
      carol.client.reset();
      std::this_thread::sleep_for(Millis{300});  // her node has seen her go
      Player erin("erin", c.port("c"));
      erin->send(seek);
      const auto paired = wait_for<Start>(*erin);
      CHECK((paired.white.name == "carol" || paired.black.name == "carol"));
      // A real-time seek goes with its player's connection.
      Player fay("fay", c.port("b"));
      Seek quick;
      quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
      fay->send(quick);
      wait_for<Seeking>(*fay);
      fay.client.reset();
      std::this_thread::sleep_for(Millis{300});
      Player gus("gus", c.port("c"));
      gus->send(quick);
      wait_for<Seeking>(*gus);
      // A kept seek outlives its node too: hal's waits through node b, and b dies. Once b is
      // reaped (its seeks dropped from the queue), node c puts hal's back from its row, and ivy,
      // seeking on c, is paired with him.
      Player hal("hal", c.port("b"), true);
      hal->send(seek);
      wait_for<Seeking>(*hal);
      hal.client.reset();
      c.nodes.at("b")->stop(SIGKILL);
      const auto seeks_through = [&] {
        auto [status, out] = c.redis.cli("HGET amz:seekers hal");
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        const auto tab = out.rfind('\t');
        return tab == std::string::npos ? std::string() : out.substr(tab + 1);
      };
      REQUIRE(seeks_through() == "b");
      REQUIRE_MESSAGE(eventually([&] { return seeks_through() == "c"; }, Millis{20'000}),
                      "hal's seek was not put back through node c");
      Player ivy("ivy", c.port("c"));
      ivy->send(seek);
      const auto met = wait_for<Start>(*ivy);
      CHECK(std::set<std::string>{met.white.name, met.black.name} ==
            std::set<std::string>{"hal", "ivy"});
      CHECK(c.log("c").find("event=seek_taken_over") != std::string::npos);
    }

    TEST_CASE("cluster: a player's two rated games ending on two nodes both count") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("b"));
      // Alice's game with Bob is run by node a (she created it there), her game with Carol by
      // node b. Each node rates its game from what it knows of Alice: 1500, no games.
      const std::string with_bob = start_game(alice, bob, true).game;
      const std::string with_carol = start_game(carol, alice, true).game;
      bob->send(Resign{with_bob});
      carol->send(Resign{with_carol});
      int change = 0;
      for (int i = 0; i < 2; ++i) {
        const auto end = wait_for<End>(*alice);
        REQUIRE(end.white_rating.has_value());
        REQUIRE(end.black_rating.has_value());
        change += end.game == with_bob ? end.white_rating->change : end.black_rating->change;
      }
      CHECK(change > 0);
      // Both results are in the database: written as values, the second would undo the first.
      CHECK(eventually([&] {
        server::PgStorage storage(c.db);
        const auto row = storage.player("alice");
        return row && row->rated_games == 2 &&
               std::abs(row->rating.rating - (1500.0 + change)) <= 1.0;
      }));
    }

    TEST_CASE("cluster: every node answers the lobby the same") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);
      t.play(*alice, *bob);
      Create open;
      open.rated = true;
      carol->send(open);
      wait_for<Created>(*carol);
      // Every node's directory reaches the others within a second or so.
      std::string seen[3];
      REQUIRE(eventually([&] {
        seen[0] = lobby_of(*alice);
        seen[1] = lobby_of(*bob);
        seen[2] = lobby_of(*carol);
        return seen[0] == seen[1] && seen[1] == seen[2];
      }));
      MESSAGE("the lobby on every node: " << seen[0]);
      CHECK(seen[0].find(t.game + ":active:1 ") != std::string::npos);
      CHECK(seen[0].find("alice:1 bob:1 carol:0") != std::string::npos);
      CHECK(seen[0].find(":open:0") != std::string::npos);
      // The archive and the leaderboard come from the shared database.
      bob->send(Resign{t.game});
      wait_for<End>(*alice);
      wait_for<End>(*bob);
      std::string boards[3], histories[3];
      Client* clients[] = {&*alice, &*bob, &*carol};
      for (int i = 0; i < 3; ++i) {
        clients[i]->send(LeaderboardRequest{});
        boards[i] = encode(ServerMessage{wait_for<Leaderboard>(*clients[i])});
        clients[i]->send(HistoryRequest{std::string("alice"), 10});
        histories[i] = encode(ServerMessage{wait_for<History>(*clients[i])});
      }
      CHECK(boards[0] == boards[1]);
      CHECK(boards[1] == boards[2]);
      CHECK(histories[0] == histories[1]);
      CHECK(histories[1] == histories[2]);
      CHECK(histories[0].find("\"game\":\"" + t.game + "\"") != std::string::npos);
      // A player only known to another node's database row is known everywhere.
      carol->send(HistoryRequest{std::string("nobody"), 10});
      CHECK(wait_for<Error>(*carol).code == ErrorCode::NoSuchPlayer);
    }

    TEST_CASE("cluster: the node running a game is killed, and the game goes on on another") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);  // node a runs it: alice created it there
      carol->send(Watch{t.game, std::nullopt});
      wait_for<State>(*carol);
      t.play_turns(4, *alice, *bob, {&*carol});
      // White to move with its clock running; what it had left when its node died.
      alice->send(Watch{t.game, std::nullopt});
      const auto before = wait_for<State>(*alice);
      REQUIRE(before.clock.has_value());

      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      // Alice comes back on node b at once and moves before any node has seen a gone: her move
      // waits for the node that takes the game over, where it is played; it is not sent to the
      // dead node and lost. Her client gets the game's state first, then her move.
      alice.resume(c.port("b"));
      MoveList list;
      generate_moves(t.pos, list);
      const Move early = list[t.moves.size() * 7 % list.size()];
      alice->send(MoveMsg{t.game, to_string(early)}, nlohmann::json("early"));
      std::optional<State> state;
      std::optional<Millis> took;
      bool moved = false;
      for (const auto deadline = Clock::now() + Millis{15'000};
           !moved && Clock::now() < deadline;) {
        const auto line = alice->raw().read_line(Millis{500});
        if (!line) {
          REQUIRE_FALSE(alice->raw().closed());
          continue;
        }
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        if (std::holds_alternative<Ping>(env->message)) alice->send(Pong{});
        if (const auto* st = std::get_if<State>(&env->message);
            st && st->game == t.game && !state) {
          state = *st;
          took = std::chrono::duration_cast<Millis>(Clock::now() - killed);
        }
        if (const auto* e = std::get_if<Error>(&env->message)) FAIL("refused: " << e->message);
        if (const auto* m = std::get_if<Moved>(&env->message); m && m->game == t.game) {
          CHECK(env->id == nlohmann::json("early"));
          CHECK(m->move == to_string(early));
          moved = true;
        }
      }
      REQUIRE(moved);
      REQUIRE(state.has_value());
      MESSAGE("the game was back " << took->count() << " ms after its node was killed");
      CHECK(*took < Millis{2000 + 6000});  // the lease's 2 s and the takeover's few seconds
      CHECK(state->moves == t.moves);      // every acknowledged move
      CHECK(state->status == GameStatus::Active);
      // The time the game had no node was charged to nobody.
      REQUIRE(state->clock.has_value());
      CHECK(state->clock->white >= before.clock->white - 1500);
      CHECK(state->clock->black == before.clock->black);
      t.pos.do_move(early);
      t.moves.push_back(to_string(early));
      // Bob and Carol were following the game on node a through their own nodes: their nodes
      // close them when a is gone, and they come back.
      CHECK(bob->closed_by_server(Millis{10'000}));
      CHECK(carol->closed_by_server(Millis{10'000}));

      bob.resume_game(c.port("c"), t.game);
      carol.resume_game(c.port("b"), t.game, true);
      t.play_turns(4, *bob, *alice, {&*carol});
      alice->send(Resign{t.game});
      CHECK(wait_for<End>(*bob).winner == Color::Black);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      const bool taken_over = c.log("b").find("event=game_taken_over") != std::string::npos ||
                              c.log("c").find("event=game_taken_over") != std::string::npos;
      CHECK(taken_over);
      CHECK(eventually([&] {
        return metric(c.port("b"), "amazons_cluster_takeovers_total") +
                   metric(c.port("c"), "amazons_cluster_takeovers_total") ==
               1;
      }));
    }

    TEST_CASE(
        "cluster: Redis's commands do not grow with a node's games, and its death hands them all "
        "over") {
      // Each node holds one lease whatever it runs (cluster/node_lease.h). The rate is counted
      // in Redis's own counters (INFO commandstats, scripts' commands included) over a window
      // measured in the nodes' heartbeats (each one ZADD, every node_seconds / 3), so that the
      // test waits on what Redis counts, not on a clock.
      Cluster c;
      nlohmann::json config = kConfig;
      config["limits"]["open_games_per_player"] = 100;
      config["limits"]["requests_burst"] = 1000;
      c.start("a", config);
      c.start("b", config);
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it
      const auto open_games = [&](int n) {
        for (int i = 0; i < n; ++i) {
          alice->send(Create{});
          wait_for<Created>(*alice);
        }
      };
      const auto stats = [&] {
        const auto [status, out] = c.redis.cli("INFO commandstats");
        REQUIRE(status == 0);
        std::map<std::string, long long> calls;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);) {
          const auto colon = line.find(':'), at = line.find("calls=");
          if (!line.starts_with("cmdstat_") || colon == std::string::npos ||
              at == std::string::npos)
            continue;
          calls[line.substr(8, colon - 8)] = std::atoll(line.c_str() + at + 6);
        }
        return calls;
      };
      const auto per_heartbeat = [&] {
        const auto before = stats();
        const auto beats = [&](const std::map<std::string, long long>& now) {
          const auto was = before.find("zadd");
          return now.at("zadd") - (was == before.end() ? 0 : was->second);
        };
        REQUIRE(eventually([&] { return beats(stats()) >= 12; }, Millis{20'000}));
        const auto after = stats();
        long long commands = 0;
        for (const auto& [command, calls] : after) {
          if (command == "info") continue;  // this test's own
          const auto was = before.find(command);
          commands += calls - (was == before.end() ? 0 : was->second);
        }
        return static_cast<double>(commands) / static_cast<double>(beats(after));
      };
      open_games(3);
      REQUIRE(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") == 4; }));
      const double few = per_heartbeat();
      open_games(36);
      REQUIRE(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") == 40; }));
      const double many = per_heartbeat();
      MESSAGE("Redis commands per heartbeat: " << few << " with 4 games on node a, " << many
                                               << " with 40");
      // With a lease per game, the 36 more would have cost 36 renewals (three commands each)
      // every third of a lease: some 50 more commands per heartbeat.
      CHECK(many < few * 1.3);

      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      const State state = bob.resume_game(c.port("b"), t.game);
      const auto took = std::chrono::duration_cast<Millis>(Clock::now() - killed);
      MESSAGE("the game was back " << took.count() << " ms after its node was killed");
      CHECK(took < Millis{2000 + 5000});  // the lease's 2 s, then within 5 s
      CHECK(state.status == GameStatus::Active);
      alice.resume_game(c.port("b"), t.game);
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // Node b claimed the dead lease whole: all 40 keys in one script.
      CHECK(c.log("b").find("event=lease_claimed node=a") != std::string::npos);
      CHECK(c.log("b").find("keys=40") != std::string::npos);
      CHECK(c.log("b").find("event=game_taken_over game=" + t.game) != std::string::npos);
    }

    TEST_CASE(
        "cluster: a takeover that waits for storage longer than a lease lasts keeps its lease") {
      // In a large failover a node reads hundreds of games one after another, so the last reads
      // wait longer than a lease lasts (2 s here). Here the one read waits for a row lock the test
      // holds until 9 s after the kill: the taking node must renew the lease while it waits, not
      // adopt the game with a lease that ran out, drop it and let it be taken over a second time.
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it: alice created it there
      t.play_turns(2, *alice, *bob);

      pqxx::connection lock_holder(c.db);
      pqxx::work lock(lock_holder);
      lock.exec("SELECT id FROM games WHERE id = " + t.game + " FOR UPDATE");
      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      // Node b sees the lease run out (2 s), takes it a moment later, and its read waits for the
      // lock until 9 s: longer than two leases.
      std::this_thread::sleep_until(killed + Millis{9000});
      lock.commit();

      alice.resume_game(c.port("b"), t.game);
      bob.resume_game(c.port("b"), t.game);
      // Past two more leases: a node that adopted the game under a lease that had run out drops
      // it by now (and its players are told to reconnect).
      std::this_thread::sleep_for(Millis{4000});
      INFO("node b logged:\n" << c.log("b"));
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      CHECK(c.log("b").find("event=game_taken_over game=" + t.game) != std::string::npos);
      CHECK(c.log("b").find("event=lease_expired") == std::string::npos);
      CHECK(c.log("b").find("event=lease_lost") == std::string::npos);
      // One takeover, one token after the nodes' leases (1 for a, 2 for b, each drawn when the
      // node started): b's claim of a's lease drew 3, and the game was not dropped and taken
      // again, which would have drawn another.
      {
        pqxx::connection check(c.db);
        pqxx::nontransaction q(check);
        CHECK(q.exec1("SELECT owner_token FROM games WHERE id = " + t.game)[0].as<int>() == 3);
      }
      CHECK(
          eventually([&] { return metric(c.port("b"), "amazons_cluster_takeovers_total") == 1; }));
    }

    TEST_CASE(
        "cluster: a tournament directed by one node is played on the others and outlives its "
        "director") {
      Cluster c;
      nlohmann::json config = kConfig;
      config["limits"]["players_create_tournaments"] = true;
      c.start("a", config);
      c.start("b", config);
      c.start("c", config);
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      // Created on a, which directs it; joined from b and c.
      TournamentCreate create;
      create.name = "Cluster arena";
      create.kind = "arena";
      create.rated = false;
      create.time = TimeControl::fischer(Millis{300'000}, Millis{0});
      create.start_in = 2;
      create.duration = 600;
      alice->send(create);
      const std::int64_t id = wait_for<TournamentInfo>(*alice).tournament.id;
      for (Player* p : {&bob, &carol}) {
        (*p)->send(TournamentJoin{id});
        wait_for<Ok>(**p);
      }
      // Every node lists it the same, from the shared database.
      const auto listed = [&](Player& p) {
        p->send(TournamentsRequest{});
        for (const auto& t : wait_for<TournamentList>(*p).tournaments)
          if (t.id == id) return t.status + ":" + std::to_string(t.players);
        return std::string("missing");
      };
      for (Player* p : {&alice, &bob, &carol}) CHECK(listed(*p) == "created:2");

      // At its start a pairs bob and carol; each hears of it on their own node.
      const auto seat = [](Player& p) {
        const auto start = wait_for<Start>(*p, Millis{15'000});
        return std::pair{start.game, start.color};
      };
      const auto [game, bob_color] = seat(bob);
      CHECK(seat(carol).first == game);
      Player& white = bob_color == Color::White ? bob : carol;
      Player& black = bob_color == Color::White ? carol : bob;
      black->send(Resign{game});
      CHECK(wait_for<End>(*white).winner == Color::White);
      // The arena pairs them again at once; the standings count the first game.
      const auto [again, again_color] = seat(bob);
      CHECK(again != game);
      // The first game's winner loses this one: each then has a win.
      Player& loser = white.name == "bob" ? bob : carol;
      Player& winner = white.name == "bob" ? carol : bob;
      const Color winner_color =
          (winner.name == "bob") == (again_color == Color::White) ? Color::White : Color::Black;
      for (Player* p : {&alice, &bob, &carol}) CHECK(listed(*p) == "running:2");

      // The director dies, with the second game, which it runs too. Both come back on their
      // nodes; the game and the tournament are taken over, and the game is finished there.
      c.nodes.at("a")->stop(SIGKILL);
      bob.resume_game(c.port("b"), again);
      carol.resume_game(c.port("c"), again);
      loser->send(Resign{again});
      CHECK(wait_for<End>(*winner, Millis{15'000}).winner == winner_color);

      // Whichever node took the tournament over scores the game, and every node shows it so.
      const auto finished_games = [&](Player& p) {
        p->send(TournamentShow{id});
        const auto info = wait_for<TournamentInfo>(*p, Millis{30'000});
        int finished = 0;
        for (const auto& pairing : info.pairings) finished += pairing.state == "finished";
        return finished;
      };
      CHECK(eventually([&] { return finished_games(bob) == 2; }, Millis{20'000}));
      CHECK(finished_games(carol) == 2);
      bob->send(TournamentShow{id});
      const auto info = wait_for<TournamentInfo>(*bob);
      REQUIRE(info.standings.size() == 2);
      CHECK(info.standings[0].wins == 1);
      CHECK(info.standings[1].wins == 1);
      CHECK(info.standings[0].points + info.standings[1].points == 4);
      const bool taken_over = c.log("b").find("event=tournament_taken_over") != std::string::npos ||
                              c.log("c").find("event=tournament_taken_over") != std::string::npos;
      CHECK(taken_over);
    }

    TEST_CASE("cluster: Redis restarted empty mid-game costs nobody the game") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);
      t.play_turns(2, *alice, *bob);
      c.redis.kill();
      c.redis.restart();
      // The nodes see Redis come back without their leases, names and heartbeats, and put them
      // back.
      REQUIRE(eventually([&] {
        return c.log("a").find("event=recovered") != std::string::npos &&
               c.log("b").find("event=recovered") != std::string::npos;
      }));
      REQUIRE(eventually([&] { return ready(c.port("a")) && ready(c.port("b")); }));
      // Under load the restart costs more than a pause, and each cost is one a client knows how
      // to pay: what a node published while the other's subscription was down is lost, and the
      // other closes the connections that relied on it (`bus_gap`); a lease that could not be
      // renewed in time runs out, and node b takes the game over ("moved to another server:
      // reconnect"). Either way the player comes back, finds the game, and goes on.
      const auto play_surely = [&](Player& mover, unsigned short mover_port, Player& other,
                                   unsigned short other_port) {
        MoveList list;
        generate_moves(t.pos, list);
        const Move m = list[t.moves.size() * 7 % list.size()];
        const std::string text = to_string(m);
        // Reads `who`'s lines until `text` is heard, or the connection closes, or `who` is told
        // to come back; false unless heard.
        const auto hears = [&](Player& who) {
          const auto deadline = Clock::now() + Millis{10'000};
          while (Clock::now() < deadline && !who->raw().closed()) {
            const auto line = who->raw().read_line(Millis{200});
            if (!line) continue;
            const auto env = decode_server(*line);
            REQUIRE(env.has_value());
            if (std::holds_alternative<Ping>(env->message)) who->send(Pong{});
            if (const auto* moved = std::get_if<Moved>(&env->message); moved && moved->move == text)
              return true;
            if (const auto* e = std::get_if<Error>(&env->message)) {
              REQUIRE_MESSAGE(e->code == ErrorCode::Unavailable, encode(env->message));
              return false;
            }
          }
          return false;
        };
        bool played = false;
        for (int attempt = 0; attempt < 5 && !played; ++attempt) {
          mover->send(MoveMsg{t.game, text});
          played = hears(mover);
          if (!played) played = mover.resume_game(mover_port, t.game).moves.size() > t.moves.size();
        }
        REQUIRE_MESSAGE(played, "the move " << text << " was never played");
        t.pos.do_move(m);
        t.moves.push_back(text);
        if (!hears(other)) CHECK(other.resume_game(other_port, t.game).moves == t.moves);
      };
      for (int i = 0; i < 4; ++i) {
        if (i % 2 == 0)
          play_surely(alice, c.port("a"), bob, c.port("b"));
        else
          play_surely(bob, c.port("b"), alice, c.port("a"));
      }
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // The names are held again: a guest cannot take alice's name on the other node.
      Client thief(c.port("b"));
      thief.send(R"({"type":"hello","protocol":1,"name":"alice"})");
      CHECK(wait_for<Error>(thief).code == ErrorCode::NameTaken);
    }

    TEST_CASE(
        "cluster: a message lost on the bus before a quiet spell is noticed, and the game goes "
        "on") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);
      t.play_turns(2, *alice, *bob);
      // Node a runs the game: what it tells bob goes over the bus to b. Every subscriber is cut
      // off, and kept off (no new connection is let in) while alice moves: the lines of that
      // move for bob are published to nobody, and nothing else goes from a to b after them.
      cluster::Redis admin(*cluster::parse_redis_url(c.redis.url()));
      const auto limit = admin.command({"CONFIG", "GET", "maxclients"});
      REQUIRE(limit.has_value());
      REQUIRE(limit->elements.size() == 2);
      REQUIRE(admin.command({"CONFIG", "SET", "maxclients", "1"}).has_value());
      REQUIRE(admin.command({"CLIENT", "KILL", "TYPE", "pubsub"}).has_value());
      MoveList list;
      generate_moves(t.pos, list);
      const std::string lost = to_string(list[0]);
      alice->send(MoveMsg{t.game, lost});
      CHECK(wait_for<Moved>(*alice).move == lost);
      t.pos.do_move(list[0]);
      t.moves.push_back(lost);
      std::this_thread::sleep_for(Millis{1500});
      REQUIRE(admin.command({"CONFIG", "SET", "maxclients", limit->elements[1].str}).has_value());
      // Node b hears from a again (a tick, within a second), sees what it missed and closes
      // bob's connection, which relied on it: his client comes back and finds the move.
      bool heard_move = false;
      const auto deadline = Clock::now() + Millis{5000};
      while (Clock::now() < deadline && !bob->raw().closed()) {
        const auto line = bob->raw().read_line(Millis{200});
        if (!line) continue;
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        if (std::holds_alternative<Ping>(env->message)) bob->send(Pong{});
        if (std::holds_alternative<Moved>(env->message)) heard_move = true;
      }
      REQUIRE_MESSAGE(!heard_move, "the move was not lost: the subscribers came back too soon");
      REQUIRE_MESSAGE(bob->raw().closed(), "node b did not notice that it missed alice's move");
      CHECK(c.log("b").find("bus_gap") != std::string::npos);
      CHECK(eventually([&] { return metric(c.port("b"), "amazons_cluster_bus_gaps_total") >= 1; }));
      CHECK(bob.resume_game(c.port("b"), t.game).moves == t.moves);
      t.play_turns(2, *bob, *alice);
      CHECK(stored_moves(c.db, t.game) == t.moves);
    }

    TEST_CASE(
        "cluster: with Redis out of reach a node says so, runs no game it cannot prove it "
        "holds, and comes back with every move") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it
      t.play_turns(2, *alice, *bob);
      c.redis.kill();
      // Both nodes notice, say so, and stop being ready.
      REQUIRE(eventually([&] { return !ready(c.port("a")) && !ready(c.port("b")); }));
      for (const char* n : {"a", "b"}) {
        const auto [code, body] = http_get(c.port(n), "/health");
        CHECK(code == 200);
        CHECK(body.find("\"cluster\":\"degraded\"") != std::string::npos);
        CHECK(http_get(c.port(n), "/ready").first == 503);
        CHECK(eventually([&] {
          return http_get(c.port(n), "/metrics").second.find("amazons_cluster_state 2") !=
                 std::string::npos;
        }));
        CHECK(c.log(n).find("event=redis_unreachable") != std::string::npos);
      }
      // Nothing new starts where the cluster cannot be asked: a login (the name registry), a game.
      Client carol(c.port("b"));
      carol.send(R"({"type":"hello","protocol":1,"name":"carol"})");
      CHECK(wait_for<Error>(carol).code == ErrorCode::Unavailable);
      bob->send(Create{});
      CHECK(wait_for<Error>(*bob).code == ErrorCode::Unavailable);
      // Past the lease's deadline node a runs the game no more: its player there is closed.
      CHECK(alice->closed_by_server(Millis{10'000}));
      c.redis.restart();
      REQUIRE(eventually([&] { return ready(c.port("a")) && ready(c.port("b")); }));
      const auto state = alice.resume_game(c.port("a"), t.game);
      CHECK(state.moves == t.moves);
      // Bob's node learns that what went between the nodes may be lost, and Bob comes back too.
      bob.resume_game(c.port("b"), t.game);
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
    }

    TEST_CASE("cluster: nodes racing for one name and one seek: exactly one wins each") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const char* nodes[] = {"a", "b", "c"};
      for (int round = 0; round < 5; ++round) {
        const std::string name = "zed" + std::to_string(round);
        std::vector<std::unique_ptr<Client>> racers;
        for (const char* n : nodes) racers.push_back(std::make_unique<Client>(c.port(n)));
        for (auto& r : racers) r->send(R"({"type":"hello","protocol":1,"name":")" + name + R"("})");
        const auto race = answers_to_hello(racers);
        CHECK(race.welcomed == 1);
        CHECK(race.refused == 2);
      }
      // Six seekers on three nodes at once: three games, each seeker in exactly one.
      std::vector<std::unique_ptr<Player>> seekers;
      for (int i = 0; i < 6; ++i)
        seekers.push_back(std::make_unique<Player>("s" + std::to_string(i), c.port(nodes[i % 3])));
      Seek seek;
      seek.time = TimeControl::fischer(Millis{60'000}, Millis{0});
      for (auto& p : seekers) (*p)->send(seek);
      std::map<std::string, std::vector<std::string>> games;
      for (auto& p : seekers) {
        const auto start = wait_for<Start>(**p);
        games[start.game].push_back(p->name);
      }
      CHECK(games.size() == 3);
      for (const auto& [game, players] : games) CHECK(players.size() == 2);
    }

    TEST_CASE("cluster: look-alike names are one name on every node") {
      Cluster c;
      c.start("a");
      c.start("b");
      // Guests racing on two nodes with names that differ only in case and a trailing dot.
      for (int round = 0; round < 3; ++round) {
        const std::string names[] = {"Zed" + std::to_string(round),
                                     "zED" + std::to_string(round) + "."};
        Client on_a(c.port("a")), on_b(c.port("b"));
        on_a.send(R"({"type":"hello","protocol":1,"name":")" + names[0] + R"("})");
        on_b.send(R"({"type":"hello","protocol":1,"name":")" + names[1] + R"("})");
        const auto race = answers_to_hello(std::vector<Client*>{&on_a, &on_b});
        CHECK(race.welcomed == 1);
        CHECK(race.refused == 1);
      }
      // An account made on one node keeps its look-alikes off every node, connected or not.
      {
        Client reg(c.port("a"));
        reg.hello("reg", R"(,"password":"secret")");
      }
      for (const char* node : {"a", "b"}) {
        for (const std::string name : {"Reg", "REG.", "reg_"}) {
          CAPTURE(node);
          CAPTURE(name);
          Client look_alike(c.port(node));
          look_alike.send(R"({"type":"hello","protocol":1,"name":")" + name + R"("})");
          const auto e = wait_for<Error>(look_alike);
          CHECK(e.code == ErrorCode::NameTaken);
          CHECK(e.message.find("too like \"reg\"") != std::string::npos);
        }
      }
    }

    TEST_CASE(
        "cluster: the settings reach Redis: lease, heartbeat and name lifetimes, the key prefix, "
        "the advertised address") {
      Cluster c;
      // Each lifetime below its default (lease 5 s, heartbeat 5 s, name 15 s) and apart from
      // the others, so that each reading can only come from its own setting.
      const nlohmann::json config = {
          {"cluster",
           {{"lease_seconds", 3}, {"node_seconds", 4}, {"name_seconds", 7}, {"prefix", "t9:"}}}};
      c.start("a", config, {"--advertise", "192.0.2.7:7999"});
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("a"));
      const Table t = start_game(alice, bob);
      const auto pttl = [&](const std::string& key) {
        const auto [status, out] = c.redis.cli("PTTL " + key);
        REQUIRE(status == 0);
        return std::stoll(out);
      };
      // One lease for the node (its token names it), and the game a field of that lease's hash.
      // The node records the game on its Redis thread after the game has started (the players'
      // start does not wait for it): wait for the field before reading the lease's lifetime.
      const auto leases = c.redis.cli("KEYS 't9:nodelease:*'").second;
      REQUIRE(leases.find("t9:nodelease:") == 0);
      const std::string token = leases.substr(13, leases.find_first_of("\r\n") - 13);
      REQUIRE_MESSAGE(eventually([&] {
                        return c.redis.cli("HGET t9:owns:" + token + " " + t.game).second ==
                               token + "\n";
                      }),
                      "the game never reached its node's lease");
      const auto lease = pttl("t9:nodelease:" + token);
      CHECK(lease > 0);
      CHECK(lease <= 3000);
      // A name lives as long as its node's lease: no TTL of its own while the node runs (the
      // name's lifetime applies once the node is dead, below).
      CHECK(pttl("t9:name:alice") == -1);
      // Nothing under the default prefix.
      CHECK(c.redis.cli("KEYS 'amz:*'").second.find("amz:") == std::string::npos);
      cluster::Redis redis(*cluster::parse_redis_url(c.redis.url()));
      cluster::Membership members(redis, "probe", Millis{1000}, "t9:");
      const auto live = members.live();
      REQUIRE(live.has_value());
      REQUIRE(live->size() == 1);
      CHECK(live->front().node == "a");
      CHECK(live->front().address == "192.0.2.7:7999");
      CHECK(live->front().expires_in > Millis{0});
      CHECK(live->front().expires_in <= Millis{4000});
      CHECK(live->front().expires_in > Millis{3000} - Millis{1500});  // renewed every ttl/3
      // Node a dies; node b claims its lease once it runs out, and a's players' names free
      // themselves name_seconds later.
      c.nodes.at("a")->stop(SIGKILL);
      c.start("b", config);
      REQUIRE_MESSAGE(eventually([&] { return pttl("t9:name:alice") > 0; }),
                      "node a's names were never given their lifetime");
      const auto name = pttl("t9:name:alice");
      CHECK(name > 3000);
      CHECK(name <= 7000);
    }

  }  // TEST_SUITE("postgres")
}  // TEST_SUITE("redis")
