// The curses view: the only code that talks to the terminal. Reads keys into tui::Key, copies a
// Canvas to the screen, and restores the terminal whatever happens: on destruction, and from
// the signal handlers (SIGINT, SIGTERM and SIGHUP ask the loop to stop; SIGSEGV, SIGABRT,
// SIGBUS, SIGFPE, SIGILL and SIGQUIT restore the terminal at once, then take their default
// course). One per process, used from the main thread only.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "common/expected.h"
#include "tui/app.h"
#include "tui/canvas.h"

namespace amazons::tui {

class Terminal {
 public:
  // Fails with a sentence when stdin/stdout is not a terminal or TERM names none.
  static Expected<std::unique_ptr<Terminal>, std::string> open(bool ascii);
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  int width() const;
  int height() const;
  // The next key, waiting up to `timeout`; nullopt when none came (or the window was resized).
  std::optional<Key> read(std::chrono::milliseconds timeout);
  void present(const Canvas& c);

  // Set by SIGINT, SIGTERM or SIGHUP: the main loop should end.
  static bool stop_requested();

 private:
  explicit Terminal(bool ascii) : ascii_(ascii) {}
  short pair_for(short fg, short bg);
  bool ascii_;
  bool colors_ = false;
};

}  // namespace amazons::tui
