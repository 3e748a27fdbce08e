// The Storage contract, run against both backends: every case below runs once on a SQLite file
// and once on a real PostgreSQL started by the test (label "postgres"). Then the schema
// upgrade of a database from the first release, migrate, and PostgreSQL's connection errors.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <thread>

#include "common/notation.h"
#include "server/storage/open_storage.h"
#include "server/storage/pg_storage.h"
#include "server/storage/sqlite_storage.h"
#include "server/storage/storage_worker.h"
#include "tests/pg_server.h"
#include "tests/server/lobby_harness.h"

using namespace amazons;
using namespace amazons::server;
using amazons::test::PgServer;
using amazons::test::shared_pg_server;
using amazons::test::TempDir;

namespace {

// One database, opened as often as a test likes (each open is a new connection).
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string db() const = 0;  // the --db value
  std::unique_ptr<Storage> open() const { return open_storage(db()); }
  // Writes a schema version behind the storage's back, as another program would.
  virtual void set_schema_version(int v) = 0;
  // Runs SQL behind the storage's back.
  virtual void exec(const std::string& sql) = 0;
  // Takes schema 7's additions out again, leaving the tables as schema 6 made them.
  void drop_schema_7() {
    exec("DROP INDEX players_canonical; ALTER TABLE players DROP COLUMN canonical;");
  }
  // Takes schema 6's and 7's additions out again, leaving the tables as schema 5 made them.
  virtual void drop_schema_6() = 0;
};

class SqliteBackend final : public Backend {
 public:
  std::string db() const override { return (dir_.path() / "test.db").string(); }
  void set_schema_version(int v) override {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(this->db().c_str(), &db) == SQLITE_OK);
    const std::string sql = "UPDATE schema_version SET version = " + std::to_string(v);
    CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  void exec(const std::string& sql) override {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(this->db().c_str(), &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  void drop_schema_6() override {
    drop_schema_7();
    exec("ALTER TABLE games DROP COLUMN owner_token; DROP TABLE counters;");
  }

 private:
  TempDir dir_;
};

class PgBackend final : public Backend {
 public:
  PgBackend() : url_(shared_pg_server().create_database()) {}
  std::string db() const override { return url_; }
  void set_schema_version(int v) override {
    const auto name = url_.substr(url_.rfind('/') + 1);
    const auto [status, out] =
        shared_pg_server().psql("UPDATE schema_version SET version = " + std::to_string(v), name);
    CHECK_MESSAGE(status == 0, out);
  }
  void exec(const std::string& sql) override {
    const auto name = url_.substr(url_.rfind('/') + 1);
    const auto [status, out] = shared_pg_server().psql(sql, name);
    CHECK_MESSAGE(status == 0, out);
  }
  void drop_schema_6() override {
    drop_schema_7();
    exec(
        "ALTER TABLE games DROP COLUMN owner_token; DROP TABLE counters; DROP FUNCTION "
        "amz_fence;");
  }

 private:
  std::string url_;
};

Move move(const char* text) { return *parse_move(text); }

PlayerRow player(std::string name, double rating, bool bot = false) {
  return {std::move(name),
          "hash-of-" + std::to_string(rating),
          "digest",
          bot,
          Rating{rating, 123.456789012345678, 0.0612345678901234},
          7};
}

GameRow game(GameId id, std::string white, std::string black) {
  GameRow g;
  g.id = id;
  g.variant = standard_variant();
  g.rules = "standard";
  g.time = TimeControl::fischer(Millis{300'000}, Millis{5'000});
  g.white = {std::move(white), false, 1500};
  g.black = {std::move(black), true, std::nullopt};
  g.rated = true;
  g.started_at = Timestamp{Millis{1'800'000'000'000 + id * 1000}};
  return g;
}

GameRow finished(GameRow g, std::optional<Color> winner, EndReason reason, std::int64_t at) {
  g.result = GameResult{winner, reason};
  g.ended_at = Timestamp{Millis{at}};
  return g;
}

WriteBatch batch(std::vector<StorageWrite> writes) { return WriteBatch{std::move(writes)}; }

void apply(Storage& s, WriteBatch b) { s.apply(std::span(&b, 1)); }

const MoveRow kMove1{1, 1, move("d1-d7/g7"), Millis{1200}, Millis{303'800}};
const MoveRow kMove2{1, 2, move("a7-b6/e9"), Millis{900}, std::nullopt};

using Body = std::function<void(Backend&)>;

void on_sqlite(const Body& body) {
  SqliteBackend b;
  body(b);
}
void on_postgres(const Body& body) {
  PgBackend b;
  body(b);
}

}  // namespace

// Registers the body twice: "storage sqlite: NAME" and "storage postgres: NAME" (suite postgres).
#define STORAGE_CASE(fn, name)                                                               \
  static void fn(Backend&);                                                                  \
  TEST_CASE("storage sqlite: " name) { on_sqlite(fn); }                                      \
  TEST_CASE("storage postgres: " name* doctest::test_suite("postgres")) { on_postgres(fn); } \
  static void fn(Backend& backend)

STORAGE_CASE(round_trip, "every row comes back as written and after a reopen") {
  {
    auto s = backend.open();
    CHECK(s->schema().found == 0);
    CHECK(s->counts() == StorageCounts{});
    const auto empty = s->load();
    CHECK(empty.players.empty());
    CHECK(empty.unfinished.empty());
    CHECK(empty.last_game_id == 0);
    GameRow priv =
        finished(game(2, "ann", "bob"), Color::Black, EndReason::Resign, 1'900'000'000'000);
    priv.invite = "secret-code";
    priv.rated = false;
    apply(*s, batch({player("ann", 1612.123456789012345), player("bob", 1388.5, true),
                     game(1, "ann", "bob"), kMove1, kMove2, priv}));
  }
  auto s = backend.open();
  CHECK(s->schema().found == kSchemaVersion);
  CHECK_FALSE(s->schema().upgraded());
  const auto state = s->load();
  REQUIRE(state.players.size() == 2);
  for (const auto& p : state.players)
    CHECK(p ==
          (p.name == "ann" ? player("ann", 1612.123456789012345) : player("bob", 1388.5, true)));
  CHECK(state.last_game_id == 2);
  REQUIRE(state.unfinished.size() == 1);
  CHECK(state.unfinished[0].row == game(1, "ann", "bob"));
  CHECK(state.unfinished[0].moves == std::vector<MoveRow>{kMove1, kMove2});
  CHECK(s->counts() == StorageCounts{2, 2, 2});

  const auto row = s->game_row(2);
  REQUIRE(row.has_value());
  CHECK(row->invite == std::optional<std::string>("secret-code"));
  CHECK(row->result->winner == Color::Black);
  CHECK(row->result->reason == EndReason::Resign);
  CHECK_FALSE(s->game_row(3).has_value());
  const auto rec = s->game_record(1);
  REQUIRE(rec.has_value());
  REQUIRE(rec->moves.size() == 2);
  CHECK(rec->moves[0].move == kMove1.move);
  CHECK(rec->moves[0].clock_left == kMove1.clock_left);
  CHECK(rec->moves[1].clock_left == std::nullopt);
  CHECK_FALSE(s->game_record(9).has_value());
}

STORAGE_CASE(upserts, "rows are upserts so a player's rating and a game's result change in place") {
  auto s = backend.open();
  apply(*s, batch({player("ann", 1500), game(1, "ann", "bob")}));
  PlayerRow better = player("ann", 1650.25);
  better.token_digest = "";
  better.rated_games = 8;
  GameRow done =
      finished(game(1, "ann", "bob"), std::nullopt, EndReason::Aborted, 1'800'000'500'000);
  apply(*s, batch({better, done}));
  const auto state = s->load();
  REQUIRE(state.players.size() == 1);
  CHECK(state.players[0] == better);
  CHECK(state.unfinished.empty());
  CHECK(s->game_row(1) == done);
  CHECK(s->counts() == StorageCounts{1, 1, 0});
}

STORAGE_CASE(cluster_reads,
             "a player's row, their unfinished games, every unfinished game with its token and "
             "the leaderboard are read as stored now") {
  auto s = backend.open();
  CHECK_FALSE(s->player("ann").has_value());
  CHECK(s->unfinished_games().empty());
  PlayerRow unrated = player("dora", 1900);
  unrated.rated_games = 0;
  apply(
      *s,
      batch({player("ann", 1612.5), player("bob", 1388.5, true), player("carl", 1612.5), unrated,
             game(1, "ann", "bob"), game(2, "carl", "ann"),
             finished(game(3, "ann", "bob"), Color::White, EndReason::Resign, 1'800'000'100'000)}));
  CHECK(s->player("ann") == player("ann", 1612.5));
  CHECK(s->player("bob") == player("bob", 1388.5, true));
  CHECK_FALSE(s->player("Ann").has_value());  // names are exact
  CHECK(s->unfinished_games_of("ann") == std::vector<GameId>{1, 2});
  CHECK(s->unfinished_games_of("bob") == std::vector<GameId>{1});
  CHECK(s->unfinished_games_of("dora").empty());
  CHECK(s->unfinished_games() == std::vector<std::pair<GameId, std::int64_t>>{{1, 0}, {2, 0}});
  REQUIRE(s->take_game(2, 7).outcome == TakeResult::Outcome::Taken);
  CHECK(s->unfinished_games() == std::vector<std::pair<GameId, std::int64_t>>{{1, 0}, {2, 7}});
  // Best first, ties by name; players without a rated game are left out.
  std::vector<std::string> names;
  for (const auto& p : s->leaderboard(10)) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"ann", "carl", "bob"});
  CHECK(s->leaderboard(1).size() == 1);
  // A row changed by another connection (another node) is read as it is now.
  auto other = backend.open();
  apply(*other, batch({player("ann", 1700)}));
  CHECK(s->player("ann")->rating.rating == 1700);
  CHECK(s->leaderboard(1).front().name == "ann");
  // A rated result changes the rating and the count only: the password and token stay, and a
  // player never stored gets a row without either.
  const Rating was = player("ann", 1700).rating;
  apply(*s, batch({PlayerRating{"ann", false, was, Rating{1750.5, 80.25, 0.059}},
                   PlayerRating{"erin", true, Rating{}, Rating{1450, 200, 0.06}}}));
  const auto ann = s->player("ann");
  REQUIRE(ann.has_value());
  CHECK(ann->rating == Rating{1750.5, 80.25, 0.059});
  CHECK(ann->rated_games == 8);
  CHECK(ann->password_hash == player("ann", 1700).password_hash);
  CHECK(ann->token_digest == "digest");
  CHECK(s->player("erin") == PlayerRow{"erin", "", "", true, Rating{1450, 200, 0.06}, 1});
  // A second game rated from the same rating (another node had not heard of the first) moves
  // the stored rating by its own change: both games count.
  apply(*other, batch({PlayerRating{"ann", false, was, Rating{1680.25, 75.5, 0.058}}}));
  CHECK(s->player("ann")->rating == Rating{1750.5 - 19.75, 75.5, 0.058});
  CHECK(s->player("ann")->rated_games == 9);
  // A login changes the credentials only, and makes a new player's row with the start rating.
  apply(*s, batch({PlayerLogin{"ann", "new-hash", "new-digest", true},
                   PlayerLogin{"finn", "", "d", false}}));
  CHECK(s->player("ann") ==
        PlayerRow{"ann", "new-hash", "new-digest", true, Rating{1750.5 - 19.75, 75.5, 0.058}, 9});
  CHECK(s->player("finn") == PlayerRow{"finn", "", "d", false, Rating{}, 0});
}

STORAGE_CASE(all_or_nothing, "a transaction that fails stores none of its batches") {
  auto s = backend.open();
  apply(*s, batch({game(1, "ann", "bob"), kMove1}));
  std::vector<WriteBatch> two{batch({player("carl", 1700), kMove2}),
                              batch({game(3, "carl", "dora"), kMove1})};  // kMove1 again
  CHECK_THROWS_AS(s->apply(two), StorageError);
  CHECK(s->counts() == StorageCounts{0, 1, 1});
  // The connection is still good for the next transaction.
  apply(*s, batch({kMove2}));
  CHECK(s->counts() == StorageCounts{0, 1, 2});
  auto again = backend.open();
  CHECK(again->counts() == StorageCounts{0, 1, 2});
}

STORAGE_CASE(
    archive,
    "the archive lists newest first and limited and private games only for their players") {
  auto s = backend.open();
  GameRow hidden =
      finished(game(3, "ann", "carl"), Color::White, EndReason::Time, 1'800'000'300'000);
  hidden.invite = "x";
  apply(*s,
        batch({finished(game(1, "ann", "bob"), Color::White, EndReason::NoMoves, 1'800'000'100'000),
               kMove1, kMove2,
               finished(game(2, "bob", "ann"), Color::Black, EndReason::Resign, 1'800'000'200'000),
               hidden, game(4, "ann", "bob")}));
  const auto all = s->finished_games("ann", 10, "ann");
  REQUIRE(all.size() == 3);
  CHECK(all[0].game == "3");
  CHECK(all[1].game == "2");
  CHECK(all[2].game == "1");
  CHECK(all[2].plies == 2);
  CHECK(all[2].white.rating == 1500);
  CHECK(all[2].black.rating == 1500);  // unknown rating shown as the default
  CHECK(all[2].black.bot);
  CHECK(all[2].reason == EndReason::NoMoves);
  CHECK(all[1].winner == Color::Black);
  CHECK(s->finished_games("ann", 1, "ann").size() == 1);
  const auto seen_by_bob = s->finished_games("ann", 10, "bob");
  REQUIRE(seen_by_bob.size() == 2);
  CHECK(seen_by_bob[0].game == "2");
  CHECK(s->finished_games("nobody", 10, "").empty());
}

STORAGE_CASE(offers, "offers are kept, replaced and removed, and come back oldest first") {
  const OfferRow game_offer{"g5",
                            "ann",
                            R"({"type":"create","time":{"per_move":86400}})",
                            "invite-code",
                            Timestamp{Millis{1'800'000'000'000}},
                            Timestamp{Millis{1'800'604'800'000}}};
  const OfferRow seek{"s1",
                      "bob",
                      R"({"type":"seek"})",
                      std::nullopt,
                      Timestamp{Millis{1'800'000'001'000}},
                      Timestamp{Millis{1'800'000'061'000}}};
  OfferRow challenge{"c2",
                     "ann",
                     R"({"type":"challenge","player":"bob"})",
                     std::nullopt,
                     Timestamp{Millis{1'800'000'002'000}},
                     Timestamp{Millis{1'800'000'062'000}}};
  {
    auto s = backend.open();
    apply(*s, batch({challenge, game_offer, seek}));
    challenge.expires_at = Timestamp{Millis{1'800'000'099'000}};
    apply(*s, batch({challenge, OfferRemoved{"s1"}, OfferRemoved{"no-such-offer"}}));
  }
  auto s = backend.open();
  CHECK(s->counts() == StorageCounts{0, 0, 0, 2});
  const auto state = s->load();
  CHECK(state.offers == std::vector<OfferRow>{game_offer, challenge});
  // Read alone, as a cluster node does while it runs.
  CHECK(s->offers() == state.offers);
  apply(*s, batch({OfferRemoved{"g5"}}));
  CHECK(s->offers() == std::vector<OfferRow>{challenge});
  // A removal naming an expiry takes only the row that expires then (a newer one stays).
  apply(*s, batch({OfferRemoved{"c2", Timestamp{Millis{1'800'000'062'000}}}}));
  CHECK(s->offers() == std::vector<OfferRow>{challenge});
  apply(*s, batch({OfferRemoved{"c2", challenge.expires_at}}));
  CHECK(s->offers().empty());
  s->clear();
  CHECK(s->counts() == StorageCounts{});
}

STORAGE_CASE(newer_schema, "a database from a newer amazons-server is refused and left untouched") {
  apply(*backend.open(), batch({player("ann", 1500)}));
  backend.set_schema_version(kSchemaVersion + 1);
  try {
    backend.open();
    FAIL("opened a newer database");
  } catch (const StorageError& e) {
    CHECK(std::string(e.what()).find("newer than this amazons-server") != std::string::npos);
  }
  backend.set_schema_version(kSchemaVersion);
  CHECK(backend.open()->counts() == StorageCounts{1, 0, 0});
}

STORAGE_CASE(clear, "clear empties every table in one go") {
  auto s = backend.open();
  apply(*s, batch({player("ann", 1500), game(1, "ann", "bob"), kMove1}));
  CHECK(s->reserve_game_ids(10) == 2);
  s->clear();
  CHECK(s->counts() == StorageCounts{});
  CHECK(s->load().last_game_id == 0);
  CHECK(s->reserve_game_ids(1) == 1);  // the counter went too
}

// ---- the cluster (schema 6) ----

STORAGE_CASE(fencing,
             "a fenced write is refused whole once the game is taken with a higher token") {
  auto s = backend.open();
  apply(*s, batch({player("ann", 1500), game(1, "ann", "bob"), kMove1}));  // no fence: 1 server
  CHECK(s->game_row(1)->owner_token == 0);

  // Node B takes the game over with token 5 and reads every stored move.
  const TakeResult taken = s->take_game(1, 5);
  REQUIRE(taken.outcome == TakeResult::Outcome::Taken);
  CHECK(taken.holder == 0);
  REQUIRE(taken.game.has_value());
  CHECK(taken.game->row.owner_token == 5);
  CHECK(taken.game->moves == std::vector<MoveRow>{kMove1});

  // Node A, which held it with token 3, cannot store its next move, nor anything batched with it.
  WriteBatch stale = batch({player("carl", 1700), kMove2});
  stale.fences = {{1, 3}};
  try {
    apply(*s, stale);
    FAIL("a stale fence was accepted");
  } catch (const FencedWrite& e) {
    CHECK(e.game() == 1);
    CHECK(e.token() == 3);
    CHECK(e.holder() == 5);
    CHECK(std::string(e.what()).find("fencing token 5") != std::string::npos);
  }
  CHECK(s->counts() == StorageCounts{1, 1, 1});
  WriteBatch also_stale = batch({kMove2});
  also_stale.fences = {{1, 4}};
  CHECK_THROWS_AS(apply(*s, also_stale), StorageError);  // what a caller unaware of fencing sees

  // The holder's token, or a higher one, writes; a fence of a game not stored yet passes.
  WriteBatch current = batch({kMove2, game(2, "carl", "dora")});
  current.fences = {{1, 5}, {2, 5}};
  apply(*s, current);
  CHECK(s->counts() == StorageCounts{1, 2, 2});

  CHECK(s->take_game(1, 4).outcome == TakeResult::Outcome::Newer);
  CHECK(s->take_game(1, 4).holder == 5);
  const TakeResult again = s->take_game(1, 5);  // a retry after a lost reply
  CHECK(again.outcome == TakeResult::Outcome::Taken);
  CHECK(again.game->moves == std::vector<MoveRow>{kMove1, kMove2});
  CHECK(s->take_game(9, 1).outcome == TakeResult::Outcome::Missing);

  WriteBatch end =
      batch({finished(game(1, "ann", "bob"), Color::White, EndReason::Resign, 1'800'000'900'000)});
  end.fences = {{1, 5}};
  apply(*s, end);
  CHECK(s->take_game(1, 6).outcome == TakeResult::Outcome::Finished);

  auto reopened = backend.open();
  const auto state = reopened->load();
  REQUIRE(state.unfinished.size() == 1);
  CHECK(state.unfinished[0].row.id == 2);
  CHECK(reopened->game_row(1)->owner_token == 5);  // finishing kept the holder's token
}

STORAGE_CASE(fencing_race,
             "a take ordered with fenced writes in flight sees every move stored before it") {
  auto setup = backend.open();
  apply(*setup, batch({game(1, "ann", "bob")}));
  // Node A writes move after move with token 1 on its own connection; node B takes the game
  // with token 2 while A is writing. Every move whose apply returned must be in what B read,
  // and none may succeed after it: A's successes then equal B's moves exactly.
  auto a = backend.open();
  auto b = backend.open();
  std::atomic<int> stored{0};
  std::thread writer([&] {
    for (int ply = 1; ply <= 5000; ++ply) {
      WriteBatch w = batch({MoveRow{1, ply, move("d1-d7/g7"), Millis{1}, std::nullopt}});
      w.fences = {{1, 1}};
      try {
        apply(*a, w);
      } catch (const FencedWrite&) {
        return;
      }
      stored.store(ply);
      // A node writes moves as they come, not back to back: room for the take, which SQLite's
      // busy handler would otherwise starve.
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
  });
  for (int i = 0; i < 5000 && stored.load() < 20; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const TakeResult taken = b->take_game(1, 2);
  writer.join();
  REQUIRE(taken.outcome == TakeResult::Outcome::Taken);
  CHECK(stored.load() >= 20);
  CHECK(stored.load() < 5000);  // the writer was stopped by the fence, not by its bound
  CHECK(static_cast<int>(taken.game->moves.size()) == stored.load());
  CHECK(setup->counts().moves == stored.load());
}

STORAGE_CASE(worker_fenced,
             "the storage worker leaves a fenced step out whole and stores the rest with it") {
  auto s = backend.open();
  apply(*s, batch({game(1, "ann", "bob"), game(2, "carl", "dora")}));
  REQUIRE(backend.open()->take_game(1, 9).outcome == TakeResult::Outcome::Taken);

  std::mutex m;
  std::condition_variable cv;
  std::vector<StorageCompletion> done;
  bool holding = false;
  bool release = false;
  const auto wait_for = [&](std::size_t n) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return done.size() >= n; });
  };
  StorageWorker worker(*s, [&](StorageCompletion c) {
    std::lock_guard lock(m);
    done.push_back(std::move(c));
    cv.notify_all();
  });
  // Hold the worker thread in a read so that the three steps below go into one transaction.
  worker.read([&](Storage&) {
    std::unique_lock lock(m);
    holding = true;
    cv.notify_all();
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return release; });
  });
  {
    std::unique_lock lock(m);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return holding; }));
  }
  const auto stale = worker.submit(
      WriteBatch({MoveRow{1, 1, move("d1-d7/g7"), Millis{1}, std::nullopt}, player("ann", 1600)},
                 {{1, 1}}),
      {});
  worker.submit(WriteBatch({MoveRow{2, 1, move("d1-d7/g7"), Millis{1}, std::nullopt}}, {{2, 1}}),
                {});
  const auto plain = worker.submit(batch({player("eve", 1500)}), {});
  {
    std::lock_guard lock(m);
    release = true;
  }
  cv.notify_all();
  REQUIRE(wait_for(2));
  const StorageCompletion& c = done[1];
  CHECK_FALSE(c.error.has_value());
  CHECK(c.through == plain);
  CHECK(c.batch_jobs == 3);
  CHECK(c.fenced == std::vector<FencedGame>{{1, 9, {stale}}});
  CHECK(s->counts() == StorageCounts{1, 2, 1});  // eve and game 2's move; not ann, not game 1's
  CHECK(s->game_record(2)->moves.size() == 1);
  CHECK(s->game_record(1)->moves.empty());
  // The worker goes on: a fenced step is not a storage failure.
  worker.submit(batch({player("fay", 1500)}), {});
  REQUIRE(wait_for(3));
  CHECK_FALSE(done[2].error.has_value());
  CHECK(s->counts().players == 2);
}

STORAGE_CASE(reserve_ids,
             "game ids reserved in blocks start above every game and open game and never overlap") {
  auto s = backend.open();
  CHECK(s->reserve_game_ids(10) == 1);
  CHECK(s->reserve_game_ids(5) == 11);
  // Ids another server made without reserving (a single server: the lobby counts from the
  // largest) are skipped, stored games and open games alike.
  apply(*s, batch({game(40, "ann", "bob"),
                   OfferRow{"g55", "ann", R"({"type":"create"})", std::nullopt, Timestamp{},
                            Timestamp{Millis{1}}},
                   OfferRow{"s99", "bob", R"({"type":"seek"})", std::nullopt, Timestamp{},
                            Timestamp{Millis{1}}}}));
  CHECK(s->reserve_game_ids(1) == 56);
  CHECK_THROWS_AS(s->reserve_game_ids(0), StorageError);

  // Two servers reserving at once, each on its own connection: no id is handed out twice.
  std::vector<std::vector<GameId>> firsts(2);
  std::vector<std::thread> servers;
  for (int n = 0; n < 2; ++n)
    servers.emplace_back([&, n] {
      auto mine = backend.open();
      for (int i = 0; i < 40; ++i)
        firsts[static_cast<std::size_t>(n)].push_back(mine->reserve_game_ids(7));
    });
  for (auto& t : servers) t.join();
  std::vector<GameId> all;
  for (const auto& f : firsts) all.insert(all.end(), f.begin(), f.end());
  std::sort(all.begin(), all.end());
  REQUIRE(all.size() == 80);
  CHECK(all.front() == 57);
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i] == all[i - 1] + 7);
}

STORAGE_CASE(
    tournament_reads,
    "a cluster node reads tournaments one by one, all, or the unfinished ids, and reserved "
    "ids skip tournament ids") {
  auto s = backend.open();
  const auto row = [](std::int64_t id, const std::string& status) {
    return TournamentRow{id, "cup " + std::to_string(id), status,
                         R"({"id":)" + std::to_string(id) + "}"};
  };
  apply(*s, batch({row(3, "finished"), row(5, "running"), row(4, "created")}));
  CHECK(s->tournament(5) == row(5, "running"));
  CHECK_FALSE(s->tournament(6).has_value());
  const auto all = s->tournaments();
  REQUIRE(all.size() == 3);
  CHECK(all[0] == row(3, "finished"));
  CHECK(all[2] == row(5, "running"));
  CHECK(s->unfinished_tournaments() == std::vector<std::int64_t>{4, 5});
  // Rewritten as finished, it leaves the failover scan.
  apply(*s, batch({row(5, "finished")}));
  CHECK(s->unfinished_tournaments() == std::vector<std::int64_t>{4});
  // A cluster numbers its tournaments from its game ids: a block starts above them too.
  apply(*s, batch({row(2000, "created")}));
  CHECK(s->reserve_game_ids(10) == 2001);
}

namespace {

// A copy of the fixture written by the release before schema versions (tests/server/data).
std::filesystem::path copy_v1_fixture(const TempDir& dir) {
  const auto path = dir.path() / "v1.db";
  std::filesystem::copy_file(amazons::test::source_dir() + "/tests/server/data/schema_v1.db", path);
  return path;
}

// What the fixture holds (tests/server/data/README.md), checked after upgrade or migration.
void check_fixture_contents(Storage& s) {
  CHECK(s.counts() == StorageCounts{10, 24, 1494});
  const auto state = s.load();
  CHECK(state.players.size() == 10);
  CHECK(state.last_game_id == 24);
  CHECK(state.unfinished.size() == 4);
  std::size_t unfinished_moves = 0;
  for (const auto& g : state.unfinished) unfinished_moves += g.moves.size();
  CHECK(unfinished_moves == 95);
  bool saw_alice = false;
  for (const auto& p : state.players) {
    if (p.name != "alice") continue;
    saw_alice = true;
    CHECK(p.rating.rating == doctest::Approx(1386.2281790659));
    CHECK(p.rating.deviation == doctest::Approx(205.134918116142));
    CHECK(p.rated_games == 5);
    CHECK_FALSE(p.password_hash.empty());
  }
  CHECK(saw_alice);
  CHECK(s.finished_games("alice", 100, "").size() == 5);
  const auto rec = s.game_record(20);
  REQUIRE(rec.has_value());
  CHECK(rec->result->reason == EndReason::NoMoves);
  CHECK(parse_record_json(to_json(*rec).dump()).has_value());  // replays to its result
}

}  // namespace

TEST_CASE(
    "storage sqlite: a database from the first release is upgraded in place and keeps everything") {
  TempDir dir;
  const auto path = copy_v1_fixture(dir);
  {
    SqliteStorage s(path);
    CHECK(s.schema().found == 1);
    CHECK(s.schema().upgraded());
    check_fixture_contents(s);
  }
  SqliteStorage again(path);
  CHECK(again.schema().found == kSchemaVersion);
  CHECK_FALSE(again.schema().upgraded());
  check_fixture_contents(again);
}

namespace {

// A database written by the release before offers (schema 2; tests/server/data/README.md).
void check_v2_fixture_contents(Storage& s) {
  CHECK(s.counts() == StorageCounts{6, 9, 487, 0});
  const auto state = s.load();
  CHECK(state.players.size() == 6);
  CHECK(state.last_game_id == 9);
  CHECK(state.unfinished.size() == 3);
  std::size_t unfinished_moves = 0;
  for (const auto& g : state.unfinished) unfinished_moves += g.moves.size();
  CHECK(unfinished_moves == 66);
  CHECK(state.offers.empty());
}

}  // namespace

STORAGE_CASE(moderation_rows,
             "moderation: sanctions, audit lines, reports, roles and registrations come back") {
  using protocol::Role;
  const Timestamp t0{Millis{1'800'000'000'000}};
  {
    auto s = backend.open();
    const auto fresh = s->load();
    CHECK(fresh.moderation == ModerationSettings{});
    CHECK(fresh.last_report_id == 0);
    ReportRow line{1,
                   t0,
                   "bob",
                   "alice",
                   12,
                   std::string("you're bad"),
                   std::string("3"),
                   "insult",
                   std::nullopt,
                   std::nullopt,
                   ""};
    ReportRow player_report{
        2,          t0 + Millis{5}, "carol",      "alice", std::nullopt, std::nullopt, std::nullopt,
        "stalling", std::nullopt,   std::nullopt, ""};
    apply(*s, batch({SanctionRow{SanctionKind::BanName, "bob", "cheat", "mod", t0, std::nullopt},
                     SanctionRow{SanctionKind::BanAddress, "::1", "evasion", "mod", t0,
                                 t0 + Millis{60'000}},
                     SanctionRow{SanctionKind::Mute, "eve", "spam", "mod", t0, t0 + Millis{1}},
                     AuditRow{t0, "mod", "ban", "bob", "cheat", std::nullopt},
                     AuditRow{t0 + Millis{1}, "mod", "mute", "eve", "spam", Millis{60'000}}, line,
                     player_report, RoleRow{"mod", Role::Moderator}, RoleRow{"root", Role::Admin},
                     RegistrationsRow{false}}));
    line.resolved_by = "mod";
    line.resolved_at = t0 + Millis{9};
    line.note = "warned";
    apply(*s,
          batch({SanctionRemoved{SanctionKind::Mute, "eve"}, line, RoleRow{"root", Role::Player},
                 AuditRow{t0 + Millis{2}, "mod", "resolve", "report 1", "warned", std::nullopt}}));
    const auto log = s->audit_log(2);
    REQUIRE(log.size() == 2);
    CHECK(log[0].action == "resolve");
    CHECK(log[1] == AuditRow{t0 + Millis{1}, "mod", "mute", "eve", "spam", Millis{60'000}});
  }
  auto s = backend.open();
  const auto state = s->load();
  CHECK(state.moderation.roles == std::map<std::string, Role>{{"mod", Role::Moderator}});
  CHECK_FALSE(state.moderation.registrations_open);
  CHECK(s->moderation() == state.moderation);
  REQUIRE(state.sanctions.size() == 2);
  const auto ban =
      std::find_if(state.sanctions.begin(), state.sanctions.end(),
                   [](const SanctionRow& r) { return r.kind == SanctionKind::BanAddress; });
  REQUIRE(ban != state.sanctions.end());
  CHECK(*ban ==
        SanctionRow{SanctionKind::BanAddress, "::1", "evasion", "mod", t0, t0 + Millis{60'000}});
  REQUIRE(state.open_reports.size() == 1);
  CHECK(state.open_reports[0].id == 2);
  CHECK(state.open_reports[0].reason == "stalling");
  CHECK(state.last_report_id == 2);
  CHECK(s->audit_log(100).size() == 3);
  s->clear();
  CHECK(s->load().sanctions.empty());
  CHECK(s->audit_log(10).empty());
}

STORAGE_CASE(look_alike_accounts,
             "names: registered names are found by their canonical form, and look-alikes of an "
             "older database or of a cluster race are kept, never a failed write") {
  backend.open();
  // Schema 6 compared names as bytes: "Reg" and "reg" could both be accounts.
  backend.drop_schema_7();
  backend.exec(
      "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
      "volatility, rated_games) VALUES ('reg', 'h2', 'd', false, 1500, 350, 0.06, 0), ('Reg', "
      "'h1', 'd', false, 1500, 350, 0.06, 0), ('REG.', '', '', false, 1500, 350, 0.06, 0);");
  backend.set_schema_version(6);
  auto s = backend.open();
  CHECK(s->schema().found == 6);
  CHECK(s->counts().players == 3);
  // The first by name keeps the canonical form; the other goes on working but is found by none.
  CHECK(s->registered_look_alike("r\xd0\xb5g") == "Reg");  // a Cyrillic U+0435
  CHECK(s->registered_look_alike("reg") == "Reg");
  CHECK_FALSE(s->registered_look_alike("Reg"));
  CHECK_FALSE(s->registered_look_alike("bob"));
  apply(*s, batch({PlayerLogin{"reg", "h3", "d3", false}, PlayerLogin{"REG.", "", "d4", false}}));
  CHECK(s->player("reg")->password_hash == "h3");
  // A new account of that form that reached the database (the lobby refuses look-alikes first;
  // only two cluster nodes racing could write one) is kept, never a failed write: a storage
  // failure stops the server, and a race of two registrations must not be a way to stop nodes.
  CHECK_NOTHROW(apply(*s, batch({PlayerLogin{"rEG", "h4", "d5", false}})));
  REQUIRE(s->player("rEG"));
  CHECK(s->player("rEG")->password_hash == "h4");
  CHECK(s->registered_look_alike("rEG").has_value());  // and it still finds its look-alikes
  apply(*s, batch({PlayerLogin{"bob", "h5", "d6", false}, PlayerLogin{"BOB", "", "d7", false}}));
  CHECK(s->registered_look_alike("BOB") == "bob");
}

STORAGE_CASE(upgrade_3_to_current,
             "moderation: a database of schema 3 is upgraded to the current one and keeps its "
             "rows") {
  {
    auto s = backend.open();
    apply(*s, batch({player("ann", 1600), player("bob", 1400),
                     OfferRow{"s1", "ann", R"({"type":"seek"})", std::nullopt, Timestamp{},
                              Timestamp{Millis{1}}}}));
  }
  // Schema 3 is the current schema without the moderation tables (4), the tournaments table (5)
  // and the cluster's column, table and function (6).
  backend.drop_schema_6();
  backend.exec(
      "DROP TABLE roles; DROP TABLE settings; DROP TABLE sanctions; DROP TABLE audit; DROP TABLE "
      "reports; DROP TABLE tournaments;");
  backend.set_schema_version(3);
  {
    auto s = backend.open();
    CHECK(s->schema().found == 3);
    CHECK(s->schema().upgraded());
    CHECK(s->counts() == StorageCounts{2, 0, 0, 1});
    apply(*s, batch({RoleRow{"ann", protocol::Role::Admin},
                     AuditRow{Timestamp{}, "console", "grant", "ann admin", "", std::nullopt}}));
  }
  auto s = backend.open();
  CHECK(s->schema().found == kSchemaVersion);
  CHECK(s->moderation().roles.at("ann") == protocol::Role::Admin);
  CHECK(s->audit_log(5).size() == 1);
}

TEST_CASE("storage sqlite: a database of schema 2 is upgraded to 3 in place and takes offers") {
  TempDir dir;
  const auto path = dir.path() / "v2.db";
  std::filesystem::copy_file(amazons::test::source_dir() + "/tests/server/data/schema_v2.db", path);
  {
    SqliteStorage s(path);
    CHECK(s.schema().found == 2);
    CHECK(s.schema().upgraded());
    check_v2_fixture_contents(s);
    WriteBatch b{{OfferRow{"s1", "v2-0", R"({"type":"seek"})", std::nullopt, Timestamp{},
                           Timestamp{Millis{1}}}}};
    s.apply(std::span(&b, 1));
  }
  SqliteStorage again(path);
  CHECK(again.schema().found == kSchemaVersion);
  CHECK_FALSE(again.schema().upgraded());
  CHECK(again.counts().offers == 1);
}

namespace {

// Runs a fixture of tests/server/data (SQL as an older release wrote it) into a new SQLite file.
void load_sqlite_fixture(const std::filesystem::path& path, const std::string& fixture) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  std::ifstream in(std::string(amazons::test::source_dir() + "/tests/server/data/") + fixture);
  const std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!sql.empty());
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string why = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  REQUIRE_MESSAGE(rc == SQLITE_OK, why);
}

// A tournament row as the lobby writes it: the core's state as JSON.
TournamentRow sample_tournament(std::int64_t id, const std::string& status) {
  return {id, "Sunday arena", status, R"({"id":)" + std::to_string(id) + "}"};
}

}  // namespace

TEST_CASE(
    "storage sqlite: a database of schema 3 is upgraded to the current one and keeps "
    "tournaments") {
  TempDir dir;
  const auto path = dir.path() / "v3.db";
  load_sqlite_fixture(path, "schema_v3.sql");
  {
    SqliteStorage s(path);
    CHECK(s.schema().found == 3);
    CHECK(s.schema().upgraded());
    CHECK(s.counts() == StorageCounts{2, 2, 3, 1, 0});
    CHECK(s.load().offers.size() == 1);
    WriteBatch b{{sample_tournament(1, "running"), sample_tournament(2, "finished")}};
    s.apply(std::span(&b, 1));
    WriteBatch again{{sample_tournament(1, "finished")}};  // an upsert
    s.apply(std::span(&again, 1));
  }
  SqliteStorage again(path);
  CHECK(again.schema().found == kSchemaVersion);
  CHECK_FALSE(again.schema().upgraded());
  CHECK(again.counts() == StorageCounts{2, 2, 3, 1, 2});
  const auto state = again.load();
  REQUIRE(state.tournaments.size() == 2);
  CHECK(state.tournaments[0] == sample_tournament(1, "finished"));
  CHECK(state.tournaments[1] == sample_tournament(2, "finished"));
}

namespace {

// What the schema 5 fixtures hold (tests/server/data), checked after their upgrade to 6.
void check_v5_upgrade(Storage& s) {
  CHECK(s.schema().found == 5);
  CHECK(s.schema().upgraded());
  CHECK(s.counts() == StorageCounts{2, 2, 3, 2, 1});
  const auto state = s.load();
  CHECK(state.moderation.roles.at("ann") == protocol::Role::Moderator);
  REQUIRE(state.unfinished.size() == 1);
  CHECK(state.unfinished[0].row.owner_token == 0);  // nobody took a game before schema 6
  CHECK(state.unfinished[0].moves.size() == 1);
  CHECK(state.last_game_id == 2);
  CHECK(s.reserve_game_ids(3) == 8);  // above the open game g7
  const TakeResult t = s.take_game(2, 1);
  REQUIRE(t.outcome == TakeResult::Outcome::Taken);
  CHECK(t.game->moves.size() == 1);
  CHECK(s.take_game(1, 1).outcome == TakeResult::Outcome::Finished);
}

}  // namespace

TEST_CASE("storage sqlite: a database of today's release (schema 5) is upgraded to 6") {
  TempDir dir;
  const auto path = dir.path() / "v5.db";
  load_sqlite_fixture(path, "schema_v5.sql");
  {
    SqliteStorage s(path);
    check_v5_upgrade(s);
  }
  SqliteStorage again(path);
  CHECK(again.schema().found == kSchemaVersion);
  CHECK(again.game_row(2)->owner_token == 1);
}

TEST_CASE("storage sqlite: a failed upgrade leaves the database at its old version") {
  TempDir dir;
  const auto path = dir.path() / "v2.db";
  std::filesystem::copy_file(amazons::test::source_dir() + "/tests/server/data/schema_v2.db", path);
  // A table in the way makes the upgrade's CREATE TABLE fail halfway through the transaction.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "CREATE TABLE offers (x TEXT)", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  CHECK_THROWS_AS(SqliteStorage{path}, StorageError);
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* q = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &q, nullptr) ==
          SQLITE_OK);
  REQUIRE(sqlite3_step(q) == SQLITE_ROW);
  CHECK(sqlite3_column_int(q, 0) == 2);
  sqlite3_finalize(q);
  sqlite3_close(db);
}

TEST_CASE("storage sqlite: a file that is not an amazons database is refused") {
  TempDir dir;
  const auto path = dir.path() / "other.db";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_exec(db, "CREATE TABLE notes (x TEXT)", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  CHECK_THROWS_WITH_AS(SqliteStorage{path}, doctest::Contains("not an amazons database"),
                       StorageError);
}

namespace {

// Runs a fixture of tests/server/data (SQL as an older release wrote it) into database `url`.
void load_pg_fixture(const std::string& url, const std::string& fixture) {
  const auto [status, out] =
      PgServer::shell("psql -X -q -v ON_ERROR_STOP=1 '" + url + "' -f '" +
                      amazons::test::source_dir() + "/tests/server/data/" + fixture + "' 2>&1");
  REQUIRE_MESSAGE(status == 0, out);
}

}  // namespace

TEST_SUITE("postgres") {
  TEST_CASE(
      "storage postgres: migrate copies a first-release SQLite database and then refuses to "
      "repeat") {
    TempDir dir;
    const auto path = copy_v1_fixture(dir);
    SqliteStorage from(path);
    PgStorage to(shared_pg_server().create_database());
    const auto counts = migrate(from, to, {});
    CHECK(counts == StorageCounts{10, 24, 1494});
    check_fixture_contents(to);
    CHECK_THROWS_WITH_AS(migrate(from, to, {}), doctest::Contains("not empty"), StorageError);
    MigrateOptions force;
    force.force = true;
    force.games_per_transaction = 7;
    CHECK(migrate(from, to, force) == counts);
    check_fixture_contents(to);
  }

  TEST_CASE("storage postgres: migrate copies what moderation keeps") {
    TempDir dir;
    const auto path = copy_v1_fixture(dir);
    {
      SqliteStorage from(path);
      const Timestamp at{Millis{1'000}};
      ReportRow report;
      report.id = 3;
      report.at = at;
      report.reporter = "ann";
      report.player = "bob";
      report.reason = "spam";
      apply(from,
            batch({RoleRow{"ann", protocol::Role::Admin}, RoleRow{"mia", protocol::Role::Moderator},
                   RegistrationsRow{false},
                   SanctionRow{SanctionKind::Mute, "bob", "shouting", "mia", at, std::nullopt},
                   SanctionRow{SanctionKind::BanAddress, "10.0.0.9", "spam", "ann", at,
                               Timestamp{Millis{9'000'000'000'000}}},
                   report, AuditRow{at, "console", "grant", "ann admin", "", std::nullopt},
                   AuditRow{Timestamp{Millis{2'000}}, "mia", "mute", "bob", "shouting",
                            std::nullopt}}));
    }
    SqliteStorage from(path);
    PgStorage to(shared_pg_server().create_database());
    migrate(from, to, {});
    const auto settings = to.moderation();
    CHECK(settings == from.moderation());
    CHECK(settings.roles.size() == 2);
    CHECK_FALSE(settings.registrations_open);
    const auto state = to.load();
    CHECK(state.sanctions.size() == 2);
    REQUIRE(state.open_reports.size() == 1);
    CHECK(state.open_reports[0].reason == "spam");
    CHECK(state.last_report_id == 3);
    CHECK(to.audit_log(10) == from.audit_log(10));
    CHECK(to.audit_log(10).front().action == "mute");  // newest first, as in the source
  }

  TEST_CASE("storage postgres: a database of schema 2 is upgraded to 3 and keeps its rows") {
    auto& pg = shared_pg_server();
    const auto url = pg.create_database();
    const auto name = url.substr(url.rfind('/') + 1);
    // The tables as schema 2 made them (tests/server/data/schema_v2_pg.sql), with a few rows.
    load_pg_fixture(url, "schema_v2_pg.sql");
    {
      PgStorage s(url);
      CHECK(s.schema().found == 2);
      CHECK(s.schema().upgraded());
      CHECK(s.counts() == StorageCounts{2, 2, 3, 0});
      const auto state = s.load();
      REQUIRE(state.unfinished.size() == 1);
      CHECK(state.unfinished[0].moves.size() == 1);
      WriteBatch b{{OfferRow{"c1", "ann", R"({"type":"challenge","player":"bob"})", std::nullopt,
                             Timestamp{}, Timestamp{Millis{1}}}}};
      s.apply(std::span(&b, 1));
    }
    PgStorage again(url);
    CHECK(again.schema().found == kSchemaVersion);
    CHECK(again.counts() == StorageCounts{2, 2, 3, 1});
    const auto [vs, version] = pg.psql("SELECT version FROM schema_version", name);
    CHECK(vs == 0);
    CHECK(version.find(std::to_string(kSchemaVersion)) != std::string::npos);
  }

  TEST_CASE(
      "storage postgres: a database of schema 3 is upgraded to the current one and keeps "
      "tournaments") {
    auto& pg = shared_pg_server();
    const auto url = pg.create_database();
    load_pg_fixture(url, "schema_v3_pg.sql");
    {
      PgStorage s(url);
      CHECK(s.schema().found == 3);
      CHECK(s.schema().upgraded());
      CHECK(s.counts() == StorageCounts{2, 2, 3, 1, 0});
      WriteBatch b{{sample_tournament(1, "running"), sample_tournament(2, "finished")}};
      s.apply(std::span(&b, 1));
      WriteBatch again{{sample_tournament(1, "finished")}};
      s.apply(std::span(&again, 1));
    }
    PgStorage again(url);
    CHECK(again.schema().found == kSchemaVersion);
    CHECK(again.counts() == StorageCounts{2, 2, 3, 1, 2});
    const auto state = again.load();
    REQUIRE(state.tournaments.size() == 2);
    CHECK(state.tournaments[0] == sample_tournament(1, "finished"));
    CHECK(state.tournaments[1] == sample_tournament(2, "finished"));
  }

  TEST_CASE("storage postgres: a database of today's release (schema 5) is upgraded to 6") {
    auto& pg = shared_pg_server();
    const auto url = pg.create_database();
    load_pg_fixture(url, "schema_v5_pg.sql");
    {
      PgStorage s(url);
      check_v5_upgrade(s);
      // The fence function came with the upgrade.
      WriteBatch stale{{MoveRow{2, 2, move("a7-b7/c7"), Millis{1}, std::nullopt}}, {{2, 0}}};
      CHECK_THROWS_AS(s.apply(std::span(&stale, 1)), FencedWrite);
    }
    PgStorage again(url);
    CHECK(again.schema().found == kSchemaVersion);
    CHECK(again.game_row(2)->owner_token == 1);
  }

  TEST_CASE("storage postgres: a bad URL or no server or a refused login gives a clear error") {
    auto& pg = shared_pg_server();
    const auto error_of = [](const std::string& url) {
      try {
        PgStorage s(url);
      } catch (const StorageError& e) {
        return std::string(e.what());
      }
      return std::string("no error");
    };
    CHECK(error_of("postgresql://amazons@127.0.0.1:notaport/x").find("cannot connect") !=
          std::string::npos);
    PgServer::shell("true");
    const auto closed = error_of("postgresql://amazons@127.0.0.1:1/x");
    CHECK(closed.find("cannot connect to PostgreSQL at postgresql://amazons@127.0.0.1:1/x") !=
          std::string::npos);
    CHECK(closed.find("refused") != std::string::npos);
    const auto refused = error_of(
        "postgresql://stranger:wrong@127.0.0.1:" + std::to_string(pg.port()) + "/postgres");
    CHECK(refused.find("password authentication failed") != std::string::npos);
    CHECK(refused.find("wrong") == std::string::npos);  // the password stays out of messages
    CHECK(refused.find("stranger:***@") != std::string::npos);
    CHECK(error_of(pg.url("no_such_database")).find("does not exist") != std::string::npos);
  }
}
