#include "server/storage/pg_storage.h"
#include "server/storage/postgres_backend.h"

#include <cstdio>
#include <pqxx/pqxx>
#include <set>

#include "server/core/canonical_name.h"
#include "server/core/tournament.h"
#include "server/storage/storage_rows.h"

namespace amazons::server {

namespace {

// Moderation (schema 4): in the schema of an empty database and the upgrade from 3.
constexpr const char* kModerationTables = R"sql(
CREATE TABLE roles (name TEXT PRIMARY KEY, role TEXT NOT NULL);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sanctions (kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL,
  by_name TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT,
  PRIMARY KEY (kind, target));
CREATE TABLE audit (id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor TEXT NOT NULL,
  action TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, duration_ms BIGINT);
CREATE TABLE reports (id BIGINT PRIMARY KEY, at BIGINT NOT NULL, reporter TEXT NOT NULL,
  player TEXT NOT NULL, line BIGINT, text TEXT, game TEXT, reason TEXT NOT NULL,
  resolved_by TEXT, resolved_at BIGINT, note TEXT NOT NULL);
CREATE INDEX reports_open ON reports(id) WHERE resolved_by IS NULL;
)sql";

// The cluster (schema 6): who holds each game, the game id counter, and the check a fenced
// write runs first (WriteBatch::fences). The fence locks the game's row until the transaction
// ends, so take_game() (which locks it too) is ordered with every fenced write.
constexpr const char* kClusterTables = R"sql(
CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
CREATE FUNCTION amz_fence(g BIGINT, t BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE held BIGINT;
BEGIN
  SELECT owner_token INTO held FROM games WHERE id = g FOR UPDATE;
  IF held > t THEN
    RAISE EXCEPTION 'game % is held with fencing token %, higher than %', g, held, t
      USING ERRCODE = 'AMZ01';
  END IF;
END $$;
)sql";
// The SQLSTATE amz_fence raises.
constexpr const char* kFencedState = "AMZ01";

// The tables of the current version (schema.h); the same shape as SQLite's, in PostgreSQL's
// types.
constexpr const char* kSchema = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (
  name TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  token_digest TEXT NOT NULL,
  bot BOOLEAN NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  rated_games INTEGER NOT NULL,
  canonical TEXT);
CREATE TABLE games (
  id BIGINT PRIMARY KEY,
  rules TEXT NOT NULL,
  variant TEXT NOT NULL,
  time_control TEXT NOT NULL,
  white TEXT NOT NULL, white_bot BOOLEAN NOT NULL, white_rating INTEGER,
  black TEXT NOT NULL, black_bot BOOLEAN NOT NULL, black_rating INTEGER,
  rated BOOLEAN NOT NULL,
  invite TEXT,
  winner TEXT,
  reason TEXT,
  started_at BIGINT NOT NULL,
  ended_at BIGINT,
  owner_token BIGINT NOT NULL DEFAULT 0);
CREATE INDEX games_unfinished ON games(id) WHERE reason IS NULL;
CREATE INDEX games_white ON games(white, ended_at);
CREATE INDEX games_black ON games(black, ended_at);
CREATE TABLE moves (
  game BIGINT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  elapsed_ms BIGINT NOT NULL,
  clock_ms BIGINT,
  PRIMARY KEY (game, ply));
CREATE TABLE offers (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  request TEXT NOT NULL,
  invite TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL);
CREATE TABLE tournaments (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  state TEXT NOT NULL);
)sql";

// Upgrades[v] takes a database from version v to v + 1. PostgreSQL support began at version 2.
constexpr const char* kUpgrades[kSchemaVersion] = {
    nullptr,
    nullptr,
    "CREATE TABLE offers (id TEXT PRIMARY KEY, owner TEXT NOT NULL, request TEXT NOT NULL, "
    "invite TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);",
    kModerationTables,
    "CREATE TABLE tournaments (id BIGINT PRIMARY KEY, name TEXT NOT NULL, status TEXT NOT NULL, "
    "state TEXT NOT NULL);",
    "ALTER TABLE games ADD COLUMN owner_token BIGINT NOT NULL DEFAULT 0;",
    "ALTER TABLE players ADD COLUMN canonical TEXT;"};  // filled in open_schema

// Held while a server creates or upgrades the schema, so servers starting together on one
// database take turns.
constexpr long kSchemaLock = 0x616d617a;  // "amaz"

// The writes of apply(), each followed by a row of literals (Params::tuple).
constexpr const char* kUpsertPlayer =
    "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
    "volatility, rated_games, canonical) VALUES ";
// A registered player's canonical form is kept (schema.h: a look-alike made before schema 7
// keeps NULL); anyone else's is set. Ends an upsert's SET list.
constexpr const char* kKeepCanonical =
    ", canonical = CASE WHEN players.password_hash = '' THEN EXCLUDED.canonical ELSE "
    "players.canonical END;\n";
constexpr const char* kUpsertPlayerTail =
    " ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, token_digest = "
    "EXCLUDED.token_digest, bot = EXCLUDED.bot, rating = EXCLUDED.rating, deviation = "
    "EXCLUDED.deviation, volatility = EXCLUDED.volatility, rated_games = EXCLUDED.rated_games";
constexpr const char* kUpsertGameTail =
    " ON CONFLICT (id) DO UPDATE SET winner = EXCLUDED.winner, reason = EXCLUDED.reason, "
    "ended_at = EXCLUDED.ended_at;\n";
constexpr const char* kInsertMove =
    "INSERT INTO moves (game, ply, move, elapsed_ms, clock_ms) VALUES ";
constexpr const char* kSelectMoves = "select_moves";
constexpr const char* kSelectHistory = "select_history";
constexpr const char* kSelectGame = "select_game";

// A result row seen through the accessors rows::read_game() wants.
struct Row {
  const pqxx::row& r;
  std::int64_t integer(int c) const {
    const auto f = r[c];
    const char* s = f.c_str();
    if (s[0] == 't' && s[1] == '\0') return 1;  // booleans
    if (s[0] == 'f' && s[1] == '\0') return 0;
    return f.as<std::int64_t>();
  }
  double real(int c) const { return r[c].as<double>(); }
  std::string text(int c) const { return r[c].c_str(); }
  bool is_null(int c) const { return r[c].is_null(); }
};

// Parameters as text, nullptr for NULL: libpqxx 6 has no std::optional parameters.
class Params {
 public:
  Params& add(std::string v) {
    values_.emplace_back(std::move(v));
    return *this;
  }
  Params& add(std::int64_t v) { return add(std::to_string(v)); }
  Params& add(bool v) { return add(std::string(v ? "t" : "f")); }
  Params& add(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);  // round-trips exactly
    return add(std::string(buf));
  }
  template <class T>
  Params& add(const std::optional<T>& v) {
    if (v) return add(*v);
    values_.emplace_back(std::nullopt);
    return *this;
  }
  // The values as a row of SQL literals, "('a', NULL, '3')", quoted by libpq.
  std::string tuple(pqxx::connection_base& c) const {
    std::string out = "(";
    for (const auto& v : values_) {
      if (out.size() > 1) out += ", ";
      out += v ? c.quote(*v) : std::string("NULL");
    }
    return out + ")";
  }
  pqxx::result run(pqxx::transaction_base& t, const char* statement) {
    std::vector<const char*> ptrs;
    for (const auto& v : values_) ptrs.push_back(v ? v->c_str() : nullptr);
    return t.exec_prepared(statement, pqxx::prepare::make_dynamic_params(ptrs));
  }

 private:
  std::vector<std::optional<std::string>> values_;
};

// libpq's messages span lines ("...refused\n\tIs the server running..."): one line for logs.
std::string one_line(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

template <class F>
auto guarded(const char* what, F&& f) {
  try {
    return f();
  } catch (const StorageError&) {
    throw;
  } catch (const std::exception& e) {
    throw StorageError(std::string("postgresql: ") + what + ": " + one_line(e.what()));
  }
}

// A game's moves, in order, read in transaction t.
std::vector<MoveRow> moves_of(pqxx::transaction_base& t, GameId id) {
  std::vector<MoveRow> out;
  for (const auto& r : Params().add(id).run(t, kSelectMoves)) {
    const Row q{r};
    out.push_back(
        rows::read_move(id, static_cast<int>(q.integer(0)), q.text(1), q.integer(2),
                        q.is_null(3) ? std::nullopt : std::optional<std::int64_t>(q.integer(3))));
  }
  return out;
}

ModerationSettings read_moderation(pqxx::transaction_base& t) {
  ModerationSettings m;
  for (const auto& r : t.exec("SELECT name, role FROM roles"))
    m.roles[r[0].c_str()] = rows::role_from(r[1].c_str());
  const auto reg = t.exec("SELECT value FROM settings WHERE key = " +
                          t.quote(std::string(rows::kRegistrationsKey)));
  if (!reg.empty()) m.registrations_open = std::string(reg[0][0].c_str()) != "closed";
  return m;
}

// Appends the SQL of a moderation write (schema 4); false for any other write.
bool append_moderation(pqxx::connection_base& c, const StorageWrite& w, std::string& sql) {
  const auto opt_ms = [](const std::optional<Timestamp>& t) {
    return t ? std::optional<std::int64_t>(rows::to_ms(*t)) : std::nullopt;
  };
  if (const auto* sa = std::get_if<SanctionRow>(&w)) {
    sql += "INSERT INTO sanctions (" + std::string(rows::kSanctionColumns) + ") VALUES ";
    sql += Params()
               .add(std::string(sanction_name(sa->kind)))
               .add(sa->target)
               .add(sa->reason)
               .add(sa->by)
               .add(rows::to_ms(sa->created_at))
               .add(opt_ms(sa->expires_at))
               .tuple(c);
    sql +=
        " ON CONFLICT (kind, target) DO UPDATE SET reason = EXCLUDED.reason, by_name = "
        "EXCLUDED.by_name, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at;\n";
  } else if (const auto* sr = std::get_if<SanctionRemoved>(&w)) {
    sql += "DELETE FROM sanctions WHERE kind = " + c.quote(std::string(sanction_name(sr->kind))) +
           " AND target = " + c.quote(sr->target) + ";\n";
  } else if (const auto* au = std::get_if<AuditRow>(&w)) {
    sql += "INSERT INTO audit (" + std::string(rows::kAuditColumns) + ") VALUES ";
    sql +=
        Params()
            .add(rows::to_ms(au->at))
            .add(au->actor)
            .add(au->action)
            .add(au->target)
            .add(au->reason)
            .add(au->duration ? std::optional<std::int64_t>(au->duration->count()) : std::nullopt)
            .tuple(c);
    sql += ";\n";
  } else if (const auto* rp = std::get_if<ReportRow>(&w)) {
    sql += "INSERT INTO reports (" + std::string(rows::kReportColumns) + ") VALUES ";
    sql += Params()
               .add(rp->id)
               .add(rows::to_ms(rp->at))
               .add(rp->reporter)
               .add(rp->player)
               .add(rp->line)
               .add(rp->text)
               .add(rp->game)
               .add(rp->reason)
               .add(rp->resolved_by)
               .add(opt_ms(rp->resolved_at))
               .add(rp->note)
               .tuple(c);
    sql +=
        " ON CONFLICT (id) DO UPDATE SET resolved_by = EXCLUDED.resolved_by, resolved_at = "
        "EXCLUDED.resolved_at, note = EXCLUDED.note;\n";
  } else if (const auto* ro = std::get_if<RoleRow>(&w)) {
    if (ro->role == protocol::Role::Player)
      sql += "DELETE FROM roles WHERE name = " + c.quote(ro->name) + ";\n";
    else
      sql += "INSERT INTO roles (name, role) VALUES (" + c.quote(ro->name) + ", " +
             c.quote(std::string(protocol::enum_name(ro->role))) +
             ") ON CONFLICT (name) DO UPDATE SET role = EXCLUDED.role;\n";
  } else if (const auto* rg = std::get_if<RegistrationsRow>(&w)) {
    sql += "INSERT INTO settings (key, value) VALUES (" +
           c.quote(std::string(rows::kRegistrationsKey)) + ", " +
           c.quote(std::string(rg->open ? "open" : "closed")) +
           ") ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;\n";
  } else {
    return false;
  }
  return true;
}

}  // namespace

struct PgStorage::Connection {
  explicit Connection(const std::string& url) : c(url) {}
  pqxx::connection c;
};

PgStorage::PgStorage(const std::string& url) : url_(redact_url(url)) {
  if (!is_postgres_url(url))
    throw StorageError("not a PostgreSQL URL: " + url_ +
                       " (expected postgresql://user@host:port/dbname)");
  try {
    conn_ = std::make_unique<Connection>(url);
  } catch (const std::exception& e) {
    throw StorageError("cannot connect to PostgreSQL at " + url_ + ": " + one_line(e.what()));
  }
  guarded("setup", [&] {
    // The durability promise does not depend on how the server or database is configured.
    conn_->c.set_variable("synchronous_commit", "on");
    conn_->c.set_variable("client_min_messages", "warning");
    open_schema();
    const std::string game_columns = rows::kGameColumns;
    conn_->c.prepare(kSelectMoves,
                     "SELECT ply, move, elapsed_ms, clock_ms FROM moves WHERE game = $1 ORDER BY "
                     "ply");
    conn_->c.prepare(kSelectHistory,
                     "SELECT " + game_columns +
                         ", (SELECT COUNT(*) FROM moves WHERE game = games.id) FROM games WHERE "
                         "(white = $1 OR black = $1) AND reason IS NOT NULL AND (invite IS NULL OR "
                         "white = $3 OR black = $3) ORDER BY ended_at DESC, id DESC LIMIT $2");
    conn_->c.prepare(kSelectGame, "SELECT " + game_columns + " FROM games WHERE id = $1");
    return 0;
  });
}

PgStorage::~PgStorage() = default;

void PgStorage::open_schema() {
  pqxx::work t(conn_->c);
  t.exec("SELECT pg_advisory_xact_lock(" + std::to_string(kSchemaLock) + ")");
  const auto has_table = [&](const char* name) {
    return !t.exec("SELECT to_regclass(" + t.quote(std::string("public.") + name) + ")")[0][0]
                .is_null();
  };
  int found = 0;
  if (has_table("schema_version")) {
    found = t.exec("SELECT COALESCE(MAX(version), -1) FROM schema_version")[0][0].as<int>();
  } else if (has_table("players") || has_table("games") || has_table("moves")) {
    found = -1;
  }
  if (found < 0)
    throw StorageError(url_ +
                       " has tables named like amazons' but no schema version; give --db an "
                       "empty database");
  if (found > kSchemaVersion) throw StorageError(newer_schema_message(url_, found));
  if (found == 0) {
    t.exec(kSchema);
    t.exec(kModerationTables);
  } else {
    for (int v = found; v < kSchemaVersion; ++v)
      if (kUpgrades[v]) t.exec(kUpgrades[v]);
  }
  if (found < 6) t.exec(kClusterTables);  // a new database, or the upgrade from 5
  if (found < 7) {
    // Schema 7's upgrade (schema.h): computed here, since SQL has no TR39 skeleton.
    std::set<std::string> registered;
    for (const auto& row :
         t.exec("SELECT name, password_hash <> '' FROM players ORDER BY name COLLATE \"C\"")) {
      const std::string name = row[0].as<std::string>();
      const std::string canonical = canonical_name(name);
      if (row[1].as<bool>() && !registered.insert(canonical).second) continue;
      t.exec_params("UPDATE players SET canonical = $1 WHERE name = $2", canonical, name);
    }
    t.exec(kCanonicalIndex);
  }
  if (found != kSchemaVersion) {
    t.exec("DELETE FROM schema_version");
    t.exec("INSERT INTO schema_version (version) VALUES (" + std::to_string(kSchemaVersion) + ")");
  }
  t.commit();
  schema_.found = found;
}

// All the writes go to PostgreSQL as one multi-statement query, which it runs as one implicit
// transaction: one round trip and one commit (one WAL flush) per call, however many rows.
void PgStorage::apply(std::span<const WriteBatch> batches) {
  guarded("write", [&] {
    auto& c = conn_->c;
    std::string sql;
    std::vector<Fence> fences;
    for (const WriteBatch& b : batches)
      for (const Fence& f : b.fences) {
        sql +=
            "SELECT amz_fence(" + std::to_string(f.game) + ", " + std::to_string(f.token) + ");\n";
        fences.push_back(f);
      }
    for (const WriteBatch& b : batches)
      for (const auto& w : b.writes) {
        if (const auto* p = std::get_if<PlayerRow>(&w)) {
          sql += kUpsertPlayer;
          sql += Params()
                     .add(p->name)
                     .add(p->password_hash)
                     .add(p->token_digest)
                     .add(p->bot)
                     .add(p->rating.rating)
                     .add(p->rating.deviation)
                     .add(p->rating.volatility)
                     .add(std::int64_t{p->rated_games})
                     .add(canonical_name(p->name))
                     .tuple(c);
          sql += kUpsertPlayerTail;
          sql += kKeepCanonical;
        } else if (const auto* pl = std::get_if<PlayerLogin>(&w)) {
          const Rating start;
          sql +=
              "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
              "volatility, rated_games, canonical) VALUES ";
          sql += Params()
                     .add(pl->name)
                     .add(pl->password_hash)
                     .add(pl->token_digest)
                     .add(pl->bot)
                     .add(start.rating)
                     .add(start.deviation)
                     .add(start.volatility)
                     .add(std::int64_t{0})
                     .add(canonical_name(pl->name))
                     .tuple(c);
          sql +=
              " ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, "
              "token_digest = EXCLUDED.token_digest, bot = EXCLUDED.bot";
          sql += kKeepCanonical;
        } else if (const auto* pr = std::get_if<PlayerRating>(&w)) {
          sql +=
              "INSERT INTO players (name, password_hash, token_digest, bot, rating, deviation, "
              "volatility, rated_games) VALUES ";
          sql += Params()
                     .add(pr->name)
                     .add(std::string())
                     .add(std::string())
                     .add(pr->bot)
                     .add(pr->after.rating)
                     .add(pr->after.deviation)
                     .add(pr->after.volatility)
                     .add(std::int64_t{1})
                     .tuple(c);
          sql += " ON CONFLICT (name) DO UPDATE SET rating = players.rating + ";
          sql += Params().add(pr->after.rating - pr->before.rating).tuple(c);
          sql +=
              "::double precision, deviation = EXCLUDED.deviation, volatility = "
              "EXCLUDED.volatility, rated_games = players.rated_games + 1;\n";
        } else if (const auto* g = std::get_if<GameRow>(&w)) {
          const auto v = rows::game_values(*g);
          sql += "INSERT INTO games (";
          sql += rows::kGameColumns;
          sql += ") VALUES ";
          sql += Params()
                     .add(g->id)
                     .add(g->rules)
                     .add(v.variant)
                     .add(v.time)
                     .add(g->white.name)
                     .add(g->white.bot)
                     .add(v.white_rating)
                     .add(g->black.name)
                     .add(g->black.bot)
                     .add(v.black_rating)
                     .add(g->rated)
                     .add(g->invite)
                     .add(v.winner)
                     .add(v.reason)
                     .add(rows::to_ms(g->started_at))
                     .add(v.ended_at)
                     .add(g->owner_token)
                     .tuple(c);
          sql += kUpsertGameTail;
        } else if (const auto* o = std::get_if<OfferRow>(&w)) {
          sql += "INSERT INTO offers (id, owner, request, invite, created_at, expires_at) VALUES ";
          sql += Params()
                     .add(o->id)
                     .add(o->owner)
                     .add(o->request)
                     .add(o->invite)
                     .add(rows::to_ms(o->created_at))
                     .add(rows::to_ms(o->expires_at))
                     .tuple(c);
          sql +=
              " ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, request = "
              "EXCLUDED.request, invite = EXCLUDED.invite, created_at = EXCLUDED.created_at, "
              "expires_at = EXCLUDED.expires_at;\n";
        } else if (const auto* tr = std::get_if<TournamentRow>(&w)) {
          sql += "INSERT INTO tournaments (id, name, status, state) VALUES ";
          sql += Params().add(tr->id).add(tr->name).add(tr->status).add(tr->state).tuple(c);
          sql +=
              " ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, "
              "state = EXCLUDED.state;\n";
        } else if (const auto* gone = std::get_if<OfferRemoved>(&w)) {
          sql += "DELETE FROM offers WHERE id = " + c.quote(gone->id);
          if (gone->expiring)
            sql += " AND expires_at = " + std::to_string(rows::to_ms(*gone->expiring));
          sql += ";\n";
        } else if (append_moderation(c, w, sql)) {
        } else {
          const auto& m = std::get<MoveRow>(w);
          sql += kInsertMove;
          sql += Params()
                     .add(m.game)
                     .add(std::int64_t{m.ply})
                     .add(to_string(m.move))
                     .add(static_cast<std::int64_t>(m.elapsed.count()))
                     .add(m.clock_left ? std::optional<std::int64_t>(m.clock_left->count())
                                       : std::nullopt)
                     .tuple(c);
          sql += ";\n";
        }
      }
    if (sql.empty()) return 0;
    try {
      pqxx::nontransaction t(c);
      t.exec(sql);
    } catch (const pqxx::sql_error& e) {
      if (e.sqlstate() != kFencedState) throw;
      // Which fence failed: the first one whose game is now held with a higher token.
      pqxx::read_transaction t(c);
      for (const Fence& f : fences) {
        const auto r = t.exec("SELECT owner_token FROM games WHERE id = " + std::to_string(f.game));
        if (!r.empty() && r[0][0].as<std::int64_t>() > f.token)
          throw FencedWrite(f.game, f.token, r[0][0].as<std::int64_t>());
      }
      throw;
    }
    return 0;
  });
}

LoadedState PgStorage::load() {
  return guarded("load", [&] {
    LoadedState state;
    pqxx::read_transaction t(conn_->c);
    for (const auto& r : t.exec("SELECT name, password_hash, token_digest, bot, rating, "
                                "deviation, volatility, rated_games FROM players")) {
      const Row q{r};
      state.players.push_back({q.text(0), q.text(1), q.text(2), q.integer(3) != 0,
                               Rating{q.real(4), q.real(5), q.real(6)},
                               static_cast<int>(q.integer(7))});
    }
    for (const auto& r : t.exec(std::string("SELECT ") + rows::kGameColumns +
                                " FROM games WHERE reason IS NULL ORDER BY id"))
      state.unfinished.push_back({rows::read_game(Row{r}), {}});
    // One query for every unfinished game's moves, rather than one per game.
    std::size_t i = 0;
    for (const auto& r :
         t.exec("SELECT m.game, m.ply, m.move, m.elapsed_ms, m.clock_ms FROM moves m JOIN games "
                "g ON g.id = m.game WHERE g.reason IS NULL ORDER BY m.game, m.ply")) {
      const Row q{r};
      const GameId id = q.integer(0);
      while (i < state.unfinished.size() && state.unfinished[i].row.id < id) ++i;
      if (i == state.unfinished.size() || state.unfinished[i].row.id != id) continue;
      state.unfinished[i].moves.push_back(
          rows::read_move(id, static_cast<int>(q.integer(1)), q.text(2), q.integer(3),
                          q.is_null(4) ? std::nullopt : std::optional<std::int64_t>(q.integer(4))));
    }
    for (const auto& r : t.exec("SELECT id, owner, request, invite, created_at, expires_at FROM "
                                "offers ORDER BY created_at, id")) {
      const Row q{r};
      state.offers.push_back({q.text(0), q.text(1), q.text(2),
                              q.is_null(3) ? std::nullopt : std::optional<std::string>(q.text(3)),
                              rows::from_ms(q.integer(4)), rows::from_ms(q.integer(5))});
    }
    for (const auto& r : t.exec("SELECT id, name, status, state FROM tournaments ORDER BY id")) {
      const Row q{r};
      state.tournaments.push_back({q.integer(0), q.text(1), q.text(2), q.text(3)});
    }
    state.last_game_id = t.exec("SELECT COALESCE(MAX(id), 0) FROM games")[0][0].as<GameId>();
    state.moderation = read_moderation(t);
    for (const auto& r :
         t.exec(std::string("SELECT ") + rows::kSanctionColumns + " FROM sanctions"))
      state.sanctions.push_back(rows::read_sanction(Row{r}));
    for (const auto& r : t.exec(std::string("SELECT ") + rows::kReportColumns +
                                " FROM reports WHERE resolved_by IS NULL ORDER BY id"))
      state.open_reports.push_back(rows::read_report(Row{r}));
    state.last_report_id =
        t.exec("SELECT COALESCE(MAX(id), 0) FROM reports")[0][0].as<std::int64_t>();
    return state;
  });
}

ModerationSettings PgStorage::moderation() {
  return guarded("moderation", [&] {
    pqxx::read_transaction t(conn_->c);
    return read_moderation(t);
  });
}

std::vector<AuditRow> PgStorage::audit_log(int limit) {
  return guarded("audit", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<AuditRow> out;
    for (const auto& r : t.exec(std::string("SELECT ") + rows::kAuditColumns +
                                " FROM audit ORDER BY id DESC LIMIT " + std::to_string(limit)))
      out.push_back(rows::read_audit(Row{r}));
    return out;
  });
}

std::vector<protocol::ArchiveEntry> PgStorage::finished_games(const std::string& player, int limit,
                                                              const std::string& viewer) {
  return guarded("archive", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<protocol::ArchiveEntry> out;
    for (const auto& r :
         Params().add(player).add(std::int64_t{limit}).add(viewer).run(t, kSelectHistory)) {
      const Row q{r};
      out.push_back(rows::archive_entry(rows::read_game(q), static_cast<int>(q.integer(17))));
    }
    return out;
  });
}

std::optional<GameRow> PgStorage::game_row(GameId id) {
  return guarded("game", [&]() -> std::optional<GameRow> {
    pqxx::read_transaction t(conn_->c);
    const auto res = Params().add(id).run(t, kSelectGame);
    if (res.empty()) return std::nullopt;
    return rows::read_game(Row{res[0]});
  });
}

std::optional<GameRecord> PgStorage::game_record(GameId id) {
  const auto row = game_row(id);
  if (!row) return std::nullopt;
  return guarded("moves", [&] {
    pqxx::read_transaction t(conn_->c);
    return rows::game_record(*row, moves_of(t, id));
  });
}

StorageCounts PgStorage::counts() {
  return guarded("count", [&] {
    pqxx::read_transaction t(conn_->c);
    const auto r = t.exec(
        "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM games), (SELECT COUNT(*) "
        "FROM moves), (SELECT COUNT(*) FROM offers), (SELECT COUNT(*) FROM tournaments)")[0];
    return StorageCounts{r[0].as<std::int64_t>(), r[1].as<std::int64_t>(), r[2].as<std::int64_t>(),
                         r[3].as<std::int64_t>(), r[4].as<std::int64_t>()};
  });
}

TakeResult PgStorage::take_game(GameId id, std::int64_t token) {
  return guarded("take", [&] {
    pqxx::work t(conn_->c);
    const std::string game = std::to_string(id);
    // FOR UPDATE waits for a fenced write in flight (amz_fence locks the row) and then reads it
    // as committed, so the moves read below include that write's.
    const auto held = t.exec(
        "SELECT owner_token, reason IS NOT NULL FROM games WHERE id = " + game + " FOR UPDATE");
    TakeResult out;
    if (held.empty()) return out;  // Missing
    out.holder = held[0][0].as<std::int64_t>();
    if (Row{held[0]}.integer(1) != 0) {
      out.outcome = TakeResult::Outcome::Finished;
    } else if (out.holder > token) {
      out.outcome = TakeResult::Outcome::Newer;
    } else {
      t.exec("UPDATE games SET owner_token = " + std::to_string(token) + " WHERE id = " + game);
      out.outcome = TakeResult::Outcome::Taken;
      out.game = StoredGame{rows::read_game(Row{Params().add(id).run(t, kSelectGame)[0]}),
                            moves_of(t, id)};
    }
    t.commit();
    return out;
  });
}

GameId PgStorage::reserve_game_ids(int count) {
  if (count < 1) throw StorageError("reserve_game_ids: count " + std::to_string(count));
  return guarded("reserve ids", [&] {
    pqxx::work t(conn_->c);
    t.exec(
        "INSERT INTO counters (name, value) VALUES ('game_id', 0) ON CONFLICT (name) DO NOTHING");
    // The row lock of the UPDATE orders servers reserving at once; each sees the other's value.
    const auto r = t.exec(
        "UPDATE counters SET value = GREATEST(value, (SELECT COALESCE(MAX(id), 0) FROM games), "
        "(SELECT COALESCE(MAX(CAST(SUBSTR(id, 2) AS BIGINT)), 0) FROM offers WHERE id ~ "
        "'^g[0-9]+$'), (SELECT COALESCE(MAX(id), 0) FROM tournaments)) + " +
        std::to_string(count) + " WHERE name = 'game_id' RETURNING value");
    const GameId last = r[0][0].as<GameId>();
    t.commit();
    return last - count + 1;
  });
}

void PgStorage::clear() {
  guarded("clear", [&] {
    pqxx::work t(conn_->c);
    t.exec(
        "TRUNCATE tournaments, offers, moves, games, players, roles, settings, sanctions, audit, "
        "reports, counters");
    t.commit();
    return 0;
  });
}

namespace {
constexpr const char* kPlayerColumns =
    "name, password_hash, token_digest, bot, rating, deviation, volatility, rated_games";

PlayerRow read_player(const Row& q) {
  return {q.text(0),
          q.text(1),
          q.text(2),
          q.integer(3) != 0,
          Rating{q.real(4), q.real(5), q.real(6)},
          static_cast<int>(q.integer(7))};
}
}  // namespace

std::optional<std::string> PgStorage::registered_look_alike(const std::string& name) {
  return guarded("registered_look_alike", [&]() -> std::optional<std::string> {
    pqxx::read_transaction t(conn_->c);
    const auto r = t.exec_params(
        "SELECT name FROM players WHERE canonical = $1 AND password_hash <> '' AND name <> $2 "
        "LIMIT 1",
        canonical_name(name), name);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<std::string>();
  });
}

std::optional<PlayerRow> PgStorage::player(const std::string& name) {
  return guarded("player", [&]() -> std::optional<PlayerRow> {
    pqxx::read_transaction t(conn_->c);
    const auto r = t.exec_params(
        std::string("SELECT ") + kPlayerColumns + " FROM players WHERE name = $1", name);
    if (r.empty()) return std::nullopt;
    return read_player(Row{r[0]});
  });
}

std::vector<GameId> PgStorage::unfinished_games_of(const std::string& name) {
  return guarded("games of", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<GameId> out;
    for (const auto& r : t.exec_params(
             "SELECT id FROM games WHERE reason IS NULL AND (white = $1 OR black = $1) ORDER BY id",
             name))
      out.push_back(r[0].as<GameId>());
    return out;
  });
}

std::vector<std::pair<GameId, std::int64_t>> PgStorage::unfinished_games() {
  return guarded("unfinished", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<std::pair<GameId, std::int64_t>> out;
    for (const auto& r :
         t.exec("SELECT id, owner_token FROM games WHERE reason IS NULL ORDER BY id"))
      out.emplace_back(r[0].as<GameId>(), r[1].as<std::int64_t>());
    return out;
  });
}

std::vector<OfferRow> PgStorage::offers() {
  return guarded("offers", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<OfferRow> out;
    for (const auto& r : t.exec("SELECT id, owner, request, invite, created_at, expires_at FROM "
                                "offers ORDER BY created_at, id")) {
      const Row q{r};
      out.push_back({q.text(0), q.text(1), q.text(2),
                     q.is_null(3) ? std::nullopt : std::optional<std::string>(q.text(3)),
                     rows::from_ms(q.integer(4)), rows::from_ms(q.integer(5))});
    }
    return out;
  });
}

std::vector<PlayerRow> PgStorage::leaderboard(int limit) {
  return guarded("leaderboard", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<PlayerRow> out;
    for (const auto& r : t.exec_params(std::string("SELECT ") + kPlayerColumns +
                                           " FROM players WHERE rated_games > 0 ORDER BY rating "
                                           "DESC, name LIMIT $1",
                                       std::int64_t{limit}))
      out.push_back(read_player(Row{r}));
    return out;
  });
}

std::vector<TournamentRow> PgStorage::tournaments() {
  return guarded("tournaments", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<TournamentRow> out;
    for (const auto& r : t.exec("SELECT id, name, status, state FROM tournaments ORDER BY id")) {
      const Row q{r};
      out.push_back({q.integer(0), q.text(1), q.text(2), q.text(3)});
    }
    return out;
  });
}

std::optional<TournamentRow> PgStorage::tournament(std::int64_t id) {
  return guarded("tournament", [&]() -> std::optional<TournamentRow> {
    pqxx::read_transaction t(conn_->c);
    const auto res =
        t.exec_params("SELECT id, name, status, state FROM tournaments WHERE id = $1", id);
    if (res.empty()) return std::nullopt;
    const Row q{res[0]};
    return TournamentRow{q.integer(0), q.text(1), q.text(2), q.text(3)};
  });
}

std::vector<std::int64_t> PgStorage::unfinished_tournaments() {
  return guarded("tournaments", [&] {
    pqxx::read_transaction t(conn_->c);
    std::vector<std::int64_t> out;
    for (const auto& r : t.exec_params("SELECT id FROM tournaments WHERE status <> $1 ORDER BY id",
                                       to_string(TournamentStatus::Finished)))
      out.push_back(r[0].as<std::int64_t>());
    return out;
  });
}

std::unique_ptr<Storage> open_postgres(const std::string& url) {
  return std::make_unique<PgStorage>(url);
}

}  // namespace amazons::server
