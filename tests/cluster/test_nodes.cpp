// A cluster of real amazons-server nodes (--cluster) on loopback, sharing a real PostgreSQL and a
// real Redis that the test starts: games between players on different nodes, spectators on a
// third, the same lobby from every node, moderation, kept offers and tournaments across nodes,
// nodes racing for one name and one seek, and the settings as Redis sees them. What happens
// when a node or Redis fails is in test_nodes_failover.cpp.
#include <doctest/doctest.h>

#include "tests/cluster/cluster_nodes.h"

using namespace amazons;
using namespace amazons::protocol;
using namespace amazons::test::cluster_nodes;

TEST_SUITE("redis") {
  TEST_SUITE("postgres") {
    TEST_CASE("cluster: a game between players on two nodes, watched from a third") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);
      carol->send(Watch{t.game, std::nullopt});
      const auto state = wait_for<State>(*carol);
      CHECK(state.status == GameStatus::Active);
      CHECK(state.white->name == "alice");
      CHECK(state.black->name == "bob");
      t.play_turns(6, *alice, *bob, {&*carol});
      // Node a runs the game (alice created it there): bob's three moves went from b to a. The
      // figures reach /metrics at the next tick.
      CHECK(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") >= 1; }));
      CHECK(metric(c.port("c"), "amazons_cluster_leases") == 0);
      CHECK(
          eventually([&] { return metric(c.port("b"), "amazons_cluster_forwarded_total") >= 3; }));
      CHECK(eventually([&] { return metric(c.port("a"), "amazons_cluster_received_total") >= 3; }));
      CHECK(metric(c.port("a"), "amazons_cluster_forwarded_total") == 0);
      // Chat from the spectator's node reaches both players.
      carol->send(ChatSend{t.game, "nice game"});
      CHECK(wait_for<Chat>(*alice).text == "nice game");
      CHECK(wait_for<Chat>(*bob).from == "carol");
      CHECK(wait_for<Chat>(*carol).text == "nice game");
      bob->send(Resign{t.game});
      for (Client* cl : {&*alice, &*bob, &*carol}) {
        const auto end = wait_for<End>(*cl);
        CHECK(end.winner == Color::White);
        CHECK(end.reason == EndReason::Resign);
      }
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // A refused request from another node comes back with its reason.
      bob->send(MoveMsg{t.game, t.moves.front()});
      CHECK(wait_for<Error>(*bob).code == ErrorCode::GameNotActive);
    }

    TEST_CASE("cluster: your turn lists a player's correspondence games on every node") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      // Bob, on node b, plays one game node a runs and one node c runs.
      Table with_alice = start_game(alice, bob, false, per_day);
      Table with_carol = start_game(carol, bob, false, per_day);
      with_alice.play(*alice, *bob);
      with_carol.play(*carol, *bob);
      // He is to move in both: his node lists both, as the nodes running them told it.
      CHECK(turns_become(*bob, {with_alice.game, with_carol.game}));
      bob->send(Turns{});
      std::set<std::string> asked;
      for (const auto& t : wait_for<YourTurn>(*bob).games) {
        asked.insert(t.game);
        CHECK(t.left_ms > 23LL * 3600 * 1000);
        CHECK(t.opponent == (t.game == with_alice.game ? "alice" : "carol"));
      }
      CHECK(asked == std::set<std::string>{with_alice.game, with_carol.game});
      // He answers alice: only carol's game waits for him.
      with_alice.play(*bob, *alice);
      CHECK(turns_become(*bob, {with_carol.game}));
      // Back on another node, he is told again, by the node that runs it.
      bob.resume(c.port("a"));
      CHECK(turns_become(*bob, {with_carol.game}));
    }

    TEST_CASE("cluster: a moderator on one node mutes, kicks and bans players on the others") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player mod("mod", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      const auto [status, out] = test::PgServer::shell(
          std::string(test::kServerBinary) + " admin grant mod moderator --db '" + c.db + "' 2>&1");
      REQUIRE_MESSAGE(status == 0, out);
      Table t = start_game(carol, bob);  // node c runs it; bob plays from b
      // Every node reads the roles from the database every 2 s: the moderator's request is
      // refused (forbidden) until the node that takes it has.
      const auto until_allowed = [&](const ClientMessage& request) {
        for (int i = 0; i < 40; ++i) {
          mod->send(request);
          const auto reply = wait_for_envelope<Ok>(*mod, Millis{10'000}, ErrorCode::Forbidden);
          if (std::holds_alternative<Ok>(reply.message)) return true;
          std::this_thread::sleep_for(Millis{150});
        }
        return false;
      };
      REQUIRE(until_allowed(Mute{"bob", 3600, "spam"}));
      // The mute, decided on a, holds on c, where bob's chat goes.
      bool muted = false;
      for (int i = 0; i < 10 && !muted; ++i) {  // a second apart: within the chat rate limit
        bob->send(ChatSend{t.game, "hi"});
        for (;;) {
          const auto env = bob->next();
          if (const auto* e = std::get_if<Error>(&env.message)) {
            CHECK(e->code == ErrorCode::Muted);
            CHECK(e->reason == "spam");
            muted = true;
            break;
          }
          if (std::holds_alternative<Chat>(env.message)) break;
        }
        if (!muted) std::this_thread::sleep_for(Millis{1'000});
      }
      CHECK(muted);
      // Bob reports a line of carol's from b; it is filed on c, which keeps the line, and the
      // moderator on a sees it and removes the line.
      carol->send(ChatSend{t.game, "rude words"});
      const auto line = wait_for<Chat>(*bob).line.value();
      bob->send(Report{std::nullopt, line, "rude"});
      wait_for<Ok>(*bob);
      CHECK(eventually([&] {
        mod->send(ReportsRequest{});
        const auto list = wait_for<ReportList>(*mod);
        return list.reports.size() == 1 && list.reports[0].player == "carol" &&
               list.reports[0].text == "rude words";
      }));
      REQUIRE(until_allowed(RemoveChat{line, "rude"}));
      CHECK(wait_for<ChatRemoved>(*bob).line == line);
      CHECK(wait_for<ChatRemoved>(*carol).line == line);
      // A kick of bob, connected to b.
      mod->send(Kick{"bob", "cool off"});
      wait_for<Ok>(*mod);
      const auto kicked = wait_for<Error>(*bob);
      CHECK(kicked.code == ErrorCode::Kicked);
      CHECK(bob->closed_by_server());
      // A ban of carol's name, connected to c: closed with the reason, and refused on b.
      Ban ban;
      ban.player = "carol";
      ban.reason = "cheating";
      mod->send(ban);
      wait_for<Ok>(*mod);
      const auto banned = wait_for<Error>(*carol);
      CHECK(banned.code == ErrorCode::Banned);
      CHECK(banned.reason == "cheating");
      CHECK(carol->closed_by_server());
      // The ban reaches b over the bus, as it reached c: b may take it a moment after c closed
      // her (under load it welcomed her once and the test waited 10 s for an error). Come back
      // until b refuses, as a client would; b must refuse within 5 s.
      std::optional<Error> refused;
      for (int i = 0; i < 50 && !refused; ++i) {
        Client again(c.port("b"));
        again.send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"token\":\"" +
                   carol.token + "\"}");
        const auto first = again.next();
        if (const auto* e = std::get_if<Error>(&first.message))
          refused = *e;
        else
          std::this_thread::sleep_for(Millis{100});
      }
      REQUIRE(refused.has_value());
      CHECK(refused->code == ErrorCode::Banned);
    }

    TEST_CASE(
        "cluster: kept offers outlive their creator's connection and their node: an open game, a "
        "challenge and a seek") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});
      // Alice, on node a, leaves a correspondence game open and challenges dave, who is away.
      // (Registered players: only they keep offers while away.)
      {
        Player dave("dave", c.port("c"), true);  // known to the cluster, then gone
      }
      Player alice("alice", c.port("a"), true);
      Create create;
      create.time = per_day;
      create.color = ColorChoice::White;
      alice->send(create);
      const std::string game = wait_for<Created>(*alice).game;
      ChallengeSend challenge;
      challenge.player = "dave";
      challenge.time = per_day;
      alice->send(challenge);
      const std::string challenge_id = wait_for<ChallengeSent>(*alice).challenge;
      alice.client.reset();
      // Then node a dies: another node takes both over from the database.
      c.nodes.at("a")->stop(SIGKILL);
      Player bob("bob", c.port("b"));
      const auto listed = [&] {
        bob->send(List{});
        for (const auto& g : wait_for<Games>(*bob).games)
          if (g.game == game) return true;
        return false;
      };
      REQUIRE_MESSAGE(eventually(listed, Millis{20'000}), "alice's open game is not listed");
      // The list may come from the directory before the takeover has landed: until then a join
      // is answered `unavailable` (its node is dead), and bob asks again, as a client does.
      std::optional<Start> joined;
      const auto join = [&] {
        bob->send(Join{game, std::nullopt});
        const auto env = wait_for_envelope<Start>(*bob, Millis{10'000}, ErrorCode::Unavailable);
        if (const auto* s = std::get_if<Start>(&env.message)) joined = *s;
        return joined.has_value();
      };
      REQUIRE_MESSAGE(eventually(join, Millis{20'000}), "bob could not join alice's game");
      const Start start = *joined;
      CHECK(start.color == Color::Black);
      CHECK(start.white.name == "alice");
      // Dave comes back on node c: the node holding the challenge now tells him, and he accepts.
      Player dave("dave", c.port("c"), true);
      const auto received = wait_for<ChallengeReceived>(*dave, Millis{15'000});
      CHECK(received.challenge == challenge_id);
      CHECK(received.from.name == "alice");
      dave->send(Accept{challenge_id});
      const auto accepted = wait_for<Start>(*dave);
      CHECK(std::set<std::string>{accepted.white.name, accepted.black.name} ==
            std::set<std::string>{"alice", "dave"});
      // A correspondence seek waits in the queue while its player is away, and pairs then.
      Player carol("carol", c.port("b"), true);
      Seek seek;
      seek.time = per_day;
      carol->send(seek);
      wait_for<Seeking>(*carol);
      carol.client.reset();
      std::this_thread::sleep_for(Millis{300});  // her node has seen her go
      Player erin("erin", c.port("c"));
      erin->send(seek);
      const auto paired = wait_for<Start>(*erin);
      CHECK((paired.white.name == "carol" || paired.black.name == "carol"));
      // A real-time seek goes with its player's connection.
      Player fay("fay", c.port("b"));
      Seek quick;
      quick.time = TimeControl::fischer(Millis{60'000}, Millis{0});
      fay->send(quick);
      wait_for<Seeking>(*fay);
      fay.client.reset();
      std::this_thread::sleep_for(Millis{300});
      Player gus("gus", c.port("c"));
      gus->send(quick);
      wait_for<Seeking>(*gus);
      // A kept seek outlives its node too: hal's waits through node b, and b dies. Once b is
      // reaped (its seeks dropped from the queue), node c puts hal's back from its row, and ivy,
      // seeking on c, is paired with him.
      Player hal("hal", c.port("b"), true);
      hal->send(seek);
      wait_for<Seeking>(*hal);
      hal.client.reset();
      c.nodes.at("b")->stop(SIGKILL);
      const auto seeks_through = [&] {
        auto [status, out] = c.redis.cli("HGET amz:seekers hal");
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
        const auto tab = out.rfind('\t');
        return tab == std::string::npos ? std::string() : out.substr(tab + 1);
      };
      REQUIRE(seeks_through() == "b");
      REQUIRE_MESSAGE(eventually([&] { return seeks_through() == "c"; }, Millis{20'000}),
                      "hal's seek was not put back through node c");
      Player ivy("ivy", c.port("c"));
      ivy->send(seek);
      const auto met = wait_for<Start>(*ivy);
      CHECK(std::set<std::string>{met.white.name, met.black.name} ==
            std::set<std::string>{"hal", "ivy"});
      CHECK(c.log("c").find("event=seek_taken_over") != std::string::npos);
    }

    TEST_CASE("cluster: a player's two rated games ending on two nodes both count") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("b"));
      // Alice's game with Bob is run by node a (she created it there), her game with Carol by
      // node b. Each node rates its game from what it knows of Alice: 1500, no games.
      const std::string with_bob = start_game(alice, bob, true).game;
      const std::string with_carol = start_game(carol, alice, true).game;
      bob->send(Resign{with_bob});
      carol->send(Resign{with_carol});
      int change = 0;
      for (int i = 0; i < 2; ++i) {
        const auto end = wait_for<End>(*alice);
        REQUIRE(end.white_rating.has_value());
        REQUIRE(end.black_rating.has_value());
        change += end.game == with_bob ? end.white_rating->change : end.black_rating->change;
      }
      CHECK(change > 0);
      // Both results are in the database: written as values, the second would undo the first.
      CHECK(eventually([&] {
        server::PgStorage storage(c.db);
        const auto row = storage.player("alice");
        return row && row->rated_games == 2 &&
               std::abs(row->rating.rating - (1500.0 + change)) <= 1.0;
      }));
    }

    TEST_CASE("cluster: every node answers the lobby the same") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);
      t.play(*alice, *bob);
      Create open;
      open.rated = true;
      carol->send(open);
      wait_for<Created>(*carol);
      // Every node's directory reaches the others within a second or so.
      std::string seen[3];
      REQUIRE(eventually([&] {
        seen[0] = lobby_of(*alice);
        seen[1] = lobby_of(*bob);
        seen[2] = lobby_of(*carol);
        return seen[0] == seen[1] && seen[1] == seen[2];
      }));
      MESSAGE("the lobby on every node: " << seen[0]);
      CHECK(seen[0].find(t.game + ":active:1 ") != std::string::npos);
      CHECK(seen[0].find("alice:1 bob:1 carol:0") != std::string::npos);
      CHECK(seen[0].find(":open:0") != std::string::npos);
      // The archive and the leaderboard come from the shared database.
      bob->send(Resign{t.game});
      wait_for<End>(*alice);
      wait_for<End>(*bob);
      std::string boards[3], histories[3];
      Client* clients[] = {&*alice, &*bob, &*carol};
      for (int i = 0; i < 3; ++i) {
        clients[i]->send(LeaderboardRequest{});
        boards[i] = encode(ServerMessage{wait_for<Leaderboard>(*clients[i])});
        clients[i]->send(HistoryRequest{std::string("alice"), 10});
        histories[i] = encode(ServerMessage{wait_for<History>(*clients[i])});
      }
      CHECK(boards[0] == boards[1]);
      CHECK(boards[1] == boards[2]);
      CHECK(histories[0] == histories[1]);
      CHECK(histories[1] == histories[2]);
      CHECK(histories[0].find("\"game\":\"" + t.game + "\"") != std::string::npos);
      // A player only known to another node's database row is known everywhere.
      carol->send(HistoryRequest{std::string("nobody"), 10});
      CHECK(wait_for<Error>(*carol).code == ErrorCode::NoSuchPlayer);
    }

    TEST_CASE(
        "cluster: a tournament directed by one node is played on the others and outlives its "
        "director") {
      Cluster c;
      nlohmann::json config = kConfig;
      config["limits"]["players_create_tournaments"] = true;
      c.start("a", config);
      c.start("b", config);
      c.start("c", config);
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      // Created on a, which directs it; joined from b and c.
      TournamentCreate create;
      create.name = "Cluster arena";
      create.kind = "arena";
      create.rated = false;
      create.time = TimeControl::fischer(Millis{300'000}, Millis{0});
      create.start_in = 2;
      create.duration = 600;
      alice->send(create);
      const std::int64_t id = wait_for<TournamentInfo>(*alice).tournament.id;
      for (Player* p : {&bob, &carol}) {
        (*p)->send(TournamentJoin{id});
        wait_for<Ok>(**p);
      }
      // Every node lists it the same, from the shared database.
      const auto listed = [&](Player& p) {
        p->send(TournamentsRequest{});
        for (const auto& t : wait_for<TournamentList>(*p).tournaments)
          if (t.id == id) return t.status + ":" + std::to_string(t.players);
        return std::string("missing");
      };
      for (Player* p : {&alice, &bob, &carol}) CHECK(listed(*p) == "created:2");

      // At its start a pairs bob and carol; each hears of it on their own node.
      const auto seat = [](Player& p) {
        const auto start = wait_for<Start>(*p, Millis{15'000});
        return std::pair{start.game, start.color};
      };
      const auto [game, bob_color] = seat(bob);
      CHECK(seat(carol).first == game);
      Player& white = bob_color == Color::White ? bob : carol;
      Player& black = bob_color == Color::White ? carol : bob;
      black->send(Resign{game});
      CHECK(wait_for<End>(*white).winner == Color::White);
      // The arena pairs them again at once; the standings count the first game.
      const auto [again, again_color] = seat(bob);
      CHECK(again != game);
      // The first game's winner loses this one: each then has a win.
      Player& loser = white.name == "bob" ? bob : carol;
      Player& winner = white.name == "bob" ? carol : bob;
      const Color winner_color =
          (winner.name == "bob") == (again_color == Color::White) ? Color::White : Color::Black;
      for (Player* p : {&alice, &bob, &carol}) CHECK(listed(*p) == "running:2");

      // The director dies, with the second game, which it runs too. Both come back on their
      // nodes; the game and the tournament are taken over, and the game is finished there.
      c.nodes.at("a")->stop(SIGKILL);
      bob.resume_game(c.port("b"), again);
      carol.resume_game(c.port("c"), again);
      loser->send(Resign{again});
      CHECK(wait_for<End>(*winner, Millis{15'000}).winner == winner_color);

      // Whichever node took the tournament over scores the game, and every node shows it so.
      // Until the tournament's takeover has landed, asking for it is answered `unavailable`: its
      // node is dead (-1 here).
      const auto finished_games = [&](Player& p) {
        p->send(TournamentShow{id});
        const auto env =
            wait_for_envelope<TournamentInfo>(*p, Millis{30'000}, ErrorCode::Unavailable);
        const auto* info = std::get_if<TournamentInfo>(&env.message);
        if (!info) return -1;
        int finished = 0;
        for (const auto& pairing : info->pairings) finished += pairing.state == "finished";
        return finished;
      };
      CHECK(eventually([&] { return finished_games(bob) == 2; }, Millis{20'000}));
      CHECK(eventually([&] { return finished_games(carol) == 2; }));
      bob->send(TournamentShow{id});
      const auto info = wait_for<TournamentInfo>(*bob);
      REQUIRE(info.standings.size() == 2);
      CHECK(info.standings[0].wins == 1);
      CHECK(info.standings[1].wins == 1);
      CHECK(info.standings[0].points + info.standings[1].points == 4);
      const bool taken_over = c.log("b").find("event=tournament_taken_over") != std::string::npos ||
                              c.log("c").find("event=tournament_taken_over") != std::string::npos;
      CHECK(taken_over);
    }

    TEST_CASE("cluster: nodes racing for one name and one seek: exactly one wins each") {
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      const char* nodes[] = {"a", "b", "c"};
      for (int round = 0; round < 5; ++round) {
        const std::string name = "zed" + std::to_string(round);
        std::vector<std::unique_ptr<Client>> racers;
        for (const char* n : nodes) racers.push_back(std::make_unique<Client>(c.port(n)));
        for (auto& r : racers) r->send(R"({"type":"hello","protocol":1,"name":")" + name + R"("})");
        const auto race = answers_to_hello(racers);
        CHECK(race.welcomed == 1);
        CHECK(race.refused == 2);
      }
      // Six seekers on three nodes at once: three games, each seeker in exactly one.
      std::vector<std::unique_ptr<Player>> seekers;
      for (int i = 0; i < 6; ++i)
        seekers.push_back(std::make_unique<Player>("s" + std::to_string(i), c.port(nodes[i % 3])));
      Seek seek;
      seek.time = TimeControl::fischer(Millis{60'000}, Millis{0});
      for (auto& p : seekers) (*p)->send(seek);
      std::map<std::string, std::vector<std::string>> games;
      for (auto& p : seekers) {
        const auto start = wait_for<Start>(**p);
        games[start.game].push_back(p->name);
      }
      CHECK(games.size() == 3);
      for (const auto& [game, players] : games) CHECK(players.size() == 2);
    }

    TEST_CASE("cluster: look-alike names are one name on every node") {
      Cluster c;
      c.start("a");
      c.start("b");
      // Guests racing on two nodes with names that differ only in case and a trailing dot.
      for (int round = 0; round < 3; ++round) {
        const std::string names[] = {"Zed" + std::to_string(round),
                                     "zED" + std::to_string(round) + "."};
        Client on_a(c.port("a")), on_b(c.port("b"));
        on_a.send(R"({"type":"hello","protocol":1,"name":")" + names[0] + R"("})");
        on_b.send(R"({"type":"hello","protocol":1,"name":")" + names[1] + R"("})");
        const auto race = answers_to_hello(std::vector<Client*>{&on_a, &on_b});
        CHECK(race.welcomed == 1);
        CHECK(race.refused == 1);
      }
      // An account made on one node keeps its look-alikes off every node, connected or not.
      {
        Client reg(c.port("a"));
        reg.hello("reg", R"(,"password":"secret")");
      }
      for (const char* node : {"a", "b"}) {
        for (const std::string name : {"Reg", "REG.", "reg_"}) {
          CAPTURE(node);
          CAPTURE(name);
          Client look_alike(c.port(node));
          look_alike.send(R"({"type":"hello","protocol":1,"name":")" + name + R"("})");
          const auto e = wait_for<Error>(look_alike);
          CHECK(e.code == ErrorCode::NameTaken);
          CHECK(e.message.find("too like \"reg\"") != std::string::npos);
        }
      }
    }

    TEST_CASE(
        "cluster: the settings reach Redis: lease, heartbeat and name lifetimes, the key prefix, "
        "the advertised address") {
      Cluster c;
      // Each lifetime below its default (lease 5 s, heartbeat 5 s, name 15 s) and apart from
      // the others, so that each reading can only come from its own setting.
      const nlohmann::json config = {
          {"cluster",
           {{"lease_seconds", 3}, {"node_seconds", 4}, {"name_seconds", 7}, {"prefix", "t9:"}}}};
      c.start("a", config, {"--advertise", "192.0.2.7:7999"});
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("a"));
      const Table t = start_game(alice, bob);
      const auto pttl = [&](const std::string& key) {
        const auto [status, out] = c.redis.cli("PTTL " + key);
        REQUIRE(status == 0);
        return std::stoll(out);
      };
      // One lease for the node (its token names it), and the game a field of that lease's hash.
      // The node records the game on its Redis thread after the game has started (the players'
      // start does not wait for it): wait for the field before reading the lease's lifetime.
      const auto leases = c.redis.cli("KEYS 't9:nodelease:*'").second;
      REQUIRE(leases.find("t9:nodelease:") == 0);
      const std::string token = leases.substr(13, leases.find_first_of("\r\n") - 13);
      REQUIRE_MESSAGE(eventually([&] {
                        return c.redis.cli("HGET t9:owns:" + token + " " + t.game).second ==
                               token + "\n";
                      }),
                      "the game never reached its node's lease");
      const auto lease = pttl("t9:nodelease:" + token);
      CHECK(lease > 0);
      CHECK(lease <= 3000);
      // A name lives as long as its node's lease: no TTL of its own while the node runs (the
      // name's lifetime applies once the node is dead, below).
      CHECK(pttl("t9:name:alice") == -1);
      // Nothing under the default prefix.
      CHECK(c.redis.cli("KEYS 'amz:*'").second.find("amz:") == std::string::npos);
      cluster::Redis redis(*cluster::parse_redis_url(c.redis.url()));
      cluster::Membership members(redis, "probe", Millis{1000}, "t9:");
      const auto live = members.live();
      REQUIRE(live.has_value());
      REQUIRE(live->size() == 1);
      CHECK(live->front().node == "a");
      CHECK(live->front().address == "192.0.2.7:7999");
      CHECK(live->front().expires_in > Millis{0});
      CHECK(live->front().expires_in <= Millis{4000});
      CHECK(live->front().expires_in > Millis{3000} - Millis{1500});  // renewed every ttl/3
      // Node a dies; node b claims its lease once it runs out, and a's players' names free
      // themselves name_seconds later.
      c.nodes.at("a")->stop(SIGKILL);
      c.start("b", config);
      REQUIRE_MESSAGE(eventually([&] { return pttl("t9:name:alice") > 0; }),
                      "node a's names were never given their lifetime");
      const auto name = pttl("t9:name:alice");
      CHECK(name > 3000);
      CHECK(name <= 7000);
    }
  }  // TEST_SUITE("postgres")
}  // TEST_SUITE("redis")
