#include "net/serial_executor.h"

namespace amazons::net {

SerialExecutor::SerialExecutor() : thread_([this] { run(); }) {}

SerialExecutor::~SerialExecutor() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SerialExecutor::post(std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(fn));
  }
  wake_.notify_all();
}

bool SerialExecutor::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || !queue_.empty();
}

void SerialExecutor::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything has run
    auto fn = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    fn();
    lock.lock();
    running_ = false;
  }
}

}  // namespace amazons::net
