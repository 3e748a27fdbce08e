#include "server/storage/backup.h"

#include <fcntl.h>
#include <libpq-fe.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "server/storage/open_storage.h"
#include "server/storage/pg_storage.h"

extern char** environ;

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
  if (sqlite3_open_v2(to.c_str(), &dst.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK)
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

// A connection string (URL or key=value) split by libpq's own parser into the key=value form
// without the password, and the password. The password goes to pg_dump in PGPASSWORD, not on its
// command line, where any user of the machine could read it in the process list.
struct SplitConnection {
  std::string conninfo;
  std::optional<std::string> password;
};

std::string quoted_conninfo_value(const char* value) {
  std::string out = "'";
  for (const char* c = value; *c; ++c) {
    if (*c == '\\' || *c == '\'') out += '\\';
    out += *c;
  }
  return out + "'";
}

SplitConnection split_password(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (!options) {
    std::string why = error ? error : "out of memory";
    PQfreemem(error);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    throw StorageError("cannot read the database address: " + why);
  }
  SplitConnection split;
  for (const PQconninfoOption* o = options; o->keyword; ++o) {
    if (!o->val) continue;
    if (std::strcmp(o->keyword, "password") == 0) {
      split.password = o->val;
      continue;
    }
    if (!split.conninfo.empty()) split.conninfo += ' ';
    split.conninfo += std::string(o->keyword) + "=" + quoted_conninfo_value(o->val);
  }
  PQconninfoFree(options);
  return split;
}

void dump_postgres(const std::string& url, const std::filesystem::path& to,
                   const BackupOptions& o) {
  const SplitConnection connection = split_password(url);
  std::vector<std::string> args{o.pg_dump, "--format=custom", "--no-owner", "--file=" + to.string(),
                                "--dbname=" + connection.conninfo};
  if (o.progress) args.push_back("--verbose");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!o.progress) posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "PGPASSWORD=", 11) != 0) env_strings.emplace_back(*e);
  if (connection.password) env_strings.push_back("PGPASSWORD=" + *connection.password);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const int err =
      posix_spawnp(&pid, o.pg_dump.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw StorageError("cannot run " + o.pg_dump +
                       " (package postgresql-client): " + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw StorageError(o.pg_dump + " failed (exit status " +
                       std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
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
