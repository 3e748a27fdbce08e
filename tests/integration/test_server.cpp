#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <thread>

#include "common/movegen.h"
#include "common/notation.h"
#include "net/discovery.h"
#include "server_process.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::play;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

std::string create_line(const std::string& color, const std::string& time = "null",
                        const std::string& rules = "standard") {
  return R"({"type":"create","rules":")" + rules + R"(","color":")" + color + R"(","time":)" +
         time + "}";
}

// Alice (white) and Bob (black) start a game; returns its id.
std::string start(Client& alice, Client& bob, const std::string& time = "null",
                  const std::string& rules = "standard") {
  alice.send(create_line("white", time, rules));
  const auto game = alice.expect<Created>().game;
  bob.send(Join{game, std::nullopt});
  CHECK(bob.expect<Start>().color == Color::Black);
  CHECK(alice.expect<Start>().color == Color::White);
  return game;
}

}  // namespace

TEST_CASE("server: a whole game over TCP with a spectator, chat, resign and the archive") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client alice(server.port()), bob(server.port()), eve(server.port());
  alice.hello("alice");
  bob.hello("bob", ",\"bot\":true");
  eve.hello("eve");
  const auto game = start(alice, bob, R"({"initial":300,"increment":5})");
  eve.send(Watch{game, std::nullopt});
  const auto st = eve.expect<State>();
  CHECK(st.black->bot);
  CHECK(st.clock->white > 299'000);

  play(alice, bob, game, "d1-d7/g7", 1);
  CHECK(eve.expect<Moved>().move == "d1-d7/g7");
  bob.send(MoveMsg{game, "a7-a1/a2"});
  const auto illegal = bob.expect<Error>();
  CHECK(illegal.code == ErrorCode::IllegalMove);
  CHECK(illegal.reason == "path_blocked");
  alice.send(MoveMsg{game, "g1-g2/g3"});
  CHECK(alice.expect_error() == ErrorCode::NotYourTurn);
  play(bob, alice, game, "a7-b7/c7", 2);
  eve.expect<Moved>();

  eve.send(ChatSend{game, "good luck"});
  CHECK(alice.expect<Chat>().text == "good luck");
  CHECK(bob.expect<Chat>().from == "eve");
  eve.expect<Chat>();

  alice.send(Resign{{game}}, "r");
  const auto end_env = alice.next();
  CHECK(*end_env.id == "r");
  CHECK(std::get<End>(end_env.message).winner == Color::Black);
  CHECK(bob.expect<End>().reason == EndReason::Resign);
  CHECK(eve.expect<End>().reason == EndReason::Resign);

  eve.send(RecordRequest{game, RecordFormat::Text});
  const auto rec = parse_record_text(eve.expect<Record>().record.get<std::string>());
  REQUIRE(rec.has_value());
  CHECK(rec->moves.size() == 2);
  CHECK(rec->black.bot);
  bob.send(HistoryRequest{std::nullopt, 5});
  const auto hist = bob.expect<History>();
  REQUIRE(hist.games.size() == 1);
  CHECK(hist.games[0].reason == EndReason::Resign);
}

TEST_CASE("server: games end by no moves, time, abort and claim after a disconnect") {
  TempDir dir;
  const auto rules = dir.path() / "rules";
  std::filesystem::create_directories(rules);
  std::ofstream(rules / "tiny.json")
      << R"({"name":"tiny","size":6,"white":["a1"],"black":["f6"],"first":"white"})";
  ServerProcess server(dir.path(),
                       {{"rules_dir", rules.string()}, {"limits", {{"claim_grace_seconds", 0.3}}}});
  Client alice(server.port()), bob(server.port());
  alice.hello("alice");
  const auto bob_token = bob.hello("bob");

  SUBCASE("no moves") {
    const auto game = start(alice, bob, "null", "tiny");
    RuleVariant v = *find_variant("tiny", rules);
    Position pos(v);
    std::mt19937_64 rng(3);
    int ply = 0;
    while (!pos.is_game_over()) {
      const Move m = test::random_move(pos, rng);
      const bool white = pos.side_to_move() == Color::White;
      pos.do_move(m);
      play(white ? alice : bob, white ? bob : alice, game, to_string(m), ++ply);
    }
    const auto end = alice.expect<End>();
    CHECK(end.reason == EndReason::NoMoves);
    CHECK(end.winner == ~pos.side_to_move());
    CHECK(bob.expect<End>() == end);
  }
  SUBCASE("time") {
    const auto game = start(alice, bob, R"({"per_move":1})");  // the shortest the server plays
    const auto end = alice.expect<End>();
    CHECK(end.reason == EndReason::Time);
    CHECK(end.winner == Color::Black);
    CHECK(bob.expect<End>() == end);
  }
  SUBCASE("abort") {
    const auto game = start(alice, bob);
    play(alice, bob, game, "d1-d7/g7", 1);
    bob.send(Abort{{game}});
    CHECK(bob.expect<End>().reason == EndReason::Aborted);
    CHECK_FALSE(alice.expect<End>().winner.has_value());
  }
  SUBCASE("claim after a disconnect, and the seat resumed by token") {
    const auto game = start(alice, bob);
    bob.raw().close();
    const auto p = alice.expect<Presence>();
    CHECK_FALSE(p.online);
    alice.send(Claim{{game}});
    CHECK(alice.expect_error() == ErrorCode::NotAllowed);
    Client bob2(server.port());
    bob2.hello("bob", ",\"token\":\"" + bob_token + "\"");
    const auto st = bob2.expect<State>();
    CHECK(st.game == game);
    CHECK(st.color == Color::Black);
    CHECK(alice.expect<Presence>().online);
    bob2.raw().close();
    alice.expect<Presence>();
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    alice.send(Claim{{game}});
    const auto end = alice.expect<End>();
    CHECK(end.reason == EndReason::Abandon);
    CHECK(end.winner == Color::White);
  }
}

TEST_CASE("server: bad input of every kind is answered and changes nothing") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client c(server.port());
  c.send("{\"type\":\"players\"}");
  CHECK(c.expect_error() == ErrorCode::NotLoggedIn);
  c.hello("mallory");
  const std::pair<std::string, ErrorCode> cases[] = {
      {"this is not json", ErrorCode::BadJson},
      {"[]", ErrorCode::BadJson},
      {"", ErrorCode::BadJson},
      {"{\"type\":\"hello\"", ErrorCode::BadJson},
      {"{\"type\":\"chat\",\"game\":\"1\",\"text\":\"\xc3\x28\"}", ErrorCode::BadJson},
      {std::string("{\"type\":\"li\0st\"}", 16), ErrorCode::BadJson},
      {"{\"type\":\"dance\"}", ErrorCode::UnknownType},
      {"{\"type\":null}", ErrorCode::BadField},
      {"{\"type\":\"join\"}", ErrorCode::BadField},
      {"{\"type\":\"join\",\"game\":[1]}", ErrorCode::BadField},
      {"{\"type\":\"create\",\"color\":\"purple\"}", ErrorCode::BadField},
      {"{\"type\":\"create\",\"time\":{\"initial\":1e308}}", ErrorCode::BadField},
      {"{\"type\":\"join\",\"game\":\"99999999999999999999\"}", ErrorCode::NoSuchGame},
      {"{\"type\":\"hello\",\"protocol\":1,\"name\":\"x\"}", ErrorCode::AlreadyLoggedIn},
  };
  for (const auto& [line, code] : cases) {
    c.send(line);
    const auto e = c.expect<Error>();
    CHECK_MESSAGE(e.code == code, line);
  }
  // CR LF line ends and a line split over several writes both work.
  CHECK(c.raw().send_raw("{\"type\":\"ping\",\"id\":1}\r\n"));
  c.expect<Pong>();
  CHECK(c.raw().send_raw("{\"type\":"));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(c.raw().send_raw("\"list\"}\n"));
  CHECK(c.expect<Games>().games.empty());
  // The connection survived all of that; an over-long line ends it.
  CHECK(c.raw().send_raw(std::string(kMaxLineBytes + 10, 'x')));
  CHECK(c.expect_error() == ErrorCode::LineTooLong);
  CHECK(c.closed_by_server());
  // Others are unaffected.
  Client d(server.port());
  d.hello("dora");
}

TEST_CASE("server: a stream of errors, and too many connections from one address") {
  TempDir dir;
  ServerProcess server(dir.path(),
                       {{"limits", {{"connections_per_address", 3}, {"errors_burst", 5}}}});
  Client a(server.port());
  for (int i = 0; i < 6; ++i) a.send("junk");
  for (int i = 0; i < 5; ++i) CHECK(a.expect_error() == ErrorCode::BadJson);
  CHECK(a.expect_error() == ErrorCode::BadJson);
  CHECK(a.expect_error() == ErrorCode::TooManyErrors);
  CHECK(a.closed_by_server());

  Client b(server.port()), c(server.port()), d(server.port());
  b.hello("b");
  Client e(server.port());
  CHECK(e.expect_error() == ErrorCode::TooManyConnections);
  CHECK(e.closed_by_server());
}

TEST_CASE("server: idle connections are pinged, and closed when they do not answer") {
  TempDir dir;
  ServerProcess server(dir.path(),
                       {{"limits", {{"idle_ping_seconds", 0.3}, {"idle_timeout_seconds", 1.5}}}});
  Client lively(server.port());
  lively.hello("lively");
  lively.answer_pings(false);
  // Silent for the ping interval: a ping comes, and answering it keeps the connection.
  for (int i = 0; i < 3; ++i) {
    CHECK(std::holds_alternative<Ping>(lively.next().message));
    lively.send(Pong{});
  }
  lively.send(Ping{});
  lively.expect<Pong>();

  Client sleepy(server.port());
  sleepy.hello("sleepy");
  sleepy.answer_pings(false);
  CHECK(std::holds_alternative<Ping>(sleepy.next().message));
  CHECK(sleepy.expect_error() == ErrorCode::IdleTimeout);
  CHECK(sleepy.closed_by_server());
}

TEST_CASE("server: kill -9, restart, and every acknowledged move is back") {
  TempDir dir;
  std::string game, alice_token, bob_token;
  {
    ServerProcess server(dir.path());
    Client alice(server.port()), bob(server.port());
    alice_token = alice.hello("alice", ",\"password\":\"pa55\"");
    bob_token = bob.hello("bob");
    game = start(alice, bob, R"({"initial":600,"increment":0})");
    play(alice, bob, game, "d1-d7/g7", 1);
    play(bob, alice, game, "a7-b7/c7", 2);
    play(alice, bob, game, "g1-g3/g1", 3);
    CHECK(server.stop(SIGKILL) == -1);
  }
  ServerProcess server(dir.path());
  Client alice(server.port());
  alice.hello("alice", ",\"password\":\"pa55\"");
  const auto st = alice.expect<State>();
  CHECK(st.game == game);
  CHECK(st.moves == std::vector<std::string>{"d1-d7/g7", "a7-b7/c7", "g1-g3/g1"});
  CHECK(st.to_move == Color::Black);
  CHECK(st.clock->black > 590'000);  // the time the server was down is charged to nobody
  Client bob(server.port());
  bob.hello("bob", ",\"token\":\"" + bob_token + "\"");
  bob.expect<State>();
  alice.expect<Presence>();
  play(bob, alice, game, "j7-j5/j6", 4);
}

TEST_CASE("server: SIGTERM tells clients, commits, exits cleanly, and the games resume") {
  TempDir dir;
  std::string game, bob_token;
  {
    ServerProcess server(dir.path());
    Client alice(server.port()), bob(server.port());
    alice.hello("alice");
    bob_token = bob.hello("bob");
    game = start(alice, bob);
    play(alice, bob, game, "d1-d7/g7", 1);
    CHECK(server.stop(SIGTERM) == 0);
    CHECK_FALSE(alice.expect<Shutdown>().message.empty());
    CHECK(alice.closed_by_server());
  }
  ServerProcess server(dir.path());
  Client bob(server.port());
  bob.hello("bob", ",\"token\":\"" + bob_token + "\"");
  CHECK(bob.expect<State>().moves.size() == 1);
}

TEST_CASE("server: a server password, and LAN discovery answered on loopback") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"password", "club"}, {"name", "test lan"}});
  Client a(server.port());
  a.send(R"({"type":"hello","protocol":1,"name":"a"})");
  CHECK(a.expect_error() == ErrorCode::AuthFailed);
  a.hello("a", ",\"server_password\":\"club\"");

  net::DiscoveryOptions opt;
  opt.target = "127.0.0.1";
  opt.port = server.discovery_port();
  opt.wait = Millis{500};
  const auto found = net::discover_servers(opt);
  REQUIRE(found.has_value());
  REQUIRE(found->size() == 1);
  CHECK(found->front().address == "127.0.0.1");
  CHECK(found->front().reply.port == server.port());
  CHECK(found->front().reply.name == "test lan");
  CHECK(found->front().reply.password);
  CHECK(found->front().reply.players == 1);

  opt.target = "not an address";
  CHECK_FALSE(net::discover_servers(opt).has_value());
}

TEST_CASE("server: listening on :: serves IPv6 and IPv4 clients") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"bind", "::"}, {"discovery_port", -1}});
  Client v4(server.port());
  v4.hello("four");
  auto v6 = net::LineClient::connect("::1", server.port(), Millis{2000});
  if (!v6) {
    MESSAGE("no IPv6 loopback here: " << v6.error());
    return;
  }
  CHECK(v6->send_line(R"({"type":"hello","protocol":1,"name":"six"})"));
  const auto line = v6->read_line(Millis{5000});
  REQUIRE(line.has_value());
  CHECK(std::holds_alternative<Welcome>(decode_server(*line)->message));
}

TEST_CASE("server: a client that does not read is disconnected instead of growing memory") {
  TempDir dir;
  ServerProcess server(
      dir.path(),
      {{"limits",
        {{"max_write_queue_kib", 64}, {"requests_per_second", 1e6}, {"requests_burst", 1e6}}}});
  Client greedy(server.port());
  greedy.hello("greedy");
  greedy.send(Create{});
  const auto game = greedy.expect<Created>().game;
  // Each answer is a full game state of about 600 bytes: 20,000 of them are more than the
  // socket buffers on both sides and the server's 64 KiB queue can hold.
  const std::string watch = protocol::encode(ClientMessage{Watch{game, std::nullopt}}) + "\n";
  std::string burst;
  for (int i = 0; i < 1000; ++i) burst += watch;
  for (int i = 0; i < 20; ++i)
    if (!greedy.raw().send_raw(burst)) break;
  // Not reading for a while: the server writes answers as it makes them, and a client that
  // read from here on (closed_by_server reads) could keep up with a slow server (under ASan)
  // and never fill its queue.
  std::this_thread::sleep_for(Millis{2000});
  CHECK(greedy.closed_by_server(Millis{10000}));
  Client other(server.port());
  other.hello("other");
}

namespace {

// Sends `requests` watch requests at once (answers of about 420 bytes each), reads nothing for
// 500 ms, then reads every answer, whole and in order, on a server whose write queue holds
// `queue_kib`.
void burst_then_read(int queue_kib, int requests) {
  TempDir dir;
  ServerProcess server(dir.path(), {{"limits",
                                     {{"max_write_queue_kib", queue_kib},
                                      {"requests_per_second", 1e6},
                                      {"requests_burst", 1e6}}}});
  Client client(server.port());
  client.hello("bursty");
  client.send(Create{});
  const auto game = client.expect<Created>().game;
  std::string burst;
  for (int i = 1; i <= requests; ++i)
    burst += protocol::encode(ClientMessage{Watch{game, std::nullopt}}, i) + "\n";
  REQUIRE(client.raw().send_raw(burst));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (int i = 1; i <= requests; ++i) {
    const auto env = client.next();
    REQUIRE(env.id == protocol::RequestId{i});
  }
}

}  // namespace

TEST_CASE("server: a client that sends a burst of requests and reads the answers is served") {
  // 200 answers are more than the 64 KiB queue holds. They go to the socket as they are made,
  // and the kernel holds them until the client reads, so nothing waits in the queue. (They used
  // to wait there behind the reads of the burst, and the client was closed as a slow reader.)
  // The pause before reading keeps the case from depending on how soon the client is scheduled.
  burst_then_read(64, 200);
}

TEST_CASE("server: a client that reads late gets every line whole and in order") {
  // The answers outgrow the socket buffers while the client is not reading, so the server's
  // writes stop part-way through lines and go on when the client reads again.
  burst_then_read(8192, 20000);
}

TEST_CASE("server: the release server allocates with jemalloc, the sanitizer build with its own") {
  // AMAZONS_JEMALLOC (on by default) links jemalloc, except under the sanitizers: the running
  // process has it mapped, or not, accordingly, and serves either way.
  TempDir dir;
  ServerProcess server(dir.path());
  Client alice(server.port());
  alice.send(R"({"type":"hello","protocol":1,"name":"alice"})");
  alice.expect<Welcome>();
  std::ifstream maps("/proc/" + std::to_string(server.pid()) + "/maps");
  REQUIRE(maps);
  const std::string text((std::istreambuf_iterator<char>(maps)), std::istreambuf_iterator<char>());
  CHECK((text.find("libjemalloc") != std::string::npos) == bool(AMAZONS_SERVER_JEMALLOC));
}
