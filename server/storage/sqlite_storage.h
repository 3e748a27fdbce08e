// Storage in one SQLite file, in WAL mode with synchronous=FULL: a transaction that returned
// from apply() survives a crash of the process or of the machine. Checkpoints (copying the WAL
// back into the database file, with fsyncs of their own) run on a thread of their own with a
// second connection, so they never stall a commit. Opening upgrades an older schema (schema.h).
#pragma once

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "server/core/storage.h"

struct sqlite3;

namespace amazons::server {

// A path as SQLite takes file names on every platform: UTF-8 (a path's native string is UTF-16
// on Windows).
std::string sqlite_file_name(const std::filesystem::path& path);

class SqliteStorage final : public Storage {
 public:
  // Opens (creating if needed) the database. Throws StorageError with the reason.
  explicit SqliteStorage(const std::filesystem::path& path);
  ~SqliteStorage() override;
  SqliteStorage(const SqliteStorage&) = delete;
  SqliteStorage& operator=(const SqliteStorage&) = delete;

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
  class Statement;
  Statement& prepared(int which);
  void exec(const char* sql);
  void open_schema();
  void fill_canonical_names();
  std::int64_t single_integer(const char* sql);
  void write(const PlayerRow& row);
  void write(const PlayerRating& row);
  void write(const PlayerLogin& row);
  void write(const GameRow& row);
  void write(const MoveRow& row);
  void write(const OfferRow& row);
  void write(const OfferRemoved& row);
  void write(const SanctionRow& row);
  void write(const SanctionRemoved& row);
  void write(const AuditRow& row);
  void write(const ReportRow& row);
  void write(const RoleRow& row);
  void write(const RegistrationsRow& row);
  void load_moderation(LoadedState& state);
  void write(const TournamentRow& row);
  std::vector<MoveRow> moves_of(GameId id);
  std::optional<std::pair<std::int64_t, bool>> owner_of(GameId id);

  void checkpoint_loop();

  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  SchemaStatus schema_;
  std::vector<std::unique_ptr<Statement>> statements_;
  std::mutex checkpoint_mutex_;
  std::condition_variable checkpoint_wake_;
  bool stopping_ = false;
  std::thread checkpointer_;
};

}  // namespace amazons::server
