// The engine protocol loop (docs/ENGINE_PROTOCOL.md), fed arbitrary lines as a controlling
// program or a person at a terminal might send them. Properties: no line crashes the loop; every
// line that names a command is answered or accepted silently, and a search started by `go` ends
// with exactly one bestmove line.
//
// Three things are bounded here, not in the engine, because they are the controller's own
// requests for work rather than input problems: every search is stopped as soon as it starts,
// perft is limited to depth 1, and the table to a few megabytes. `rules` with a path is skipped:
// reading files named by the fuzzer could block on a device.
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "ai/levels.h"
#include "ai/protocol.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

namespace {

constexpr std::size_t kMaxLines = 64;

std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> out;
  std::string word;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

bool too_costly(const std::vector<std::string>& w) {
  if (w.empty()) return false;
  if (w[0] == "perft") return w.size() != 2 || (w[1] != "0" && w[1] != "1");
  if (w[0] == "hash") return w.size() != 2 || w[1].size() > 1;  // at most 9 MB
  if (w[0] == "threads") return true;
  if (w[0] == "rules")
    return w.size() > 1 &&
           (w[1].find('/') != std::string::npos || w[1].find(".json") != std::string::npos);
  return false;
}

class Transcript {
 public:
  void add(std::string_view line) {
    std::lock_guard lock(mutex_);
    FUZZ_CHECK(line.find('\n') == std::string_view::npos);
    if (line.starts_with("bestmove")) ++bestmoves_;
    if (line.starts_with("error")) ++errors_;
    ++lines_;
    changed_.notify_all();
  }
  std::size_t lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  // Waits until `count` bestmove lines have come (the search thread sends them).
  void wait_bestmoves(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return bestmoves_ >= count; });
  }
  std::size_t errors() {
    std::lock_guard lock(mutex_);
    return errors_;
  }
  std::size_t bestmoves() {
    std::lock_guard lock(mutex_);
    return bestmoves_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t lines_ = 0;
  std::size_t bestmoves_ = 0;
  std::size_t errors_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ai::AiConfig config = [] {
    ai::AiConfig c = ai::builtin_ai_config();
    c.threads = 1;
    c.hash_mb = 1;
    return c;
  }();
  Transcript out;
  {
    ai::EngineProtocol engine(config, AMAZONS_CONFIG_DIR "/rules",
                              [&](std::string_view line) { out.add(line); });
    FUZZ_CHECK(engine.handle("hash 1"));
    std::size_t searches = 0;
    std::size_t handled = 0;
    std::string_view rest = fuzz::as_text(data, size);
    while (!rest.empty() && handled < kMaxLines) {
      const auto end = rest.find('\n');
      const std::string_view line = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
      const auto words = words_of(line);
      if (too_costly(words)) continue;
      ++handled;
      const std::size_t before = out.lines();
      const std::size_t errors = out.errors();
      const bool go = !words.empty() && words[0] == "go";
      if (!engine.handle(line)) break;  // quit
      if (go && out.errors() == errors) {
        // A search started (a refused go answers with an error at once). Whether it has already
        // answered (a lost position, a tiny limit) or is still running, after a stop it has
        // answered exactly once.
        ++searches;
        FUZZ_CHECK(engine.handle("stop"));
        out.wait_bestmoves(searches);
        FUZZ_CHECK(out.bestmoves() == searches);
      }
      const bool silent_command = words.empty() || words[0][0] == '#' || words[0] == "stop";
      if (!silent_command && !go) FUZZ_CHECK(out.lines() > before);
    }
    engine.finish();
    FUZZ_CHECK(out.bestmoves() == searches);
  }
  return 0;
}
