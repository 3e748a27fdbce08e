// The lobby as a cluster node, pure: what outlives a connection or a node and is shared across
// nodes: moderators' decisions, kept open games, challenges and seeks, and tournaments directed by
// one node and played from the others. (Harness: cluster_lobby_harness.h.)
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <span>

#include "common/protocol.h"
#include "server/core/lobby.h"
#include "server/storage/open_storage.h"
#include "tests/server/cluster_lobby_harness.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::server;
using namespace amazons::protocol;
using namespace amazons::test::cluster_lobby;

TEST_CASE("cluster lobby: a moderator's decision on one node is applied by every node") {
  ModeratorHereTwoThere nodes;
  Node& a = nodes.a;
  Node& b = nodes.b;
  // Bob and Carol play on node b; node a knows them only from b's directory.
  auto created = b.lobby.handle_line(6, encode(ClientMessage{Create{}}), at(1));
  const std::string game = first<Created>(created, 6)->game;
  b.lobby.handle_line(5, encode(ClientMessage{Join{game, {}}}), at(2));
  a.lobby.set_peer("b", b.lobby.directory(), at(3));

  // A mute on a, of a player a has never seen: taken, and told to every node.
  const auto muted =
      a.lobby.handle_line(1, encode(ClientMessage{Mute{"bob", 3600, "spam"}}), at(10));
  CHECK(first<Ok>(muted, 1).has_value());
  const auto mute = event<SanctionRow>(muted);
  CHECK(mute.kind == SanctionKind::Mute);
  CHECK(mute.target == "bob");
  // Not yet on b: bob still chats there; once b applies it he may not.
  CHECK(first<Chat>(b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(11)), 5)
            .has_value());
  b.lobby.moderated(mute, at(12));
  const auto refused = b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(13));
  REQUIRE(first<Error>(refused, 5).has_value());
  CHECK(first<Error>(refused, 5)->code == ErrorCode::Muted);
  CHECK(first<Error>(refused, 5)->reason == "spam");
  // Lifted on a, lifted on b.
  const auto unmuted = a.lobby.handle_line(1, encode(ClientMessage{Unmute{"bob", "ok"}}), at(14));
  b.lobby.moderated(event<SanctionRemoved>(unmuted), at(15));
  CHECK(first<Chat>(b.lobby.handle_line(5, encode(ClientMessage{ChatSend{game, "hi"}}), at(16)), 5)
            .has_value());

  // A chat line's id names its game, so a report of it made on a goes to b, which keeps it.
  const auto said =
      b.lobby.handle_line(6, encode(ClientMessage{ChatSend{game, "rude words"}}), at(20));
  const std::int64_t line = first<Chat>(said, 6)->line.value();
  CHECK(std::to_string(line >> kChatLineGameShift) == game);
  Report report;
  report.line = line;
  report.reason = "rude";
  const auto handed = a.lobby.handle_line(1, encode(ClientMessage{report}), at(21));
  REQUIRE(handed.cluster.forwards.size() == 1);
  CHECK(handed.cluster.forwards[0].key == game);
  const auto filed = b.lobby.remote_request(RemoteSession{"a", 1}, remote("mod"),
                                            handed.cluster.forwards[0].line, at(22));
  const auto row = event<ReportRow>(filed);
  CHECK(row.player == "carol");
  CHECK(row.text == "rude words");
  CHECK(row.id >= 100);  // from b's block of ids, so that no two nodes number one alike
  // Every node lists it, and a resolution anywhere closes it everywhere.
  a.lobby.moderated(row, at(23));
  const auto listed = a.lobby.handle_line(1, encode(ClientMessage{ReportsRequest{}}), at(24));
  REQUIRE(first<ReportList>(listed, 1)->reports.size() == 1);
  const auto resolved =
      a.lobby.handle_line(1, encode(ClientMessage{Resolve{row.id, "warned"}}), at(25));
  CHECK(first<Ok>(resolved, 1).has_value());
  b.lobby.moderated(event<ReportRow>(resolved), at(26));
  b.login(7, "mod");  // a moderator on b sees no open report
  CHECK(
      first<ReportList>(b.lobby.handle_line(7, encode(ClientMessage{ReportsRequest{}}), at(27)), 7)
          ->reports.empty());

  // A kick of bob, who is connected to b: a says yes, and b closes his connection.
  const auto kicked =
      a.lobby.handle_line(1, encode(ClientMessage{Kick{"bob", "cool off"}}), at(30));
  CHECK(first<Ok>(kicked, 1).has_value());
  const auto closed = b.lobby.moderated(event<KickOrder>(kicked), at(31));
  REQUIRE(first<Error>(closed, 5).has_value());
  CHECK(first<Error>(closed, 5)->code == ErrorCode::Kicked);
  CHECK(std::count(closed.close.begin(), closed.close.end(), SessionId{5}) == 1);
  // Nobody is kicked who is online on no node.
  const auto nobody = a.lobby.handle_line(1, encode(ClientMessage{Kick{"zed", ""}}), at(32));
  CHECK(first<Error>(nobody, 1)->code == ErrorCode::NoSuchPlayer);

  // A ban of carol's name: b closes her connection with the reason.
  Ban ban;
  ban.player = "carol";
  ban.reason = "cheating";
  const auto banned = a.lobby.handle_line(1, encode(ClientMessage{ban}), at(40));
  const auto shut = b.lobby.moderated(event<SanctionRow>(banned), at(41));
  REQUIRE(first<Error>(shut, 6).has_value());
  CHECK(first<Error>(shut, 6)->code == ErrorCode::Banned);
  CHECK(first<Error>(shut, 6)->reason == "cheating");
}

TEST_CASE("cluster lobby: kept offers stay with their node, and are taken over from their rows") {
  Node a("a");
  a.login_registered(1, "alice");
  // A correspondence seek stays in the pairing queue when she goes; a real-time one does not.
  Seek seek;
  seek.time = per_day;
  a.lobby.handle_line(1, encode(ClientMessage{seek}), at(1));
  const auto gone = a.lobby.disconnect(1, at(2));
  CHECK(gone.cluster.drop_seeks.empty());
  CHECK(gone.cluster.unseeks.empty());
  a.login_registered(2, "bea");
  Seek quick;
  quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  a.lobby.handle_line(2, encode(ClientMessage{quick}), at(3));
  CHECK(a.lobby.disconnect(2, at(4)).cluster.drop_seeks == std::vector<std::string>{"bea"});
  // With a lifetime, it goes when that runs out, and only if nobody replaced it elsewhere.
  a.login_registered(3, "cid");
  quick.lifetime = 60;
  a.lobby.handle_line(3, encode(ClientMessage{quick}), at(5));
  CHECK(a.lobby.disconnect(3, at(6)).cluster.drop_seeks.empty());
  CHECK(a.lobby.tick(at(30'000)).cluster.drop_seeks.empty());
  CHECK(a.lobby.tick(at(61'000)).cluster.drop_seeks == std::vector<std::string>{"cid"});

  // Node b takes over an open game and a challenge of a node that died, from their rows.
  Node b("b");
  PlayerRow alice_row;
  alice_row.name = "alice";
  alice_row.rating.rating = 1712;
  Create create;
  create.time = per_day;
  create.color = ColorChoice::White;
  const OfferRow open{"g7",         "alice",    encode(ClientMessage{create}),
                      std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  CHECK(b.lobby.adopt_offer(open, alice_row, 41, at(10)).cluster.release.empty());
  CHECK(b.lobby.runs(7));
  ChallengeSend to_dave;
  to_dave.player = "dave";
  to_dave.time = per_day;
  const OfferRow challenge{"c8",         "alice",    encode(ClientMessage{to_dave}),
                           std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  b.lobby.adopt_offer(challenge, alice_row, 42, at(10));
  const auto held = b.lobby.held_keys();
  CHECK(std::count(held.begin(), held.end(), std::pair<std::string, std::int64_t>{"7", 41}) == 1);
  CHECK(std::count_if(held.begin(), held.end(), [](const auto& k) { return k.first == "c8"; }) ==
        1);
  // Joined from node c, the game starts, with alice's stored rating, fenced with the token.
  const auto joined = b.lobby.remote_request(RemoteSession{"c", 4}, remote("eve"),
                                             encode(ClientMessage{Join{"7", {}}}), at(11));
  CHECK(std::count(joined.writes.fences.begin(), joined.writes.fences.end(), Fence{7, 41}) >= 1);
  bool started = false;
  for (const auto& m : joined.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      CHECK(std::get<Start>(e->message).white.rating == 1712);
      started = true;
    }
  CHECK(started);
  // Dave shows up in node c's directory: he is sent the challenge, once.
  PeerView c_view;
  c_view.players.push_back({"dave", Rating{}, 0, false, 9});
  const auto told = b.lobby.set_peer("c", c_view, at(12));
  std::vector<SessionId> to_dave_here;
  for (const auto& m : told.messages)
    if (const auto e = decode_server(*m.line);
        e && std::holds_alternative<ChallengeReceived>(e->message)) {
      CHECK(std::get<ChallengeReceived>(e->message).challenge == "c8");
      CHECK(b.lobby.remote_of(m.to) == RemoteSession{"c", 9});
      to_dave_here.push_back(m.to);
    }
  CHECK(to_dave_here.size() == 1);
  CHECK(b.lobby.set_peer("c", c_view, at(13)).messages.empty());
}

// Whether the effects store the row `id`, or remove it (`expiring`: only the row that expires
// then).
bool stores(const Effects& fx, const std::string& id) {
  return std::any_of(fx.writes.writes.begin(), fx.writes.writes.end(), [&](const auto& w) {
    const auto* o = std::get_if<OfferRow>(&w);
    return o && o->id == id;
  });
}
bool removes(const Effects& fx, const std::string& id,
             std::optional<Timestamp> expiring = std::nullopt) {
  return std::any_of(fx.writes.writes.begin(), fx.writes.writes.end(), [&](const auto& w) {
    const auto* o = std::get_if<OfferRemoved>(&w);
    return o && o->id == id && o->expiring == expiring;
  });
}

TEST_CASE("cluster lobby: a kept seek is a row of its player's, put back in the queue elsewhere") {
  Node a("a");
  a.login_registered(1, "alice");
  Seek seek;
  seek.time = per_day;
  const auto kept = a.lobby.handle_line(1, encode(ClientMessage{seek}), at(1));
  CHECK(stores(kept, "s:alice"));
  REQUIRE(kept.cluster.seeks.size() == 1);
  // Withdrawn: out of the queue, wherever it was made, and out of the table.
  const auto withdrawn = a.lobby.handle_line(1, encode(ClientMessage{Unseek{}}), at(2));
  CHECK(withdrawn.cluster.unseeks == std::vector<std::string>{"alice"});
  CHECK(removes(withdrawn, "s:alice"));
  // A real-time seek is not kept: it replaces her last seek in the table too.
  Seek quick;
  quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  const auto replaced = a.lobby.handle_line(1, encode(ClientMessage{quick}), at(3));
  CHECK(removes(replaced, "s:alice"));
  CHECK_FALSE(stores(replaced, "s:alice"));
  // Expired here: out of the queue, and its row goes, but only that row (not a newer seek of
  // hers another node stored since).
  a.login_registered(2, "cid");
  quick.lifetime = 60;
  CHECK(stores(a.lobby.handle_line(2, encode(ClientMessage{quick}), at(5)), "s:cid"));
  const auto expired = a.lobby.tick(at(61'000));
  CHECK(expired.cluster.drop_seeks == std::vector<std::string>{"cid"});
  CHECK(removes(expired, "s:cid", at(5).wall + Millis{60'000}));
  // Paired: both seeks leave the queue, so both rows go, wherever they were stored.
  a.login_registered(3, "dan");
  const auto asked = a.lobby.handle_line(3, encode(ClientMessage{seek}), at(62'000));
  REQUIRE(asked.cluster.seeks.size() == 1);
  SeekOutcome paired;
  paired.job = asked.cluster.seeks[0];
  paired.paired = true;
  paired.opponent = "eve";
  const auto started = a.lobby.complete_seek(paired, at(62'010));
  CHECK(removes(started, "s:dan"));
  CHECK(removes(started, "s:eve"));
  CHECK(first<Start>(started, 3).has_value());

  // Node b puts a kept seek whose node died back in the queue, as its own, for nobody to hear.
  Node b("b");
  const OfferRow row{"s:fay",      "fay",      encode(ClientMessage{seek}),
                     std::nullopt, at(0).wall, at(0).wall + Millis{3'600'000}};
  PlayerRow fay;
  fay.name = "fay";
  fay.rating.rating = 1650;
  const auto back = b.lobby.adopt_offer(row, fay, 0, at(10));
  REQUIRE(back.cluster.seeks.size() == 1);
  CHECK(back.cluster.seeks[0].session == 0);
  CHECK(back.cluster.seeks[0].name == "fay");
  CHECK(back.cluster.seeks[0].pool == asked.cluster.seeks[0].pool);       // the pool dan sought in
  CHECK(b.lobby.adopt_offer(row, fay, 0, at(11)).cluster.seeks.empty());  // once
  OfferRow old = row;
  old.id = "s:gil";
  old.owner = "gil";
  old.expires_at = at(0).wall;
  CHECK(b.lobby.adopt_offer(old, std::nullopt, 0, at(12)).cluster.seeks.empty());  // expired
  // Paired there with hal, online on node c: the game starts with fay away, at her stored
  // rating, and it is b's to expire no more.
  SeekOutcome met;
  met.job = back.cluster.seeks[0];
  met.paired = true;
  met.opponent = "hal";
  met.opponent_session = RemoteSession{"c", 4};
  const auto game = b.lobby.complete_seek(met, at(20));
  REQUIRE(game.cluster.acquire.size() == 1);
  bool told = false;
  for (const auto& m : game.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      CHECK(b.lobby.remote_of(m.to) == RemoteSession{"c", 4});
      const auto& start = std::get<Start>(e->message);
      CHECK((start.white.name == "fay" ? start.white : start.black).rating == 1650);
      told = true;
    }
  CHECK(told);
  CHECK(b.lobby.tick(at(3'700'000)).cluster.drop_seeks.empty());
}

// The last tournament row among the effects' writes.
std::optional<TournamentRow> tournament_row(const Effects& fx) {
  std::optional<TournamentRow> out;
  for (const auto& w : fx.writes.writes)
    if (const auto* t = std::get_if<TournamentRow>(&w)) out = *t;
  return out;
}

TEST_CASE(
    "cluster lobby: a tournament is directed by one node, played from the others, taken over") {
  ModeratorHereTwoThere nodes;
  Node& a = nodes.a;
  Node& b = nodes.b;
  amazons::test::TempDir dir;
  const auto storage = open_storage((dir.path() / "shared.db").string());
  const auto store = [&](const Effects& fx) {
    storage->apply(std::span<const WriteBatch>(&fx.writes, 1));
  };

  // Created on a: its id comes from a's block of ids, and a directs it under the lease "tID".
  TournamentCreate create;
  create.name = "Night arena";
  create.kind = "arena";
  create.rated = false;
  create.start_in = 60;
  create.duration = 3600;
  const auto created = a.lobby.handle_line(1, encode(ClientMessage{create}, 2), at(10));
  const auto info = first<TournamentInfo>(created, 1);
  REQUIRE(info.has_value());
  const std::int64_t id = info->tournament.id;
  const std::string key = "t" + std::to_string(id);
  CHECK(id >= 100);
  CHECK(created.cluster.acquire == std::vector<std::string>{key});
  const auto held = a.lobby.held_keys();
  CHECK(std::count_if(held.begin(), held.end(), [&](const auto& k) { return k.first == key; }) ==
        1);
  store(created);

  // Joining, and showing it, on b: handed to a, which answers the players through their
  // remote sessions there.
  for (SessionId s : {SessionId{5}, SessionId{6}}) {
    const auto handed =
        b.lobby.handle_line(s, encode(ClientMessage{TournamentJoin{id}}, 3), at(11));
    REQUIRE(handed.cluster.forwards.size() == 1);
    CHECK(handed.cluster.forwards[0].key == key);
    CHECK(handed.messages.empty());
    const auto joined =
        a.lobby.remote_request(RemoteSession{"b", s}, remote(s == 5 ? "bob" : "carol"),
                               handed.cluster.forwards[0].line, at(12));
    bool ok = false;
    for (const auto& m : joined.messages)
      if (const auto e = decode_server(*m.line); e && std::holds_alternative<Ok>(e->message)) {
        CHECK(a.lobby.remote_of(m.to) == RemoteSession{"b", s});
        ok = true;
      }
    CHECK(ok);
    store(joined);
  }
  const auto shown = b.lobby.handle_line(5, encode(ClientMessage{TournamentShow{id}}), at(13));
  REQUIRE(shown.cluster.forwards.size() == 1);
  const auto info_a = a.lobby.remote_request(RemoteSession{"b", 5}, remote("bob"),
                                             shown.cluster.forwards[0].line, at(13));
  REQUIRE(info_a.messages.size() == 1);
  CHECK(a.lobby.remote_of(info_a.messages[0].to) == RemoteSession{"b", 5});
  const auto shown_info = decode_server(*info_a.messages[0].line);
  REQUIRE(shown_info.has_value());
  const auto* full = std::get_if<TournamentInfo>(&shown_info->message);
  REQUIRE(full != nullptr);
  CHECK(full->tournament.id == id);
  CHECK(full->standings.size() == 2);

  // The list, on b, comes from the shared database, where a stored the tournament.
  const auto listed = b.lobby.handle_line(5, R"({"type":"tournaments","id":4})", at(14));
  CHECK(listed.messages.empty());
  REQUIRE(listed.queries.size() == 1);
  const auto answer = decode_server(*answer_query(*storage, listed.queries[0]).line);
  REQUIRE(answer.has_value());
  CHECK(answer->id == nlohmann::json(4));
  const auto& list = std::get<TournamentList>(answer->message).tournaments;
  REQUIRE(list.size() == 1);
  CHECK(list[0].id == id);
  CHECK(list[0].name == "Night arena");
  CHECK(list[0].players == 2);

  // At the start a pairs them and runs their game; both hear of it on b.
  const auto started = a.lobby.tick(at(61'000));
  std::set<RemoteSession> told;
  std::string game;
  for (const auto& m : started.messages)
    if (const auto e = decode_server(*m.line); e && std::holds_alternative<Start>(e->message)) {
      told.insert(*a.lobby.remote_of(m.to));
      game = std::get<Start>(e->message).game;
    }
  CHECK(told == std::set<RemoteSession>{{"b", 5}, {"b", 6}});
  REQUIRE(!game.empty());
  CHECK(a.lobby.runs(std::stoll(game)));
  CHECK(std::count(started.cluster.acquire.begin(), started.cluster.acquire.end(), game) == 1);
  const auto row = tournament_row(started);
  REQUIRE(row.has_value());
  CHECK(row->status == "running");

  // a dies. c takes the tournament over from its row, and finds the game another node took
  // over (and finished) by looking its row up.
  CHECK(a.lobby.lease_lost(key, at(62'000)).messages.empty());
  const auto mine = a.lobby.held_keys();
  CHECK(std::none_of(mine.begin(), mine.end(), [&](const auto& k) { return k.first == key; }));
  // a no longer directs it: a request there goes to whoever does now.
  CHECK(a.lobby.handle_line(1, encode(ClientMessage{TournamentShow{id}}), at(62'000))
            .cluster.forwards.size() == 1);
  // The game, which a still runs, ends there; when a directs the tournament again (say it takes
  // it back), it scores the game from the room it kept.
  a.lobby.remote_request(RemoteSession{"b", 5}, remote("bob"), encode(ClientMessage{Resign{game}}),
                         at(62'050));
  CHECK(a.lobby.adopt_tournament(*row, at(62'060)).cluster.release.empty());
  const auto rescored = tournament_row(a.lobby.tick(at(62'070)));
  REQUIRE(rescored.has_value());
  const auto back = Tournament::from_json(nlohmann::json::parse(rescored->state));
  REQUIRE(back.has_value());
  CHECK(back->standings().at(0).name == "carol");
  CHECK(back->standings().at(0).wins == 1);

  Node c("c");
  CHECK(c.lobby.adopt_tournament(*row, at(62'000)).cluster.release.empty());
  const auto checked = c.lobby.tick(at(62'100));
  CHECK(checked.cluster.read_games == std::vector<GameId>{std::stoll(game)});
  CHECK(c.lobby.tick(at(62'200)).cluster.read_games.empty());  // not again at once
  GameRow over;
  over.id = std::stoll(game);
  over.result = GameResult{Color::White, EndReason::Resign};
  const auto scored = c.lobby.tournament_reads({}, {over}, at(63'000));
  const auto after = tournament_row(scored);
  REQUIRE(after.has_value());
  const auto t = Tournament::from_json(nlohmann::json::parse(after->state));
  REQUIRE(t.has_value());
  const auto& standings = t->standings();
  REQUIRE(standings.size() == 2);
  CHECK(standings[0].points == 2);  // an arena win
  CHECK(standings[0].wins == 1);
  CHECK(standings[1].losses == 1);
  // The arena pairs them again. Online on no node c knows of, they are read from the database;
  // then the game starts, run by c.
  const auto asks = c.lobby.tick(at(64'000));
  std::vector<std::string> names = asks.cluster.read_players;
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"bob", "carol"});
  CHECK(c.lobby.tick(at(64'100)).cluster.read_players.empty());  // asked once
  PlayerRow bob_row, carol_row;
  bob_row.name = "bob";
  carol_row.name = "carol";
  c.lobby.tournament_reads({bob_row, carol_row}, {}, at(64'500));
  const auto second = c.lobby.tick(at(65'000));
  REQUIRE(second.cluster.acquire.size() == 1);
  CHECK(c.lobby.runs(std::stoll(second.cluster.acquire[0])));
}
