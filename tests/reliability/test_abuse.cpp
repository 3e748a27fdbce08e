// Hostile clients against the real amazons-server: each is answered as docs/PROTOCOL.md says,
// only the offender is affected, and a game played alongside goes on. The latency of legitimate
// games under attack is measured by scripts/abusetest.sh (bench/attack.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <thread>

#include "common/protocol.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

std::size_t open_descriptors(pid_t pid) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd"))
    ++n;
  return n;
}

// Polls until the server's descriptors are back to `baseline` (connections it closes linger
// for up to a second while it reads what their peer still sends).
bool descriptors_return_to(pid_t pid, std::size_t baseline, Millis within = Millis{5000}) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < deadline) {
    if (open_descriptors(pid) <= baseline) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::string open;
  for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd"))
    open += " " + std::filesystem::read_symlink(e.path()).string();
  MESSAGE("descriptors: " << open_descriptors(pid) << ", baseline " << baseline << ":" << open);
  return false;
}

// Alice (white) and Bob (black) start a game; returns its id.
std::string start_game(Client& alice, Client& bob, bool is_private = false,
                       std::string* invite = nullptr) {
  Create c;
  c.color = ColorChoice::White;
  c.is_private = is_private;
  alice.send(c);
  const auto created = alice.expect<Created>();
  if (invite) *invite = created.invite.value_or("");
  bob.send(Join{created.game, created.invite});
  bob.expect<Start>();
  alice.expect<Start>();
  return created.game;
}

void play(Client& mover, Client& other, const std::string& game, const std::string& move) {
  mover.send(MoveMsg{game, move});
  CHECK(mover.expect<Moved>().move == move);
  CHECK(other.expect<Moved>().move == move);
}

// How many lines arrive before the server closes the connection; -1 if it stays open.
int lines_until_closed(Client& c) {
  int lines = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (c.raw().read_line(Millis{200})) {
      ++lines;
    } else if (c.raw().closed()) {
      return lines;
    }
  }
  return -1;
}

// A line from each player, so the server (with a short idle timeout) hears from them.
void keep_alive(Client& a, Client& b) {
  for (Client* c : {&a, &b}) {
    c->send(Ping{});
    c->expect<Pong>();
  }
}

std::string hello_line(const std::string& name, const std::string& extra = "") {
  return R"({"type":"hello","protocol":1,"name":")" + name + "\"" + extra + "}";
}

}  // namespace

TEST_CASE("abuse: moves in other people's games and spectators moving change nothing") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client alice(server.port()), bob(server.port()), mallory(server.port());
  alice.hello("alice");
  bob.hello("bob");
  mallory.hello("mallory");
  const auto game = start_game(alice, bob);

  const ClientMessage attempts[] = {MoveMsg{game, "d1-d7/g7"}, Resign{{game}}, Abort{{game}},
                                    Claim{{game}}};
  for (const auto& m : attempts) {
    mallory.send(m);
    CHECK(mallory.expect_error() == ErrorCode::NotAPlayer);
  }
  // As a spectator it is no different.
  mallory.send(Watch{game, std::nullopt});
  CHECK(mallory.expect<State>().moves.empty());
  for (const auto& m : attempts) {
    mallory.send(m);
    CHECK(mallory.expect_error() == ErrorCode::NotAPlayer);
  }
  // The game is untouched: White is still to move, and the spectator sees it happen.
  play(alice, bob, game, "d1-d7/g7");
  CHECK(mallory.expect<Moved>().ply == 1);
  // The opponent moving out of turn is refused too.
  alice.send(MoveMsg{game, "g1-g2/g3"});
  CHECK(alice.expect_error() == ErrorCode::NotYourTurn);
  play(bob, alice, game, "a7-b7/c7");
  CHECK(mallory.expect<Moved>().ply == 2);
}

TEST_CASE("abuse: forged tokens are refused, a stolen one is undone by the password") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client alice(server.port()), bob(server.port());
  const auto alice_token = alice.hello("alice", R"(,"password":"correct horse")");
  const auto bob_token = bob.hello("bob");
  const auto game = start_game(alice, bob);

  std::mt19937_64 rng(7);
  std::string forged(32, '0');
  for (char& ch : forged) ch = "0123456789abcdef"[rng() % 16];
  const std::string attempts[] = {
      hello_line("alice", R"(,"token":")" + forged + "\""),
      hello_line("alice", R"(,"token":")" + bob_token + "\""),  // another player's token
      hello_line("alice", R"(,"token":")" + alice_token.substr(0, 31) + "\""),
      hello_line("alice", R"(,"token":")" + std::string(5000, 'f') + "\""),
      hello_line("alice", R"(,"token":"")"),
      hello_line("alice", R"(,"password":"wrong")"),
      hello_line("nobody", R"(,"token":")" + forged + "\""),
  };
  for (const auto& line : attempts) {
    Client thief(server.port());
    thief.send(line);
    CHECK_MESSAGE(thief.expect_error() == ErrorCode::AuthFailed, line.substr(0, 100));
  }
  // None of that disturbed Alice.
  play(alice, bob, game, "d1-d7/g7");

  // A stolen token is as good as the owner's: the thief takes over the connection...
  Client thief(server.port());
  thief.hello("alice", R"(,"token":")" + alice_token + "\"");
  CHECK(thief.expect<State>().game == game);
  CHECK(alice.expect_error() == ErrorCode::Replaced);
  CHECK(alice.closed_by_server());
  // ...until the owner logs in with the password: that issues a new token, and the stolen one
  // stops working.
  Client owner(server.port());
  owner.hello("alice", R"(,"password":"correct horse")");
  CHECK(owner.expect<State>().game == game);
  CHECK(thief.expect_error() == ErrorCode::Replaced);
  Client again(server.port());
  again.send(hello_line("alice", R"(,"token":")" + alice_token + "\""));
  CHECK(again.expect_error() == ErrorCode::AuthFailed);
}

TEST_CASE("abuse: floods, binary garbage and endless lines close only the offender") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client alice(server.port()), bob(server.port());
  alice.hello("alice");
  bob.hello("bob");
  const auto game = start_game(alice, bob);

  SUBCASE("a flood of requests") {
    Client flood(server.port());
    flood.hello("flood");
    std::string burst;
    for (int i = 0; i < 2000; ++i)
      burst += R"({"type":"ping"})"
               "\n";
    flood.raw().send_raw(burst);
    int pongs = 0, limited = 0;
    for (;;) {
      const auto env = flood.next();
      if (std::holds_alternative<Pong>(env.message)) {
        ++pongs;
        continue;
      }
      const auto code = std::get<Error>(env.message).code;
      if (code == ErrorCode::RateLimited) {
        ++limited;
        continue;
      }
      CHECK(code == ErrorCode::TooManyErrors);
      break;
    }
    // The burst allowance (100) and the refill while the lines were read, then refusals.
    CHECK(pongs >= 90);
    CHECK(pongs < 300);
    CHECK(limited >= 1);
    // Then nothing more: the rest of the flood is dropped unread (it used to be answered line by
    // line, keeping the game thread busy and repeating too_many_errors).
    CHECK(lines_until_closed(flood) == 0);
  }
  SUBCASE("binary garbage") {
    Client noise(server.port());
    std::mt19937_64 rng(11);
    std::string bytes(16 * 1024, '\0');
    for (char& ch : bytes) ch = static_cast<char>(rng() % 256);
    noise.raw().send_raw(bytes + "\n");
    int bad = 0;
    for (;;) {
      const auto code = noise.expect_error();
      if (code == ErrorCode::TooManyErrors) break;
      CHECK((code == ErrorCode::BadJson || code == ErrorCode::RateLimited));
      ++bad;
    }
    CHECK(bad >= 1);
    CHECK(noise.closed_by_server());
  }
  SUBCASE("a line that never ends") {
    Client endless(server.port());
    endless.hello("endless");
    // No newline ever: the server refuses as soon as the limit is passed, without waiting.
    const std::string chunk(8 * 1024, 'x');
    for (std::size_t sent = 0; sent <= kMaxLineBytes + chunk.size(); sent += chunk.size())
      if (!endless.raw().send_raw(chunk)) break;
    CHECK(endless.expect_error() == ErrorCode::LineTooLong);
    CHECK(endless.closed_by_server());
  }
  // The game goes on as if nothing happened.
  play(alice, bob, game, "d1-d7/g7");
  play(bob, alice, game, "a7-b7/c7");
}

TEST_CASE("abuse: half-open connections and a storm of connections from one address") {
  TempDir dir;
  ServerProcess server(
      dir.path(),
      {{"limits",
        {{"connections_per_address", 16}, {"idle_ping_seconds", 1}, {"idle_timeout_seconds", 4}}}});
  // The baseline once the server has done everything once: its storage checkpointer, password
  // hashing pool and such open their descriptors on first use.
  {
    Client warm_up(server.port());
    warm_up.hello("warm", R"(,"password":"up")");
    warm_up.send(Create{});
    warm_up.expect<Created>();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const std::size_t baseline = open_descriptors(server.pid());
  Client alice(server.port()), bob(server.port());
  alice.hello("alice");
  bob.hello("bob");
  const auto game = start_game(alice, bob);

  // Fourteen more connections fill the address's allowance: some never send a byte, some stop
  // in the middle of a line.
  std::vector<net::LineClient> silent;
  for (int i = 0; i < 14; ++i) {
    auto c = net::LineClient::connect("127.0.0.1", server.port());
    REQUIRE(c.has_value());
    if (i % 2 == 1) CHECK(c->send_raw(R"({"type":"hello","protocol")"));
    silent.push_back(std::move(*c));
  }
  // A storm: every further connection from the address is told why and closed at once. It
  // stops after two seconds, well before the silent connections' idle timeout frees a place
  // (then a connection would be let in, and rightly hear nothing), on a slow machine too.
  constexpr int kStorm = 2000;
  const auto storm_began = std::chrono::steady_clock::now();
  int stormed = 0, refused = 0;
  for (;
       stormed < kStorm && std::chrono::steady_clock::now() - storm_began < std::chrono::seconds(2);
       ++stormed) {
    auto c = net::LineClient::connect("127.0.0.1", server.port());
    REQUIRE(c.has_value());
    const auto line = c->read_line(Millis{5000});
    REQUIRE(line.has_value());
    const auto env = decode_server(*line);
    if (env && std::holds_alternative<Error>(env->message) &&
        std::get<Error>(env->message).code == ErrorCode::TooManyConnections)
      ++refused;
    if (stormed % 20 == 0) keep_alive(alice, bob);  // well inside the idle timeout when busy
  }
  MESSAGE(stormed << " connections in the storm");
  CHECK(stormed >= 100);
  CHECK(refused == stormed);
  // The players were not disturbed (they answer pings; the silent ones do not).
  play(alice, bob, game, "d1-d7/g7");

  // Half-open connections are pinged, then closed for silence, freeing the allowance.
  for (auto& c : silent) {
    bool closed = false;
    for (int i = 0; i < 40 && !closed; ++i) {
      const auto line = c.read_line(Millis{250});
      if (!line && c.closed()) closed = true;
      keep_alive(alice, bob);
    }
    CHECK(closed);
  }
  Client late(server.port());
  late.hello("late");
  play(bob, alice, game, "a7-b7/c7");
  alice.raw().close();
  bob.raw().close();
  late.raw().close();
  CHECK(descriptors_return_to(server.pid(), baseline));
}
