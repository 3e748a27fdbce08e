// Backups of a PostgreSQL database with pg_dump (backup.cpp calls it; postgres_backend.h).
#include <fcntl.h>
#include <libpq-fe.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "server/storage/postgres_backend.h"

extern char** environ;

namespace amazons::server {

namespace {

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

}  // namespace

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

}  // namespace amazons::server
