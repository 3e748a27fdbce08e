// Storage in one SQLite file, in WAL mode with synchronous=FULL: a transaction that returned
// from apply() survives a crash of the process or of the machine.
#pragma once

#include <filesystem>
#include <memory>

#include "server/storage.h"

struct sqlite3;

namespace amazons::server {

class SqliteStorage final : public Storage {
 public:
  // Opens (creating if needed) the database. Throws StorageError with the reason.
  explicit SqliteStorage(const std::filesystem::path& path);
  ~SqliteStorage() override;
  SqliteStorage(const SqliteStorage&) = delete;
  SqliteStorage& operator=(const SqliteStorage&) = delete;

  LoadedState load() override;
  void apply(std::span<const WriteBatch> batches) override;
  std::vector<protocol::ArchiveEntry> finished_games(const std::string& player, int limit) override;
  std::optional<GameRecord> game_record(GameId id) override;

 private:
  class Statement;
  Statement& prepared(int which);
  void exec(const char* sql);
  void write(const PlayerRow& row);
  void write(const GameRow& row);
  void write(const MoveRow& row);
  std::vector<MoveRow> moves_of(GameId id);

  sqlite3* db_ = nullptr;
  std::vector<std::unique_ptr<Statement>> statements_;
};

}  // namespace amazons::server
