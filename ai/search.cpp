#include "ai/search.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "ai/alphabeta.h"
#include "ai/mcts.h"
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
  auto run = [this, pos, limits, callbacks = std::move(callbacks)] {
    SearchResult result = think(pos, limits, callbacks);
    result.stopped = stopped_by_caller_.load();
    result.kind = kind();
    result.elapsed = elapsed();
    result.nps = nodes_per_second(result.nodes, result.elapsed);
    if (callbacks.on_done) callbacks.on_done(result);
    std::lock_guard lock(mutex_);
    last_ = std::move(result);
    busy_ = false;
    done_cv_.notify_all();
  };
  if (!search_threads_available()) return run();
  thread_ = std::thread(std::move(run));
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

namespace {

// SearchKind::Auto: both searches, each made on first use with its own kind, and each search
// handed to the one the board calls for. `active_` is atomic because stop() may come from any
// thread while start() switches it.
class AutoSearch final : public Search {
 public:
  explicit AutoSearch(const SearchSettings& settings) : settings_(settings) {}

  void start(const Position& pos, const SearchLimits& limits, SearchCallbacks callbacks) override {
    const auto began = std::chrono::steady_clock::now();
    Search& next = child(resolve(SearchKind::Auto, pos.size()));
    Search* previous = active_.exchange(&next);
    if (previous != nullptr && previous != &next) {
      previous->stop();
      previous->wait();
    }
    // Making a search on first use (the alpha-beta one zeroes its transposition table: tens of
    // milliseconds) and stopping the other came out of this move's time: the child gets what is
    // left, so that the hard deadline holds from this call, not from the child's start.
    const auto spent = std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - began);
    SearchLimits left = limits;
    if (left.movetime) left.movetime = std::max(Millis{1}, *left.movetime - spent);
    if (left.time_left) left.time_left = std::max(Millis{1}, *left.time_left - spent);
    next.start(pos, left, std::move(callbacks));
  }
  void stop() override {
    if (Search* s = active_.load()) s->stop();
  }
  SearchResult wait() override {
    Search* s = active_.load();
    return s != nullptr ? s->wait() : SearchResult{};
  }
  bool running() const override {
    const Search* s = active_.load();
    return s != nullptr && s->running();
  }
  void set_settings(const SearchSettings& settings) override {
    settings_ = settings;
    for (auto* c : {&alphabeta_, &mcts_})
      if (*c) (*c)->set_settings(with_kind(settings, (*c)->settings().kind));
  }
  const SearchSettings& settings() const override { return settings_; }
  void clear() override {
    for (auto* c : {&alphabeta_, &mcts_})
      if (*c) (*c)->clear();
  }

 private:
  static SearchSettings with_kind(SearchSettings s, SearchKind kind) {
    s.kind = kind;
    return s;
  }
  Search& child(SearchKind kind) {
    auto& slot = kind == SearchKind::Mcts ? mcts_ : alphabeta_;
    if (!slot) slot = make_search(with_kind(settings_, kind));
    return *slot;
  }

  SearchSettings settings_;
  std::unique_ptr<Search> alphabeta_, mcts_;
  std::atomic<Search*> active_{nullptr};
};

}  // namespace

bool search_threads_available() {
#ifdef AMAZONS_NO_THREADS
  return false;
#else
  return true;
#endif
}

std::unique_ptr<Search> make_search(const SearchSettings& requested) {
  SearchSettings settings = requested;
  if (!search_threads_available()) settings.threads = 1;
  switch (settings.kind) {
    case SearchKind::Mcts:
      return std::make_unique<MctsSearch>(settings);
    case SearchKind::Auto:
      return std::make_unique<AutoSearch>(settings);
    case SearchKind::AlphaBeta:
      break;
  }
  return std::make_unique<AlphaBetaSearch>(settings);
}

std::string_view to_string(SearchKind kind) {
  switch (kind) {
    case SearchKind::Mcts:
      return "mcts";
    case SearchKind::Auto:
      return "auto";
    case SearchKind::AlphaBeta:
      break;
  }
  return "alphabeta";
}

std::optional<SearchKind> parse_search_kind(std::string_view text) {
  for (SearchKind k : {SearchKind::AlphaBeta, SearchKind::Mcts, SearchKind::Auto})
    if (text == to_string(k)) return k;
  return std::nullopt;
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
