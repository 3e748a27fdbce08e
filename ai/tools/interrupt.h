// Being interrupted by the person at the console, the same way on every platform:
// interrupt_posix.cpp (SIGINT, SIGTERM) or interrupt_windows.cpp (Ctrl-C, Ctrl-Break, the
// console closing), chosen by CMake.
#pragma once

#include <functional>

namespace amazons::ai {

// From now on the first interrupt calls `action`, on a thread of its own, instead of ending the
// program; later ones are ignored. Call once, from the main thread, before
// starting other threads (POSIX: the signals are blocked in every thread made from then on and
// taken by one that waits for them).
void on_interrupt(std::function<void()> action);

}  // namespace amazons::ai
