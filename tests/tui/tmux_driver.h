// Runs a program in a real terminal: a detached tmux session of a fixed size on a tmux server
// of the test's own (its socket in the test's directory). send-keys types, capture-pane reads
// the screen; every wait polls the screen with a bounded timeout.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace amazons::test {

// Whether tmux can be run here (the suite is skipped with a message when not).
bool tmux_available();

class TmuxSession {
 public:
  // Starts `argv` with `env` (TERM, HOME and LANG are set for it: the tmux server itself may run
  // without TERM, as in CI). When the program exits the pane stays, showing
  // "[exit N]" and the terminal modes ("icanon echo" when restored) for exited_with().
  TmuxSession(const std::filesystem::path& dir, const std::vector<std::string>& argv, int width,
              int height, const std::map<std::string, std::string>& env = {});
  ~TmuxSession();
  TmuxSession(const TmuxSession&) = delete;
  TmuxSession& operator=(const TmuxSession&) = delete;

  // The visible screen, one line per row (capture-pane -p).
  std::string screen() const;
  // Keys by tmux name ("Enter", "Up", "C-c", "Tab", "Escape", "BSpace") or literal text.
  void keys(const std::vector<std::string>& names);
  void type(const std::string& text);
  void resize(int width, int height);

  // Polls the screen until `done` holds; fails the test (REQUIRE) with the last screen after
  // `timeout`. Returns the screen that satisfied it.
  std::string wait_until(const std::string& what,
                         const std::function<bool(const std::string&)>& done,
                         std::chrono::milliseconds timeout = std::chrono::seconds(10));
  std::string wait_for(const std::string& text,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10));

  // The program's process id (the child of the pane's shell), -1 if it is gone.
  pid_t program_pid() const;

 private:
  std::vector<std::string> base() const;
  std::filesystem::path socket_;
};

// Runs tmux with `args`; returns its exit status and fills `out` with its stdout.
int run_tmux(const std::vector<std::string>& args, std::string* out = nullptr);

// Lines of `screen` split at '\n'.
std::vector<std::string> lines_of(const std::string& screen);

}  // namespace amazons::test
