// The part every search implementation shares: its thread, the stop flag, the clock, and the
// start/stop/wait contract of Search.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "ai/search.h"
#include "ai/timeman.h"

namespace amazons::ai {

// Deeper than any game can go: every move burns a square of at most 144. A search's stacks and
// its principal variation are this long.
inline constexpr int kMaxPly = 160;

class SearchBase : public Search {
 public:
  explicit SearchBase(const SearchSettings& settings);
  ~SearchBase() override;
  SearchBase(const SearchBase&) = delete;
  SearchBase& operator=(const SearchBase&) = delete;

  void start(const Position& pos, const SearchLimits& limits, SearchCallbacks callbacks) final;
  void stop() final {
    stopped_by_caller_.store(true, std::memory_order_relaxed);
    stop_.store(true, std::memory_order_relaxed);
  }
  SearchResult wait() final;
  bool running() const final;
  void set_settings(const SearchSettings& settings) override;
  const SearchSettings& settings() const final { return settings_; }

 protected:
  using Clock = std::chrono::steady_clock;

  // Runs on the search thread. Must return soon after stopping() turns true, with a legal best
  // move whenever the side to move has one.
  virtual SearchResult think(const Position& pos, const SearchLimits& limits,
                             const SearchCallbacks& callbacks) = 0;
  // Which search this is, for SearchResult::kind.
  virtual SearchKind kind() const = 0;

  // True once stop() was called or the hard time limit has passed (it then stays true). Reads the
  // clock, so call it every few hundred nodes, not at every one.
  bool out_of_time();
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  Millis elapsed() const;
  const TimePlan& plan() const { return plan_; }

  SearchSettings settings_;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> stopped_by_caller_{false};
  Clock::time_point started_;
  std::optional<Clock::time_point> hard_deadline_;
  TimePlan plan_;

  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool busy_ = false;  // guarded by mutex_
  SearchResult last_;  // guarded by mutex_
};

}  // namespace amazons::ai
