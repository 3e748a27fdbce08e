#include "server/app/commands.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "server/app/serve.h"
#include "server/storage/backup.h"
#include "server/storage/open_storage.h"
#include "server/storage/pg_storage.h"

namespace amazons::server {

namespace {

// amazons-server migrate: copies one database into another (docs in README, "Hosting a server").
int run_migrate(const MigrateCommand& c) {
  try {
    std::fprintf(stderr, "migrate: from %s to %s\n", describe_db(c.from).c_str(),
                 describe_db(c.to).c_str());
    if (!std::filesystem::exists(c.from) && !is_postgres_url(c.from))
      throw StorageError("no database at " + c.from);
    auto source = open_storage(c.from);
    auto target = open_storage(c.to);
    MigrateOptions options;
    options.force = c.force;
    options.progress = stderr;
    migrate(*source, *target, options);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server migrate: %s\n", e.what());
    return 1;
  }
}

// amazons-server backup: a consistent copy of the database, also while a server runs on it.
int run_backup(const BackupCommand& c) {
  try {
    BackupOptions options;
    options.force = c.force;
    options.progress = stderr;
    backup(c.db, c.file, options);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server backup: %s\n", e.what());
    return 1;
  }
}

// amazons-server admin: roles and registrations (README "Moderation").
int run_admin_command(const AdminRun& c) {
  try {
    auto storage = open_storage(c.db);
    return run_admin(*storage, c.command, stdout,
                     std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server admin: %s\n", e.what());
    return 1;
  }
}

struct Runner {
  int operator()(const ServeCommand& c) const { return serve(c.config, c.quiet); }
  int operator()(const MigrateCommand& c) const { return run_migrate(c); }
  int operator()(const BackupCommand& c) const { return run_backup(c); }
  int operator()(const AdminRun& c) const { return run_admin_command(c); }
};

}  // namespace

int run(const Command& command) { return std::visit(Runner{}, command); }

}  // namespace amazons::server
