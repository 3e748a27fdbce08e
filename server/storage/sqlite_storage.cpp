#include "server/storage/sqlite_storage.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <set>

#include "server/core/canonical_name.h"
#include "server/core/tournament.h"
#include "server/storage/storage_rows.h"

namespace amazons::server {

std::string sqlite_file_name(const std::filesystem::path& path) {
  const std::u8string utf8 = path.u8string();
  return std::string(utf8.begin(), utf8.end());
}

namespace {

// Moderation (schema 4): in the schema of an empty database and the upgrade from 3.
constexpr const char* kModerationTables = R"sql(
CREATE TABLE roles (name TEXT PRIMARY KEY, role TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sanctions (kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL,
  by_name TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER,
  PRIMARY KEY (kind, target));
CREATE TABLE audit (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor TEXT NOT NULL,
  action TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, duration_ms INTEGER);
CREATE TABLE reports (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, reporter TEXT NOT NULL,
  player TEXT NOT NULL, line INTEGER, text TEXT, game TEXT, reason TEXT NOT NULL,
  resolved_by TEXT, resolved_at INTEGER, note TEXT NOT NULL);
CREATE INDEX reports_open ON reports(id) WHERE resolved_by IS NULL;
)sql";

// The tables of the current version (schema.h), created in an empty database.
constexpr const char* kSchema = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (
  name TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  token_digest TEXT NOT NULL,
  bot INTEGER NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  rated_games INTEGER NOT NULL,
  canonical TEXT);
CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  rules TEXT NOT NULL,
  variant TEXT NOT NULL,
  time_control TEXT NOT NULL,
  white TEXT NOT NULL, white_bot INTEGER NOT NULL, white_rating INTEGER,
  black TEXT NOT NULL, black_bot INTEGER NOT NULL, black_rating INTEGER,
  rated INTEGER NOT NULL,
  invite TEXT,
  winner TEXT,
  reason TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  owner_token INTEGER NOT NULL DEFAULT 0);
CREATE INDEX games_unfinished ON games(id) WHERE reason IS NULL;
CREATE INDEX games_white ON games(white, ended_at);
CREATE INDEX games_black ON games(black, ended_at);
CREATE TABLE moves (
  game INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  elapsed_ms INTEGER NOT NULL,
  clock_ms INTEGER,
  PRIMARY KEY (game, ply)) WITHOUT ROWID;
CREATE TABLE offers (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  request TEXT NOT NULL,
  invite TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL);
CREATE TABLE tournaments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  state TEXT NOT NULL);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
)sql";

// Upgrades[v] takes a database from version v to v + 1.
constexpr const char* kUpgrades[kSchemaVersion] = {
    nullptr,  // 0 is an empty database: kSchema
    "CREATE TABLE schema_version (version INTEGER NOT NULL); DROP TABLE meta;",
    "CREATE TABLE offers (id TEXT PRIMARY KEY, owner TEXT NOT NULL, request TEXT NOT NULL, "
    "invite TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);",
    kModerationTables,
    "CREATE TABLE tournaments (id INTEGER PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, "
    "state TEXT NOT NULL);",
    "ALTER TABLE games ADD COLUMN owner_token INTEGER NOT NULL DEFAULT 0; CREATE TABLE counters "
    "(name TEXT PRIMARY KEY, value INTEGER NOT NULL);",
    "ALTER TABLE players ADD COLUMN canonical TEXT;",  // filled by fill_canonical_names
};

enum Which {
  kUpsertPlayer,
  kUpsertGame,
  kInsertMove,
  kSelectPlayers,
  kSelectUnfinished,
  kSelectMoves,
  kSelectMaxId,
  kSelectHistory,
  kSelectGame,
  kUpsertOffer,
  kDeleteOffer,
  kSelectOffers,
  kUpsertTournament,
  kSelectTournaments,
  kSelectOwner,
  kTakeGame,
  kBegin,
  kCommit,
  kStatementCount
};

constexpr const char* kSql[kStatementCount] = {
    "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, volatility, "
    "rated_games, canonical) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT(name) DO "
    "UPDATE SET password_hash = ?2, token_digest = ?3, bot = ?4, rating = ?5, deviation = ?6, "
    "volatility = ?7, rated_games = ?8, canonical = CASE WHEN players.password_hash = '' THEN ?9 "
    "ELSE players.canonical END",
    "INSERT INTO games (id, rules, variant, time_control, white, white_bot, white_rating, black, "
    "black_bot, black_rating, rated, invite, winner, reason, started_at, ended_at, owner_token) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) ON "
    "CONFLICT(id) DO UPDATE SET winner = ?13, reason = ?14, ended_at = ?16",
    "INSERT INTO moves (game, ply, move, elapsed_ms, clock_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    "SELECT name, password_hash, token_digest, bot, rating, deviation, volatility, rated_games "
    "FROM players",
    "SELECT id, rules, variant, time_control, white, white_bot, white_rating, black, black_bot, "
    "black_rating, rated, invite, winner, reason, started_at, ended_at, owner_token FROM games "
    "WHERE reason IS NULL ORDER BY id",
    "SELECT ply, move, elapsed_ms, clock_ms FROM moves WHERE game = ?1 ORDER BY ply",
    "SELECT COALESCE(MAX(id), 0) FROM games",
    "SELECT id, rules, variant, time_control, white, white_bot, white_rating, black, black_bot, "
    "black_rating, rated, invite, winner, reason, started_at, ended_at, owner_token, (SELECT "
    "COUNT(*) FROM moves WHERE game = games.id) FROM games WHERE (white = ?1 OR black = ?1) AND "
    "reason IS NOT NULL AND (invite IS NULL OR white = ?3 OR black = ?3) ORDER BY ended_at DESC, "
    "id DESC LIMIT ?2",
    "SELECT id, rules, variant, time_control, white, white_bot, white_rating, black, black_bot, "
    "black_rating, rated, invite, winner, reason, started_at, ended_at, owner_token FROM games "
    "WHERE id = ?1",
    "INSERT INTO offers (id, owner, request, invite, created_at, expires_at) VALUES (?1, ?2, ?3, "
    "?4, ?5, ?6) ON CONFLICT(id) DO UPDATE SET owner = ?2, request = ?3, invite = ?4, created_at "
    "= ?5, expires_at = ?6",
    "DELETE FROM offers WHERE id = ?1 AND (?2 IS NULL OR expires_at = ?2)",
    "SELECT id, owner, request, invite, created_at, expires_at FROM offers ORDER BY created_at, "
    "id",
    "INSERT INTO tournaments (id, name, status, state) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(id) DO "
    "UPDATE SET name = ?2, status = ?3, state = ?4",
    "SELECT id, name, status, state FROM tournaments ORDER BY id",
    "SELECT owner_token, reason IS NOT NULL FROM games WHERE id = ?1",
    "UPDATE games SET owner_token = ?2 WHERE id = ?1",
    "BEGIN IMMEDIATE",
    "COMMIT",
};

}  // namespace

class SqliteStorage::Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
      throw StorageError(std::string("prepare: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(stmt_, i, v));
    return *this;
  }
  Statement& bind(int i, double v) {
    check(sqlite3_bind_double(stmt_, i, v));
    return *this;
  }
  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  template <class T>
  Statement& bind(int i, const std::optional<T>& v) {
    if (v) return bind(i, *v);
    check(sqlite3_bind_null(stmt_, i));
    return *this;
  }
  // True while there is a row to read.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw StorageError(std::string("step: ") + sqlite3_errmsg(db_));
  }
  void run() {
    struct Reset {
      Statement& s;
      ~Reset() { s.reset(); }
    } guard{*this};
    while (step()) {
    }
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) throw StorageError(std::string("bind: ") + sqlite3_errmsg(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

namespace {

// Reset on scope exit, so a statement is reusable whatever happened while reading it.
template <class S>
struct ResetOnExit {
  S& s;
  ~ResetOnExit() { s.reset(); }
};

using rows::from_ms;
using rows::read_game;
using rows::to_ms;

}  // namespace

SqliteStorage::SqliteStorage(const std::filesystem::path& path) : path_(path) {
  if (sqlite3_open_v2(sqlite_file_name(path).c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StorageError("cannot open " + path.string() + ": " + why);
  }
  try {
    sqlite3_busy_timeout(db_, 5000);
    exec("PRAGMA journal_mode = WAL");
    exec("PRAGMA synchronous = FULL");
    exec("PRAGMA foreign_keys = ON");
    exec("PRAGMA wal_autocheckpoint = 0");
    open_schema();
    for (const char* sql : kSql) statements_.push_back(std::make_unique<Statement>(db_, sql));
  } catch (...) {
    statements_.clear();
    sqlite3_close(db_);
    throw;
  }
  checkpointer_ = std::thread([this] { checkpoint_loop(); });
}

SqliteStorage::~SqliteStorage() {
  {
    std::lock_guard lock(checkpoint_mutex_);
    stopping_ = true;
  }
  checkpoint_wake_.notify_one();
  checkpointer_.join();
  statements_.clear();
  sqlite3_close(db_);
}

void SqliteStorage::checkpoint_loop() {
  // How often the WAL is copied back. Passive checkpoints never block the writer; a busy moment
  // just leaves the rest for the next round.
  constexpr auto kInterval = std::chrono::milliseconds(500);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(sqlite_file_name(path_).c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  sqlite3_exec(db, "PRAGMA synchronous = FULL", nullptr, nullptr, nullptr);
  std::unique_lock lock(checkpoint_mutex_);
  while (!checkpoint_wake_.wait_for(lock, kInterval, [&] { return stopping_; })) {
    lock.unlock();
    sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    lock.lock();
  }
  lock.unlock();
  sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  sqlite3_close(db);
}

void SqliteStorage::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw StorageError(why);
  }
}

SqliteStorage::Statement& SqliteStorage::prepared(int which) {
  return *statements_[static_cast<std::size_t>(which)];
}

void SqliteStorage::write(const PlayerRow& r) {
  prepared(kUpsertPlayer)
      .bind(1, r.name)
      .bind(2, r.password_hash)
      .bind(3, r.token_digest)
      .bind(4, std::int64_t{r.bot})
      .bind(5, r.rating.rating)
      .bind(6, r.rating.deviation)
      .bind(7, r.rating.volatility)
      .bind(8, std::int64_t{r.rated_games})
      .bind(9, canonical_name(r.name))
      .run();
}

void SqliteStorage::write(const PlayerRating& r) {
  Statement q(db_,
              "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
              "volatility, rated_games) VALUES (?1, '', '', ?2, ?3, ?4, ?5, 1) ON CONFLICT(name) "
              "DO UPDATE SET rating = rating + ?6, deviation = ?4, volatility = ?5, "
              "rated_games = rated_games + 1");
  q.bind(1, r.name)
      .bind(2, std::int64_t{r.bot})
      .bind(3, r.after.rating)
      .bind(4, r.after.deviation)
      .bind(5, r.after.volatility)
      .bind(6, r.after.rating - r.before.rating)
      .run();
}

void SqliteStorage::write(const PlayerLogin& r) {
  const Rating start;
  Statement q(db_,
              "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
              "volatility, rated_games, canonical) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8) ON "
              "CONFLICT(name) DO UPDATE SET password_hash = ?2, token_digest = ?3, bot = ?4, "
              "canonical = CASE WHEN players.password_hash = '' THEN ?8 ELSE players.canonical "
              "END");
  q.bind(1, r.name)
      .bind(2, r.password_hash)
      .bind(3, r.token_digest)
      .bind(4, std::int64_t{r.bot})
      .bind(5, start.rating)
      .bind(6, start.deviation)
      .bind(7, start.volatility)
      .bind(8, canonical_name(r.name))
      .run();
}

void SqliteStorage::write(const GameRow& g) {
  const auto rating = [](const PlayerInfo& p) {
    return p.rating ? std::optional<std::int64_t>(*p.rating) : std::nullopt;
  };
  std::optional<std::string> winner, reason;
  if (g.result) {
    if (g.result->winner) winner = std::string(color_name(*g.result->winner));
    reason = std::string(code(g.result->reason));
  }
  prepared(kUpsertGame)
      .bind(1, g.id)
      .bind(2, g.rules)
      .bind(3, to_json(g.variant).dump())
      .bind(4, to_json(g.time).dump())
      .bind(5, g.white.name)
      .bind(6, std::int64_t{g.white.bot})
      .bind(7, rating(g.white))
      .bind(8, g.black.name)
      .bind(9, std::int64_t{g.black.bot})
      .bind(10, rating(g.black))
      .bind(11, std::int64_t{g.rated})
      .bind(12, g.invite)
      .bind(13, winner)
      .bind(14, reason)
      .bind(15, to_ms(g.started_at))
      .bind(16, g.ended_at ? std::optional<std::int64_t>(to_ms(*g.ended_at)) : std::nullopt)
      .bind(17, g.owner_token)
      .run();
}

void SqliteStorage::write(const MoveRow& m) {
  prepared(kInsertMove)
      .bind(1, m.game)
      .bind(2, std::int64_t{m.ply})
      .bind(3, to_string(m.move))
      .bind(4, static_cast<std::int64_t>(m.elapsed.count()))
      .bind(5, m.clock_left ? std::optional<std::int64_t>(m.clock_left->count()) : std::nullopt)
      .run();
}

void SqliteStorage::write(const OfferRow& o) {
  prepared(kUpsertOffer)
      .bind(1, o.id)
      .bind(2, o.owner)
      .bind(3, o.request)
      .bind(4, o.invite)
      .bind(5, to_ms(o.created_at))
      .bind(6, to_ms(o.expires_at))
      .run();
}

void SqliteStorage::write(const OfferRemoved& o) {
  std::optional<std::int64_t> expiring;
  if (o.expiring) expiring = to_ms(*o.expiring);
  prepared(kDeleteOffer).bind(1, o.id).bind(2, expiring).run();
}

void SqliteStorage::write(const TournamentRow& t) {
  prepared(kUpsertTournament)
      .bind(1, t.id)
      .bind(2, t.name)
      .bind(3, t.status)
      .bind(4, t.state)
      .run();
}

// The token a game is held with, if it is stored; and whether it has finished.
std::optional<std::pair<std::int64_t, bool>> SqliteStorage::owner_of(GameId id) {
  auto& q = prepared(kSelectOwner);
  ResetOnExit<Statement> guard{q};
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return std::pair{q.integer(0), q.integer(1) != 0};
}

void SqliteStorage::apply(std::span<const WriteBatch> batches) {
  prepared(kBegin).run();
  try {
    // BEGIN IMMEDIATE holds the write lock, so a take_game cannot come between check and write.
    for (const WriteBatch& b : batches)
      for (const Fence& f : b.fences)
        if (const auto held = owner_of(f.game); held && held->first > f.token)
          throw FencedWrite(f.game, f.token, held->first);
    for (const WriteBatch& b : batches)
      for (const auto& w : b.writes) std::visit([&](const auto& row) { write(row); }, w);
    prepared(kCommit).run();
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

TakeResult SqliteStorage::take_game(GameId id, std::int64_t token) {
  prepared(kBegin).run();
  try {
    TakeResult out;
    const auto held = owner_of(id);
    if (!held) {
      out.outcome = TakeResult::Outcome::Missing;
    } else {
      out.holder = held->first;
      if (held->second) {
        out.outcome = TakeResult::Outcome::Finished;
      } else if (held->first > token) {
        out.outcome = TakeResult::Outcome::Newer;
      } else {
        prepared(kTakeGame).bind(1, id).bind(2, token).run();
        auto row = game_row(id);
        if (!row) throw StorageError("game " + std::to_string(id) + " vanished while taken");
        out.outcome = TakeResult::Outcome::Taken;
        out.game = StoredGame{std::move(*row), moves_of(id)};
      }
    }
    prepared(kCommit).run();
    return out;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

GameId SqliteStorage::reserve_game_ids(int count) {
  if (count < 1) throw StorageError("reserve_game_ids: count " + std::to_string(count));
  prepared(kBegin).run();
  try {
    exec("INSERT INTO counters (name, value) VALUES ('game_id', 0) ON CONFLICT(name) DO NOTHING");
    Statement q(db_,
                "UPDATE counters SET value = MAX(value, (SELECT COALESCE(MAX(id), 0) FROM games), "
                "(SELECT COALESCE(MAX(CAST(SUBSTR(id, 2) AS INTEGER)), 0) FROM offers WHERE id "
                "GLOB 'g[0-9]*'), (SELECT COALESCE(MAX(id), 0) FROM tournaments)) + ?1 WHERE "
                "name = 'game_id' RETURNING value");
    q.bind(1, std::int64_t{count});
    if (!q.step()) throw StorageError("reserve_game_ids: no counter row");
    const GameId last = q.integer(0);
    q.reset();
    prepared(kCommit).run();
    return last - count + 1;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::vector<MoveRow> SqliteStorage::moves_of(GameId id) {
  auto& q = prepared(kSelectMoves);
  ResetOnExit<Statement> guard{q};
  q.bind(1, id);
  std::vector<MoveRow> out;
  while (q.step())
    out.push_back(
        rows::read_move(id, static_cast<int>(q.integer(0)), q.text(1), q.integer(2),
                        q.is_null(3) ? std::nullopt : std::optional<std::int64_t>(q.integer(3))));
  return out;
}

LoadedState SqliteStorage::load() {
  LoadedState state;
  {
    auto& q = prepared(kSelectPlayers);
    ResetOnExit<Statement> guard{q};
    while (q.step())
      state.players.push_back({q.text(0), q.text(1), q.text(2), q.integer(3) != 0,
                               Rating{q.real(4), q.real(5), q.real(6)},
                               static_cast<int>(q.integer(7))});
  }
  std::vector<GameRow> rows;
  {
    auto& q = prepared(kSelectUnfinished);
    ResetOnExit<Statement> guard{q};
    while (q.step()) rows.push_back(read_game(q));
  }
  for (auto& row : rows) {
    const GameId id = row.id;
    state.unfinished.push_back({std::move(row), moves_of(id)});
  }
  {
    auto& q = prepared(kSelectOffers);
    ResetOnExit<Statement> guard{q};
    while (q.step())
      state.offers.push_back({q.text(0), q.text(1), q.text(2),
                              q.is_null(3) ? std::nullopt : std::optional<std::string>(q.text(3)),
                              from_ms(q.integer(4)), from_ms(q.integer(5))});
  }
  {
    auto& q = prepared(kSelectTournaments);
    ResetOnExit<Statement> guard{q};
    while (q.step()) state.tournaments.push_back({q.integer(0), q.text(1), q.text(2), q.text(3)});
  }
  {
    auto& q = prepared(kSelectMaxId);
    ResetOnExit<Statement> guard{q};
    if (q.step()) state.last_game_id = q.integer(0);
  }
  load_moderation(state);
  return state;
}

// ---- moderation (schema 4): rare writes, so statements are prepared when used ----------------

void SqliteStorage::write(const SanctionRow& r) {
  Statement(db_,
            "INSERT INTO sanctions (kind, target, reason, by_name, created_at, expires_at) VALUES "
            "(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(kind, target) DO UPDATE SET reason = ?3, "
            "by_name = ?4, created_at = ?5, expires_at = ?6")
      .bind(1, std::string(sanction_name(r.kind)))
      .bind(2, r.target)
      .bind(3, r.reason)
      .bind(4, r.by)
      .bind(5, to_ms(r.created_at))
      .bind(6, r.expires_at ? std::optional<std::int64_t>(to_ms(*r.expires_at)) : std::nullopt)
      .run();
}

void SqliteStorage::write(const SanctionRemoved& r) {
  Statement(db_, "DELETE FROM sanctions WHERE kind = ?1 AND target = ?2")
      .bind(1, std::string(sanction_name(r.kind)))
      .bind(2, r.target)
      .run();
}

void SqliteStorage::write(const AuditRow& r) {
  Statement(db_,
            "INSERT INTO audit (at, actor, action, target, reason, duration_ms) VALUES (?1, ?2, "
            "?3, ?4, ?5, ?6)")
      .bind(1, to_ms(r.at))
      .bind(2, r.actor)
      .bind(3, r.action)
      .bind(4, r.target)
      .bind(5, r.reason)
      .bind(6, r.duration ? std::optional<std::int64_t>(r.duration->count()) : std::nullopt)
      .run();
}

void SqliteStorage::write(const ReportRow& r) {
  Statement(db_,
            "INSERT INTO reports (id, at, reporter, player, line, text, game, reason, "
            "resolved_by, resolved_at, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
            "?11) ON CONFLICT(id) DO UPDATE SET resolved_by = ?9, resolved_at = ?10, note = ?11")
      .bind(1, r.id)
      .bind(2, to_ms(r.at))
      .bind(3, r.reporter)
      .bind(4, r.player)
      .bind(5, r.line)
      .bind(6, r.text)
      .bind(7, r.game)
      .bind(8, r.reason)
      .bind(9, r.resolved_by)
      .bind(10, r.resolved_at ? std::optional<std::int64_t>(to_ms(*r.resolved_at)) : std::nullopt)
      .bind(11, r.note)
      .run();
}

void SqliteStorage::write(const RoleRow& r) {
  if (r.role == protocol::Role::Player) {
    Statement(db_, "DELETE FROM roles WHERE name = ?1").bind(1, r.name).run();
    return;
  }
  Statement(db_,
            "INSERT INTO roles (name, role) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET role "
            "= ?2")
      .bind(1, r.name)
      .bind(2, std::string(protocol::enum_name(r.role)))
      .run();
}

void SqliteStorage::write(const RegistrationsRow& r) {
  Statement(db_,
            "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET "
            "value = ?2")
      .bind(1, std::string(rows::kRegistrationsKey))
      .bind(2, std::string(r.open ? "open" : "closed"))
      .run();
}

ModerationSettings SqliteStorage::moderation() {
  ModerationSettings m;
  {
    Statement q(db_, "SELECT name, role FROM roles");
    while (q.step()) m.roles[q.text(0)] = rows::role_from(q.text(1));
  }
  Statement q(db_, "SELECT value FROM settings WHERE key = ?1");
  q.bind(1, std::string(rows::kRegistrationsKey));
  if (q.step()) m.registrations_open = q.text(0) != "closed";
  return m;
}

std::vector<AuditRow> SqliteStorage::audit_log(int limit) {
  Statement q(
      db_, (std::string("SELECT ") + rows::kAuditColumns + " FROM audit ORDER BY id DESC LIMIT ?1")
               .c_str());
  q.bind(1, std::int64_t{limit});
  std::vector<AuditRow> out;
  while (q.step()) out.push_back(rows::read_audit(q));
  return out;
}

void SqliteStorage::load_moderation(LoadedState& state) {
  state.moderation = moderation();
  {
    Statement q(db_, (std::string("SELECT ") + rows::kSanctionColumns + " FROM sanctions").c_str());
    while (q.step()) state.sanctions.push_back(rows::read_sanction(q));
  }
  {
    Statement q(db_, (std::string("SELECT ") + rows::kReportColumns +
                      " FROM reports WHERE resolved_by IS NULL ORDER BY id")
                         .c_str());
    while (q.step()) state.open_reports.push_back(rows::read_report(q));
  }
  state.last_report_id = single_integer("SELECT COALESCE(MAX(id), 0) FROM reports");
}

std::vector<protocol::ArchiveEntry> SqliteStorage::finished_games(const std::string& player,
                                                                  int limit,
                                                                  const std::string& viewer) {
  auto& q = prepared(kSelectHistory);
  ResetOnExit<Statement> guard{q};
  q.bind(1, player).bind(2, std::int64_t{limit}).bind(3, viewer);
  std::vector<protocol::ArchiveEntry> out;
  while (q.step())
    out.push_back(rows::archive_entry(read_game(q), static_cast<int>(q.integer(17))));
  return out;
}

std::optional<GameRow> SqliteStorage::game_row(GameId id) {
  auto& q = prepared(kSelectGame);
  ResetOnExit<Statement> guard{q};
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return read_game(q);
}

std::optional<GameRecord> SqliteStorage::game_record(GameId id) {
  const auto row = game_row(id);
  if (!row) return std::nullopt;
  return rows::game_record(*row, moves_of(id));
}

std::int64_t SqliteStorage::single_integer(const char* sql) {
  Statement q(db_, sql);
  return q.step() ? q.integer(0) : 0;
}

StorageCounts SqliteStorage::counts() {
  return {
      single_integer("SELECT COUNT(*) FROM players"), single_integer("SELECT COUNT(*) FROM games"),
      single_integer("SELECT COUNT(*) FROM moves"), single_integer("SELECT COUNT(*) FROM offers"),
      single_integer("SELECT COUNT(*) FROM tournaments")};
}

void SqliteStorage::clear() {
  prepared(kBegin).run();
  try {
    exec(
        "DELETE FROM tournaments; DELETE FROM offers; DELETE FROM moves; DELETE FROM games; DELETE "
        "FROM players; DELETE FROM counters;");
    exec(
        "DELETE FROM roles; DELETE FROM settings; DELETE FROM sanctions; DELETE FROM audit; "
        "DELETE FROM reports;");
    prepared(kCommit).run();
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

// Finds the version (schema.h) and brings the database to the current one in one transaction,
// so a crash halfway leaves the old version intact.
void SqliteStorage::open_schema() {
  exec("BEGIN IMMEDIATE");
  try {
    const auto has_table = [&](const char* name) {
      Statement q(db_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
      q.bind(1, std::string(name));
      return q.step();
    };
    int found = 0;
    if (has_table("schema_version")) {
      found =
          static_cast<int>(single_integer("SELECT COALESCE(MAX(version), -1) FROM schema_version"));
    } else if (has_table("meta")) {
      Statement q(db_, "SELECT value FROM meta WHERE key = 'schema'");
      found = q.step() ? std::atoi(q.text(0).c_str()) : -1;
    } else if (has_table("players") || has_table("games") || has_table("moves")) {
      found = -1;
    }
    if (found < 0 || (found == 0 && single_integer("SELECT COUNT(*) FROM sqlite_master") != 0))
      throw StorageError(path_.string() +
                         " is not an amazons database (it has other tables, or no schema "
                         "version); give --db a new file or an amazons database");
    if (found > kSchemaVersion) throw StorageError(newer_schema_message(path_.string(), found));
    if (found == 0) {
      exec(kSchema);
      exec(kModerationTables);
    } else
      for (int v = found; v < kSchemaVersion; ++v) exec(kUpgrades[v]);
    if (found < 7) {
      fill_canonical_names();
      exec(kCanonicalIndex);
    }
    if (found != kSchemaVersion) {
      exec("DELETE FROM schema_version");
      exec(("INSERT INTO schema_version (version) VALUES (" + std::to_string(kSchemaVersion) + ")")
               .c_str());
    }
    exec("COMMIT");
    schema_.found = found;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

// Schema 7's upgrade: every player's canonical form; of registered look-alikes only the first
// by name gets it (schema.h).
void SqliteStorage::fill_canonical_names() {
  std::vector<std::pair<std::string, bool>> players;
  {
    Statement q(db_, "SELECT name, password_hash <> '' FROM players ORDER BY name");
    while (q.step()) players.emplace_back(q.text(0), q.integer(1) != 0);
  }
  std::set<std::string> registered;
  for (const auto& [name, has_password] : players) {
    const std::string canonical = canonical_name(name);
    if (has_password && !registered.insert(canonical).second) continue;
    Statement(db_, "UPDATE players SET canonical = ?1 WHERE name = ?2")
        .bind(1, canonical)
        .bind(2, name)
        .run();
  }
}

std::optional<std::string> SqliteStorage::registered_look_alike(const std::string& name) {
  Statement q(db_,
              "SELECT name FROM players WHERE canonical = ?1 AND password_hash <> '' AND name <> "
              "?2 LIMIT 1");
  q.bind(1, canonical_name(name)).bind(2, name);
  if (!q.step()) return std::nullopt;
  return q.text(0);
}

// ---- what a cluster node reads (rare: prepared when used) --------------------------------------

namespace {
constexpr const char* kPlayerColumns =
    "name, password_hash, token_digest, bot, rating, deviation, volatility, rated_games";

template <class Q>
PlayerRow read_player(const Q& q) {
  return {q.text(0),
          q.text(1),
          q.text(2),
          q.integer(3) != 0,
          Rating{q.real(4), q.real(5), q.real(6)},
          static_cast<int>(q.integer(7))};
}
}  // namespace

std::optional<PlayerRow> SqliteStorage::player(const std::string& name) {
  Statement q(db_,
              (std::string("SELECT ") + kPlayerColumns + " FROM players WHERE name = ?1").c_str());
  q.bind(1, name);
  if (!q.step()) return std::nullopt;
  return read_player(q);
}

std::vector<GameId> SqliteStorage::unfinished_games_of(const std::string& name) {
  Statement q(
      db_, "SELECT id FROM games WHERE reason IS NULL AND (white = ?1 OR black = ?1) ORDER BY id");
  q.bind(1, name);
  std::vector<GameId> out;
  while (q.step()) out.push_back(q.integer(0));
  return out;
}

std::vector<std::pair<GameId, std::int64_t>> SqliteStorage::unfinished_games() {
  Statement q(db_, "SELECT id, owner_token FROM games WHERE reason IS NULL ORDER BY id");
  std::vector<std::pair<GameId, std::int64_t>> out;
  while (q.step()) out.emplace_back(q.integer(0), q.integer(1));
  return out;
}

std::vector<OfferRow> SqliteStorage::offers() {
  std::vector<OfferRow> out;
  auto& q = prepared(kSelectOffers);
  ResetOnExit<Statement> guard{q};
  while (q.step())
    out.push_back({q.text(0), q.text(1), q.text(2),
                   q.is_null(3) ? std::nullopt : std::optional<std::string>(q.text(3)),
                   from_ms(q.integer(4)), from_ms(q.integer(5))});
  return out;
}

std::vector<PlayerRow> SqliteStorage::leaderboard(int limit) {
  Statement q(db_, (std::string("SELECT ") + kPlayerColumns +
                    " FROM players WHERE rated_games > 0 ORDER BY rating DESC, name LIMIT ?1")
                       .c_str());
  q.bind(1, std::int64_t{limit});
  std::vector<PlayerRow> out;
  while (q.step()) out.push_back(read_player(q));
  return out;
}

std::vector<TournamentRow> SqliteStorage::tournaments() {
  auto& q = prepared(kSelectTournaments);
  ResetOnExit<Statement> guard{q};
  std::vector<TournamentRow> out;
  while (q.step()) out.push_back({q.integer(0), q.text(1), q.text(2), q.text(3)});
  return out;
}

std::optional<TournamentRow> SqliteStorage::tournament(std::int64_t id) {
  Statement q(db_, "SELECT id, name, status, state FROM tournaments WHERE id = ?1");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return TournamentRow{q.integer(0), q.text(1), q.text(2), q.text(3)};
}

std::vector<std::int64_t> SqliteStorage::unfinished_tournaments() {
  Statement q(db_, "SELECT id FROM tournaments WHERE status <> ?1 ORDER BY id");
  q.bind(1, to_string(TournamentStatus::Finished));
  std::vector<std::int64_t> out;
  while (q.step()) out.push_back(q.integer(0));
  return out;
}

}  // namespace amazons::server
