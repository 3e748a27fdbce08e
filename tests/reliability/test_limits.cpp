// Memory the server lets go of: finished games stay in memory (for rematches and spectators)
// only for limits.finished_retention_seconds, then live on in the database alone. The soak
// (scripts/soak.sh) shortens the retention so that a one-minute run reaches the steady state.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "server/net/config.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;

TEST_CASE("limits: finished games leave memory after finished_retention_seconds") {
  const auto parsed = server::apply_config_json(
      server::ServerConfig{},
      nlohmann::json::parse(R"({"limits": {"finished_retention_seconds": 2.5}})"));
  REQUIRE(parsed.has_value());
  CHECK(parsed->lobby.finished_retention == Millis{2500});
  const auto negative = server::apply_config_json(
      server::ServerConfig{},
      nlohmann::json::parse(R"({"limits": {"finished_retention_seconds": -1}})"));
  REQUIRE_FALSE(negative.has_value());
  CHECK(negative.error().find("limits.finished_retention_seconds") == 0);

  auto config = LobbyHarness::default_config();
  config.finished_retention = parsed->lobby.finished_retention;
  LobbyHarness h(config);
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto carol = h.login("carol");
  Create c;
  c.color = ColorChoice::White;
  h.send(alice, c);
  const auto game = h.take<Created>(alice).game;
  h.send(bob, Join{game, std::nullopt});
  h.take<Start>(alice);
  h.take<Start>(bob);
  h.send(bob, Resign{{game}});
  h.take<End>(alice);
  h.take<End>(bob);

  h.advance(Millis{2000});
  h.send(carol, Watch{game, std::nullopt});
  CHECK(h.take<State>(carol).status == GameStatus::Finished);
  h.advance(Millis{600});
  h.send(carol, Watch{game, std::nullopt});
  CHECK(h.error(carol) == ErrorCode::NoSuchGame);
  // Gone from memory, not from the archive.
  h.send(carol, RecordRequest{game, RecordFormat::Json});
  CHECK(record_from_json(h.take<Record>(carol).record)->result.has_value());
}
