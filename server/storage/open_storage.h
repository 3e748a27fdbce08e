// Picks the backend for a --db value: a postgresql:// (or postgres://) URL opens PostgreSQL,
// anything else is a SQLite file.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "server/core/storage.h"

namespace amazons::server {

// Opens the database, creating or upgrading its schema. Throws StorageError with the reason.
std::unique_ptr<Storage> open_storage(const std::string& db);
// The database for people: the file's absolute path, or the URL without its password.
std::string describe_db(const std::string& db);

struct MigrateOptions {
  bool force = false;             // empty a non-empty target first instead of refusing
  std::FILE* progress = nullptr;  // a line per step when set
  int games_per_transaction = 500;
};

// Copies every player (with ratings) and every game (with its moves) from one database into
// another, then compares the counts. Throws StorageError when the target is not empty (and
// force is off), on any database error, or when the counts differ at the end.
StorageCounts migrate(Storage& from, Storage& to, const MigrateOptions& options);

}  // namespace amazons::server
