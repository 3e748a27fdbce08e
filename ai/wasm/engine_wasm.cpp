// The engine protocol (docs/ENGINE_PROTOCOL.md) as a WebAssembly module: the same EngineProtocol
// as amazons-engine, fed lines by JavaScript (a Web Worker in the browser, amazons-engine.js
// under Node) instead of a loop on stdin.
//
// The protocol runs on a thread of its own, never on the module's main thread: a command may
// block (perft waits for its workers, stop for the search), and a pthread that has no Web Worker
// yet gets one only when the main thread returns to its event loop. So the main thread only
// queues lines and returns; answers go to stdout, which reaches the module's `print` one line at
// a time, and when the protocol ends (after `quit`, or at the end of input) the main thread calls
// Module.onEngineDone(status).
//
// Without threads (the build for pages that may not share memory, search_threads_available()
// false) there is no protocol thread: each line is handled when it is given, a search included,
// and the protocol refuses what would never end by itself (go infinite, go ponder).
//
// The configuration (ai.json and the rules) is embedded in the module at /config.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <emscripten/em_asm.h>
#include <emscripten/emscripten.h>

#include "ai/levels.h"
#include "ai/protocol.h"
#include "ai/search.h"

namespace {

constexpr const char* kConfigDir = "/config";

// Lines from JavaScript to the protocol thread; nullopt is the end of input.
class LineQueue {
 public:
  void push(std::optional<std::string> line) {
    {
      std::lock_guard lock(mutex_);
      lines_.push_back(std::move(line));
    }
    ready_.notify_one();
  }
  std::optional<std::string> pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [this] { return !lines_.empty(); });
    auto line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::optional<std::string>> lines_;
};

LineQueue input;
bool started = false;
// Without threads: the protocol, handling each line as it comes; null after quit.
std::unique_ptr<amazons::ai::EngineProtocol> inline_protocol;

void say(std::string_view line) {
  std::string text(line);
  text += '\n';
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void done(int status) {
  MAIN_THREAD_ASYNC_EM_ASM(
      {
        if (Module['onEngineDone']) Module['onEngineDone']($0);
      },
      status);
}

// The protocol thread: 0 after quit or the end of input, 2 when the configuration does not load
// (as amazons-engine exits).
int run_protocol() {
  const std::string dir = kConfigDir;
  auto config = amazons::ai::load_ai_config(dir + "/ai.json");
  if (!config) {
    std::fprintf(stderr, "amazons-engine: %s\n", config.error().c_str());
    return 2;
  }
  amazons::ai::EngineProtocol protocol(*config, dir + "/rules", say);
  while (auto line = input.pop()) {
    if (!protocol.handle(*line)) return 0;
  }
  protocol.finish();
  return 0;
}

}  // namespace

extern "C" {

// Starts the protocol thread (once; later calls do nothing); without threads, the protocol.
EMSCRIPTEN_KEEPALIVE void amazons_engine_start() {
  if (started) return;
  started = true;
  if (amazons::ai::search_threads_available()) {
    std::thread([] { done(run_protocol()); }).detach();
    return;
  }
  const std::string dir = kConfigDir;
  auto config = amazons::ai::load_ai_config(dir + "/ai.json");
  if (!config) {
    std::fprintf(stderr, "amazons-engine: %s\n", config.error().c_str());
    return done(2);
  }
  inline_protocol = std::make_unique<amazons::ai::EngineProtocol>(*config, dir + "/rules", say);
}

// Queues one line of the protocol (without threads: handles it, a search to its end). Lines
// after `quit` are read by no one.
EMSCRIPTEN_KEEPALIVE void amazons_engine_line(const char* line) {
  if (amazons::ai::search_threads_available()) return input.push(std::string(line));
  if (inline_protocol && !inline_protocol->handle(line)) {
    inline_protocol.reset();
    done(0);
  }
}

// End of input: a running search ends as at the end of amazons-engine's stdin, then the protocol.
EMSCRIPTEN_KEEPALIVE void amazons_engine_finish() {
  if (amazons::ai::search_threads_available()) return input.push(std::nullopt);
  if (!inline_protocol) return;
  inline_protocol->finish();
  inline_protocol.reset();
  done(0);
}

}  // extern "C"
