// amazons-server backup: a consistent copy of a database that a server may be using right now.
// SQLite through its online backup API (the copy is one committed state: a write that lands
// mid-copy restarts the copy); PostgreSQL through pg_dump (one snapshot), in its custom format
// for pg_restore. The copy is written beside its destination and renamed into place only when
// it is complete and checked, so a failed backup never leaves a half-written file behind.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

#include "server/core/storage.h"

namespace amazons::server {

struct BackupOptions {
  bool force = false;               // replace an existing file at the destination
  std::FILE* progress = nullptr;    // progress lines when set
  std::string pg_dump = "pg_dump";  // the program, looked up in PATH
};

// Copies `db` (a SQLite file or a postgresql:// URL) to the file `out`. Returns the counts the
// copy holds (SQLite: read back from the copy after an integrity check; PostgreSQL: the
// database's counts when the dump began). Throws StorageError with the reason.
StorageCounts backup(const std::string& db, const std::filesystem::path& out,
                     const BackupOptions& options);

}  // namespace amazons::server
