// The terminal client's model: the screen shown, the keys it gets, what it draws, the settings
// and saved games it shares with the desktop client. Knows nothing of curses: the view turns
// terminal input into Keys, calls tick() and draw() and copies the Canvas out, and the tests do
// the same without a terminal. Single-threaded: everything runs on the view's thread.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/catalogue.h"
#include "client/computer_game.h"
#include "client/game_session.h"
#include "client/game_store.h"
#include "client/settings.h"
#include "common/log.h"
#include "tui/canvas.h"

namespace amazons::tui {

using SteadyTime = std::chrono::steady_clock::time_point;

struct Key {
  enum class Code : std::uint8_t {
    Char,  // a printable character, in `ch`
    Enter,
    Escape,
    Backspace,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    Delete,
  };
  Code code = Code::Char;
  char32_t ch = 0;
  static Key of(Code c) { return {c, 0}; }
  static Key character(char32_t c) { return {Code::Char, c}; }
  bool is(char32_t c) const { return code == Code::Char && ch == c; }
};

struct AppOptions {
  std::filesystem::path config_dir;  // settings.json
  std::filesystem::path data_dir;    // saved games
  std::filesystem::path rules_dir;   // rule variant files
  std::filesystem::path ai_config;   // config/ai.json
  std::filesystem::path i18n_dir;    // the catalogues of messages, LANG.json
  // The language for this run (--language), over the setting and the locale.
  std::optional<std::string> language;
  client::EnvLookup env = client::process_env;  // LC_ALL, LC_MESSAGES, LANG
  bool ascii = false;                           // no Unicode pieces and no colours
  // Straight to the connect screen (or to the lobby, with `connect`): --server, --name,
  // --password.
  std::optional<std::string> server;
  std::optional<std::string> name;
  std::string password;
  bool connect = false;
  // Where LAN discovery sends its query (tests use loopback).
  std::optional<std::string> discovery_target;
  std::optional<int> discovery_port;
  // Straight to the replay of this record file (--replay: any format amazons-record reads).
  std::optional<std::filesystem::path> replay_file;
};

class App;

class Screen {
 public:
  explicit Screen(App& app) : app_(app) {}
  virtual ~Screen() = default;
  Screen(const Screen&) = delete;
  Screen& operator=(const Screen&) = delete;

  virtual void key(const Key& k) = 0;
  // Called often (every 50 ms or so) and before every draw: take events, run timers.
  virtual void tick(SteadyTime) {}
  // Draws into the whole canvas but its last row, which holds the notices.
  virtual void draw(Canvas& c, SteadyTime now) = 0;

 protected:
  App& app_;
};

class App {
 public:
  explicit App(AppOptions options);
  ~App();

  const AppOptions& options() const { return options_; }
  client::Settings& settings() { return settings_; }
  void save_settings();
  client::GameStore store() const { return client::GameStore(options_.data_dir); }
  const client::ComputerConfig& computer();
  // The messages in the language spoken (the setting, else the locale; catalogue.h).
  const client::Catalogue& tr() const { return catalogue_; }
  // The languages there are catalogues for, and a change of the setting ("" follows the
  // locale): kept in the settings and spoken at once.
  const std::vector<std::string>& languages() const { return languages_; }
  void set_language(std::string setting);
  // A line in data_dir/amazons-tui.log: what the server said in its own words, what failed.
  void log(std::string_view event, Log::Fields fields);

  // Shows `screen` after the current key or tick is handled (a screen may replace itself).
  void show(std::unique_ptr<Screen> screen);
  void quit() { quit_ = true; }
  bool done() const { return quit_; }

  // A line at the bottom of the screen, shown for a few seconds.
  void notify(std::string text, bool error = false);

  void key(const Key& k);
  void tick(SteadyTime now);
  void draw(Canvas& c, SteadyTime now);

 private:
  void swap_screen();
  void load_catalogue();

  AppOptions options_;
  client::Settings settings_;
  std::vector<std::string> languages_;
  client::Catalogue catalogue_;
  std::FILE* log_file_ = nullptr;
  std::unique_ptr<Log> log_;
  std::optional<client::ComputerConfig> computer_;
  std::unique_ptr<Screen> screen_;
  std::unique_ptr<Screen> next_;
  bool quit_ = false;
  struct Notice {
    std::string text;
    bool error;
    std::optional<SteadyTime> until;  // set when first drawn
  };
  std::optional<Notice> notice_;
};

// ---- the screens (each made by one function) ----
std::unique_ptr<Screen> make_menu_screen(App& app);
std::unique_ptr<Screen> make_computer_setup_screen(App& app);
std::unique_ptr<Screen> make_two_player_setup_screen(App& app);
std::unique_ptr<Screen> make_language_screen(App& app);
// Plays a local game (against the computer or between two people here).
// Moves an unfinished game to the saved games, then plays `setup`; returns why not.
std::optional<std::string> start_local_game(App& app, client::SessionSetup setup);
std::unique_ptr<Screen> make_local_game_screen(App& app, client::SessionSetup setup);
std::unique_ptr<Screen> make_replay_list_screen(App& app);
// Steps through a finished game; Esc shows what `back` makes.
std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record,
                                           std::function<std::unique_ptr<Screen>()> back);
// The same for a record file of another program (SGF, LittleGolem, move lists) or ours.
std::unique_ptr<Screen> make_replay_file_screen(App& app, const std::filesystem::path& file,
                                                std::function<std::unique_ptr<Screen>()> back);
std::unique_ptr<Screen> make_connect_screen(App& app);

}  // namespace amazons::tui
