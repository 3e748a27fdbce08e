// What amazons-server runs once its command line is parsed (command_line.h).
#pragma once

#include "server/app/command_line.h"

namespace amazons::server {

// Runs the command to its end. Returns the process's exit status; what went wrong is printed
// on stderr ("amazons-server COMMAND: why") or logged (serving).
int run(const Command& command);

}  // namespace amazons::server
