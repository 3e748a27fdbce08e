#include "server/storage/backup.h"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "server/storage/open_storage.h"
#include "server/storage/pg_storage.h"
#include "server/storage/postgres_backend.h"
#include "server/storage/sqlite_storage.h"

namespace amazons::server {

namespace {

constexpr int kPagesPerStep = 256;
// A copy that keeps being restarted by writes (each step sees the source changed) is finished
// in one step instead, which holds a read transaction: in WAL mode writers still go on.
constexpr int kRestartsBeforeOneStep = 3;

void say(const BackupOptions& o, const std::string& line) {
  if (!o.progress) return;
  std::fprintf(o.progress, "backup: %s\n", line.c_str());
  std::fflush(o.progress);
}

// "3 players, 12 games, 480 moves": what a backup holds.
std::string describe_games(const StorageCounts& c) {
  return std::to_string(c.players) + " players, " + std::to_string(c.games) + " games, " +
         std::to_string(c.moves) + " moves";
}

// A temporary file beside `out`, removed unless released.
struct Partial {
  std::filesystem::path path;
  bool keep = false;
  explicit Partial(const std::filesystem::path& out) : path(out.string() + ".partial") {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  ~Partial() {
    if (keep) return;
    std::error_code ec;
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path.string() + "-journal", ec);
    std::filesystem::remove(path.string() + "-wal", ec);
    std::filesystem::remove(path.string() + "-shm", ec);
  }
};

struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close(db); }
  std::string error() const { return db ? sqlite3_errmsg(db) : "out of memory"; }
};

void copy_sqlite(const std::string& file, const std::filesystem::path& to, const BackupOptions& o) {
  if (!std::filesystem::exists(file)) throw StorageError("no database at " + file);
  Db src, dst;
  if (sqlite3_open_v2(file.c_str(), &src.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
    throw StorageError("cannot open " + file + ": " + src.error());
  sqlite3_busy_timeout(src.db, 5000);
  if (sqlite3_open_v2(sqlite_file_name(to).c_str(), &dst.db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
    throw StorageError("cannot create " + to.string() + ": " + dst.error());
  sqlite3_backup* b = sqlite3_backup_init(dst.db, "main", src.db, "main");
  if (!b) throw StorageError("cannot start the backup: " + dst.error());
  int restarts = 0, last_remaining = -1, rc = SQLITE_OK;
  auto last_report = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  for (;;) {
    const int pages = restarts >= kRestartsBeforeOneStep ? -1 : kPagesPerStep;
    rc = sqlite3_backup_step(b, pages);
    if (rc == SQLITE_DONE) break;
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    if (rc != SQLITE_OK) break;
    const int remaining = sqlite3_backup_remaining(b), total = sqlite3_backup_pagecount(b);
    if (last_remaining >= 0 && remaining > last_remaining) ++restarts;
    last_remaining = remaining;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report >= std::chrono::milliseconds(500)) {
      say(o, "copied " + std::to_string(total - remaining) + " of " + std::to_string(total) +
                 " pages");
      last_report = now;
    }
  }
  const int total = sqlite3_backup_pagecount(b);
  if (sqlite3_backup_finish(b) != SQLITE_OK || rc != SQLITE_DONE)
    throw StorageError("the backup failed: " + std::string(sqlite3_errstr(rc)));
  say(o, "copied " + std::to_string(total) + " of " + std::to_string(total) + " pages");
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(dst.db, "PRAGMA integrity_check", -1, &st, nullptr) != SQLITE_OK)
    throw StorageError("cannot check the copy: " + dst.error());
  std::string verdict;
  if (sqlite3_step(st) == SQLITE_ROW)
    verdict = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  if (verdict != "ok") throw StorageError("the copy fails its integrity check: " + verdict);
  // The copy is a file of its own: no write-ahead log beside it.
  sqlite3_exec(dst.db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr);
}

}  // namespace

StorageCounts backup(const std::string& db, const std::filesystem::path& out,
                     const BackupOptions& options) {
  std::error_code ec;
  if (std::filesystem::exists(out, ec) && !options.force)
    throw StorageError(out.string() + " exists: choose another name, or --force to replace it");
  if (std::filesystem::is_directory(out, ec)) throw StorageError(out.string() + " is a directory");
  if (!is_postgres_url(db) && std::filesystem::exists(db) &&
      std::filesystem::equivalent(db, out, ec))
    throw StorageError("the backup would overwrite the database itself");
  Partial partial(out);
  StorageCounts counts;
  say(options, "from " + describe_db(db) + " to " + out.string());
  if (is_postgres_url(db)) {
    counts = open_storage(db)->counts();
    dump_postgres(db, partial.path, options);
  } else {
    copy_sqlite(db, partial.path, options);
    counts = open_storage(partial.path.string())->counts();
  }
  std::filesystem::rename(partial.path, out, ec);
  if (ec) throw StorageError("cannot move the copy into place: " + ec.message());
  partial.keep = true;
  say(options,
      "done: " + describe_games(counts) + (is_postgres_url(db) ? " (when the dump began)" : ""));
  return counts;
}

}  // namespace amazons::server
