// amazons-server: hosts games. With no arguments it listens on the default port with the
// embedded database in the current directory; config/server.json and flags override that.
// Everything it runs is in server/app/ (docs/ARCHITECTURE.md).
#include "server/app/command_line.h"
#include "server/app/commands.h"
#include "server/app/process.h"

int main(int argc, char** argv) {
  amazons::server::prepare_process();
  const auto command = amazons::server::parse_command_line(
      argc, argv, {.config_dir = AMAZONS_CONFIG_DIR, .web_dir = AMAZONS_WEB_DIR});
  if (!command) return command.error();
  return amazons::server::run(*command);
}
