// The PostgreSQL backend as open_storage and backup reach it. Two implementations, chosen by
// CMake (AMAZONS_BUILD_POSTGRES): pg_storage.cpp and pg_dump.cpp on libpqxx, libpq and pg_dump,
// or postgres_absent.cpp for a build without them (the Windows build for now), whose functions
// refuse with a StorageError that says so. is_postgres_url and redact_url (pg_storage.h) are in
// every build.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "server/core/storage.h"
#include "server/storage/backup.h"

namespace amazons::server {

// A PgStorage on `url` (postgresql://...). Throws StorageError as PgStorage's constructor does.
std::unique_ptr<Storage> open_postgres(const std::string& url);

// Dumps the database at `url` into the file `to` with pg_dump (custom format); the password goes
// to pg_dump in PGPASSWORD, never on its command line. Throws StorageError with the reason.
void dump_postgres(const std::string& url, const std::filesystem::path& to,
                   const BackupOptions& options);

}  // namespace amazons::server
