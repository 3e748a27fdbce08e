// A cluster whose parts fail, on loopback with a real PostgreSQL and Redis: a node SIGKILLed
// mid-game, a node's lease and what Redis does for it, a takeover slower than a lease, Redis
// restarted empty or out of reach, and a message lost on the bus.
#include <doctest/doctest.h>

#include "tests/cluster/cluster_nodes.h"

using namespace amazons;
using namespace amazons::protocol;
using namespace amazons::test::cluster_nodes;

TEST_SUITE("redis") {
  TEST_SUITE("postgres") {
    TEST_CASE("cluster: the node running a game is killed, and the game goes on on another") {
      // Bob and Carol follow the game through nodes that stay alive, with clients that never
      // reconnect: their connections stay open through the failover, and the game comes back to
      // them from the node that takes it over.
      Cluster c;
      c.start("a");
      c.start("b");
      c.start("c");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Player carol("carol", c.port("c"));
      Table t = start_game(alice, bob);  // node a runs it: alice created it there
      carol->send(Watch{t.game, std::nullopt});
      wait_for<State>(*carol);
      t.play_turns(3, *alice, *bob, {&*carol});
      // Black to move with its clock running; what it had left when its node died.
      bob->send(Watch{t.game, std::nullopt});
      const auto before = wait_for<State>(*bob);
      REQUIRE(before.clock.has_value());
      REQUIRE(before.to_move == Color::Black);

      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      // Bob moves at once: the move cannot reach the dead node, and is answered `unavailable`
      // (docs/PROTOCOL.md), neither lost nor left waiting. His connection stays open, the game's
      // state comes to it once another node has taken the game over, and he moves again.
      MoveList list;
      generate_moves(t.pos, list);
      const Move early = list[t.moves.size() * 7 % list.size()];
      bob->send(MoveMsg{t.game, to_string(early)}, nlohmann::json("early"));
      std::optional<Millis> refused, took;
      std::optional<State> state;
      bool moved = false;
      for (const auto deadline = Clock::now() + Millis{15'000};
           !moved && Clock::now() < deadline;) {
        const auto line = bob->raw().read_line(Millis{500});
        if (!line) {
          REQUIRE_FALSE(bob->raw().closed());
          continue;
        }
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        const auto since_kill = std::chrono::duration_cast<Millis>(Clock::now() - killed);
        if (std::holds_alternative<Ping>(env->message)) bob->send(Pong{});
        if (const auto* e = std::get_if<Error>(&env->message)) {
          REQUIRE_MESSAGE(!refused, "refused twice: " << e->message);
          CHECK(e->code == ErrorCode::Unavailable);
          CHECK(e->game == t.game);
          CHECK(env->id == nlohmann::json("early"));
          refused = since_kill;
        }
        // (A second state may come: the watch he asked for above is asked for again too.)
        if (const auto* st = std::get_if<State>(&env->message);
            st && st->game == t.game && !state) {
          REQUIRE_MESSAGE(refused, "the game came back before the early move was answered");
          state = *st;
          took = since_kill;
          bob->send(MoveMsg{t.game, to_string(early)}, nlohmann::json("again"));
        }
        if (const auto* m = std::get_if<Moved>(&env->message); m && m->game == t.game) {
          REQUIRE(state.has_value());
          CHECK(env->id == nlohmann::json("again"));
          CHECK(m->move == to_string(early));
          moved = true;
        }
      }
      REQUIRE(moved);
      MESSAGE("the early move was refused " << refused->count() << " ms after the kill, the game "
                                            << "was back after " << took->count() << " ms");
      CHECK(*took < Millis{2000 + 6000});  // the lease's 2 s and the takeover's few seconds
      CHECK(state->moves == t.moves);      // every acknowledged move
      CHECK(state->status == GameStatus::Active);
      // The time the game had no node was charged to nobody.
      REQUIRE(state->clock.has_value());
      CHECK(state->clock->black >= before.clock->black - 1500);
      CHECK(state->clock->white == before.clock->white);
      t.pos.do_move(early);
      t.moves.push_back(to_string(early));
      // Carol watched through node c: she is watching again, on the same connection, once her
      // node has seen a gone (the state has Bob's move in it if it was played by then).
      const auto again = wait_for<State>(*carol);
      CHECK(again.game == t.game);
      CHECK_FALSE(again.color.has_value());
      if (again.moves.size() < t.moves.size()) {
        CHECK(again.moves.size() + 1 == t.moves.size());
        CHECK(wait_for<Moved>(*carol).move == to_string(early));
      } else {
        CHECK(again.moves == t.moves);
      }

      // Alice's connection went with node a: she comes back on another.
      alice.resume_game(c.port("c"), t.game);
      t.play_turns(4, *alice, *bob, {&*carol});
      alice->send(Resign{t.game});
      CHECK(wait_for<End>(*bob).winner == Color::Black);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      const bool by_b = c.log("b").find("event=game_taken_over") != std::string::npos;
      const bool by_c = c.log("c").find("event=game_taken_over") != std::string::npos;
      CHECK(by_b != by_c);
      // Either way Bob was told: by his own node, or by c through his (Lobby::adopt).
      MESSAGE("node " << (by_b ? "b" : "c") << " took the game over");
      CHECK(eventually([&] {
        return metric(c.port("b"), "amazons_cluster_takeovers_total") +
                   metric(c.port("c"), "amazons_cluster_takeovers_total") ==
               1;
      }));
    }

    TEST_CASE("cluster: a move that its game's node took in but never read is answered") {
      // Node a is frozen, so that Redis hands it Bob's move and it never reads it, and then
      // killed. Bob's node b heard nothing back: once it finds nobody listening on a's channel
      // (its next tick there), it answers the move `unavailable` instead of leaving Bob waiting
      // for an answer that will never come.
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it
      t.play_turns(1, *alice, *bob);     // Black to move
      const double forwarded = metric(c.port("b"), "amazons_cluster_forwarded_total");
      REQUIRE(c.nodes.at("a")->freeze());
      MoveList list;
      generate_moves(t.pos, list);
      const std::string move = to_string(list[0]);
      bob->send(MoveMsg{t.game, move}, nlohmann::json("unread"));
      REQUIRE(eventually(
          [&] { return metric(c.port("b"), "amazons_cluster_forwarded_total") > forwarded; }));
      c.nodes.at("a")->stop(SIGKILL);
      // The answer and the game's state, from b once it has taken the game over, in either
      // order; then Bob moves again.
      bool refused = false, again = false, moved = false;
      std::optional<State> state;
      for (const auto deadline = Clock::now() + Millis{15'000};
           !moved && Clock::now() < deadline;) {
        const auto line = bob->raw().read_line(Millis{500});
        if (!line) {
          REQUIRE_FALSE(bob->raw().closed());
          continue;
        }
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        if (std::holds_alternative<Ping>(env->message)) bob->send(Pong{});
        if (const auto* e = std::get_if<Error>(&env->message)) {
          REQUIRE_MESSAGE(!refused, "refused twice: " << e->message);
          CHECK(e->code == ErrorCode::Unavailable);
          CHECK(e->game == t.game);
          CHECK(env->id == nlohmann::json("unread"));
          refused = true;
        }
        if (const auto* st = std::get_if<State>(&env->message); st && st->game == t.game)
          state = *st;
        if (const auto* m = std::get_if<Moved>(&env->message); m && m->game == t.game) {
          CHECK(env->id == nlohmann::json("again"));
          CHECK(m->move == move);
          moved = true;
        }
        if (refused && state && !again) {
          CHECK(state->moves == t.moves);  // the unread move was never played
          bob->send(MoveMsg{t.game, move}, nlohmann::json("again"));
          again = true;
        }
      }
      CHECK(refused);
      REQUIRE(moved);
    }

    TEST_CASE(
        "cluster: Redis's commands do not grow with a node's games, and its death hands them all "
        "over") {
      // Each node holds one lease whatever it runs (cluster/node_lease.h). The rate is counted
      // in Redis's own counters (INFO commandstats, scripts' commands included) over a window
      // measured in the nodes' heartbeats (each one ZADD, every node_seconds / 3), so that the
      // test waits on what Redis counts, not on a clock.
      Cluster c;
      nlohmann::json config = kConfig;
      config["limits"]["open_games_per_player"] = 100;
      config["limits"]["requests_burst"] = 1000;
      c.start("a", config);
      c.start("b", config);
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it
      const auto open_games = [&](int n) {
        for (int i = 0; i < n; ++i) {
          alice->send(Create{});
          wait_for<Created>(*alice);
        }
      };
      const auto stats = [&] {
        const auto [status, out] = c.redis.cli("INFO commandstats");
        REQUIRE(status == 0);
        std::map<std::string, long long> calls;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);) {
          const auto colon = line.find(':'), at = line.find("calls=");
          if (!line.starts_with("cmdstat_") || colon == std::string::npos ||
              at == std::string::npos)
            continue;
          calls[line.substr(8, colon - 8)] = std::atoll(line.c_str() + at + 6);
        }
        return calls;
      };
      const auto per_heartbeat = [&] {
        const auto before = stats();
        const auto beats = [&](const std::map<std::string, long long>& now) {
          const auto was = before.find("zadd");
          return now.at("zadd") - (was == before.end() ? 0 : was->second);
        };
        REQUIRE(eventually([&] { return beats(stats()) >= 12; }, Millis{20'000}));
        const auto after = stats();
        long long commands = 0;
        for (const auto& [command, calls] : after) {
          if (command == "info") continue;  // this test's own
          const auto was = before.find(command);
          commands += calls - (was == before.end() ? 0 : was->second);
        }
        return static_cast<double>(commands) / static_cast<double>(beats(after));
      };
      open_games(3);
      REQUIRE(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") == 4; }));
      const double few = per_heartbeat();
      open_games(36);
      REQUIRE(eventually([&] { return metric(c.port("a"), "amazons_cluster_leases") == 40; }));
      const double many = per_heartbeat();
      MESSAGE("Redis commands per heartbeat: " << few << " with 4 games on node a, " << many
                                               << " with 40");
      // With a lease per game, the 36 more would have cost 36 renewals (three commands each)
      // every third of a lease: some 50 more commands per heartbeat.
      CHECK(many < few * 1.3);

      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      const State state = bob.resume_game(c.port("b"), t.game);
      const auto took = std::chrono::duration_cast<Millis>(Clock::now() - killed);
      MESSAGE("the game was back " << took.count() << " ms after its node was killed");
      CHECK(took < Millis{2000 + 5000});  // the lease's 2 s, then within 5 s
      CHECK(state.status == GameStatus::Active);
      alice.resume_game(c.port("b"), t.game);
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // Node b claimed the dead lease whole: all 40 keys in one script.
      CHECK(c.log("b").find("event=lease_claimed node=a") != std::string::npos);
      CHECK(c.log("b").find("keys=40") != std::string::npos);
      CHECK(c.log("b").find("event=game_taken_over game=" + t.game) != std::string::npos);
    }

    TEST_CASE(
        "cluster: a takeover that waits for storage longer than a lease lasts keeps its lease") {
      // In a large failover a node reads hundreds of games one after another, so the last reads
      // wait longer than a lease lasts (2 s here). Here the one read waits for a row lock the test
      // holds until 9 s after the kill: the taking node must renew the lease while it waits, not
      // adopt the game with a lease that ran out, drop it and let it be taken over a second time.
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it: alice created it there
      t.play_turns(2, *alice, *bob);

      pqxx::connection lock_holder(c.db);
      pqxx::work lock(lock_holder);
      lock.exec("SELECT id FROM games WHERE id = " + t.game + " FOR UPDATE");
      const auto killed = Clock::now();
      c.nodes.at("a")->stop(SIGKILL);
      // Node b sees the lease run out (2 s), takes it a moment later, and its read waits for the
      // lock until 9 s: longer than two leases.
      std::this_thread::sleep_until(killed + Millis{9000});
      lock.commit();

      alice.resume_game(c.port("b"), t.game);
      bob.resume_game(c.port("b"), t.game);
      // Past two more leases: a node that adopted the game under a lease that had run out drops
      // it by now (and its players are told to reconnect).
      std::this_thread::sleep_for(Millis{4000});
      INFO("node b logged:\n" << c.log("b"));
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
      CHECK(c.log("b").find("event=game_taken_over game=" + t.game) != std::string::npos);
      CHECK(c.log("b").find("event=lease_expired") == std::string::npos);
      CHECK(c.log("b").find("event=lease_lost") == std::string::npos);
      // One takeover, one token after the nodes' leases (1 for a, 2 for b, each drawn when the
      // node started): b's claim of a's lease drew 3, and the game was not dropped and taken
      // again, which would have drawn another.
      {
        pqxx::connection check(c.db);
        pqxx::nontransaction q(check);
        CHECK(q.exec1("SELECT owner_token FROM games WHERE id = " + t.game)[0].as<int>() == 3);
      }
      CHECK(
          eventually([&] { return metric(c.port("b"), "amazons_cluster_takeovers_total") == 1; }));
    }

    TEST_CASE("cluster: Redis restarted empty mid-game costs nobody the game") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);
      t.play_turns(2, *alice, *bob);
      c.redis.kill();
      c.redis.restart();
      // The nodes see Redis come back without their leases, names and heartbeats, and put them
      // back.
      REQUIRE(eventually([&] {
        return c.log("a").find("event=recovered") != std::string::npos &&
               c.log("b").find("event=recovered") != std::string::npos;
      }));
      REQUIRE(eventually([&] { return ready(c.port("a")) && ready(c.port("b")); }));
      // Under load the restart costs more than a pause, and each cost is one a client knows how
      // to pay: what a node published while the other's subscription was down is lost, and the
      // other closes the connections that relied on it (`bus_gap`); a lease that could not be
      // renewed in time runs out, and node b takes the game over ("moved to another server:
      // reconnect"). Either way the player comes back, finds the game, and goes on.
      const auto play_surely = [&](Player& mover, unsigned short mover_port, Player& other,
                                   unsigned short other_port) {
        MoveList list;
        generate_moves(t.pos, list);
        const Move m = list[t.moves.size() * 7 % list.size()];
        const std::string text = to_string(m);
        // Reads `who`'s lines until `text` is heard, or the connection closes, or `who` is told
        // to come back; false unless heard.
        const auto hears = [&](Player& who) {
          const auto deadline = Clock::now() + Millis{10'000};
          while (Clock::now() < deadline && !who->raw().closed()) {
            const auto line = who->raw().read_line(Millis{200});
            if (!line) continue;
            const auto env = decode_server(*line);
            REQUIRE(env.has_value());
            if (std::holds_alternative<Ping>(env->message)) who->send(Pong{});
            if (const auto* moved = std::get_if<Moved>(&env->message); moved && moved->move == text)
              return true;
            if (const auto* e = std::get_if<Error>(&env->message)) {
              REQUIRE_MESSAGE(e->code == ErrorCode::Unavailable, encode(env->message));
              return false;
            }
          }
          return false;
        };
        bool played = false;
        for (int attempt = 0; attempt < 5 && !played; ++attempt) {
          mover->send(MoveMsg{t.game, text});
          played = hears(mover);
          if (!played) played = mover.resume_game(mover_port, t.game).moves.size() > t.moves.size();
        }
        REQUIRE_MESSAGE(played, "the move " << text << " was never played");
        t.pos.do_move(m);
        t.moves.push_back(text);
        if (!hears(other)) CHECK(other.resume_game(other_port, t.game).moves == t.moves);
      };
      for (int i = 0; i < 4; ++i) {
        if (i % 2 == 0)
          play_surely(alice, c.port("a"), bob, c.port("b"));
        else
          play_surely(bob, c.port("b"), alice, c.port("a"));
      }
      CHECK(stored_moves(c.db, t.game) == t.moves);
      // The names are held again: a guest cannot take alice's name on the other node.
      Client thief(c.port("b"));
      thief.send(R"({"type":"hello","protocol":1,"name":"alice"})");
      CHECK(wait_for<Error>(thief).code == ErrorCode::NameTaken);
    }

    TEST_CASE(
        "cluster: a message lost on the bus before a quiet spell is noticed, and the game goes "
        "on") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);
      t.play_turns(2, *alice, *bob);
      // Node a runs the game: what it tells bob goes over the bus to b. Every subscriber is cut
      // off, and kept off (no new connection is let in) while alice moves: the lines of that
      // move for bob are published to nobody, and nothing else goes from a to b after them.
      cluster::Redis admin(*cluster::parse_redis_url(c.redis.url()));
      const auto limit = admin.command({"CONFIG", "GET", "maxclients"});
      REQUIRE(limit.has_value());
      REQUIRE(limit->elements.size() == 2);
      REQUIRE(admin.command({"CONFIG", "SET", "maxclients", "1"}).has_value());
      REQUIRE(admin.command({"CLIENT", "KILL", "TYPE", "pubsub"}).has_value());
      MoveList list;
      generate_moves(t.pos, list);
      const std::string lost = to_string(list[0]);
      alice->send(MoveMsg{t.game, lost});
      CHECK(wait_for<Moved>(*alice).move == lost);
      t.pos.do_move(list[0]);
      t.moves.push_back(lost);
      std::this_thread::sleep_for(Millis{1500});
      REQUIRE(admin.command({"CONFIG", "SET", "maxclients", limit->elements[1].str}).has_value());
      // Node b hears from a again (a tick, within a second), sees what it missed and closes
      // bob's connection, which relied on it: his client comes back and finds the move.
      bool heard_move = false;
      const auto deadline = Clock::now() + Millis{5000};
      while (Clock::now() < deadline && !bob->raw().closed()) {
        const auto line = bob->raw().read_line(Millis{200});
        if (!line) continue;
        const auto env = decode_server(*line);
        REQUIRE(env.has_value());
        if (std::holds_alternative<Ping>(env->message)) bob->send(Pong{});
        if (std::holds_alternative<Moved>(env->message)) heard_move = true;
      }
      REQUIRE_MESSAGE(!heard_move, "the move was not lost: the subscribers came back too soon");
      REQUIRE_MESSAGE(bob->raw().closed(), "node b did not notice that it missed alice's move");
      CHECK(c.log("b").find("bus_gap") != std::string::npos);
      CHECK(eventually([&] { return metric(c.port("b"), "amazons_cluster_bus_gaps_total") >= 1; }));
      CHECK(bob.resume_game(c.port("b"), t.game).moves == t.moves);
      t.play_turns(2, *bob, *alice);
      CHECK(stored_moves(c.db, t.game) == t.moves);
    }

    TEST_CASE(
        "cluster: with Redis out of reach a node says so, runs no game it cannot prove it "
        "holds, and comes back with every move") {
      Cluster c;
      c.start("a");
      c.start("b");
      Player alice("alice", c.port("a"));
      Player bob("bob", c.port("b"));
      Table t = start_game(alice, bob);  // node a runs it
      t.play_turns(2, *alice, *bob);
      c.redis.kill();
      // Both nodes notice, say so, and stop being ready.
      REQUIRE(eventually([&] { return !ready(c.port("a")) && !ready(c.port("b")); }));
      for (const char* n : {"a", "b"}) {
        const auto [code, body] = http_get(c.port(n), "/health");
        CHECK(code == 200);
        CHECK(body.find("\"cluster\":\"degraded\"") != std::string::npos);
        CHECK(http_get(c.port(n), "/ready").first == 503);
        CHECK(eventually([&] {
          return http_get(c.port(n), "/metrics").second.find("amazons_cluster_state 2") !=
                 std::string::npos;
        }));
        CHECK(c.log(n).find("event=redis_unreachable") != std::string::npos);
      }
      // Nothing new starts where the cluster cannot be asked: a login (the name registry), a game.
      Client carol(c.port("b"));
      carol.send(R"({"type":"hello","protocol":1,"name":"carol"})");
      CHECK(wait_for<Error>(carol).code == ErrorCode::Unavailable);
      bob->send(Create{});
      CHECK(wait_for<Error>(*bob).code == ErrorCode::Unavailable);
      // Past the lease's deadline node a runs the game no more: its player there is closed.
      CHECK(alice->closed_by_server(Millis{10'000}));
      c.redis.restart();
      REQUIRE(eventually([&] { return ready(c.port("a")) && ready(c.port("b")); }));
      const auto state = alice.resume_game(c.port("a"), t.game);
      CHECK(state.moves == t.moves);
      // Bob's node learns that what went between the nodes may be lost, and Bob comes back too.
      bob.resume_game(c.port("b"), t.game);
      t.play_turns(2, *alice, *bob);
      CHECK(stored_moves(c.db, t.game) == t.moves);
    }
  }  // TEST_SUITE("postgres")
}  // TEST_SUITE("redis")
