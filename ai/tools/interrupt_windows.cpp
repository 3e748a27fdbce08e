#include <windows.h>

#include <atomic>
#include <utility>

#include "ai/tools/interrupt.h"

namespace amazons::ai {

namespace {

// The console calls its handlers on a thread it makes for the event, which is the thread of
// our own that on_interrupt promises.
std::function<void()> interrupt_action;
std::atomic<bool> interrupted{false};

BOOL WINAPI on_console_event(DWORD event) {
  switch (event) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
      if (!interrupted.exchange(true)) interrupt_action();
      return TRUE;
    default:
      return FALSE;
  }
}

}  // namespace

void on_interrupt(std::function<void()> action) {
  interrupt_action = std::move(action);
  SetConsoleCtrlHandler(on_console_event, TRUE);
}

}  // namespace amazons::ai
