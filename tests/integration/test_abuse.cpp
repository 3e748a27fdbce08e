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
