// Issue 35's attacks, each run against the real server as a hostile player would run it: every
// case here got through before its fix (a rating trap, a private game seen to exist, floods that
// stay) and must keep failing to.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::play;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

int rating_of(Client& asker, const std::string& name) {
  asker.send(Players{});
  for (const auto& p : asker.expect<PlayerList>().players)
    if (p.name == name) return p.rating;
  FAIL("no player " << name << " online");
  return 0;
}

// The refusal `request` gets, as a prober compares it: code, message and game, with the id
// itself written N.
std::string refusal(Client& c, const ClientMessage& request, const std::string& game) {
  c.send(request);
  const auto e = c.expect<Error>();
  std::string text = std::string(code(e.code)) + " | " + e.message + " | " + e.game.value_or("");
  for (auto at = text.find(game); at != std::string::npos; at = text.find(game, at + 1))
    text.replace(at, game.size(), "N");
  return text;
}

// A challenge kept for 30 days, as the flood sent it.
std::string kept_challenge(const std::string& to) {
  return R"({"type":"challenge","player":")" + to + R"(","lifetime":2592000})";
}
const std::string kKeptCreate = R"({"type":"create","lifetime":2592000})";
// Only registered players (a name with a password) keep offers beyond their connection.
const std::string kRegistered = R"(,"password":"a registered name")";

}  // namespace

TEST_CASE("abuse: a clock that flags before a first move is refused by every request") {
  TempDir dir;
  // Every refusal counts against the connection's error budget: let it take them all.
  ServerProcess server(
      dir.path(), {{"limits", {{"players_create_tournaments", true}, {"errors_burst", 1000}}}});
  Client alice(server.port()), bob(server.port());
  alice.hello("alice");
  bob.hello("bob");

  // The forms that got through: each is under a millisecond, so it is stored (and listed) as a
  // clock of 0, and whoever joins a rated game with it loses at once.
  for (const std::string time : {R"({"initial":1e-9,"increment":0})", R"({"initial":0.0004})",
                                 R"({"per_move":1e-9})", R"({"initial":0.999,"increment":5})"}) {
    CAPTURE(time);
    for (const std::string& request :
         {R"({"type":"create","color":"black","rated":true,"time":)" + time + "}",
          R"({"type":"create","color":"black","rated":true,"lifetime":86400,"time":)" + time + "}",
          R"({"type":"seek","rated":true,"time":)" + time + "}",
          R"({"type":"challenge","player":"bob","rated":true,"time":)" + time + "}",
          R"({"type":"tournament_create","name":"trap","kind":"arena","duration":600,"time":)" +
              time + "}"}) {
      CAPTURE(request);
      alice.send(request);
      const auto e = alice.expect<Error>();
      CHECK(e.code == ErrorCode::BadField);
      CHECK(e.message.starts_with("time: "));
    }
    // Bob, seeking the same clock, is refused too: no pairing with the seek above.
    bob.send(R"({"type":"seek","rated":true,"time":)" + time + "}");
    CHECK(bob.expect_error() == ErrorCode::BadField);
  }
  // Refused means not there: nothing listed, no challenge reached Bob (the list is the next thing
  // he hears), nobody's rating moved.
  bob.send(List{});
  CHECK(bob.expect<Games>().games.empty());
  CHECK(rating_of(bob, "alice") == 1500);
  CHECK(rating_of(bob, "bob") == 1500);

  // The same answer as a clock of 0, which was refused before.
  alice.send(R"({"type":"create","time":{"initial":0}})");
  CHECK(alice.expect_error() == ErrorCode::BadField);

  // The ceiling: a first move of at most 30 days.
  alice.send(R"({"type":"seek","time":{"initial":2592000,"increment":1}})");
  CHECK(alice.expect_error() == ErrorCode::BadField);

  // The shortest clock played and the longest are taken, and listed as they were asked.
  alice.send(
      R"({"type":"create","color":"white","rated":true,"time":{"initial":1,"increment":0}})");
  const auto quick = alice.expect<Created>().game;
  alice.send(R"({"type":"create","color":"white","time":{"per_move":2592000}})");
  const auto slow = alice.expect<Created>().game;
  bob.send(List{});
  const auto listed = bob.expect<Games>().games;
  REQUIRE(listed.size() == 2);
  for (const auto& g : listed) {
    if (g.game == quick) CHECK(g.time == TimeControl::fischer(Millis{1000}, Millis{0}));
    if (g.game == slow) CHECK(g.time == TimeControl::fixed_per_move(Millis{2592000LL * 1000}));
  }
  bob.send(Join{quick, std::nullopt});
  const auto start = bob.expect<Start>();
  REQUIRE(start.clock);
  CHECK(start.clock->white == 1000);
  CHECK(start.clock->black == 1000);
}

TEST_CASE("abuse: a private game's id gets the answer of an id never used, on every request") {
  TempDir dir;
  // Mallory's probes are all refused: let the connection take them.
  ServerProcess server(dir.path(), {{"limits", {{"errors_burst", 1000}}}});
  Client alice(server.port()), bob(server.port()), mallory(server.port());
  alice.hello("alice");
  bob.hello("bob");
  mallory.hello("mallory");
  alice.send(Create{"standard", TimeControl{}, ColorChoice::White, false, true});
  const auto created = alice.expect<Created>();
  REQUIRE(created.invite);
  const std::string secret = created.game;
  const std::string unused = "987654321";

  const auto same_as_unused = [&](auto make) {
    CHECK(refusal(mallory, make(secret), secret) == refusal(mallory, make(unused), unused));
  };
  const auto probe_seeing = [&] {
    for (const std::optional<std::string>& invite : {std::optional<std::string>(), {"wrong"}}) {
      CAPTURE(invite.value_or("(none)"));
      same_as_unused([&](const std::string& g) { return Join{g, invite}; });
      same_as_unused([&](const std::string& g) { return Watch{g, invite}; });
      same_as_unused([&](const std::string& g) {
        return RecordRequest{g, RecordFormat::Json, invite};
      });
    }
  };
  std::string phase = "open, waiting for an opponent";
  CAPTURE(phase);
  probe_seeing();

  bob.send(Join{secret, created.invite});
  bob.expect<Start>();
  alice.expect<Start>();
  play(alice, bob, secret, "d1-d7/g7", 1);
  phase = "in progress";
  probe_seeing();
  same_as_unused([](const std::string& g) { return MoveMsg{g, "a7-b7/c7"}; });
  same_as_unused([](const std::string& g) { return ChatSend{g, "hello"}; });
  same_as_unused([](const std::string& g) { return Resign{{g}}; });
  same_as_unused([](const std::string& g) { return Abort{{g}}; });
  same_as_unused([](const std::string& g) { return Claim{{g}}; });
  same_as_unused([](const std::string& g) { return Leave{{g}}; });
  same_as_unused([](const std::string& g) { return Rematch{{g}}; });

  alice.send(Resign{{secret}});
  alice.expect<End>();
  bob.expect<End>();
  phase = "finished";
  probe_seeing();
  same_as_unused([](const std::string& g) { return Rematch{{g}}; });

  // The invite still opens it, so the refusals above were about seeing, not about the game.
  mallory.send(Watch{secret, created.invite});
  CHECK(mallory.expect<State>().game == secret);
  mallory.send(RecordRequest{secret, RecordFormat::Json, created.invite});
  CHECK(mallory.expect<Record>().game == secret);
}

TEST_CASE("abuse: kept challenges to one player stop at 20 from one address") {
  TempDir dir;
  ServerProcess server(dir.path());  // the shipped default: limits.kept_challenges_per_player 20
  Client bob(server.port()), mallory(server.port());
  bob.hello("bob", kRegistered);
  mallory.hello("mallory", kRegistered);
  std::vector<std::string> sent;
  for (int i = 0; i < 20; ++i) {
    mallory.send(kept_challenge("bob"));
    sent.push_back(mallory.expect<ChallengeSent>().challenge);
    CHECK(bob.expect<ChallengeReceived>().challenge == sent.back());
  }
  mallory.send(kept_challenge("bob"));
  const auto refused = mallory.expect<Error>();
  CHECK(refused.code == ErrorCode::RateLimited);
  CHECK(refused.message.find("bob") != std::string::npos);
  // Other names from the same address, and a reconnect, change nothing: the cap is the address's.
  {
    Client mallory2(server.port());
    mallory2.hello("mallory2", kRegistered);
    mallory2.send(kept_challenge("bob"));
    CHECK(mallory2.expect_error() == ErrorCode::RateLimited);
  }
  // Bob was told of 20 challenges and no more: the next thing he hears answers his own request.
  bob.send(Players{});
  bob.expect<PlayerList>();
  // Others may still be challenged from there, and a challenge that goes with its connection is
  // not capped.
  Client carol(server.port());
  carol.hello("carol", kRegistered);
  mallory.send(kept_challenge("carol"));
  mallory.expect<ChallengeSent>();
  carol.expect<ChallengeReceived>();
  mallory.send(ChallengeSend{"bob", "standard", TimeControl{}, ColorChoice::Random, false});
  mallory.expect<ChallengeSent>();
  bob.expect<ChallengeReceived>();
  // A declined one makes room for one more.
  bob.send(Decline{sent.front()});
  bob.expect<Ok>();
  mallory.expect<ChallengeClosed>();
  mallory.send(kept_challenge("bob"));
  mallory.expect<ChallengeSent>();
  bob.expect<ChallengeReceived>();
  mallory.send(kept_challenge("bob"));
  CHECK(mallory.expect_error() == ErrorCode::RateLimited);
}

TEST_CASE("abuse: kept offers from one address stop at 200, under any number of names") {
  // The shipped config says what docs/RELIABILITY.md says; the server below runs without these
  // keys, so its caps are the built-in defaults, and the same.
  const auto shipped = nlohmann::json::parse(
      std::ifstream(std::filesystem::path(amazons::test::config_dir()) / "server.json"));
  CHECK(shipped["limits"]["kept_offers_per_address"] == 200);
  CHECK(shipped["limits"]["kept_challenges_per_player"] == 20);

  TempDir dir;
  // A cap of 0 would refuse every kept offer: the server does not start with it. (The address it
  // is given is not this machine's, so that a server that took the config could not stay up.)
  std::ofstream(dir.path() / "zero.json") << R"({"limits":{"kept_offers_per_address":0}})";
  const auto [status, output] = amazons::test::run_server(
      "--bind 192.0.2.1 --port 0 --discovery-port -1 --db " + (dir.path() / "zero.db").string() +
      " --config " + (dir.path() / "zero.json").string());
  CHECK(status != 0);
  CHECK(output.find("limits.kept_offers_per_address") != std::string::npos);

  ServerProcess server(dir.path());
  // 20 throwaway names with 10 kept open games each (open_games_per_player), gone at once.
  for (int n = 0; n < 20; ++n) {
    Client spam(server.port());
    spam.hello("spam" + std::to_string(n), kRegistered);
    for (int i = 0; i < 10; ++i) {
      spam.send(kKeptCreate);
      spam.expect<Created>();
    }
  }
  Client next(server.port());
  next.hello("spam20", kRegistered);
  next.send(kKeptCreate);
  CHECK(next.expect_error() == ErrorCode::RateLimited);
  next.send(R"({"type":"seek","lifetime":2592000})");
  CHECK(next.expect_error() == ErrorCode::RateLimited);
  next.send(kept_challenge("spam0"));
  CHECK(next.expect_error() == ErrorCode::RateLimited);
  // An offer that goes with its connection is not capped: honest play from a shared address.
  next.send(Create{});
  next.expect<Created>();
  next.send(Seek{});
  next.expect<Seeking>();

  // The key changes the cap.
  TempDir low_dir;
  ServerProcess low(low_dir.path(), {{"limits", {{"kept_offers_per_address", 3}}}});
  Client a(low.port()), b(low.port());
  a.hello("a", kRegistered);
  b.hello("b", kRegistered);
  a.send(kKeptCreate);
  a.expect<Created>();
  a.send(kept_challenge("b"));
  a.expect<ChallengeSent>();
  b.expect<ChallengeReceived>();
  b.send(R"({"type":"seek","lifetime":2592000})");
  b.expect<Seeking>();
  b.send(kKeptCreate);
  CHECK(b.expect_error() == ErrorCode::RateLimited);
  a.send(kept_challenge("b"));
  CHECK(a.expect_error() == ErrorCode::RateLimited);
}

TEST_CASE("abuse: the lobby list shows an honest game made after 260 kept spam games") {
  TempDir dir;
  // Many addresses could do what one does here: lift the per-address cap to let one do it.
  ServerProcess server(dir.path(), {{"limits", {{"kept_offers_per_address", 1000}}}});
  std::set<std::string> spam;
  for (int n = 0; n < 26; ++n) {
    Client c(server.port());
    c.hello("spam" + std::to_string(n), kRegistered);
    for (int i = 0; i < 10; ++i) {
      c.send(kKeptCreate);
      spam.insert(c.expect<Created>().game);
    }
  }
  Client carol(server.port()), bob(server.port());
  carol.hello("carol", kRegistered);
  bob.hello("bob", kRegistered);
  carol.send(Create{});
  const auto honest = carol.expect<Created>().game;

  bob.send(List{});
  auto page = bob.expect<Games>();
  CHECK(page.games.size() == 200);
  REQUIRE_FALSE(page.games.empty());
  CHECK(page.games.front().game == honest);
  // Paging reaches every game once, newest first.
  std::vector<std::string> all;
  for (int pages = 1;; ++pages) {
    REQUIRE(pages <= 3);
    for (const auto& g : page.games) all.push_back(g.game);
    if (!page.next_cursor) break;
    bob.send(List{page.next_cursor});
    page = bob.expect<Games>();
  }
  CHECK(all.size() == 261);
  CHECK(std::set<std::string>(all.begin(), all.end()).size() == 261);
  CHECK(std::is_sorted(all.begin(), all.end(), [](const std::string& a, const std::string& b) {
    return std::stoll(a) > std::stoll(b);
  }));
  bob.send(R"({"type":"list","cursor":"x"})");
  CHECK(bob.expect_error() == ErrorCode::BadField);
}

namespace {

std::string report_on(const std::string& player) {
  return R"({"type":"report","player":")" + player + R"(","reason":"spam"})";
}

// Files one report; true when filed, false when refused with rate_limited.
bool file_report(Client& c, const std::string& player) {
  c.send(report_on(player));
  const auto reply = c.next();
  if (std::holds_alternative<Ok>(reply.message)) return true;
  const auto* e = std::get_if<Error>(&reply.message);
  REQUIRE_MESSAGE(e != nullptr, encode(reply.message));
  CHECK(e->code == ErrorCode::RateLimited);
  return false;
}

}  // namespace

TEST_CASE("abuse: reports from one address stop at 20 under any names, and at 50 on one player") {
  const auto shipped = nlohmann::json::parse(
      std::ifstream(std::filesystem::path(amazons::test::config_dir()) / "server.json"));
  CHECK(shipped["limits"]["open_reports_per_address"] == 20);
  CHECK(shipped["limits"]["open_reports_per_target"] == 50);

  TempDir dir;
  ServerProcess server(dir.path());  // the built-in defaults, as shipped
  Client victim(server.port()), other(server.port());
  victim.hello("victim");
  other.hello("other");
  // The attack as it was made: 8 throwaway guests from one address, 20 reports each (the cap
  // per reporter), 160 filed in half a second.
  int filed = 0, refused = 0;
  for (int n = 0; n < 8; ++n) {
    Client guest(server.port());
    guest.hello("guest" + std::to_string(n));
    for (int i = 0; i < 20; ++i) (file_report(guest, "victim") ? filed : refused) += 1;
  }
  CHECK(filed == 20);
  CHECK(refused == 140);
  // Nor on anyone else from there, under a new name and connection.
  {
    Client late(server.port());
    late.hello("guest8");
    CHECK_FALSE(file_report(late, "other"));
  }
  // Other addresses still report: up to 50 open reports on the victim in all.
  auto b = Client::from("127.0.0.2", server.port());
  auto c = Client::from("127.0.0.3", server.port());
  auto d = Client::from("127.0.0.4", server.port());
  b.hello("bob");
  c.hello("carol");
  d.hello("dave");
  for (int i = 0; i < 20; ++i) CHECK(file_report(b, "victim"));
  for (int i = 0; i < 10; ++i) CHECK(file_report(c, "victim"));
  d.send(report_on("victim"));
  const auto e = d.expect<Error>();
  CHECK(e.code == ErrorCode::RateLimited);
  CHECK(e.message.find("victim") != std::string::npos);
  CHECK(file_report(c, "other"));  // the cap is the victim's: others may still be reported

  // The keys change the caps.
  TempDir low_dir;
  ServerProcess low(
      low_dir.path(),
      {{"limits", {{"open_reports_per_address", 2}, {"open_reports_per_target", 3}}}});
  Client x(low.port()), y(low.port());
  x.hello("x");
  y.hello("y");
  CHECK(file_report(x, "y"));
  CHECK(file_report(y, "x"));
  CHECK_FALSE(file_report(x, "y"));  // two from this address
  auto z = Client::from("127.0.0.2", low.port());
  z.hello("z");
  CHECK(file_report(z, "x"));
  CHECK(file_report(z, "x"));
  auto w = Client::from("127.0.0.3", low.port());
  w.hello("w");
  CHECK_FALSE(file_report(w, "x"));  // three on x
  CHECK(file_report(w, "z"));
}

namespace {

// One sample of the server's /metrics page (a counter without labels).
double abuse_metric(unsigned short port, const std::string& name) {
  auto c = amazons::test::TransportClient::connect(amazons::test::Wire::Tcp, port);
  REQUIRE(c.has_value());
  REQUIRE(c->send_raw("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  const std::string page = c->read_until_closed();
  const auto at = page.find("\n" + name + " ");
  REQUIRE_MESSAGE(at != std::string::npos, name << " not on the page");
  return std::atof(page.c_str() + at + name.size() + 2);
}

std::string read_file_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A hello on a new connection from `source`: the error code, or nullopt for a welcome.
std::optional<ErrorCode> hello_from(const std::string& source, unsigned short port,
                                    const std::string& name, const std::string& extra) {
  auto c = Client::from(source, port);
  c.send(R"({"type":"hello","protocol":1,"name":")" + name + "\"" + extra + "}");
  const auto reply = c.next();
  if (std::holds_alternative<Welcome>(reply.message)) return std::nullopt;
  const auto* e = std::get_if<Error>(&reply.message);
  REQUIRE_MESSAGE(e != nullptr, encode(reply.message));
  return e->code;
}

}  // namespace

TEST_CASE("abuse: invite guesses from one address that reconnects are slowed to 100 a minute") {
  TempDir dir;
  amazons::test::Launch launch;
  launch.stderr_file = dir.path() / "server.log";
  ServerProcess server(dir.path(), nlohmann::json::object(), {}, launch);  // limits as shipped
  auto alice = Client::from("127.0.0.2", server.port());
  alice.hello("alice");
  alice.send(Create{"standard", TimeControl{}, ColorChoice::White, false, true});
  const auto created = alice.expect<Created>();
  REQUIRE(created.invite);

  // The attack: a new connection for every guess, so that no connection's error budget (nor its
  // request rate) stops it. Before the budget all 300 were answered no_such_game, 6,000-8,800 a
  // second.
  constexpr int kGuesses = 300;
  int answered = 0, limited = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kGuesses; ++i) {
    Client m(server.port());
    m.hello("mallory" + std::to_string(i));
    m.send(Join{created.game, "guess" + std::to_string(i)});
    const auto e = m.expect<Error>();
    if (e.code == ErrorCode::NoSuchGame) {
      ++answered;
    } else {
      CHECK(e.code == ErrorCode::RateLimited);
      ++limited;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(kGuesses << " guesses in " << seconds << " s: " << answered << " answered, " << limited
                   << " rate_limited");
  // The first 20 are answered; after them at most 100 a minute, however long this took.
  CHECK(answered >= 20);
  CHECK(answered <= 20 + static_cast<int>(100 * seconds / 60) + 1);
  CHECK(answered + limited == kGuesses);

  // Over the budget the right code gets the same answer: a guess tells nothing.
  {
    Client m(server.port());
    m.hello("mallory_right");
    m.send(Join{created.game, created.invite});
    CHECK(m.expect_error() == ErrorCode::RateLimited);
  }
  // Only that address is held back.
  auto bob = Client::from("127.0.0.3", server.port());
  bob.hello("bob");
  bob.send(Join{created.game, created.invite});
  CHECK(bob.expect<Start>().game == created.game);

  CHECK(abuse_metric(server.port(), "amazons_auth_backoff_total") >= limited + 1);
  // One log line for the run of refusals, not one per refusal.
  const std::string log = read_file_text(launch.stderr_file);
  std::size_t lines = 0;
  for (auto at = log.find("event=auth_backoff"); at != std::string::npos;
       at = log.find("event=auth_backoff", at + 1))
    ++lines;
  CHECK(lines >= 1);
  CHECK(lines < 5);
  CHECK(log.find("addr=127.0.0.1") != std::string::npos);
}

TEST_CASE("abuse: password guesses from one address stop at 20, never the owner's other logins") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::string right = R"(,"password":"correct horse")";
  std::string token;
  {
    auto alice = Client::from("127.0.0.2", server.port());
    token = alice.hello("alice", right);
  }
  // Reconnecting after each wrong password: 20 are checked, then at most 100 a minute.
  int answered = 0, limited = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 30; ++i) {
    const auto code = hello_from("127.0.0.1", server.port(), "alice",
                                 R"(,"password":"guess)" + std::to_string(i) + "\"");
    REQUIRE(code);
    (*code == ErrorCode::AuthFailed ? answered : limited) += 1;
    if (*code != ErrorCode::AuthFailed) CHECK(*code == ErrorCode::RateLimited);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(answered >= 20);
  CHECK(answered <= 20 + static_cast<int>(100 * seconds / 60) + 1);
  CHECK(answered + limited == 30);
  // The right password from there is refused unchecked too; the owner's token from there, and
  // his password from elsewhere, still log him in.
  CHECK(hello_from("127.0.0.1", server.port(), "alice", right) == ErrorCode::RateLimited);
  CHECK(hello_from("127.0.0.1", server.port(), "alice", R"(,"token":")" + token + "\"") ==
        std::nullopt);
  CHECK(hello_from("127.0.0.3", server.port(), "alice", right) == std::nullopt);
}

TEST_CASE("abuse: server password guesses are budgeted by address, as the keys say") {
  TempDir dir;
  const std::string wrong = R"(,"server_password":"guess")";
  const std::string right = R"(,"server_password":"club")";
  // A refill of one in 100 minutes: nothing comes back while the test runs.
  ServerProcess server(
      dir.path(), {{"password", "club"},
                   {"limits", {{"auth_failures_burst", 5}, {"auth_failures_per_minute", 0.01}}}});
  for (int i = 0; i < 5; ++i)
    CHECK(hello_from("127.0.0.1", server.port(), "m" + std::to_string(i), wrong) ==
          ErrorCode::AuthFailed);
  CHECK(hello_from("127.0.0.1", server.port(), "m5", wrong) == ErrorCode::RateLimited);
  CHECK(hello_from("127.0.0.1", server.port(), "m6", right) == ErrorCode::RateLimited);
  CHECK(hello_from("127.0.0.2", server.port(), "carol", right) == std::nullopt);

  // A refill of a thousand a second keeps up with a client that waits 2 ms between guesses.
  TempDir fast_dir;
  ServerProcess fast(
      fast_dir.path(),
      {{"password", "club"},
       {"limits", {{"auth_failures_burst", 1}, {"auth_failures_per_minute", 60000}}}});
  for (int i = 0; i < 10; ++i) {
    CHECK(hello_from("127.0.0.1", fast.port(), "m" + std::to_string(i), wrong) ==
          ErrorCode::AuthFailed);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

namespace {

std::string password_hello(const std::string& name, const std::string& password) {
  return R"({"type":"hello","protocol":1,"name":")" + name + R"(","password":")" + password + "\"}";
}

// How long a password login from `source` takes, from the hello to the welcome.
double password_login_ms(const std::string& source, unsigned short port, const std::string& name,
                         const std::string& password) {
  auto c = Client::from(source, port);
  const auto start = std::chrono::steady_clock::now();
  c.send(password_hello(name, password));
  CHECK(c.expect<Welcome>(Millis{60'000}).name == name);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::size_t thread_count(pid_t pid) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& t :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task"))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("abuse: an honest password login does not wait behind wrong passwords from 3 addresses") {
  TempDir dir;
  // Real hashing (Argon2id, interactive), and a guessing budget too large to matter: only the
  // password threads' shares per address stand between the attack and the honest login.
  ServerProcess server(dir.path(), {{"password_hashing", "interactive"},
                                    {"limits", {{"auth_failures_burst", 1'000'000}}}});
  const auto port = server.port();
  password_login_ms("127.0.0.5", port, "alice", "alice's secret");  // registers her
  password_login_ms("127.0.0.5", port, "target", "target's secret");
  double baseline = 1e9;
  for (int i = 0; i < 3; ++i)
    baseline = std::min(baseline, password_login_ms("127.0.0.5", port, "alice", "alice's secret"));

  // Three addresses, 16 connections each (the most one address may hold), each sending a wrong
  // password as soon as the last one was answered, on a new connection.
  std::atomic<bool> stop = false;
  std::atomic<int> checked = 0;
  std::vector<std::thread> attackers;
  for (const std::string source : {"127.0.0.2", "127.0.0.3", "127.0.0.4"})
    for (int i = 0; i < 16; ++i)
      attackers.emplace_back([&, source] {
        while (!stop) {
          auto c = net::LineClient::connect("127.0.0.1", port, Millis{5000}, source);
          if (!c) continue;
          c->send_line(password_hello("target", "guess"));
          const auto line = c->read_line(Millis{60'000});
          if (line && line->find("auth_failed") != std::string::npos) ++checked;
        }
      });
  // The attack is under way once some of its passwords have been checked.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (checked < 12 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const int checked_before = checked;
  const double under_attack = password_login_ms("127.0.0.5", port, "alice", "alice's secret");
  const int checked_meanwhile = checked - checked_before;
  stop = true;
  for (auto& t : attackers) t.join();
  MESSAGE("honest password login: "
          << baseline << " ms alone, " << under_attack << " ms under attack; " << checked_meanwhile
          << " wrong passwords checked meanwhile, " << checked.load() << " in all");
  REQUIRE(checked >= 12);
  // Not queued behind the attack: at most the attackers' shares (3 addresses x 1) were checked
  // before hers, and a few more beside hers on the other thread; the rest of their 48 wait
  // with their own address. With one queue for all, the 48 queued wrong passwords were all
  // checked first (3.0-3.4 s instead of 0.07 s).
  CHECK(checked_meanwhile <= 8);
  // The time, with the margin of a loaded 2-core machine (every thread of the attack wants one).
  CHECK(under_attack < 10 * baseline + 500);
}

TEST_CASE("abuse: the password threads and each address's share of them are config keys") {
  const auto shipped = nlohmann::json::parse(
      std::ifstream(std::filesystem::path(amazons::test::config_dir()) / "server.json"));
  CHECK(shipped["password_threads"] == 2);
  CHECK(shipped["limits"]["password_checks_per_address"] == 1);
  CHECK(shipped["limits"]["auth_failures_burst"] == 20);
  CHECK(shipped["limits"]["auth_failures_per_minute"] == 100);

  // Three wrong passwords at once from one address, then one from another: how many of the
  // three were answered before the other address's is the share (with one password thread, the
  // share goes first, the rest of them waits behind the other address's).
  const auto answered_first = [](unsigned short port) {
    std::vector<Client> clients;
    for (int i = 0; i < 3; ++i) clients.push_back(Client::from("127.0.0.2", port));
    for (auto& c : clients) c.send(password_hello("target", "guess"));
    // All three have reached the lobby once a request sent after them on each is answered.
    for (auto& c : clients) {
      c.send(Ping{});
      c.expect<Pong>();
    }
    auto other = Client::from("127.0.0.3", port);
    other.send(password_hello("target", "guess"));
    CHECK(other.expect_error() == ErrorCode::AuthFailed);
    int first = 0;
    for (auto& c : clients) {
      // Ready now (answered before the other), or still to come (a hash later, 50 ms at least).
      const auto line = c.raw().read_line(Millis{5});
      if (line) {
        CHECK(line->find("auth_failed") != std::string::npos);
        ++first;
      }
    }
    for (auto& c : clients) c.raw().close();
    return first;
  };
  const auto start = [](TempDir& d, nlohmann::json limits, int threads) {
    return std::make_unique<ServerProcess>(d.path(),
                                           nlohmann::json{{"password_hashing", "interactive"},
                                                          {"password_threads", threads},
                                                          {"limits", std::move(limits)}});
  };
  TempDir one_dir, three_dir, four_dir;
  auto one = start(one_dir, {{"password_checks_per_address", 1}}, 1);
  auto three = start(three_dir, {{"password_checks_per_address", 3}}, 1);
  auto four = start(four_dir, nlohmann::json::object(), 4);
  // The password threads are threads of their own: three more with 4 than with 1 (once the
  // network threads, started after the port is announced, are there too).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (thread_count(four->pid()) != thread_count(one->pid()) + 3 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(thread_count(four->pid()) == thread_count(one->pid()) + 3);
  for (auto* s : {one.get(), three.get()})
    password_login_ms("127.0.0.5", s->port(), "target", "target's secret");
  CHECK(answered_first(one->port()) == 1);
  CHECK(answered_first(three->port()) == 3);
}

TEST_CASE("abuse: a guest's offers end when the guest leaves, and the name is free within 1 s") {
  TempDir dir;
  ServerProcess server(dir.path());
  Client bob(server.port()), carol(server.port());
  bob.hello("bob", kRegistered);
  carol.hello("carol");  // a guest
  {
    // A guest asks for everything that a registered player keeps for 30 days.
    Client mallory(server.port());
    mallory.hello("mallory");
    mallory.send(R"({"type":"create","time":{"per_move":86400}})");
    mallory.expect<Created>();
    mallory.send(kKeptCreate);
    mallory.expect<Created>();
    mallory.send(R"({"type":"seek","time":{"per_move":172800}})");
    mallory.expect<Seeking>();
    mallory.send(kept_challenge("bob"));
    mallory.expect<ChallengeSent>();
    bob.expect<ChallengeReceived>();
    // A kept challenge to a guest is not kept either: it would hold the guest's name.
    bob.send(kept_challenge("carol"));
    bob.expect<ChallengeSent>();
    carol.expect<ChallengeReceived>();
    bob.send(List{});
    CHECK(bob.expect<Games>().games.size() == 2);
  }
  // Gone with the connection: bob is told, nothing is listed, and the name is anyone's.
  const auto closed = bob.expect<ChallengeClosed>();
  CHECK(closed.reason == "offline");
  const auto left = std::chrono::steady_clock::now();
  bool free = false;
  while (!free && std::chrono::steady_clock::now() - left < std::chrono::seconds(1)) {
    Client again(server.port());
    again.send(R"({"type":"hello","protocol":1,"name":"mallory"})");
    free = std::holds_alternative<Welcome>(again.next().message);
  }
  CHECK(free);
  bob.send(List{});
  CHECK(bob.expect<Games>().games.empty());
  // Nobody seeking a correspondence game is paired with the guest's seek.
  Client erin(server.port());
  erin.hello("erin", kRegistered);
  erin.send(R"({"type":"seek","time":{"per_move":172800}})");
  erin.expect<Seeking>();
  carol.raw().close();
  CHECK(bob.expect<ChallengeClosed>().reason == "offline");

  // A registered player's offers stay, and hold the name (by its password).
  {
    Client alice(server.port());
    alice.hello("alice", kRegistered);
    alice.send(R"({"type":"create","time":{"per_move":86400}})");
    alice.expect<Created>();
  }
  bob.send(List{});
  CHECK(bob.expect<Games>().games.size() == 1);
}

namespace {

// The server's raw answer to one HTTP request over plain TCP, as a rebinding page's browser
// would send it (its Host and Origin are the page's name).
std::string raw_http(unsigned short port, const std::string& request) {
  auto c = amazons::test::TransportClient::connect(amazons::test::Wire::Tcp, port);
  REQUIRE(c.has_value());
  REQUIRE(c->send_raw(request));
  return c->read_until_closed(Millis{3000});
}

std::string upgrade_from(const std::string& host, const std::string& origin) {
  return "GET /ws HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
         "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: " +
         origin + "\r\n\r\n";
}

std::string status_line(const std::string& response) {
  return response.substr(0, response.find("\r\n"));
}

std::string location(const std::string& response) {
  const auto at = response.find("\r\nLocation: ");
  if (at == std::string::npos) return "";
  const auto from = at + 12;
  return response.substr(from, response.find("\r\n", from) - from);
}

}  // namespace

TEST_CASE("abuse: a forged Host makes no other site's page the server's own (DNS rebinding)") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::string p = std::to_string(server.port());
  // The attack: evil.example resolves to this server; its page asks with its own name as Host.
  CHECK(status_line(raw_http(server.port(),
                             upgrade_from("evil.example:" + p, "http://evil.example:" + p))) ==
        "HTTP/1.1 403 Forbidden");
  // The server's own pages still may, by its address or (on loopback) localhost.
  CHECK(status_line(
            raw_http(server.port(), upgrade_from("127.0.0.1:" + p, "http://127.0.0.1:" + p))) ==
        "HTTP/1.1 101 Switching Protocols");
  CHECK(status_line(
            raw_http(server.port(), upgrade_from("localhost:" + p, "http://localhost:" + p))) ==
        "HTTP/1.1 101 Switching Protocols");
  // A name people reach the server by is one of web.public_addresses.
  CHECK(status_line(raw_http(server.port(),
                             upgrade_from("amazons.example.org", "https://amazons.example.org"))) ==
        "HTTP/1.1 403 Forbidden");
  TempDir named_dir;
  ServerProcess named(named_dir.path(), {{"web", {{"public_addresses", {"amazons.example.org"}}}}});
  CHECK(status_line(raw_http(named.port(),
                             upgrade_from("amazons.example.org", "https://amazons.example.org"))) ==
        "HTTP/1.1 101 Switching Protocols");
  CHECK(status_line(raw_http(named.port(), upgrade_from("evil.example", "https://evil.example"))) ==
        "HTTP/1.1 403 Forbidden");

  // --require-tls redirects to the address the connection came in on, or the first public
  // address: never to the Host the request names. (Loopback is not trusted here, so that this
  // machine's connection is redirected as another's would be.)
  const std::string get = "GET /lobby HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
  TempDir strict_dir, strict_named_dir;
  ServerProcess strict(strict_dir.path(), {{"tls", {{"trust_loopback", false}}}},
                       {"--require-tls"});
  ServerProcess strict_named(strict_named_dir.path(),
                             {{"tls", {{"trust_loopback", false}}},
                              {"web", {{"public_addresses", {"amazons.example.org"}}}}},
                             {"--require-tls"});
  const auto moved = raw_http(strict.port(), get);
  CHECK(status_line(moved) == "HTTP/1.1 301 Moved Permanently");
  CHECK(location(moved) == "https://127.0.0.1:" + std::to_string(strict.port()) + "/lobby");
  CHECK(location(raw_http(strict_named.port(), get)) == "https://amazons.example.org/lobby");

  // A config with an address that is not host[:port] does not start.
  std::ofstream(dir.path() / "bad.json") << R"({"web":{"public_addresses":["https://x.org/"]}})";
  const auto [status, output] = amazons::test::run_server(
      "--bind 192.0.2.1 --port 0 --discovery-port -1 --db " + (dir.path() / "bad.db").string() +
      " --config " + (dir.path() / "bad.json").string());
  CHECK(status != 0);
  CHECK(output.find("web.public_addresses") != std::string::npos);
}

namespace {

// A hello on a new connection; the refusal it gets (a welcome fails the test).
Error refused_hello(unsigned short port, const std::string& name, const std::string& extra = "") {
  Client c(port);
  c.send(R"({"type":"hello","protocol":1,"name":")" + name + "\"" + extra + "}");
  return c.expect<Error>();
}

bool too_like(const Error& e, const std::string& other) {
  return e.code == ErrorCode::NameTaken &&
         e.message.find("too like \"" + other + "\"") != std::string::npos;
}

}  // namespace

TEST_CASE("abuse: names that look alike are one name: accounts, names in use and bans") {
  TempDir dir;
  ServerProcess server(dir.path());
  { Client(server.port()).hello("reg", kRegistered); }
  // Case, trailing punctuation and look-alike letters ("0" for "o"); as a guest, or registering
  // with another password.
  for (const std::string name : {"Reg", "REG.", "rEG", "reg_", "REG-."}) {
    for (const std::string& extra :
         {std::string(), std::string(R"(,"password":"another one")"), kRegistered}) {
      CAPTURE(name);
      CAPTURE(extra);
      CHECK(too_like(refused_hello(server.port(), name, extra), "reg"));
    }
  }
  // A Cyrillic "е" (U+0435) is refused before any comparison: names are ASCII.
  CHECK(refused_hello(server.port(), "r\xd0\xb5g").code == ErrorCode::BadField);
  Client r3g(server.port());
  r3g.hello("r3g");  // "3" is no "e": a name of its own
  Client owner(server.port());
  owner.hello("reg", kRegistered);

  // A guest's name holds its look-alikes off while the guest is connected, and no longer.
  Client bob(server.port());
  bob.hello("Bob");
  for (const std::string name : {"bob", "BOB.", "B0B", "b0b_"}) {
    CAPTURE(name);
    CHECK(too_like(refused_hello(server.port(), name), "Bob"));
    CHECK(too_like(refused_hello(server.port(), name, kRegistered), "Bob"));
  }
  bob.raw().close();
  const auto left = std::chrono::steady_clock::now();
  bool free = false;
  while (!free && std::chrono::steady_clock::now() - left < std::chrono::seconds(5)) {
    Client again(server.port());
    again.send(R"({"type":"hello","protocol":1,"name":"b0b."})");
    free = std::holds_alternative<Welcome>(again.next().message);
  }
  CHECK(free);
  MESSAGE("a look-alike of the guest free "
          << std::chrono::duration<double>(std::chrono::steady_clock::now() - left).count()
          << " s after he left");

  // A ban on "reg" shuts out its look-alikes too.
  const auto [status, out] = PgServer::shell(std::string(amazons::test::kServerBinary) +
                                             " admin grant mod moderator --db '" +
                                             (dir.path() / "test.db").string() + "' 2>&1");
  REQUIRE_MESSAGE(status == 0, out);
  Client mod(server.port());
  mod.hello("mod");
  // The running server reads roles every 2 s.
  const auto granted = std::chrono::steady_clock::now();
  bool banned = false;
  while (!banned && std::chrono::steady_clock::now() - granted < std::chrono::seconds(10)) {
    mod.send(Ban{"reg", std::nullopt, 3600, "look-alikes"});
    const auto reply = mod.next();
    banned = std::holds_alternative<Ok>(reply.message);
    if (!banned) {
      REQUIRE(std::get<Error>(reply.message).code == ErrorCode::Forbidden);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  REQUIRE(banned);
  CHECK(owner.expect<Error>().code == ErrorCode::Banned);
  for (const std::string name : {"reg", "Reg", "REG.", "rEg_"}) {
    CAPTURE(name);
    CHECK(refused_hello(server.port(), name).code == ErrorCode::Banned);
  }
}

TEST_CASE("abuse: a line that never ends, fed a byte at a time, is closed after line_timeout") {
  TempDir dir;
  constexpr int kLineTimeoutSeconds = 2;
  ServerProcess server(dir.path(), {{"limits", {{"line_timeout_seconds", kLineTimeoutSeconds}}}});
  Client c(server.port());
  c.hello("slow");
  // Every byte is a sign of life, so the idle timeout (60 s) never fires: only the line's does.
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(c.raw().send_raw(R"({"type":"list",)"));
  std::optional<Error> told;
  bool closed = false;
  while (!closed && std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    c.raw().send_raw(" ");
    if (const auto line = c.raw().read_line(Millis{250})) {
      if (auto env = decode_server(*line); env && std::holds_alternative<Error>(env->message))
        told = std::get<Error>(env->message);
    }
    closed = c.raw().closed();
  }
  const double after =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("closed after " << after << " s");
  REQUIRE(closed);
  CHECK(after >= kLineTimeoutSeconds - 0.1);
  CHECK(after < kLineTimeoutSeconds + 8);
  REQUIRE(told);
  CHECK(told->code == ErrorCode::IdleTimeout);
  // Lines that end are never cut, however long the connection has been typing them.
  Client d(server.port());
  d.hello("steady");
  const auto since = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - since < std::chrono::seconds(kLineTimeoutSeconds + 1)) {
    d.send(Players{});
    d.expect<PlayerList>();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

TEST_CASE("abuse: TLS 1.2 takes only ECDHE suites with AEAD (Mozilla intermediate), and TLS 1.3") {
  TempDir dir;
  ServerProcess server(dir.path());
  const auto handshake = [&](const std::string& options) {
    const auto [status, out] =
        PgServer::shell("openssl s_client -connect 127.0.0.1:" + std::to_string(server.port()) +
                        " " + options + " </dev/null 2>&1");
    CAPTURE(out);
    return status == 0 && out.find("Cipher is (NONE)") == std::string::npos &&
           out.find("New, ") != std::string::npos;
  };
  // CBC with SHA-1 and SHA-256 MACs: what TLS 1.2 took before.
  CHECK_FALSE(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES128-SHA"));
  CHECK_FALSE(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES256-SHA384"));
  CHECK_FALSE(handshake("-tls1_2 -cipher AES128-SHA"));
  CHECK(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256"));
  CHECK(handshake("-tls1_2 -cipher ECDHE-ECDSA-CHACHA20-POLY1305"));
  CHECK(handshake("-tls1_3"));
  CHECK_FALSE(handshake("-tls1_1"));
}

TEST_CASE("abuse: WebSocket pings beyond 10 a second close the connection, unanswered") {
  TempDir dir;
  ServerProcess server(dir.path());
  for (const auto wire : {amazons::test::Wire::Ws, amazons::test::Wire::Wss}) {
    CAPTURE(std::string(amazons::test::to_string(wire)));
    auto flood = amazons::test::TransportClient::connect(wire, server.port());
    REQUIRE(flood.has_value());
    const int pongs = flood->ping_flood(1000);
    MESSAGE(std::string(amazons::test::to_string(wire))
            << ": " << pongs << " pongs for 1000 pings");
    CHECK(pongs <= 20);  // 10 a second, and the burst may straddle two seconds
    CHECK(flood->closed());
    // A few pings are answered as ever.
    auto calm = amazons::test::TransportClient::connect(wire, server.port());
    REQUIRE(calm.has_value());
    CHECK(calm->ping_flood(5) == 5);
    CHECK_FALSE(calm->closed());
  }
}
