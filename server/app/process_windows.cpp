#include "server/app/process.h"

#include <windows.h>

#include <csignal>

namespace amazons::server {

namespace {

// Windows ends a process about 5 s after its console window was closed (or the user logged off)
// if its handler has not returned by then, and at once when it returns: the handler waits this
// long for the stop that SIGBREAK began, and main's return ends the process before that.
constexpr DWORD kCloseGraceMs = 4500;

BOOL WINAPI hold_on_close(DWORD event) {
  if (event != CTRL_CLOSE_EVENT && event != CTRL_LOGOFF_EVENT && event != CTRL_SHUTDOWN_EVENT)
    return FALSE;  // Ctrl-C and Ctrl-Break: the C runtime's handler raises SIGINT and SIGBREAK
  std::raise(SIGBREAK);
  Sleep(kCloseGraceMs);
  return TRUE;
}

}  // namespace

void prepare_process() {}

void raise_file_limit() {}

void add_stop_signals(boost::asio::signal_set& set) {
  set.add(SIGINT);
  set.add(SIGTERM);
  set.add(SIGBREAK);
  // Handlers run newest first: this one comes before the C runtime's, which Asio set up above.
  SetConsoleCtrlHandler(hold_on_close, TRUE);
}

void add_reload_signals(boost::asio::signal_set&) {}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGBREAK:
      return "SIGBREAK";
    default:
      return "a signal";
  }
}

}  // namespace amazons::server
