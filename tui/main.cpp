// amazons-tui: the Game of the Amazons in a terminal. Parses options, opens the terminal, and
// runs the model (tui/app.h) in a loop of keys, ticks and draws until it quits or a signal
// asks it to.
#include <clocale>
#include <iostream>

#include <CLI/CLI.hpp>

#include "ai/levels.h"
#include "client/cli_text.h"
#include "client/user_files.h"
#include "client/words.h"
#include "common/shipped_files.h"
#include "tui/app.h"
#include "tui/terminal.h"

int main(int argc, char** argv) {
  using namespace amazons;
  using namespace amazons::tui;
  std::string i18n_dir = amazons::shipped_dir("i18n", AMAZONS_I18N_DIR).string();
  // --help in the language of --language, else of LANG.
  const client::Catalogue t = client::cli_catalogue(argc, argv, i18n_dir);
  CLI::App cli{t("cli.tui.about")};
  client::speak(cli, t);
  AppOptions options;
  std::string config, data, server, name;
  std::string rules_dir = (amazons::shipped_config_dir(AMAZONS_CONFIG_DIR) / "rules").string();
  std::string ai_config = (amazons::shipped_config_dir(AMAZONS_CONFIG_DIR) / "ai.json").string();
  std::string discovery_target;
  int discovery_port = 0;
  std::string language;
  cli.add_option("--config-dir", config, t("cli.config_dir"));
  cli.add_option("--data-dir", data, t("cli.data_dir"));
  cli.add_option("--rules-dir", rules_dir, t("cli.rules_dir"))->capture_default_str();
  cli.add_option("--ai-config", ai_config, t("cli.ai_config"))->capture_default_str();
  cli.add_option("--i18n-dir", i18n_dir, t("cli.i18n_dir"))->capture_default_str();
  cli.add_option("--language", language, t("cli.language"));
  cli.add_flag("--ascii", options.ascii, t("cli.tui.ascii"));
  cli.add_option("--server", server, t("cli.tui.server"));
  cli.add_option("--name", name, t("cli.tui.name"));
  cli.add_option("--password", options.password, t("cli.tui.password"));
  cli.add_flag("--connect", options.connect, t("cli.tui.connect"));
  cli.add_option("--discovery-target", discovery_target, t("cli.tui.discovery_target"));
  cli.add_option("--discovery-port", discovery_port, t("cli.tui.discovery_port"))
      ->check(client::in_range(t, 1, 65535, true));
  std::string replay;
  cli.add_option("--replay", replay, t("cli.replay"))->check(client::existing_file(t));
  CLI11_PARSE(cli, argc, argv);
  if (!replay.empty()) options.replay_file = replay;

  options.rules_dir = rules_dir;
  options.ai_config = ai_config;
  options.i18n_dir = i18n_dir;
  if (!language.empty()) options.language = language;
  if (!server.empty()) options.server = server;
  if (!name.empty()) {
    if (auto problem = client::name_problem(name)) {
      std::cerr << "amazons-tui: --name: " << client::name_problem_text(t, *problem) << "\n";
      return 2;
    }
    options.name = name;
  }
  if (!discovery_target.empty()) options.discovery_target = discovery_target;
  if (discovery_port > 0) options.discovery_port = discovery_port;
  for (auto [given, field, lookup] : {std::tuple{&config, &options.config_dir, &client::config_dir},
                                      std::tuple{&data, &options.data_dir, &client::data_dir}}) {
    if (!given->empty()) {
      *field = *given;
      continue;
    }
    auto dir = lookup(client::process_env);
    if (!dir) {
      std::cerr << "amazons-tui: " << dir.error() << "; pass --config-dir and --data-dir\n";
      return 2;
    }
    *field = *dir;
  }

  // curses needs a UTF-8 character type to draw anything but ASCII. A locale named in LANG but
  // not generated on this system (zh_CN.UTF-8 often is not) would leave "C": keep UTF-8 then.
  // The language spoken is read from the environment's names, not from this (catalogue.h).
  if (std::setlocale(LC_ALL, "") == nullptr) std::setlocale(LC_CTYPE, "C.UTF-8");
  auto opened = Terminal::open(options.ascii);
  if (!opened) {
    std::cerr << "amazons-tui: " << opened.error() << "\n";
    return 3;
  }
  std::unique_ptr<Terminal> terminal = std::move(*opened);
  {
    App app(std::move(options));
    while (!app.done() && !Terminal::stop_requested()) {
      // Every key already typed (or pasted) is handled before the next draw.
      auto key = terminal->read(std::chrono::milliseconds(50));
      while (key) {
        app.key(*key);
        key = terminal->read(std::chrono::milliseconds(0));
      }
      const auto now = std::chrono::steady_clock::now();
      app.tick(now);
      Canvas canvas(terminal->width(), terminal->height());
      app.draw(canvas, now);
      terminal->present(canvas);
    }
  }  // the app leaves its games (a local one stays saved) while the screen is still ours
  terminal.reset();
  return 0;
}
