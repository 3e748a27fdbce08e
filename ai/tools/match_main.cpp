// amazons-match: plays games between two players and scores them (ai/tools/match_command.h).
#include "ai/tools/match_command.h"
#include "ai/tools/match_command_line.h"

int main(int argc, char** argv) {
  const auto args = amazons::ai::parse_match_command_line(argc, argv);
  if (!args) return args.error();
  return amazons::ai::run_match_command(*args);
}
