#include "ai/search.h"

#include "ai/alphabeta.h"
#include "ai/search_base.h"
#include "common/notation.h"

namespace amazons::ai {

SearchBase::SearchBase(const SearchSettings& settings) : settings_(settings) {}

SearchBase::~SearchBase() {
  stop();
  if (thread_.joinable()) thread_.join();
}

void SearchBase::start(const Position& pos, const SearchLimits& limits, SearchCallbacks callbacks) {
  if (thread_.joinable()) {
    stop();
    thread_.join();
  }
  started_ = Clock::now();
  plan_ = plan_time(limits, pos);
  hard_deadline_.reset();
  if (plan_.hard) hard_deadline_ = started_ + *plan_.hard;
  stop_.store(false);
  stopped_by_caller_.store(false);
  {
    std::lock_guard lock(mutex_);
    busy_ = true;
  }
  thread_ = std::thread([this, pos, limits, callbacks = std::move(callbacks)] {
    SearchResult result = think(pos, limits, callbacks);
    result.stopped = stopped_by_caller_.load();
    result.elapsed = elapsed();
    const auto ms = static_cast<std::uint64_t>(std::max<long>(result.elapsed.count(), 1));
    result.nps = result.nodes * 1000 / ms;
    if (callbacks.on_done) callbacks.on_done(result);
    std::lock_guard lock(mutex_);
    last_ = std::move(result);
    busy_ = false;
    done_cv_.notify_all();
  });
}

SearchResult SearchBase::wait() {
  {
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [this] { return !busy_; });
  }
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  return last_;
}

bool SearchBase::running() const {
  std::lock_guard lock(mutex_);
  return busy_;
}

void SearchBase::set_settings(const SearchSettings& settings) { settings_ = settings; }

bool SearchBase::out_of_time() {
  if (stopping()) return true;
  if (hard_deadline_ && Clock::now() >= *hard_deadline_) {
    request_stop();
    return true;
  }
  return false;
}

Millis SearchBase::elapsed() const {
  return std::chrono::duration_cast<Millis>(Clock::now() - started_);
}

std::unique_ptr<Search> make_search(const SearchSettings& settings) {
  return std::make_unique<AlphaBetaSearch>(settings);
}

SearchResult search_now(Search& search, const Position& pos, const SearchLimits& limits) {
  search.start(pos, limits, {});
  return search.wait();
}

std::string pv_string(const std::vector<Move>& pv) {
  std::string s;
  for (Move m : pv) {
    if (!s.empty()) s += ' ';
    s += to_string(m);
  }
  return s;
}

}  // namespace amazons::ai
