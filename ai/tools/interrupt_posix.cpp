#include <pthread.h>
#include <signal.h>

#include <thread>

#include "ai/tools/interrupt.h"

namespace amazons::ai {

void on_interrupt(std::function<void()> action) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([action = std::move(action), signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    action();
  }).detach();
}

}  // namespace amazons::ai
