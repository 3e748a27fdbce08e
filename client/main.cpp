// amazons-client: the desktop client. Parses options, finds the display, the font and the
// user's directories, then runs the window.
#include <cstdlib>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <SFML/Graphics/RenderWindow.hpp>

#include "client/cli_text.h"
#include "client/display_check.h"
#include "client/server_host.h"
#include "client/ui/app.h"
#include "client/user_files.h"
#include "common/shipped_files.h"

int main(int argc, char** argv) {
  using namespace amazons::client;
  namespace fs = std::filesystem;
  std::string i18n_dir = amazons::shipped_dir("i18n", AMAZONS_I18N_DIR).string();
  // --help in the language of --language, else of LANG.
  const Catalogue t = cli_catalogue(argc, argv, i18n_dir);
  CLI::App cli{t("cli.client.about")};
  speak(cli, t);
  std::string config, data, state_file, screenshots;
  std::string rules_dir = (amazons::shipped_config_dir(AMAZONS_CONFIG_DIR) / "rules").string();
  std::string server_exe, server_args, replay;
  bool host = false;
  unsigned width = 1200, height = 800;
  int analysis_movetime = 500;
  std::string language;
  cli.add_option("--config-dir", config, t("cli.config_dir"));
  cli.add_option("--data-dir", data, t("cli.data_dir"));
  cli.add_option("--rules-dir", rules_dir, t("cli.rules_dir"))->capture_default_str();
  cli.add_option("--state-file", state_file, t("cli.client.state_file"));
  cli.add_option("--screenshot-dir", screenshots, t("cli.client.screenshot_dir"));
  cli.add_flag("--host", host, t("cli.client.host"));
  cli.add_option("--server-exe", server_exe, t("cli.client.server_exe"));
  cli.add_option("--server-args", server_args, t("cli.client.server_args"));
  cli.add_option("--replay", replay, t("cli.replay"));
  cli.add_option("--analysis-movetime", analysis_movetime, t("cli.client.analysis_movetime"))
      ->capture_default_str()
      ->check(in_range(t, 10, 60000, true));
  cli.add_option("--i18n-dir", i18n_dir, t("cli.i18n_dir"))->capture_default_str();
  cli.add_option("--language", language, t("cli.language"));
  cli.add_option("--width", width, t("cli.client.width"))->check(in_range(t, 640, 7680, true));
  cli.add_option("--height", height, t("cli.client.height"))->check(in_range(t, 480, 4320, true));
  CLI11_PARSE(cli, argc, argv);

  ui::AppOptions options;
  options.rules_dir = rules_dir;
  options.i18n_dir = i18n_dir;
  if (!language.empty()) options.language = language;
  for (auto [given, field, lookup] : {std::tuple{&config, &options.config_dir, &config_dir},
                                      std::tuple{&data, &options.data_dir, &data_dir}}) {
    if (!given->empty()) {
      *field = *given;
      continue;
    }
    auto dir = lookup(process_env);
    if (!dir) {
      std::cerr << "amazons-client: " << dir.error() << "; pass --config-dir and --data-dir\n";
      return 2;
    }
    *field = *dir;
  }
  if (!state_file.empty()) options.state_file = state_file;
  options.host = host;
  options.analysis_movetime_ms = analysis_movetime;
  if (!replay.empty()) options.replay_file = replay;
  std::istringstream words(server_args);
  for (std::string w; words >> w;) options.server_args.push_back(w);
  options.server_exe =
      server_exe.empty() ? find_server_executable(AMAZONS_SERVER_EXE) : fs::path(server_exe);
  options.screenshot_dir =
      screenshots.empty() ? options.data_dir / "screenshots" : std::filesystem::path(screenshots);

  // SFML aborts the process when it cannot open the display, so ask X first.
  if (!display_available()) {
    std::cerr << "amazons-client: no graphical display (DISPLAY is "
              << (std::getenv("DISPLAY") ? "\"" + std::string(std::getenv("DISPLAY")) + "\""
                                         : "unset")
              << " and cannot be opened); run it on a desktop, or under Xvfb\n";
    return 3;
  }
  ui::Fonts fonts;
  if (auto loaded = ui::load_fonts(fonts); !loaded) {
    std::cerr << "amazons-client: " << loaded.error() << "\n";
    return 4;
  }
  // Without a Chinese font the client still runs; Chinese then shows as boxes.
  if (auto cjk = ui::load_cjk_fonts(fonts); !cjk)
    std::cerr << "amazons-client: " << cjk.error() << "\n";

  // No multisampling: round shapes come antialiased from textures (see board_view.cpp).
  sf::RenderWindow window(sf::VideoMode(width, height), "Amazons", sf::Style::Default);
  ui::App app(std::move(options), window, fonts);
  return app.run();
}
