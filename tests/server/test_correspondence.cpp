// Correspondence play in the lobby (docs/PROTOCOL.md "Correspondence"): days-per-move games
// where only the clock decides, offers that outlive their creator's connection and a restart,
// "your turn", and the per-player limit. Named "lobby: ..." so they also run on PostgreSQL.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "lobby_harness.h"
#include "server/net/config.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;
using server::SessionId;

namespace {

constexpr Millis kDay{24LL * 3600 * 1000};
const TimeControl kPerDay = TimeControl::fixed_per_move(kDay);

Create correspondence_game(ColorChoice color, TimeControl tc = kPerDay) {
  Create c;
  c.color = color;
  c.time = tc;
  return c;
}

SessionId resume(LobbyHarness& h, const std::string& name) {
  const auto s = h.connect();
  Hello hello;
  hello.name = name;
  hello.token = h.token(name);
  h.send(s, hello);
  h.take<Welcome>(s);
  return s;
}

}  // namespace

TEST_CASE("lobby: correspondence: a disconnect means nothing, only the clock decides") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  h.send(alice, correspondence_game(ColorChoice::White));
  const auto game = h.take<Created>(alice).game;
  h.send(bob, Join{game, std::nullopt});
  h.take<Start>(alice);
  h.take<Start>(bob);
  h.send(alice, MoveMsg{game, "d1-d7/g7"});
  h.drain(alice);
  h.drain(bob);
  h.disconnect(bob);
  const auto presence = h.take<Presence>(alice);
  CHECK_FALSE(presence.online);
  CHECK_FALSE(presence.claim_in_ms.has_value());
  h.advance(Millis{3'600'000});  // an hour: far past the real-time grace (1 s here)
  h.send(alice, Claim{{game}});
  const auto early = h.take<Error>(alice);
  CHECK(early.code == ErrorCode::NotAllowed);
  CHECK(early.message.find("only the clock decides") != std::string::npos);
  h.advance(kDay - Millis{3'600'001});
  CHECK_FALSE(h.has<End>(alice));
  h.advance(Millis{1});
  const auto end = h.take<End>(alice);
  CHECK(end.reason == EndReason::Time);
  CHECK(end.winner == Color::White);
}

TEST_CASE("lobby: correspondence offers outlive their creator's connection and a restart") {
  LobbyHarness h;
  // Registered players: only they keep offers beyond their connection.
  auto alice = h.login_registered("alice");
  auto carol = h.login_registered("carol");
  h.disconnect(carol);  // known, away
  auto bob = h.login("bob");

  h.send(alice, correspondence_game(ColorChoice::White));
  const auto open_game = h.take<Created>(alice).game;
  const auto seek_time = TimeControl::fischer(3 * kDay, kDay);
  h.send(alice, Seek{"standard", seek_time, false});
  h.take<Seeking>(alice);
  h.send(alice, ChallengeSend{"carol", "standard", kPerDay, ColorChoice::Black, false});
  const auto challenge = h.take<ChallengeSent>(alice).challenge;
  // A real-time challenge still needs its target online.
  h.send(alice, ChallengeSend{"carol", "standard", {}, ColorChoice::Black, false});
  CHECK(h.error(alice) == ErrorCode::NoSuchPlayer);
  h.disconnect(alice);
  CHECK(h.storage().counts().offers == 3);

  // Nobody takes the name while its owner is away: it has a password.
  const auto mallory = h.connect();
  h.send(mallory, Hello{1, "alice", std::nullopt, std::nullopt, std::nullopt, false});
  CHECK(h.error(mallory) == ErrorCode::AuthFailed);

  h.send(bob, List{});
  const auto listed = h.take<Games>(bob);
  REQUIRE(listed.games.size() == 1);
  CHECK(listed.games[0].game == open_game);
  CHECK(listed.games[0].time == kPerDay);
  CHECK(listed.games[0].expires_at.has_value());

  h.reopen();  // a restart: every offer comes back from the database
  bob = resume(h, "bob");
  h.send(bob, List{});
  REQUIRE(h.take<Games>(bob).games.size() == 1);
  h.send(bob, Join{open_game, std::nullopt});
  CHECK(h.take<Start>(bob).color == Color::Black);
  h.send(bob, Seek{"standard", seek_time, false});
  const auto paired = h.take<Start>(bob);
  CHECK(paired.time == seek_time);
  CHECK((paired.white.name == "alice" || paired.black.name == "alice"));

  carol = resume(h, "carol");
  const auto waiting = h.take<ChallengeReceived>(carol);
  CHECK(waiting.challenge == challenge);
  CHECK(waiting.from.name == "alice");
  CHECK(waiting.expires_at.has_value());
  h.send(carol, Accept{challenge});
  CHECK(h.take<Start>(carol).color == Color::White);
  CHECK(h.storage().counts().offers == 0);

  // Alice comes back to three games; she is to move where she has white.
  alice = h.connect();
  h.send(alice, Hello{1, "alice", std::nullopt, h.token("alice"), std::nullopt, false});
  CHECK(h.take<Welcome>(alice).games.size() == 3);
  const auto turns = h.take<YourTurn>(alice);
  CHECK(turns.games.size() == (paired.white.name == "alice" ? 2u : 1u));
  CHECK(std::any_of(turns.games.begin(), turns.games.end(),
                    [&](const TurnInfo& t) { return t.game == open_game && t.opponent == "bob"; }));
  for (const auto& t : turns.games) {
    CHECK(t.time.correspondence());
    REQUIRE(t.left_ms.has_value());
    CHECK(*t.left_ms > 0);
    CHECK(t.deadline.has_value());
  }
  h.drain(bob);
  h.send(alice, MoveMsg{open_game, "d1-d7/g7"});
  // Bob is told it is his turn, with every game where he is to move.
  const auto bob_turns = h.take<YourTurn>(bob);
  CHECK(std::any_of(bob_turns.games.begin(), bob_turns.games.end(),
                    [&](const TurnInfo& t) { return t.game == open_game && t.plies == 1; }));
  h.send(alice, Turns{});
  for (const auto& t : h.take<YourTurn>(alice).games) CHECK(t.game != open_game);
}

TEST_CASE("lobby: offers expire after their lifetime, real-time ones still go on disconnect") {
  LobbyHarness h;
  const auto alice = h.login_registered("alice");
  auto bob = h.login_registered("bob");
  Create bad = correspondence_game(ColorChoice::White);
  bad.lifetime = 0;
  h.send(alice, bad);
  CHECK(h.error(alice) == ErrorCode::BadField);
  bad.lifetime = 31LL * 86'400;  // past the default maximum of 30 days
  h.send(alice, bad);
  CHECK(h.error(alice) == ErrorCode::BadField);

  h.send(alice, correspondence_game(ColorChoice::White, TimeControl::fischer(Millis{300'000}, {})));
  h.take<Created>(alice);  // real time, no lifetime: goes with the connection
  Create kept = correspondence_game(ColorChoice::White, TimeControl::fischer(Millis{300'000}, {}));
  kept.lifetime = 60;
  h.send(alice, kept);
  const auto kept_game = h.take<Created>(alice).game;
  ChallengeSend challenge{"bob", "standard", kPerDay, ColorChoice::Random, false};
  challenge.lifetime = 120;
  h.send(alice, challenge);
  const auto c = h.take<ChallengeSent>(alice).challenge;
  h.take<ChallengeReceived>(bob);
  h.disconnect(alice);
  h.send(bob, List{});
  const auto listed = h.take<Games>(bob);
  REQUIRE(listed.games.size() == 1);
  CHECK(listed.games[0].game == kept_game);
  h.advance(Millis{61'000});
  h.send(bob, List{});
  CHECK(h.take<Games>(bob).games.empty());
  CHECK_FALSE(h.has<ChallengeClosed>(bob));
  h.advance(Millis{60'000});
  const auto closed = h.take<ChallengeClosed>(bob);
  CHECK(closed.challenge == c);
  CHECK(closed.reason == "expired");
  CHECK(h.storage().counts().offers == 0);
}

TEST_CASE("lobby: a player's correspondence games are limited by the configuration") {
  auto config = LobbyHarness::default_config();
  config.max_correspondence_games = 2;
  LobbyHarness h(config);
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  for (int i = 0; i < 2; ++i) {
    h.send(alice, correspondence_game(ColorChoice::White));
    h.send(bob, Join{h.take<Created>(alice).game, std::nullopt});
    h.take<Start>(bob);
  }
  h.send(alice, correspondence_game(ColorChoice::White));
  const auto refused = h.take<Error>(alice);
  CHECK(refused.code == ErrorCode::NotAllowed);
  CHECK(refused.message.find("too many correspondence games") != std::string::npos);
  // Real-time games are not counted.
  h.send(alice, correspondence_game(ColorChoice::White, TimeControl::fischer(Millis{60'000}, {})));
  h.take<Created>(alice);
}

TEST_CASE("lobby: the correspondence limits come from the config and change what is kept") {
  const auto parsed = server::apply_config_json(
      server::ServerConfig{}, nlohmann::json::parse(R"({"limits": {"offer_lifetime_days": 0.5,
                                "max_offer_lifetime_days": 2,
                                "correspondence_games_per_player": 3}})"));
  REQUIRE(parsed.has_value());
  CHECK(parsed->lobby.offer_lifetime == Millis{12LL * 3600 * 1000});
  CHECK(parsed->lobby.max_offer_lifetime == Millis{2 * kDay});
  CHECK(parsed->lobby.max_correspondence_games == 3);
  const auto inverted = server::apply_config_json(
      server::ServerConfig{},
      nlohmann::json::parse(
          R"({"limits": {"offer_lifetime_days": 3, "max_offer_lifetime_days": 2}})"));
  REQUIRE_FALSE(inverted.has_value());
  CHECK(inverted.error().find("limits.offer_lifetime_days") == 0);

  auto config = LobbyHarness::default_config();
  config.offer_lifetime = parsed->lobby.offer_lifetime;
  config.max_offer_lifetime = parsed->lobby.max_offer_lifetime;
  LobbyHarness h(config);
  const auto alice = h.login_registered("alice");
  const auto bob = h.login("bob");
  Create too_long = correspondence_game(ColorChoice::White);
  too_long.lifetime = 3 * 86'400;  // past the 2 days configured
  h.send(alice, too_long);
  CHECK(h.error(alice) == ErrorCode::BadField);
  h.send(alice, correspondence_game(ColorChoice::White));  // the default: half a day
  h.take<Created>(alice);
  h.disconnect(alice);
  h.advance(Millis{12LL * 3600 * 1000 - 1000});
  h.send(bob, List{});
  CHECK(h.take<Games>(bob).games.size() == 1);
  h.advance(Millis{2000});
  h.send(bob, List{});
  CHECK(h.take<Games>(bob).games.empty());
}

TEST_CASE("lobby: a guest's offers go with the guest, correspondence and lifetimes too") {
  LobbyHarness h;
  auto guest = h.login("guest");
  const auto bob = h.login_registered("bob");
  h.send(guest, correspondence_game(ColorChoice::White));
  h.take<Created>(guest);
  h.send(guest, Seek{"standard", kPerDay, false});
  h.take<Seeking>(guest);
  ChallengeSend challenge{"bob", "standard", kPerDay, ColorChoice::Random, false};
  challenge.lifetime = 3600;
  h.send(guest, challenge);
  h.take<ChallengeSent>(guest);
  h.take<ChallengeReceived>(bob);
  CHECK(h.storage().counts().offers == 0);  // none stored: none kept
  h.disconnect(guest);
  CHECK(h.take<ChallengeClosed>(bob).reason == "offline");
  h.send(bob, List{});
  CHECK(h.take<Games>(bob).games.empty());
  // The name is anyone's at once.
  guest = h.connect();
  h.send(guest, Hello{1, "guest", std::nullopt, std::nullopt, std::nullopt, false});
  h.take<Welcome>(guest);
}
