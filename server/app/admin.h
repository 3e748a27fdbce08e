// amazons-server admin: roles and the registrations switch, written straight into the
// database (also while a server runs on it: SQLite in WAL mode and PostgreSQL both take a
// second writer). A running server reads them back every 2 s (server/net/server.cpp), so a
// grant or revoke takes effect within that time, on connections already logged in too.
#pragma once

#include <cstdio>
#include <string>

#include "server/core/storage.h"

namespace amazons::server {

struct AdminCommand {
  enum class Kind : std::uint8_t { Grant, Revoke, CloseRegistrations, OpenRegistrations, List };
  Kind kind = Kind::List;
  std::string name;                              // grant, revoke
  protocol::Role role = protocol::Role::Player;  // grant
};

// Carries out the command, writing one audit line (actor "console") for every change, and
// reports to `out`. Returns the exit status: 0 done, 2 a bad name or role. Throws StorageError.
int run_admin(Storage& storage, const AdminCommand& command, std::FILE* out, Timestamp now);

}  // namespace amazons::server
