// Moderation in the pure lobby (docs/PROTOCOL.md "Moderation"), on a real database: every
// moderator action and its audit line, forbidden for players, bans with their reason, mutes,
// reports, closed registrations, and what survives a restart.
#include <doctest/doctest.h>

#include "lobby_harness.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;
using server::SessionId;

namespace {

// As `amazons-server admin grant` does it: into the database; then the poll of a running server.
void grant(LobbyHarness& h, const std::string& name, Role role) {
  const server::WriteBatch b{{server::RoleRow{name, role}}};
  h.storage().apply(std::span(&b, 1));
  h.lobby().set_moderation(h.storage().moderation());
}

std::string start_game_white_first(LobbyHarness& h, SessionId white, SessionId black) {
  Create c;
  c.color = ColorChoice::White;
  h.send(white, c);
  const auto game = h.take<Created>(white).game;
  h.send(black, Join{game, std::nullopt});
  h.take<Start>(white);
  h.take<Start>(black);
  return game;
}

std::vector<AuditEntry> audit(LobbyHarness& h, SessionId mod, int limit = 10) {
  h.send(mod, AuditRequest{limit});
  return h.take<AuditLog>(mod).entries;
}

SessionId hello(LobbyHarness& h, const std::string& name, const std::string& address = {}) {
  const auto s = h.connect(server::ConnectionInfo{true, address});
  Hello m;
  m.name = name;
  h.send(s, m);
  return s;
}

}  // namespace

TEST_CASE(
    "lobby: moderation: moderation actions are refused to players with forbidden, a report is "
    "not") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const std::vector<ClientMessage> actions = {Mute{"bob", 60, "x"},
                                              Unmute{"bob", ""},
                                              Kick{"bob", ""},
                                              Ban{"bob", std::nullopt, std::nullopt, ""},
                                              Unban{"bob", std::nullopt, ""},
                                              Adjudicate{"1", Color::White, ""},
                                              RemoveChat{1, ""},
                                              AuditRequest{10},
                                              SanctionsRequest{},
                                              ReportsRequest{},
                                              Resolve{1, ""}};
  for (const auto& m : actions) {
    h.send(alice, m);
    CHECK_MESSAGE(h.error(alice) == ErrorCode::Forbidden, type_of(m));
  }
  CHECK_FALSE(h.closed(bob));
  h.send(alice, Report{"bob", std::nullopt, "rude in chat"});
  h.take<Ok>(alice);
  // Nothing but the report was stored: no sanction, no audit line.
  grant(h, "mod", Role::Moderator);
  const auto mod = h.login("mod");
  CHECK(audit(h, mod).empty());
  h.send(mod, SanctionsRequest{});
  CHECK(h.take<SanctionList>(mod).sanctions.empty());
}

TEST_CASE("lobby: moderation: the welcome tells moderators and admins their role") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  grant(h, "root", Role::Admin);
  CHECK_FALSE(h.take<Welcome>(hello(h, "alice")).role.has_value());
  CHECK(h.take<Welcome>(hello(h, "mod")).role == Role::Moderator);
  CHECK(h.take<Welcome>(hello(h, "root")).role == Role::Admin);
  grant(h, "mod", Role::Player);  // revoke
  CHECK(h.lobby().role_of("mod") == Role::Player);
}

TEST_CASE(
    "lobby: moderation: a mute stops chat until it ends, survives a restart, and is audited") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  auto mod = h.login("mod");
  auto alice = h.login("alice");
  auto bob = h.login("bob");
  const auto game = start_game_white_first(h, alice, bob);

  h.send(mod, Mute{"bob", 60, "spam"}, 7);
  const auto ok = h.drain(mod);
  REQUIRE(ok.size() == 1);
  CHECK(std::holds_alternative<Ok>(ok[0].message));
  CHECK(ok[0].id == nlohmann::json(7));
  h.send(bob, ChatSend{game, "buy cheap moves"});
  const auto e = h.take<Error>(bob);
  CHECK(e.code == ErrorCode::Muted);
  CHECK(e.reason == "spam");
  CHECK(e.message.find("until") != std::string::npos);
  CHECK_FALSE(h.has<Chat>(alice));
  h.send(alice, ChatSend{game, "hi"});
  const auto line = h.take<Chat>(bob);
  CHECK(line.line.has_value());

  const auto log = audit(h, mod);
  REQUIRE(log.size() == 1);
  CHECK(log[0].actor == "mod");
  CHECK(log[0].action == "mute");
  CHECK(log[0].target == "bob");
  CHECK(log[0].reason == "spam");
  CHECK(log[0].duration == 60);
  CHECK(log[0].at == format_timestamp(h.now().wall));

  // Stored: a restarted server still mutes bob, until the minute is over.
  h.reopen();
  mod = h.login("mod");
  const auto resume = [&](const std::string& name) {
    const auto s = h.connect();
    Hello m;
    m.name = name;
    m.token = h.token(name);
    h.send(s, m);
    h.take<Welcome>(s);
    return s;
  };
  alice = resume("alice");
  bob = resume("bob");
  h.drain(alice);
  h.drain(bob);
  h.send(bob, ChatSend{game, "again"});
  CHECK(h.error(bob) == ErrorCode::Muted);
  h.advance(Millis{61'000});
  h.send(bob, ChatSend{game, "sorry"});
  CHECK(h.take<Chat>(alice).text == "sorry");

  // For good, then lifted.
  h.send(mod, Mute{"bob", std::nullopt, "again"});
  h.take<Ok>(mod);
  h.send(bob, ChatSend{game, "x"});
  CHECK(h.take<Error>(bob).message.find("for good") != std::string::npos);
  h.send(mod, Unmute{"bob", "served"});
  h.take<Ok>(mod);
  h.send(bob, ChatSend{game, "thanks"});
  CHECK(h.take<Chat>(alice).text == "thanks");
  const auto later = audit(h, mod);
  REQUIRE(later.size() == 3);
  CHECK(later[0].action == "unmute");
  CHECK(later[1].action == "mute");
  CHECK_FALSE(later[1].duration.has_value());

  h.send(mod, Mute{"bob", 0, ""});
  CHECK(h.error(mod) == ErrorCode::BadField);
  h.send(mod, Mute{"nobody", 5, ""});
  CHECK(h.error(mod) == ErrorCode::NoSuchPlayer);
}

TEST_CASE("lobby: moderation: a kick closes the player's connection with the reason") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  const auto mod = h.login("mod");
  const auto bob = h.login("bob");
  h.send(mod, Kick{"bob", "calm down"});
  h.take<Ok>(mod);
  const auto e = h.take<Error>(bob);
  CHECK(e.code == ErrorCode::Kicked);
  CHECK(e.reason == "calm down");
  CHECK(h.closed(bob));
  h.disconnect(bob);
  h.send(mod, Kick{"bob", ""});
  CHECK(h.error(mod) == ErrorCode::NoSuchPlayer);  // not online
  const auto log = audit(h, mod);
  REQUIRE(log.size() == 1);
  CHECK(log[0].action == "kick");
  CHECK(log[0].target == "bob");
  CHECK(log[0].reason == "calm down");
  // A kicked player may come back at once: a kick is not a ban.
  h.take<Welcome>(hello(h, "bob"));
}

TEST_CASE(
    "lobby: moderation: a banned name is closed with the reason, refused at hello, and unbanned") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  auto mod = h.login("mod");
  const auto bob = h.login("bob");
  h.send(mod, Ban{"bob", std::nullopt, std::nullopt, "cheating with an engine"});
  h.take<Ok>(mod);
  auto e = h.take<Error>(bob);
  CHECK(e.code == ErrorCode::Banned);
  CHECK(e.reason == "cheating with an engine");
  CHECK(h.closed(bob));
  h.disconnect(bob);

  // The banned client is told why when it logs in again, also with its token, and after a
  // restart.
  for (int round = 0; round < 2; ++round) {
    const auto again = hello(h, "bob");
    e = h.take<Error>(again);
    CHECK(e.code == ErrorCode::Banned);
    CHECK(e.reason == "cheating with an engine");
    CHECK(e.message.find("for good") != std::string::npos);
    CHECK(h.closed(again));
    h.reopen();
  }
  mod = h.login("mod");
  h.send(mod, Unban{"bob", std::nullopt, "appeal accepted"});
  h.take<Ok>(mod);
  h.take<Welcome>(hello(h, "bob"));

  // A ban for a time ends by itself.
  h.send(mod, Ban{"carol", std::nullopt, 10, "a cool-off"});
  h.take<Ok>(mod);
  CHECK(h.error(hello(h, "carol")) == ErrorCode::Banned);
  h.advance(Millis{11'000});
  h.take<Welcome>(hello(h, "carol"));

  const auto log = audit(h, mod);
  REQUIRE(log.size() == 3);
  CHECK(log[2].action == "ban");
  CHECK(log[2].target == "bob");
  CHECK(log[1].action == "unban");
  CHECK(log[1].reason == "appeal accepted");
  CHECK(log[0].duration == 10);
  h.send(mod, Ban{"bob", "1.2.3.4", std::nullopt, ""});
  CHECK(h.error(mod) == ErrorCode::BadField);  // one of the two
}

TEST_CASE("lobby: moderation: an address ban closes its connections and refuses it at connect") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  const auto mod = h.login("mod");
  const auto eve = hello(h, "eve", "203.0.113.9");
  h.take<Welcome>(eve);
  const auto other = hello(h, "frank", "198.51.100.1");
  h.take<Welcome>(other);
  h.send(mod, Ban{std::nullopt, "203.0.113.9", 3600, "ban evasion"});
  h.take<Ok>(mod);
  auto e = h.take<Error>(eve);
  CHECK(e.code == ErrorCode::Banned);
  CHECK(e.reason == "ban evasion");
  CHECK(h.closed(eve));
  CHECK_FALSE(h.closed(other));
  h.disconnect(eve);
  // A new connection from there is refused before it says anything.
  const auto back = h.connect(server::ConnectionInfo{true, "203.0.113.9"});
  e = h.take<Error>(back);
  CHECK(e.code == ErrorCode::Banned);
  CHECK(e.reason == "ban evasion");
  CHECK(h.closed(back));
  h.disconnect(back);
  h.send(mod, SanctionsRequest{});
  const auto list = h.take<SanctionList>(mod).sanctions;
  REQUIRE(list.size() == 1);
  CHECK(list[0].kind == "ban_address");
  CHECK(list[0].target == "203.0.113.9");
  CHECK(list[0].until.has_value());
  h.send(mod, Ban{std::nullopt, "not an address!", std::nullopt, ""});
  CHECK(h.error(mod) == ErrorCode::BadField);
  h.send(mod, Unban{std::nullopt, "203.0.113.9", ""});
  h.take<Ok>(mod);
  h.take<Welcome>(hello(h, "eve", "203.0.113.9"));
  const auto log = audit(h, mod);
  REQUIRE(log.size() == 2);
  CHECK(log[1].action == "ban_address");
  CHECK(log[0].action == "unban_address");
}

TEST_CASE("lobby: moderation: a moderator adjudicates or aborts a game, the result is stored") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  const auto mod = h.login("mod");
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game_white_first(h, alice, bob);
  h.send(mod, Adjudicate{game, Color::Black, "white used an engine"});
  h.take<Ok>(mod);
  for (SessionId s : {alice, bob}) {
    const auto end = h.take<End>(s);
    CHECK(end.winner == Color::Black);
    CHECK(end.reason == EndReason::Adjudicated);
  }
  const auto row = h.storage().game_row(std::stoll(game));
  REQUIRE(row);
  REQUIRE(row->result);
  CHECK(row->result->winner == Color::Black);
  CHECK(row->result->reason == EndReason::Adjudicated);
  h.send(mod, Adjudicate{game, Color::White, ""});
  CHECK(h.error(mod) == ErrorCode::GameNotActive);

  const auto second = start_game_white_first(h, alice, bob);
  h.send(mod, Adjudicate{second, std::nullopt, "server trouble"});
  h.take<Ok>(mod);
  const auto end = h.take<End>(alice);
  CHECK_FALSE(end.winner.has_value());
  CHECK(end.reason == EndReason::Aborted);
  h.send(mod, Adjudicate{"999", std::nullopt, ""});
  CHECK(h.error(mod) == ErrorCode::NoSuchGame);

  const auto log = audit(h, mod);
  REQUIRE(log.size() == 2);
  CHECK(log[1].action == "adjudicate");
  CHECK(log[1].target == "game " + game + " to black");
  CHECK(log[1].reason == "white used an engine");
  CHECK(log[0].action == "abort");
}

TEST_CASE("lobby: moderation: a removed chat line is withdrawn from everyone in the room") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  const auto mod = h.login("mod");
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto carol = h.login("carol");
  const auto game = start_game_white_first(h, alice, bob);
  h.send(carol, Watch{game, std::nullopt});
  h.drain(carol);
  h.send(alice, ChatSend{game, "something nasty"});
  const auto chat = h.take<Chat>(carol);
  REQUIRE(chat.line);
  h.take<Chat>(bob);
  h.take<Chat>(alice);
  h.send(mod, RemoveChat{*chat.line, "abuse"});
  h.take<Ok>(mod);
  for (SessionId s : {alice, bob, carol}) {
    const auto removed = h.take<ChatRemoved>(s);
    CHECK(removed.game == game);
    CHECK(removed.line == *chat.line);
  }
  CHECK_FALSE(h.has<ChatRemoved>(mod));  // not in the room
  h.send(mod, RemoveChat{*chat.line, ""});
  CHECK(h.error(mod) == ErrorCode::BadField);  // gone already
  const auto log = audit(h, mod);
  REQUIRE(log.size() == 1);
  CHECK(log[0].action == "remove_chat");
  CHECK(log[0].target == "alice");
  CHECK(log[0].reason.find("something nasty") != std::string::npos);
}

TEST_CASE(
    "lobby: moderation: players report a player or a chat line, moderators list and resolve them") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  auto mod = h.login("mod");
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game_white_first(h, alice, bob);
  h.send(alice, ChatSend{game, "you are bad"});
  const auto line = *h.take<Chat>(bob).line;
  h.send(bob, Report{std::nullopt, line, "insult"});
  h.take<Ok>(bob);
  h.send(bob, Report{"alice", std::nullopt, "stalling every game"});
  h.take<Ok>(bob);
  h.send(bob, Report{"nobody", std::nullopt, "x"});
  CHECK(h.error(bob) == ErrorCode::NoSuchPlayer);
  h.send(bob, Report{"alice", std::nullopt, ""});
  CHECK(h.error(bob) == ErrorCode::BadField);
  h.send(bob, Report{std::nullopt, 9999, "x"});
  CHECK(h.error(bob) == ErrorCode::BadField);

  h.send(mod, ReportsRequest{});
  auto reports = h.take<ReportList>(mod).reports;
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].reporter == "bob");
  CHECK(reports[0].player == "alice");
  CHECK(reports[0].line == line);
  CHECK(reports[0].text == "you are bad");
  CHECK(reports[0].game == game);
  CHECK(reports[0].reason == "insult");
  CHECK(reports[1].reason == "stalling every game");
  CHECK_FALSE(reports[1].line.has_value());

  h.send(mod, Resolve{reports[0].report, "warned alice"});
  h.take<Ok>(mod);
  h.send(mod, Resolve{reports[0].report, ""});
  CHECK(h.error(mod) == ErrorCode::BadField);  // not open any more
  // The open one survives a restart; the resolved one stays resolved.
  h.reopen();
  mod = h.login("mod");
  h.send(mod, ReportsRequest{});
  reports = h.take<ReportList>(mod).reports;
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].reason == "stalling every game");
  const auto log = audit(h, mod);
  REQUIRE(log.size() == 1);
  CHECK(log[0].action == "resolve");
  CHECK(log[0].reason == "warned alice");
  // New reports get new ids after the restart.
  const auto carol = h.login("carol");
  h.send(carol, Report{"alice", std::nullopt, "again"});
  h.take<Ok>(carol);
  h.send(mod, ReportsRequest{});
  reports = h.take<ReportList>(mod).reports;
  REQUIRE(reports.size() == 2);
  CHECK(reports[1].report > reports[0].report);
}

TEST_CASE("lobby: moderation: moderators cannot sanction moderators, admins can") {
  LobbyHarness h;
  grant(h, "mod", Role::Moderator);
  grant(h, "mod2", Role::Moderator);
  grant(h, "root", Role::Admin);
  const auto mod = h.login("mod");
  const auto mod2 = h.login("mod2");
  const auto root = h.login("root");
  h.send(mod, Mute{"mod2", 60, ""});
  CHECK(h.error(mod) == ErrorCode::Forbidden);
  h.send(mod, Ban{"root", std::nullopt, std::nullopt, ""});
  CHECK(h.error(mod) == ErrorCode::Forbidden);
  h.send(root, Kick{"mod2", "test"});
  h.take<Ok>(root);
  CHECK(h.take<Error>(mod2).code == ErrorCode::Kicked);
}

TEST_CASE(
    "lobby: moderation: closed registrations take known names only, the server password still "
    "holds") {
  auto config = LobbyHarness::default_config();
  config.server_password = "club";
  LobbyHarness h(config);
  const auto login = [&](const std::string& name, const std::string& password) {
    const auto s = h.connect();
    Hello m;
    m.name = name;
    m.server_password = password;
    h.send(s, m);
    return s;
  };
  h.disconnect([&] {
    const auto s = login("alice", "club");
    h.take<Welcome>(s);
    return s;
  }());
  const server::WriteBatch b{{server::RegistrationsRow{false}}};
  h.storage().apply(std::span(&b, 1));
  h.lobby().set_moderation(h.storage().moderation());
  CHECK(h.error(login("zed", "club")) == ErrorCode::RegistrationsClosed);
  CHECK(h.error(login("alice", "wrong")) == ErrorCode::AuthFailed);
  h.take<Welcome>(login("alice", "club"));
  // And after a restart, read from the database at startup.
  h.reopen();
  CHECK(h.error(login("zed", "club")) == ErrorCode::RegistrationsClosed);
  const server::WriteBatch open{{server::RegistrationsRow{true}}};
  h.storage().apply(std::span(&open, 1));
  h.lobby().set_moderation(h.storage().moderation());
  h.take<Welcome>(login("zed", "club"));
}
