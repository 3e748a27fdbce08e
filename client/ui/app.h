// The window's main loop and what every screen shares: fonts, settings, saved games, the
// notices at the bottom, screenshots and the state dump for scripted tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <SFML/Graphics/RenderWindow.hpp>
#include <nlohmann/json.hpp>

#include "client/catalogue.h"
#include "client/game_store.h"
#include "client/game_view_model.h"
#include "client/online_client.h"
#include "client/server_host.h"
#include "client/settings.h"
#include "client/ui/sounds.h"
#include "client/ui/widgets.h"
#include "common/log.h"

namespace amazons::client::ui {

class App;

// One screen of the client. Called on the render thread only: handle() for each window event,
// then update() and draw() once a frame. Navigation through App takes effect between events.
class Screen {
 public:
  explicit Screen(App& app) : app_(app) {}
  virtual ~Screen() = default;
  virtual std::string name() const = 0;  // "menu", "game", ... (for the state dump)
  virtual void layout(float width, float height) = 0;
  virtual void handle(const sf::Event& e) = 0;
  virtual void update(SteadyTime /*now*/) {}
  virtual void draw(sf::RenderTarget& target, SteadyTime now) = 0;
  // Whether the screen may look different now without a window event (an animation, a clock, what
  // a server or the engine sent): then it is drawn every frame, else only after an event, so that
  // a screen at rest costs no CPU. True unless a screen knows it only changes on events.
  virtual bool changes_by_itself(SteadyTime /*now*/) const { return true; }
  // The screen's state for scripted tests: widgets by id and whatever else a test asserts on.
  virtual nlohmann::json describe() const = 0;

 protected:
  App& app_;
};

// What a frame showed that can change without a window event: how much news the screen had taken
// in (from the network or the engine) and the texts that move with time (a clock, a thinking
// mark). A screen that keeps the stamp of its last frame draws again only when the stamp moves:
//   bool changes_by_itself(SteadyTime now) const override { return stamp(now) != drawn_; }
struct FrameStamp {
  std::uint64_t news = 0;
  std::string ticks;
  bool operator==(const FrameStamp&) const = default;
};

struct AppOptions {
  std::filesystem::path config_dir;
  std::filesystem::path data_dir;
  std::filesystem::path rules_dir;
  std::optional<std::filesystem::path> state_file;   // rewritten whenever the state changes
  std::filesystem::path screenshot_dir;              // F12 saves a PNG here
  bool host = false;                                 // start by hosting a game (--host)
  std::optional<std::filesystem::path> replay_file;  // start by replaying this record (--replay)
  std::filesystem::path server_exe;                  // amazons-server, for hosting
  std::vector<std::string> server_args;              // more arguments for it
  int analysis_movetime_ms = 500;  // per position, for "Analyse this game" (--analysis-movetime)
  std::filesystem::path i18n_dir;  // the catalogues of messages, LANG.json
  // The language for this run (--language), over the setting and the locale.
  std::optional<std::string> language;
};

class App {
 public:
  App(AppOptions options, sf::RenderWindow& window, Fonts& fonts);
  ~App();

  // Runs until the window is closed or quit() is called; returns the exit status.
  int run();

  void show(std::unique_ptr<Screen> screen);  // replaces the current screen after this event
  void quit() { quit_ = true; }

  const Style& style() const { return style_; }
  Settings& settings() { return settings_; }
  // The messages in the language spoken (the setting, else the locale; catalogue.h).
  const Catalogue& tr() const { return catalogue_; }
  // The languages there are catalogues for, each by its own name ("简体中文").
  const std::vector<std::pair<std::string, std::string>>& languages() const { return languages_; }
  // Speaks the language the settings now name (after the settings screen saved them).
  void load_catalogue();
  // Saves the settings; a failure becomes a notice.
  void save_settings();
  GameStore store() const { return GameStore(options_.data_dir); }
  const AppOptions& options() const { return options_; }
  Sounds& sounds() { return sounds_; }
  // A line at the bottom of the window for a few seconds.
  void notify(std::string message, bool error = false);
  // A notice of the online client (already in the client's words: a refusal by its code); the
  // server's own sentence or the connection's detail on stderr, the client's log.
  void notify(const OnlineNotice& notice);
  // The server this client hosts, if any: kept until the client quits, then stopped.
  std::unique_ptr<ServerHost>& hosted_server() { return hosted_server_; }

 private:
  void relayout();
  void draw_notice(SteadyTime now);
  void save_screenshot();
  void write_state();

  AppOptions options_;
  std::unique_ptr<ServerHost> hosted_server_;  // outlives every screen
  sf::RenderWindow& window_;
  Style style_;
  Settings settings_;
  std::vector<std::pair<std::string, std::string>> languages_;
  Catalogue catalogue_;
  Log log_{stderr};
  Sounds sounds_;
  std::unique_ptr<Screen> screen_;
  std::unique_ptr<Screen> next_;
  bool quit_ = false;
  std::string notice_;
  bool notice_error_ = false;
  SteadyTime notice_until_{};
  int screenshots_ = 0;
  std::string last_screenshot_;
  std::string last_state_;
  std::vector<std::string> drawn_;  // the texts of the last frame, for the state dump
  int frames_ = 0;                  // drawn since measure_start_
  SteadyTime measure_start_{};
  int frames_per_second_ = 0;  // over the last whole second
  // The longest a frame took to draw (before the wait for the frame rate) over the last whole
  // second, 0 when none was drawn: a screen drawn only on change must still draw quickly.
  SteadyTime::duration slowest_frame_{};
  int slowest_frame_ms_ = 0;
};

}  // namespace amazons::client::ui
