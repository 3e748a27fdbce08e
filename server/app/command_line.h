// amazons-server's command line: the flags on top of the configuration (the defaults, then
// config/server.json or --config), and the commands beside serving (migrate, backup, admin).
#pragma once

#include <filesystem>
#include <string>
#include <variant>

#include "common/expected.h"
#include "server/app/admin.h"
#include "server/net/config.h"

namespace amazons::server {

// Where the build left the shipped files; an installed program finds its own (shipped_files.h).
struct ShippedPaths {
  std::filesystem::path config_dir;  // config/: server.json, rules/
  std::filesystem::path web_dir;     // the web client's built files
};

// Serve: a configuration whose flags were checked together.
struct ServeCommand {
  ServerConfig config;
  bool quiet = false;  // log warnings and errors only
};
// amazons-server migrate --from DB --to DB [--force]: read before any configuration.
struct MigrateCommand {
  std::string from, to;
  bool force = false;
};
// amazons-server backup FILE [--force]: the database of --db, else of the configuration.
struct BackupCommand {
  std::string db, file;
  bool force = false;
};
// amazons-server admin grant|revoke|close-registrations|open-registrations|list.
struct AdminRun {
  std::string db;
  AdminCommand command;
};
using Command = std::variant<ServeCommand, MigrateCommand, BackupCommand, AdminRun>;

// What the arguments ask for, or the status to exit with at once: 0 after --help, CLI11's own
// status for a malformed command line, 2 for a bad configuration file or flags that do not go
// together. Everything is printed before it returns (help on stdout, reasons on stderr, each
// "amazons-server: ..."). Reads the configuration file; for --node, the host name by default.
Expected<Command, int> parse_command_line(int argc, const char* const* argv,
                                          const ShippedPaths& shipped);

}  // namespace amazons::server
