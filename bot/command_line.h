// amazons-bot's command line: the defaults, then the settings file (--config FILE, or bot.json in
// the config directory when it exists), then the flags, which override the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bot/bot_config.h"
#include "client/catalogue.h"
#include "common/expected.h"

namespace amazons::bot {

struct CommandLine {
  BotConfig config;
  std::optional<std::string> exit_message;  // --help: print this and exit successfully
};

// `args` without the program name. The help and the flags' own errors are in `t`'s language
// (client::cli_catalogue); an error is one line for people.
Expected<CommandLine, std::string> parse_command_line(const std::vector<std::string>& args,
                                                      const std::filesystem::path& config_dir,
                                                      const client::Catalogue& t);

}  // namespace amazons::bot
