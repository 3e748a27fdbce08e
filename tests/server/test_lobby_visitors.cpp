// A visitor who has not said hello: what the lobby shows them (the list, watching a game, an
// invite's game) and what it refuses them (everything that acts).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "lobby_harness.h"
#include "server/core/address_group.h"
#include "server/core/lobby.h"
#include "tests/test_paths.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;
using server::SessionId;

namespace {

Create visitor_test_game(ColorChoice color, bool is_private = false) {
  Create c;
  c.rules = "standard";
  c.color = color;
  c.is_private = is_private;
  return c;
}

// Alice (white) and Bob (black) playing; returns the game id.
std::string visitor_test_started(LobbyHarness& h, SessionId alice, SessionId bob) {
  h.send(alice, visitor_test_game(ColorChoice::White));
  const auto game = h.take<Created>(alice).game;
  h.send(bob, Join{game, std::nullopt});
  h.take<Start>(alice);
  h.take<Start>(bob);
  return game;
}

// Wrong invite codes for `game`, one per connection, from each address of `addresses` in turn;
// returns how many were refused rate_limited (over the guessing budget) rather than no_such_game.
int visitor_test_refused_guesses(LobbyHarness& h, const std::string& game,
                                 const std::vector<std::string>& addresses) {
  int refused = 0;
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto guesser = h.connect(server::ConnectionInfo{.address = addresses[i]});
    h.send(guesser, Watch{game, "guess" + std::to_string(i)});
    refused += h.error(guesser) == ErrorCode::RateLimited;
    h.disconnect(guesser);
  }
  return refused;
}

}  // namespace

TEST_CASE("lobby: a visitor lists and watches games before hello, and sees every move") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = visitor_test_started(h, alice, bob);
  const auto visitor = h.connect();
  h.send(visitor, List{});
  const auto games = h.take<Games>(visitor).games;
  REQUIRE(games.size() == 1);
  CHECK(games[0].game == game);
  CHECK(games[0].status == GameStatus::Active);

  h.send(visitor, Watch{game, std::nullopt});
  const auto state = h.take<State>(visitor);
  CHECK(state.white->name == "alice");
  CHECK(state.black->name == "bob");
  CHECK(state.spectators == 1);
  h.send(alice, MoveMsg{game, "d1-d7/g7"});
  CHECK(h.take<Moved>(visitor).move == "d1-d7/g7");
  h.drain(alice);
  h.drain(bob);

  // Looking is all: a visitor who acts is asked to say hello, and nothing changes.
  h.send(visitor, MoveMsg{game, "d10-d8/d9"});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  h.send(visitor, ChatSend{game, "hi"});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  h.send(visitor, visitor_test_game(ColorChoice::White));
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  h.send(visitor, Players{});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  h.send(visitor, Resign{{game}});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  CHECK(h.drain(alice).empty());

  h.send(visitor, Leave{{game}});
  h.take<Ok>(visitor);
  h.send(visitor, Leave{{game}});
  CHECK(h.error(visitor) == ErrorCode::NotAPlayer);
  h.send(bob, MoveMsg{game, "d10-d8/d9"});
  h.take<Moved>(alice);
  CHECK(h.drain(visitor).empty());
}

TEST_CASE("lobby: an invite's game is shown to a visitor with its code, who then takes the seat") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  h.send(alice, visitor_test_game(ColorChoice::White, true));
  const auto created = h.take<Created>(alice);
  REQUIRE(created.invite);

  const auto visitor = h.connect();
  // Without the code, or with a wrong one, the game is as absent as an unused id.
  h.send(visitor, Watch{created.game, std::nullopt});
  const auto no_code = h.take<Error>(visitor);
  CHECK(no_code.code == ErrorCode::NoSuchGame);
  h.send(visitor, Watch{created.game, std::string("wrongcode")});
  CHECK(h.take<Error>(visitor).message == no_code.message);

  // With it: who invites, to what, and which seat is free.
  h.send(visitor, Watch{created.game, created.invite});
  const auto state = h.take<State>(visitor);
  CHECK(state.status == GameStatus::Open);
  REQUIRE(state.white);
  CHECK(state.white->name == "alice");
  CHECK_FALSE(state.black);
  CHECK(state.rules == "standard");

  // Signing in on the same connection and joining seats them: each event once, not also as a
  // spectator.
  h.send(visitor, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\"}");
  h.take<Welcome>(visitor);
  h.send(visitor, Join{created.game, created.invite});
  CHECK(h.take<Start>(visitor).color == Color::Black);
  h.take<Start>(alice);
  h.send(alice, MoveMsg{created.game, "d1-d7/g7"});
  h.take<Moved>(visitor);
  CHECK(h.drain(visitor).empty());
}

TEST_CASE("lobby: a visitor's wrong invite codes count against the address's guessing budget") {
  auto config = LobbyHarness::default_config();
  config.auth_budget.burst = 3;
  LobbyHarness h(config);
  const auto alice = h.login("alice");
  h.send(alice, visitor_test_game(ColorChoice::White, true));
  const auto created = h.take<Created>(alice);
  // A new connection each time, from one address: reconnecting does not reset the budget.
  CHECK(visitor_test_refused_guesses(h, created.game, std::vector<std::string>(6, "192.0.2.7")) ==
        3);
  // Over the budget, even the right code is not checked.
  const auto visitor = h.connect(server::ConnectionInfo{.address = "192.0.2.7"});
  h.send(visitor, Watch{created.game, created.invite});
  CHECK(h.error(visitor) == ErrorCode::RateLimited);
}

TEST_CASE("lobby: a server with a password shows a visitor nothing before hello") {
  auto config = LobbyHarness::default_config();
  config.server_password = "club";
  LobbyHarness h(config);
  const auto visitor = h.connect();
  h.send(visitor, List{});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
  h.send(visitor, Watch{"1", std::nullopt});
  CHECK(h.error(visitor) == ErrorCode::NotLoggedIn);
}

TEST_CASE("lobby: a cluster node tells a visitor to sign in for a game another node runs") {
  server::LobbyConfig config;
  config.rules_dir = amazons::test::config_dir() + "/rules";
  config.node = "n1";
  const server::Instant t0{Millis{0}, Timestamp{Millis{1'800'000'000'000}}};
  server::Lobby lobby(config, server::LoadedState{}, t0);
  lobby.add_game_ids(100, server::kGameIdBlock);
  lobby.connect(1, t0);
  // Game 7 is not this node's: a named player's request would be forwarded, a visitor's is not.
  const auto fx = lobby.handle_line(1, R"({"type":"watch","game":"7","id":3})", t0);
  CHECK(fx.cluster.forwards.empty());
  REQUIRE(fx.messages.size() == 1);
  const auto answer = decode_server(*fx.messages[0].line);
  REQUIRE(answer);
  const auto* error = std::get_if<Error>(&answer->message);
  REQUIRE(error);
  CHECK(error->code == ErrorCode::NotLoggedIn);
  CHECK(answer->id == nlohmann::json(3));
}

TEST_CASE("lobby: an IPv6 host's guesses count against its /64, whichever address it takes") {
  CHECK(server::address_group("192.0.2.7") == "192.0.2.7");
  CHECK(server::address_group("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64");
  CHECK(server::address_group("2001:db8:1:2::1") == "2001:db8:1:2::/64");
  CHECK(server::address_group("2001:db8:1:3::1") == "2001:db8:1:3::/64");
  CHECK(server::address_group("::1") == "::/64");
  CHECK(server::address_group("") == "");
  CHECK(server::address_group("not an address") == "not an address");

  auto config = LobbyHarness::default_config();
  config.auth_budget.burst = 3;
  LobbyHarness h(config);
  const auto alice = h.login("alice");
  h.send(alice, visitor_test_game(ColorChoice::White, true));
  const auto created = h.take<Created>(alice);
  // Six guesses, each from a new address of one /64: the budget is the /64's, so the last three
  // are refused (before, each address had a budget of its own and all six were answered).
  std::vector<std::string> one_host;
  for (int i = 1; i <= 6; ++i) one_host.push_back("2001:db8:1:2::" + std::to_string(i));
  CHECK(visitor_test_refused_guesses(h, created.game, one_host) == 3);
  // Another /64 has its own budget.
  const auto elsewhere = h.connect(server::ConnectionInfo{.address = "2001:db8:1:3::1"});
  h.send(elsewhere, Watch{created.game, created.invite});
  CHECK(h.take<State>(elsewhere).game == created.game);
}
