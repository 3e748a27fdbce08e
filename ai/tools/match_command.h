// What amazons-match runs once its command line is parsed (match_command_line.h).
#pragma once

#include "ai/tools/match_command_line.h"

namespace amazons::ai {

// Plays the match, reporting on standard output (match_report.h); Ctrl-C (or SIGTERM) stops the
// games in progress and still prints the summary. Returns the exit status: 0 played, 2 a bad
// argument (said on stderr).
int run_match_command(const MatchArgs& args);

}  // namespace amazons::ai
