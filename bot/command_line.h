// amazons-bot's command line: the defaults, then the settings file (--config FILE, or bot.json in
// the config directory when it exists), then the flags, which override the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bot/bot_config.h"
#include "common/expected.h"

namespace amazons::bot {

struct CommandLine {
  BotConfig config;
  std::optional<std::string> exit_message;  // --help: print this and exit successfully
};

// `args` without the program name. The error is one line for people.
Expected<CommandLine, std::string> parse_command_line(const std::vector<std::string>& args,
                                                      const std::filesystem::path& config_dir);

}  // namespace amazons::bot
