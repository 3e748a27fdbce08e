// postgres_backend.h in a build without PostgreSQL (AMAZONS_BUILD_POSTGRES off): a
// postgresql:// database is refused with the reason, and SQLite serves everything else.
#include "server/storage/pg_storage.h"
#include "server/storage/postgres_backend.h"

namespace amazons::server {

namespace {

[[noreturn]] void refuse(const std::string& url) {
  throw StorageError("this build has no PostgreSQL backend (" + redact_url(url) +
                     "): use a SQLite file");
}

}  // namespace

std::unique_ptr<Storage> open_postgres(const std::string& url) { refuse(url); }

void dump_postgres(const std::string& url, const std::filesystem::path&, const BackupOptions&) {
  refuse(url);
}

}  // namespace amazons::server
