// amazons-server backup against a real server under load, on both backends, then restored the
// way the README says and served again: the copy holds every move acknowledged before the
// backup began, is one consistent state, and a server runs on it.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "server/storage/open_storage.h"
#include "server_process.h"
#include "tests/pg_server.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::contains;
using amazons::test::Launch;
using amazons::test::PgServer;
using amazons::test::run_server;
using amazons::test::ServerProcess;
using amazons::test::shared_pg_server;
using amazons::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Two players playing short games as fast as the server answers, counting acknowledged moves,
// until stopped.
class Load {
 public:
  explicit Load(unsigned short port) : thread_([this, port] { run(port); }) {}
  ~Load() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }
  long acknowledged() const { return moves_; }
  bool failed() const { return failed_; }
  void wait_for(long moves) {
    for (int i = 0; i < 500 && moves_ < moves && !failed_; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE_FALSE(failed_);
    REQUIRE(moves_ >= moves);
  }

 private:
  void run(unsigned short port) {
    // A failed check here must not end the process (the servers would be left running): it is
    // reported, and the test reads failed().
    try {
      play(port);
    } catch (...) {
      failed_ = true;
    }
  }
  void play(unsigned short port) {
    Client alice(port), bob(port);
    alice.hello("alice");
    bob.hello("bob");
    const char* moves[] = {"d1-d7/g7", "a7-b7/c7", "g1-g3/g1", "j7-j5/j6"};
    while (!done_) {
      alice.send(R"({"type":"create","rules":"standard","color":"white","time":null})");
      const auto game = alice.expect<Created>().game;
      bob.send(Join{game, std::nullopt});
      bob.expect<Start>();
      alice.expect<Start>();
      for (int i = 0; i < 4; ++i) {
        Client& mover = i % 2 == 0 ? alice : bob;
        Client& other = i % 2 == 0 ? bob : alice;
        mover.send(MoveMsg{game, moves[i]});
        mover.expect<Moved>();
        ++moves_;
        other.expect<Moved>();
      }
      alice.send(Resign{{game}});
      alice.expect<End>();
      bob.expect<End>();
    }
  }

  std::atomic<bool> done_ = false;
  std::atomic<bool> failed_ = false;
  std::atomic<long> moves_ = 0;
  std::thread thread_;
};

// The load asks as fast as the server answers: more than the default rate limit allows.
const nlohmann::json kFastClients = {
    {"limits", {{"requests_per_second", 10000}, {"requests_burst", 10000}}}};

}  // namespace

TEST_CASE("backup: a SQLite server's database copied under load, restored and served") {
  TempDir dir;
  const fs::path copy = dir.path() / "backup.db";
  long before = 0, after = 0;
  {
    ServerProcess server(dir.path(), kFastClients);
    Load load(server.port());
    load.wait_for(40);
    before = load.acknowledged();
    const auto [status, out] =
        run_server("backup " + copy.string() + " --db " + (dir.path() / "test.db").string());
    after = load.acknowledged();
    CHECK_MESSAGE(status == 0, out);
    CHECK_MESSAGE(contains(out, "backup: copied"), out);
    CHECK_MESSAGE(contains(out, "backup: done: 2 players"), out);
    load.wait_for(after + 8);  // the server went on serving meanwhile
    load.stop();
    CHECK_FALSE(load.failed());

    // Bad requests: nothing is written, and each says why.
    const auto [again, why] =
        run_server("backup " + copy.string() + " --db " + (dir.path() / "test.db").string());
    CHECK(again == 1);
    CHECK_MESSAGE(contains(why, "exists: choose another name, or --force"), why);
    const auto [missing, none] = run_server("backup " + (dir.path() / "x.db").string() + " --db " +
                                            (dir.path() / "nothing.db").string());
    CHECK(missing == 1);
    CHECK_MESSAGE(contains(none, "no database at"), none);
    CHECK_FALSE(fs::exists(dir.path() / "x.db"));
    const auto [itself, self] = run_server("backup " + (dir.path() / "test.db").string() +
                                           " --force --db " + (dir.path() / "test.db").string());
    CHECK(itself == 1);
    CHECK_MESSAGE(contains(self, "would overwrite the database itself"), self);
    const auto [forced, replaced] = run_server("backup " + copy.string() + " --force --db " +
                                               (dir.path() / "test.db").string());
    CHECK_MESSAGE(forced == 0, replaced);
  }
  // The copy taken under load: one consistent state holding at least every move acknowledged
  // before the backup began.
  {
    const auto counts = server::open_storage(copy.string())->counts();
    CHECK(counts.players == 2);
    CHECK(counts.moves >= before);
    CHECK(counts.moves % 4 == 0);  // forced copy after the load: whole games only
  }
  // Restore as the README says: the copy in the database's place, and a server on it.
  TempDir restored;
  fs::copy_file(copy, restored.path() / "test.db");
  ServerProcess server(restored.path());
  Client alice(server.port());
  alice.hello("alice");
  alice.send(R"({"type":"history","player":"alice","limit":500})");
  const auto history = alice.expect<History>();
  CHECK(history.games.size() * 4 >= static_cast<std::size_t>(before));
}

TEST_SUITE("postgres") {
  TEST_CASE("backup: a PostgreSQL server's database dumped under load, restored and served") {
    TempDir dir;
    const auto url = shared_pg_server().create_database();
    const fs::path dump = dir.path() / "backup.pgdump";
    long before = 0;
    {
      ServerProcess server(dir.path(), kFastClients, {}, [&] {
        Launch l;
        l.db = url;
        return l;
      }());
      Load load(server.port());
      load.wait_for(20);
      before = load.acknowledged();
      const auto [status, out] = run_server("backup " + dump.string() + " --db " + url);
      CHECK_MESSAGE(status == 0, out);
      CHECK_MESSAGE(contains(out, "pg_dump: dumping contents of table"), out);
      CHECK_MESSAGE(contains(out, "backup: done: 2 players"), out);
      load.stop();
      CHECK_FALSE(load.failed());
    }
    // Restore into an empty database with pg_restore, as the README says.
    const auto fresh = shared_pg_server().create_database();
    const auto [restored, why] = PgServer::shell("pg_restore --no-owner --dbname='" + fresh + "' " +
                                                 dump.string() + " 2>&1");
    REQUIRE_MESSAGE(restored == 0, why);
    const auto counts = server::open_storage(fresh)->counts();
    CHECK(counts.players == 2);
    CHECK(counts.moves >= before);
    Launch l;
    l.db = fresh;
    ServerProcess server(dir.path(), nlohmann::json::object(), {}, l);
    // The dump was taken mid-game: alice's name waits for her token, so someone else asks.
    Client carol(server.port());
    carol.hello("carol");
    carol.send(R"({"type":"history","player":"alice","limit":500})");
    CHECK(carol.expect<History>().games.size() * 4 >= static_cast<std::size_t>(before) - 4);
  }

  TEST_CASE("backup: a password in the database URL reaches pg_dump in its environment only") {
    TempDir dir;
    auto& pg = shared_pg_server();
    const auto url = pg.create_database();
    const std::string dbname = url.substr(url.rfind('/') + 1);
    const std::string host_and_db = url.substr(url.find('@') + 1);
    // Any user but the superuser must give a password here (scripts/pg_test_server.sh).
    const std::string role = "backup_" + dbname;
    REQUIRE(
        pg.psql("CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD 's3cret w/ ''quote'''").first ==
        0);
    server::open_storage(url);  // the schema, so that the dump has tables
    // pg_dump as found in PATH is a wrapper that records its arguments and whether it was given
    // the password, then runs the real one.
    const auto [found, real] = PgServer::shell("command -v pg_dump");
    REQUIRE(found == 0);
    const fs::path bin = dir.path() / "bin";
    fs::create_directories(bin);
    {
      std::ofstream wrapper(bin / "pg_dump");
      wrapper << "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" << (dir.path() / "args").string()
              << "'\n[ \"$PGPASSWORD\" = \"s3cret w/ 'quote'\" ] && echo yes > '"
              << (dir.path() / "env").string() << "'\nexec " << real.substr(0, real.find('\n'))
              << " \"$@\"\n";
    }
    fs::permissions(bin / "pg_dump", fs::perms::owner_all);
    const auto [status, out] = PgServer::shell(
        "PATH=" + bin.string() + ":$PATH " + amazons::test::kServerBinary + " backup " +
        (dir.path() / "copy.pgdump").string() + " --db 'postgresql://" + role +
        ":s3cret%20w%2F%20%27quote%27@" + host_and_db + "' 2>&1");
    CHECK_MESSAGE(status == 0, out);
    CHECK_MESSAGE(contains(out, "backup: done: 0 players"), out);
    const auto args = PgServer::shell("cat " + (dir.path() / "args").string()).second;
    CHECK_MESSAGE(contains(args, "user='" + role + "'"), args);
    CHECK_MESSAGE(contains(args, "dbname='" + dbname + "'"), args);
    CHECK_MESSAGE(!contains(args, "s3cret"), args);
    CHECK(PgServer::shell("cat " + (dir.path() / "env").string()).second == "yes\n");
    // Without the password the same dump is refused: the password did the work.
    const auto [refused, why] =
        PgServer::shell("PGPASSWORD= " + std::string(amazons::test::kServerBinary) + " backup " +
                        (dir.path() / "other.pgdump").string() + " --db 'postgresql://" + role +
                        "@" + host_and_db + "' 2>&1 </dev/null");
    CHECK_MESSAGE(refused != 0, why);
    CHECK_FALSE(fs::exists(dir.path() / "other.pgdump"));
  }
}
