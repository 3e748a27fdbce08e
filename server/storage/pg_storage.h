// Storage in PostgreSQL, for servers that share one database or outgrow one file. Every
// apply() is one transaction committed with synchronous_commit = on: when it returns, the
// server's WAL is flushed to disk, the same promise SQLite's synchronous=FULL gives.
#pragma once

#include <memory>
#include <string>

#include "server/core/storage.h"

namespace amazons::server {

// True for a --db value that names a PostgreSQL database (postgresql:// or postgres://).
bool is_postgres_url(const std::string& db);
// The URL with any password replaced by "***", for messages and logs.
std::string redact_url(const std::string& url);

class PgStorage final : public Storage {
 public:
  // Connects (postgresql://user[:password]@host[:port]/dbname[?options], libpq's URI syntax)
  // and creates or upgrades the schema. Throws StorageError with the reason: a malformed URL,
  // an unreachable server, refused authentication, a newer schema.
  explicit PgStorage(const std::string& url);
  ~PgStorage() override;
  PgStorage(const PgStorage&) = delete;
  PgStorage& operator=(const PgStorage&) = delete;

  LoadedState load() override;
  void apply(std::span<const WriteBatch> batches) override;
  std::vector<protocol::ArchiveEntry> finished_games(const std::string& player, int limit,
                                                     const std::string& viewer) override;
  std::optional<GameRow> game_row(GameId id) override;
  std::optional<GameRecord> game_record(GameId id) override;
  StorageCounts counts() override;
  void clear() override;
  ModerationSettings moderation() override;
  std::vector<AuditRow> audit_log(int limit) override;
  SchemaStatus schema() const override { return schema_; }
  TakeResult take_game(GameId id, std::int64_t token) override;
  GameId reserve_game_ids(int count) override;
  std::optional<PlayerRow> player(const std::string& name) override;
  std::optional<std::string> registered_look_alike(const std::string& name) override;
  std::vector<GameId> unfinished_games_of(const std::string& name) override;
  std::vector<std::pair<GameId, std::int64_t>> unfinished_games() override;
  std::vector<OfferRow> offers() override;
  std::vector<PlayerRow> leaderboard(int limit) override;
  std::vector<TournamentRow> tournaments() override;
  std::optional<TournamentRow> tournament(std::int64_t id) override;
  std::vector<std::int64_t> unfinished_tournaments() override;

 private:
  void open_schema();

  struct Connection;  // the libpqxx connection, kept out of this header
  std::string url_;   // redacted
  std::unique_ptr<Connection> conn_;
  SchemaStatus schema_;
};

}  // namespace amazons::server
