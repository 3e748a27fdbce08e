// amazons-server: hosts games. With no arguments it listens on the default port with the
// embedded database in the current directory; config/server.json and flags override that.
// Everything it runs is in server/app/ (docs/ARCHITECTURE.md).
#include <csignal>

#include "server/app/command_line.h"
#include "server/app/commands.h"

int main(int argc, char** argv) {
  // A write to a connection the peer has closed fails with EPIPE instead of killing the server.
  // Asio's sockets ask for that themselves (MSG_NOSIGNAL); hiredis writes with write(), so a
  // Redis that closed a connection (restarted, at maxclients, CLIENT KILL) took the node down
  // with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  const auto command = amazons::server::parse_command_line(
      argc, argv, {.config_dir = AMAZONS_CONFIG_DIR, .web_dir = AMAZONS_WEB_DIR});
  if (!command) return command.error();
  return amazons::server::run(*command);
}
