// What amazons-engine runs once its command line is parsed (engine_command_line.h).
#pragma once

#include "ai/tools/engine_command_line.h"

namespace amazons::ai {

// Runs the mode to its end (the protocol and Botzone until their input ends). Returns the
// process's exit status: 0 done, 1 Botzone input it could not read, 2 a bad argument or
// configuration (said on stderr).
int run_engine(const EngineCommand& command);

}  // namespace amazons::ai
