// What the cluster_nodes suite's cases share: a cluster of real amazons-server nodes (--cluster)
// on loopback over a real PostgreSQL and Redis that the test starts, players that can come back
// on any node, and a table that plays legal moves and checks that everyone hears of each.
#pragma once

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

namespace amazons::test::cluster_nodes {

using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using Clock = std::chrono::steady_clock;

// Short leases and heartbeats, so that a failover takes seconds, not tens of them.
inline const nlohmann::json kConfig = {
    {"cluster", {{"lease_seconds", 2}, {"node_seconds", 2}, {"name_seconds", 6}}},
    {"limits", {{"claim_grace_seconds", 600}}}};

// Whether GET /ready answers 200.
inline bool ready(unsigned short port) {
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
inline std::pair<int, std::string> http_get(unsigned short port, const std::string& path) {
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
inline double metric(unsigned short port, const std::string& name) {
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

inline std::vector<std::string> stored_moves(const std::string& db, const std::string& game) {
  server::PgStorage storage(db);
  const auto record = storage.game_record(std::stoll(game));
  std::vector<std::string> out;
  if (record)
    for (const auto& m : record->moves) out.push_back(to_string(m.move));
  return out;
}

// The `list` (ids) and `players` (names and game counts) a node answers.
inline std::string lobby_of(Client& c) {
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
inline Table start_game(Player& alice, Player& bob, bool rated = false,
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
inline bool turns_become(Client& c, std::set<std::string> games, Millis within = Millis{10'000}) {
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

}  // namespace amazons::test::cluster_nodes
