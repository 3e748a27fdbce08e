// What the server promises about private games (docs/PROTOCOL.md, "Private games"): game ids are
// sequential and public, so a private game is protected by its invite code alone. To anyone who
// neither played in it nor has the invite it does not exist: not listed, not watchable, no record
// (the same answer as for an id never used), not in anyone's history.
#include <doctest/doctest.h>

#include "common/protocol.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::server::SessionId;
using amazons::test::LobbyHarness;

namespace {

// Alice (white) and Bob (black) start a game, private or not; returns its id and invite.
std::pair<std::string, std::optional<std::string>> start(LobbyHarness& h, SessionId alice,
                                                         SessionId bob, bool is_private) {
  Create c;
  c.color = ColorChoice::White;
  c.is_private = is_private;
  h.send(alice, c);
  const auto created = h.take<Created>(alice);
  CHECK(created.invite.has_value() == is_private);
  h.send(bob, Join{created.game, created.invite});
  h.take<Start>(bob);
  h.take<Start>(alice);
  return {created.game, created.invite};
}

// The error a record request gets, as the requester sees it (without the game id).
std::string refusal(LobbyHarness& h, SessionId s, const std::string& game,
                    std::optional<std::string> invite = std::nullopt) {
  h.send(s, RecordRequest{game, RecordFormat::Json, std::move(invite)});
  const auto e = h.take<Error>(s);
  CHECK(e.code == ErrorCode::NoSuchGame);
  std::string text = e.message;
  text.replace(text.find(game), game.size(), "N");
  return text;
}

std::vector<std::string> history_games(LobbyHarness& h, SessionId s, const std::string& of) {
  h.send(s, HistoryRequest{of, 20});
  std::vector<std::string> ids;
  for (const auto& g : h.take<History>(s).games) ids.push_back(g.game);
  return ids;
}

}  // namespace

TEST_CASE("privacy: a private game exists only for its players and whoever has the invite") {
  LobbyHarness h;
  auto alice = h.login("alice");
  auto bob = h.login("bob");
  auto carol = h.login("carol");
  auto mallory = h.login("mallory");
  const auto started = start(h, alice, bob, true);
  const std::string secret = started.first;
  const std::optional<std::string> invite = started.second;
  REQUIRE(invite.has_value());
  h.send(alice, MoveMsg{secret, "d1-d7/g7"});
  h.take<Moved>(alice);
  h.take<Moved>(bob);

  // In progress: no record, no watching, not listed, for anyone without the invite. The refusal
  // reads exactly like the one for an id that was never used.
  const std::string unused = std::to_string(std::stoll(secret) + 1000);
  CHECK(refusal(h, mallory, secret) == refusal(h, mallory, unused));
  CHECK(refusal(h, mallory, secret, "wrong") == refusal(h, mallory, unused));
  h.send(mallory, Watch{secret, std::nullopt});
  CHECK(h.error(mallory) == ErrorCode::NoSuchGame);
  h.send(mallory, List{});
  CHECK(h.take<Games>(mallory).games.empty());
  // The invite opens it; so does having played in it.
  h.send(mallory, RecordRequest{secret, RecordFormat::Json, invite});
  CHECK(record_from_json(h.take<Record>(mallory).record)->moves.size() == 1);
  h.send(bob, RecordRequest{secret, RecordFormat::Text, std::nullopt});
  h.take<Record>(bob);

  h.send(alice, Resign{{secret}});
  h.take<End>(alice);
  h.take<End>(bob);
  const std::string open = start(h, alice, carol, false).first;
  h.send(carol, Resign{{open}});
  h.take<End>(alice);
  h.take<End>(carol);

  const auto check_archive = [&] {
    // History: the private game only for its own players.
    CHECK(history_games(h, mallory, "alice") == std::vector<std::string>{open});
    CHECK(history_games(h, carol, "alice") == std::vector<std::string>{open});
    CHECK(history_games(h, alice, "alice") == std::vector<std::string>{open, secret});
    CHECK(history_games(h, bob, "alice") == std::vector<std::string>{open, secret});
    CHECK(history_games(h, mallory, "bob").empty());
    // Records: the public game for anyone, the private one as before.
    h.send(mallory, RecordRequest{open, RecordFormat::Json, std::nullopt});
    h.take<Record>(mallory);
    CHECK(refusal(h, mallory, secret) == refusal(h, mallory, unused));
    CHECK(refusal(h, carol, secret, "wrong") == refusal(h, carol, unused));
    h.send(carol, RecordRequest{secret, RecordFormat::Json, invite});
    CHECK(record_from_json(h.take<Record>(carol).record)->result.has_value());
    h.send(alice, RecordRequest{secret, RecordFormat::Json, std::nullopt});
    h.take<Record>(alice);
  };
  SUBCASE("while the finished game is still in memory") { check_archive(); }
  SUBCASE("after a restart, from the database alone") {
    h.reopen();
    alice = h.login("alice");
    bob = h.login("bob");
    carol = h.login("carol");
    mallory = h.login("mallory");
    check_archive();
  }
}
