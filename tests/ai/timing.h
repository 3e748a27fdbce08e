// Timing checks on a shared machine. A deadline test must tell the engine being late from the
// machine being too busy to run it: this measures how long a busy thread takes to notice a flag
// right now (the way the search notices its deadline) and widens the allowance by that much.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "common/time_control.h"

namespace amazons::test {

// The worst time, over a tenth of a second of tries, between raising a flag and a spinning
// thread that polls it having stopped: scheduling delay, nothing else.
inline Millis scheduling_delay() {
  using Clock = std::chrono::steady_clock;
  Millis worst{0};
  for (int i = 0; i < 20; ++i) {
    std::atomic<bool> stop{false};
    std::thread spinner([&] {
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto raised = Clock::now();
    stop = true;
    spinner.join();
    worst = std::max(worst, std::chrono::duration_cast<Millis>(Clock::now() - raised));
  }
  return worst;
}

// The engine's promise: a reply at most this late, in a release build. Under AddressSanitizer
// every step between two looks at the clock runs slower, the longest being the Auto kind's first
// move, which makes its alpha-beta search and zeroes that search's table; that build is allowed
// twice the margin.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr Millis kLateReplyPromise{100};
#else
inline constexpr Millis kLateReplyPromise{50};
#endif

// How far past a deadline a reply may come: the promise above, plus three times what the machine
// is losing to other work at the moment (nothing on a quiet machine).
inline Millis deadline_slack() {
  const Millis delay = scheduling_delay();
  if (delay > Millis{5})
    MESSAGE("the machine is busy: a running thread takes up to "
            << delay.count() << " ms to notice a flag; the deadline allowance grows by "
            << 3 * delay.count() << " ms");
  return kLateReplyPromise + 3 * delay;
}

}  // namespace amazons::test
