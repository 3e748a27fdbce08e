// amazons-server on PostgreSQL (--db postgresql://...), and amazons-server migrate, as real
// processes against a real PostgreSQL the test starts (tests/pg_server.h). Label "postgres".
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <filesystem>

#include "server_process.h"
#include "tests/pg_server.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::contains;
using amazons::test::Launch;
using amazons::test::PgServer;
using amazons::test::play;
using amazons::test::run_server;
using amazons::test::ServerProcess;
using amazons::test::shared_pg_server;
using amazons::test::TempDir;

namespace {

Launch on_db(const std::string& url) {
  Launch l;
  l.db = url;
  return l;
}

}  // namespace

TEST_CASE("server: --db with no PostgreSQL there or a malformed URL exits 1 with the reason") {
  const auto [status, out] =
      run_server("--port 0 --discovery-port -1 --db postgresql://amazons@127.0.0.1:1/amazons");
  CHECK(status == 1);
  CHECK_MESSAGE(
      contains(out, "cannot connect to PostgreSQL at postgresql://amazons@127.0.0.1:1/amazons"),
      out);
  CHECK_MESSAGE(contains(out, "Connection refused"), out);
  const auto [bad, why] =
      run_server("--port 0 --discovery-port -1 --db 'postgresql://u:pw@h:port/x'");
  CHECK(bad == 1);
  CHECK_MESSAGE(contains(why, "invalid integer value"), why);
  CHECK_FALSE(contains(why, "pw@"));
}

TEST_SUITE("postgres") {
  TEST_CASE("server on postgres: kill -9 and restart and every acknowledged move is back") {
    TempDir dir;
    const auto url = shared_pg_server().create_database();
    std::string game, bob_token;
    {
      ServerProcess server(dir.path(), nlohmann::json::object(), {}, on_db(url));
      Client alice(server.port()), bob(server.port());
      alice.hello("alice", ",\"password\":\"pa55\"");
      bob_token = bob.hello("bob");
      alice.send(
          R"({"type":"create","rules":"standard","color":"white","time":{"initial":600,"increment":0}})");
      game = alice.expect<Created>().game;
      bob.send(Join{game, std::nullopt});
      bob.expect<Start>();
      alice.expect<Start>();
      play(alice, bob, game, "d1-d7/g7", 1);
      play(bob, alice, game, "a7-b7/c7", 2);
      play(alice, bob, game, "g1-g3/g1", 3);
      CHECK(server.stop(SIGKILL) == -1);
    }
    ServerProcess server(dir.path(), nlohmann::json::object(), {}, on_db(url));
    Client alice(server.port());
    alice.hello("alice", ",\"password\":\"pa55\"");
    const auto st = alice.expect<State>();
    CHECK(st.game == game);
    CHECK(st.moves == std::vector<std::string>{"d1-d7/g7", "a7-b7/c7", "g1-g3/g1"});
    Client bob(server.port());
    bob.hello("bob", ",\"token\":\"" + bob_token + "\"");
    bob.expect<State>();
    alice.expect<Presence>();
    play(bob, alice, game, "j7-j5/j6", 4);
    Client mallory(server.port());
    mallory.send(R"({"type":"hello","protocol":1,"name":"alice","password":"wrong"})");
    CHECK(mallory.expect_error() == ErrorCode::AuthFailed);
  }

  TEST_CASE(
      "server on postgres: migrate copies a SQLite database with progress and the server then "
      "serves it") {
    TempDir dir;
    const auto file = dir.path() / "old.db";
    std::filesystem::copy_file(amazons::test::source_dir() + "/tests/server/data/schema_v1.db",
                               file);
    const auto url = shared_pg_server().create_database();
    const std::string args = "migrate --from " + file.string() + " --to " + url;
    {
      const auto [status, out] = run_server(args);
      CHECK_MESSAGE(status == 0, out);
      CHECK_MESSAGE(contains(out, "migrate: players 10/10"), out);
      CHECK_MESSAGE(contains(out, "migrate: games 24/24, moves 1494/1494"), out);
      CHECK_MESSAGE(
          contains(
              out,
              "done: 10 players, 24 games, 1494 moves, 0 offers, 0 tournaments copied; the counts "
              "in both databases "
              "match"),
          out);
    }
    {
      const auto [status, out] = run_server(args);
      CHECK(status == 1);
      CHECK_MESSAGE(contains(out,
                             "the target database is not empty (10 players, 24 games, 1494 moves, "
                             "0 offers, 0 tournaments)"),
                    out);
    }
    {
      const auto [status, out] = run_server(args + " --force");
      CHECK_MESSAGE(status == 0, out);
      CHECK_MESSAGE(contains(out, "--force: deleting 10 players"), out);
      CHECK_MESSAGE(contains(out, "the counts in both databases match"), out);
    }
    // The copied password still protects alice's name, and her rated games are in the archive.
    ServerProcess server(dir.path(), nlohmann::json::object(), {}, on_db(url));
    Client alice(server.port());
    alice.hello("alice", ",\"password\":\"secret1\"");
    alice.send(R"({"type":"history","player":"alice"})");
    const auto history = alice.expect<History>();
    CHECK(history.games.size() == 5);
    Client mallory(server.port());
    mallory.send(R"({"type":"hello","protocol":1,"name":"alice","password":"wrong"})");
    CHECK(mallory.expect_error() == ErrorCode::AuthFailed);
  }

  TEST_CASE(
      "server on postgres: when PostgreSQL goes away a move is refused and the server exits 1") {
    TempDir dir;
    PgServer pg;  // its own, to stop it mid-game
    const auto url = pg.create_database();
    auto launch = on_db(url);
    launch.environment.emplace_back(
        "LSAN_OPTIONS", "suppressions=" + amazons::test::source_dir() + "/tests/lsan_libpq.supp");
    ServerProcess server(dir.path(), nlohmann::json::object(), {}, launch);
    Client alice(server.port()), bob(server.port());
    alice.hello("alice");
    bob.hello("bob");
    alice.send(R"({"type":"create","rules":"standard","color":"white","time":null})");
    const auto game = alice.expect<Created>().game;
    bob.send(Join{game, std::nullopt});
    bob.expect<Start>();
    alice.expect<Start>();
    play(alice, bob, game, "d1-d7/g7", 1);
    pg.stop();
    bob.send(MoveMsg{game, "a7-b7/c7"});
    // Nobody hears of the move that could not be stored: an error, then the server leaves.
    const auto e = bob.expect<Error>();
    CHECK(e.code == ErrorCode::Internal);
    CHECK(bob.closed_by_server());
    // The process ends with status 1, so that a supervisor restarts it (docs/RELIABILITY.md).
    CHECK(server.wait_exit(Millis{10'000}) == 1);
    CHECK(alice.closed_by_server());
  }

  TEST_CASE("server on postgres: a refused login or a newer schema stops the server at start") {
    auto& pg = shared_pg_server();
    const std::string flags = "--port 0 --discovery-port -1 --db ";
    const auto [refused, why] =
        run_server(flags + "postgresql://stranger:hunter2@127.0.0.1:" + std::to_string(pg.port()) +
                   "/postgres");
    CHECK(refused == 1);
    CHECK_MESSAGE(contains(why, "password authentication failed for user \"stranger\""), why);
    CHECK_FALSE(contains(why, "hunter2"));
    const auto url = pg.create_database();
    const auto name = url.substr(url.rfind('/') + 1);
    REQUIRE(pg.psql("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO "
                    "schema_version VALUES (99)",
                    name)
                .first == 0);
    const auto [newer, message] = run_server(flags + url);
    CHECK(newer == 1);
    CHECK_MESSAGE(contains(message, "has schema version 99, newer than this amazons-server"),
                  message);
  }
}
