// A queue from worker threads to the render thread: push never blocks for long, and the render
// thread drains it once a frame without waiting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace amazons::client {

template <class T>
class EventQueue {
 public:
  // Any thread.
  void push(T event) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(event));
    }
    ready_.notify_all();
  }

  // Everything queued so far, in order; never blocks on an empty queue. Any thread.
  std::vector<T> drain() {
    std::lock_guard lock(mutex_);
    std::vector<T> out(std::make_move_iterator(events_.begin()),
                       std::make_move_iterator(events_.end()));
    events_.clear();
    return out;
  }

  // The next event, waiting at most `timeout` for one (for tests and tools).
  template <class Rep, class Period>
  std::optional<T> wait_pop(std::chrono::duration<Rep, Period> timeout) {
    std::unique_lock lock(mutex_);
    if (!ready_.wait_for(lock, timeout, [&] { return !events_.empty(); })) return std::nullopt;
    T event = std::move(events_.front());
    events_.pop_front();
    return event;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<T> events_;
};

}  // namespace amazons::client
