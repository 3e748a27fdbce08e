// amazons-bot: plays on an amazons server as a bot account (see README.md, "Running a bot").
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bot/bot.h"
#include "bot/command_line.h"
#include "client/cli_text.h"
#include "common/shipped_files.h"

namespace {

amazons::bot::Bot* g_bot = nullptr;

extern "C" void on_signal(int) {
  if (g_bot) g_bot->stop();  // only an atomic increment: safe in a signal handler
}

amazons::Log::Level log_level(const std::string& name) {
  using L = amazons::Log::Level;
  return name == "debug"   ? L::Debug
         : name == "warn"  ? L::Warn
         : name == "error" ? L::Error
                           : L::Info;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace amazons;
  // The help, the settings' errors and the log's sentences in the language of --language, else
  // of LANG.
  const client::Catalogue t =
      client::cli_catalogue(argc, argv, amazons::shipped_dir("i18n", AMAZONS_I18N_DIR));
  const auto command = bot::parse_command_line(std::vector<std::string>(argv + 1, argv + argc),
                                               amazons::shipped_config_dir(AMAZONS_CONFIG_DIR), t);
  if (!command) {
    std::fprintf(stderr, "amazons-bot: %s\n", command.error().c_str());
    return 2;
  }
  if (command->exit_message) {
    std::fputs(command->exit_message->c_str(), stdout);
    return 0;
  }
  Log log(stderr, log_level(command->config.log_level));
  auto made = bot::Bot::create(command->config, log, t);
  if (!made) {
    std::fprintf(stderr, "amazons-bot: %s\n", made.error().c_str());
    return 2;
  }
  g_bot = made->get();
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const int status = (*made)->run();
  // The bot has stopped and the process is only tearing down (engine threads, the connection;
  // under ASan also the leak check). A stop request arriving now is already granted: it must
  // not turn a clean exit into death by signal, which a supervisor reads as a failure (seen in
  // the tournament test, whose SIGTERM met a bot that had just ended by itself).
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  g_bot = nullptr;
  return status;
}
