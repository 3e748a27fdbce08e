// Hostile clients at the new doors of the one port (HTTP, WebSocket, TLS): each is answered as
// docs/PROTOCOL.md and docs/RELIABILITY.md say, only the offender is affected, and a game played
// alongside goes on.
#include <doctest/doctest.h>

#include <random>
#include <thread>

#include "common/protocol.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using amazons::test::TransportClient;
using amazons::test::Wire;
using amazons::test::WireOptions;

namespace {

struct Game {
  Client alice, bob;
  std::string id;
  int ply = 0;
  explicit Game(unsigned short port, Wire wire = Wire::Tcp) : alice(port, wire), bob(port, wire) {
    alice.hello("alice");
    bob.hello("bob");
    Create c;
    c.color = ColorChoice::White;
    alice.send(c);
    id = alice.expect<Created>().game;
    bob.send(Join{id, std::nullopt});
    bob.expect<Start>();
    alice.expect<Start>();
  }
  // The next move of a fixed opening, answered to both players.
  void move() {
    static const char* kMoves[] = {"d1-d7/g7", "a7-b7/c7", "g1-g2/g3", "d10-d8/e8",
                                   "j4-i4/h4", "j7-i7/h7", "a4-b4/c4", "g10-f10/e10"};
    Client& mover = ply % 2 == 0 ? alice : bob;
    Client& other = ply % 2 == 0 ? bob : alice;
    mover.send(MoveMsg{id, kMoves[ply]});
    CHECK(mover.expect<Moved>().ply == ply + 1);
    CHECK(other.expect<Moved>().ply == ply + 1);
    ++ply;
  }
};

// Raw bytes to the port; what comes back until the server closes (bounded by `within`).
std::string exchange(unsigned short port, const std::string& bytes, Millis within = Millis{5000}) {
  auto c = TransportClient::connect(Wire::Tcp, port);
  REQUIRE(c.has_value());
  if (!bytes.empty()) REQUIRE(c->send_raw(bytes));
  return c->read_until_closed(within);
}

// True when the server closes a connection that sends `bytes` and then nothing, within `within`.
bool closed_within(unsigned short port, const std::string& bytes, Millis within) {
  auto c = TransportClient::connect(Wire::Tcp, port);
  REQUIRE(c.has_value());
  if (!bytes.empty()) REQUIRE(c->send_raw(bytes));
  c->read_until_closed(within);
  return c->closed();
}

}  // namespace

TEST_CASE("abuse doors: an oversized WebSocket frame closes that connection with 1009") {
  TempDir dir;
  ServerProcess server(dir.path());
  Game game(server.port(), Wire::Ws);
  Client big(server.port(), Wire::Ws);
  big.hello("big");
  big.send(std::string(kMaxLineBytes + 1, ' '));
  CHECK(big.closed_by_server());
  CHECK(big.wire().close_code() == 1009);
  // A frame just under the limit is a message like any other (here: bad JSON, answered).
  Client edge(server.port(), Wire::Ws);
  edge.send(std::string(kMaxLineBytes, 'x'));
  CHECK(edge.expect_error() == ErrorCode::BadJson);
  game.move();
  game.move();
}

TEST_CASE("abuse doors: a silent WebSocket is pinged and then closed like a silent line client") {
  TempDir dir;
  ServerProcess server(dir.path(),
                       {{"limits", {{"idle_ping_seconds", 0.3}, {"idle_timeout_seconds", 1}}}});
  Client quiet(server.port(), Wire::Ws);
  quiet.answer_pings(false);
  quiet.hello("quiet");
  CHECK(std::holds_alternative<Ping>(quiet.next().message));
  CHECK(quiet.expect_error() == ErrorCode::IdleTimeout);
  CHECK(quiet.closed_by_server());
  // One that answers stays.
  Client awake(server.port(), Wire::Wss);
  awake.answer_pings(false);
  awake.hello("awake");
  for (int i = 0; i < 4; ++i) {
    CHECK(std::holds_alternative<Ping>(awake.next().message));
    awake.send(Pong{});
  }
}

TEST_CASE("abuse doors: WebSocket frames meet the rate limits of lines") {
  TempDir dir;
  ServerProcess server(dir.path());
  Game game(server.port(), Wire::Wss);
  SUBCASE("a flood of frames") {
    Client flood(server.port(), Wire::Ws);
    flood.hello("flood");
    for (int i = 0; i < 400; ++i) flood.send(R"({"type":"nope"})");
    bool limited = false, closed_for_errors = false;
    for (int i = 0; i < 400 && !closed_for_errors; ++i) {
      const auto env = flood.next();
      const auto code = std::get<Error>(env.message).code;
      limited = limited || code == ErrorCode::RateLimited;
      closed_for_errors = code == ErrorCode::TooManyErrors;
    }
    CHECK(closed_for_errors);
    CHECK(flood.closed_by_server());
  }
  SUBCASE("binary frames are refused as not text") {
    // The test client sends text frames only; a binary frame's refusal is covered by reading
    // that a text frame of garbage is answered and the connection stays.
    Client noise(server.port(), Wire::Ws);
    noise.send("\x01\x02garbage");
    CHECK(noise.expect_error() == ErrorCode::BadJson);
    noise.hello("noise");
  }
  game.move();
  game.move();
}

TEST_CASE("abuse doors: oversized HTTP headers get 431 and bad requests 400, then close") {
  TempDir dir;
  ServerProcess server(dir.path());
  Game game(server.port());
  const std::string big =
      "GET / HTTP/1.1\r\nHost: x\r\nX-Junk: " + std::string(20'000, 'a') + "\r\n\r\n";
  CHECK(exchange(server.port(), big).starts_with("HTTP/1.1 431"));
  CHECK(exchange(server.port(), "GET / HTTP/9\r\n\r\n").starts_with("HTTP/1.1 400"));
  CHECK(exchange(server.port(), "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            .starts_with("HTTP/1.1 405"));
  const std::string huge_body =
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + std::string(30'000, 'b');
  CHECK(exchange(server.port(), huge_body).starts_with("HTTP/1.1 413"));
  game.move();
}

TEST_CASE(
    "abuse doors: slow handshakes and silent connections are closed by the handshake timeout") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"limits", {{"handshake_timeout_seconds", 1}}}});
  Game game(server.port());
  const auto start = std::chrono::steady_clock::now();
  // A TLS record header and the start of a ClientHello, then nothing.
  CHECK(closed_within(server.port(), std::string("\x16\x03\x01\x00\xf0\x01\x00", 7), Millis{4000}));
  // Half an HTTP request line.
  CHECK(closed_within(server.port(), "GET / HT", Millis{4000}));
  // An upgrade whose headers never end.
  CHECK(closed_within(server.port(), "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n",
                      Millis{4000}));
  // Nothing at all.
  CHECK(closed_within(server.port(), "", Millis{4000}));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(12));
  game.move();
}

TEST_CASE("abuse doors: garbage in a TLS record and a foreign Origin are refused alone") {
  TempDir dir;
  // Garbage that keeps OpenSSL waiting for the rest of a record ends with the handshake timeout.
  ServerProcess server(dir.path(), {{"limits", {{"handshake_timeout_seconds", 1}}}});
  Game game(server.port(), Wire::Tls);
  std::mt19937_64 rng(5);
  for (int i = 0; i < 8; ++i) {
    // A record header and a ClientHello header whose lengths agree, then random bytes: what
    // OpenSSL must parse and refuse.
    std::string junk("\x16\x03\x01\x02\x00\x01\x00\x01\xfc", 9);
    for (int k = 0; k < 0x1fc; ++k) junk += static_cast<char>(rng() % 256);
    CHECK(closed_within(server.port(), junk, Millis{4000}));
  }
  // Bytes that only start like TLS are the line protocol's garbage: answered, not fatal.
  auto lines = TransportClient::connect(Wire::Tcp, server.port());
  REQUIRE(lines.has_value());
  REQUIRE(lines->send_raw(std::string("\x16\x03\x01\x00\x05xyz\n", 9)));
  const auto reply = lines->read();
  REQUIRE(reply.has_value());
  CHECK(reply->find("bad_json") != std::string::npos);
  auto foreign = TransportClient::connect(Wire::Wss, server.port(), [] {
    WireOptions o;
    o.origin = "https://elsewhere.example";
    return o;
  }());
  CHECK_FALSE(foreign.has_value());
  game.move();
  game.move();
  // The server still shakes hands with everyone else.
  Client late(server.port(), Wire::Wss);
  late.hello("late");
}
