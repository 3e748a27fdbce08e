#include "server/storage/open_storage.h"

#include <filesystem>
#include <limits>

#include "server/storage/pg_storage.h"
#include "server/storage/postgres_backend.h"
#include "server/storage/sqlite_storage.h"

namespace amazons::server {

std::unique_ptr<Storage> open_storage(const std::string& db) {
  if (is_postgres_url(db)) return open_postgres(db);
  return std::make_unique<SqliteStorage>(db);
}

std::string describe_db(const std::string& db) {
  if (is_postgres_url(db)) return redact_url(db);
  std::error_code ec;
  const auto abs = std::filesystem::absolute(db, ec);
  return ec ? db : abs.string();
}

namespace {

std::string describe(const StorageCounts& c) {
  return std::to_string(c.players) + " players, " + std::to_string(c.games) + " games, " +
         std::to_string(c.moves) + " moves, " + std::to_string(c.offers) + " offers, " +
         std::to_string(c.tournaments) + " tournaments";
}

}  // namespace

StorageCounts migrate(Storage& from, Storage& to, const MigrateOptions& options) {
  const auto say = [&](const std::string& line) {
    if (options.progress) {
      std::fprintf(options.progress, "migrate: %s\n", line.c_str());
      std::fflush(options.progress);
    }
  };
  const StorageCounts source = from.counts();
  const StorageCounts before = to.counts();
  if (before != StorageCounts{}) {
    if (!options.force)
      throw StorageError("the target database is not empty (" + describe(before) +
                         "); migrate copies into an empty database only, or with --force "
                         "deletes what the target holds first");
    say("--force: deleting " + describe(before) + " from the target");
    to.clear();
  }
  say("source holds " + describe(source));

  LoadedState state = from.load();
  {
    WriteBatch players;
    for (auto& p : state.players) players.writes.emplace_back(std::move(p));
    to.apply(std::span(&players, 1));
    say("players " + std::to_string(players.writes.size()) + "/" + std::to_string(source.players));
  }

  std::int64_t games = 0, moves = 0;
  WriteBatch batch;
  int in_batch = 0;
  const auto flush = [&] {
    if (batch.empty()) return;
    to.apply(std::span(&batch, 1));
    batch = {};
    in_batch = 0;
    say("games " + std::to_string(games) + "/" + std::to_string(source.games) + ", moves " +
        std::to_string(moves) + "/" + std::to_string(source.moves));
  };
  for (GameId id = 1; id <= state.last_game_id; ++id) {
    auto row = from.game_row(id);
    if (!row) continue;
    const auto record = from.game_record(id);
    if (!record) throw StorageError("game " + std::to_string(id) + " vanished while copying");
    batch.writes.emplace_back(std::move(*row));
    int ply = 0;
    for (const auto& m : record->moves)
      batch.writes.emplace_back(
          MoveRow{id, ++ply, m.move, m.elapsed.value_or(Millis{0}), m.clock_left});
    ++games;
    moves += ply;
    if (++in_batch >= options.games_per_transaction) flush();
  }
  flush();
  {
    WriteBatch offers;
    for (auto& o : state.offers) offers.writes.emplace_back(std::move(o));
    to.apply(std::span(&offers, 1));
    say("offers " + std::to_string(offers.writes.size()) + "/" + std::to_string(source.offers));
  }
  {
    WriteBatch tournaments;
    for (auto& t : state.tournaments) tournaments.writes.emplace_back(std::move(t));
    to.apply(std::span(&tournaments, 1));
    say("tournaments " + std::to_string(tournaments.writes.size()) + "/" +
        std::to_string(source.tournaments));
  }

  {
    // What moderation keeps (schema 4): roles, the registrations switch, bans and mutes in
    // force, open reports, and the whole audit log, oldest line first. Resolved reports are
    // not loaded by load() and stay behind; their resolution is in the audit log.
    WriteBatch moderation;
    for (const auto& [name, role] : state.moderation.roles)
      moderation.writes.emplace_back(RoleRow{name, role});
    moderation.writes.emplace_back(RegistrationsRow{state.moderation.registrations_open});
    for (auto& row : state.sanctions) moderation.writes.emplace_back(std::move(row));
    for (auto& row : state.open_reports) moderation.writes.emplace_back(std::move(row));
    auto audit = from.audit_log(std::numeric_limits<int>::max());
    for (auto it = audit.rbegin(); it != audit.rend(); ++it)
      moderation.writes.emplace_back(std::move(*it));
    to.apply(std::span(&moderation, 1));
    say("moderation: " + std::to_string(state.moderation.roles.size()) + " roles, " +
        std::to_string(state.sanctions.size()) + " bans and mutes, " +
        std::to_string(state.open_reports.size()) + " open reports, " +
        std::to_string(audit.size()) + " audit lines");
  }

  const StorageCounts after = to.counts();
  if (after != source)
    throw StorageError("the counts differ after copying: source " + describe(source) + ", target " +
                       describe(after));
  say("done: " + describe(after) + " copied; the counts in both databases match");
  return after;
}

}  // namespace amazons::server
