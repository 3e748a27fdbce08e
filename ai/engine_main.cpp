// amazons-engine: the engine's command line. Without a subcommand it speaks the engine protocol
// on stdin/stdout; --botzone speaks Botzone's format; `selfplay` shows a game; `analyse GAME`
// annotates a game record; `perft N` counts move sequences (ai/tools/engine_command_line.h).
#include "ai/tools/engine_command_line.h"
#include "ai/tools/engine_commands.h"

int main(int argc, char** argv) {
  const auto command = amazons::ai::parse_engine_command_line(argc, argv);
  if (!command) return command.error();
  return amazons::ai::run_engine(*command);
}
