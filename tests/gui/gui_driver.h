// Drives the real amazons-client under its own Xvfb with real X input events (xdotool), and
// reads the state the client writes with --state-file. Every process it starts is stopped by
// its destructor, also when a check fails.
#pragma once

#include <sys/types.h>
#include "tests/test_paths.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace amazons::test {

// The programs the window suites run, and where they keep their screenshots.
inline const std::filesystem::path kClientExe =
    amazons::test::binary_dir() + "/client/amazons-client";
inline const std::filesystem::path kBotExe = amazons::test::binary_dir() + "/bot/amazons-bot";
inline const std::filesystem::path kShotDir =
    std::filesystem::path(amazons::test::binary_dir()) / "screenshots";

// Runs a program to its end with extra environment variables; returns its exit status (or -1).
int run_program(const std::vector<std::string>& argv,
                const std::map<std::string, std::string>& env = {}, std::string* output = nullptr);

// A child process with its own pid, stopped (TERM, then KILL) when destroyed.
class Child {
 public:
  Child() = default;
  Child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
        int keep_fd = -1, const std::filesystem::path& log = {});
  ~Child() { stop(); }
  Child(Child&& o) noexcept : pid_(o.pid_) { o.pid_ = -1; }
  Child& operator=(Child&& o) noexcept;
  pid_t pid() const { return pid_; }
  bool running();
  // Waits for the child to exit by itself; returns its exit status, or -1 on timeout.
  int wait(std::chrono::milliseconds timeout);
  void stop();

 private:
  pid_t pid_ = -1;
  int status_ = -1;
};

// Xvfb on a free display number (it picks one itself with -displayfd).
class VirtualDisplay {
 public:
  // Xvfb's own messages (such as the displays it found taken) go to `log`.
  VirtualDisplay(int width, int height, const std::filesystem::path& log);
  const std::string& name() const { return name_; }  // ":99"

 private:
  Child server_;
  std::string name_;
};

class ClientDriver {
 public:
  ClientDriver(const VirtualDisplay& display, std::filesystem::path home,
               std::filesystem::path client_exe);
  ~ClientDriver();

  // Starts the client with `extra` arguments and waits for its first screen.
  void start(const std::vector<std::string>& extra = {}, const std::string& first_screen = "menu");
  // Waits for the client to exit by itself and returns its exit status.
  int wait_exit();

  // The latest state the client wrote.
  nlohmann::json state() const;
  // Polls the state until `pred` holds; fails the test after `timeout` with `what`.
  nlohmann::json wait_for(const std::string& what,
                          const std::function<bool(const nlohmann::json&)>& pred,
                          std::chrono::milliseconds timeout = std::chrono::seconds(15));
  nlohmann::json wait_screen(const std::string& screen);

  void click_at(int x, int y, int button = 1);
  void click(const std::string& widget, const std::string& part = {});
  void click_square(const std::string& square, int button = 1);
  void drag_square(const std::string& from, const std::string& to);
  void key(const std::string& keysym);
  void resize(int width, int height);
  void type(const std::string& text);
  // Presses F12 and copies the PNG to `dir/name.png`; returns that path.
  std::filesystem::path screenshot(const std::filesystem::path& dir, const std::string& name);

  const std::filesystem::path& home() const { return home_; }

 private:
  std::pair<int, int> square_center(const nlohmann::json& state, const std::string& square) const;
  void xdo(std::vector<std::string> args);
  void move_mouse(int x, int y);

  std::string display_;
  std::filesystem::path home_, exe_, state_file_;
  Child client_;
  std::string window_;
  std::pair<int, int> mouse_{-1, -1};  // where this driver last put the pointer
};

// Writes the client's settings.json under `home` (as the client's XDG_CONFIG_HOME layout has it),
// for a client that then starts with these settings.
void write_client_settings(const std::filesystem::path& home, const nlohmann::json& settings);

// From the menu: Play online, then Connect with the settings' server and name; waits for the
// lobby, online, where `also` holds too, and returns its state.
nlohmann::json connect_to_lobby(
    ClientDriver& c, const std::string& what,
    const std::function<bool(const nlohmann::json&)>& also = [](const nlohmann::json&) {
      return true;
    });

// Steps the selector `selector` (by its "next" arrow) until it shows `value`.
void select_option(ClientDriver& c, const std::string& selector, const std::string& value);

}  // namespace amazons::test
