// Runs functions one at a time, in the order they were posted, on a thread of its own: for work
// that may block (an engine process starting) and must stay off a thread that may not.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace amazons::net {

class SerialExecutor {
 public:
  SerialExecutor();
  // Runs everything still queued, then joins the thread.
  ~SerialExecutor();
  SerialExecutor(const SerialExecutor&) = delete;
  SerialExecutor& operator=(const SerialExecutor&) = delete;

  // Any thread; never blocks.
  void post(std::function<void()> fn);
  // True while something is queued or running.
  bool busy() const;

 private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;  // guarded by mutex_
  bool running_ = false;                     // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::thread thread_;
};

}  // namespace amazons::net
