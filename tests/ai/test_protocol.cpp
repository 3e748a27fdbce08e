#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "ai/protocol.h"
#include "common/notation.h"
#include "common/position_text.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

// Collects the protocol's output lines and lets the test wait for them.
class Lines {
 public:
  void push(std::string_view line) {
    std::lock_guard lock(mutex_);
    lines_.emplace_back(line);
    cv_.notify_all();
  }
  // The next line, or nullopt if none comes within the timeout.
  std::optional<std::string> next(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return !lines_.empty(); })) return std::nullopt;
    std::string l = lines_.front();
    lines_.pop_front();
    return l;
  }
  bool empty() {
    std::lock_guard lock(mutex_);
    return lines_.empty();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> lines_;
};

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> w;
  std::istringstream in(s);
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

// `*` in the expected line matches any one word; leading spaces must match exactly.
bool matches(const std::string& expected, const std::string& actual) {
  const auto e = words(expected), a = words(actual);
  if (e.size() != a.size()) return false;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (e[i] != "*" && e[i] != a[i]) return false;
  const auto lead = [](const std::string& s) { return s.find_first_not_of(' '); };
  return lead(expected) == lead(actual);
}

std::vector<std::string> transcript_from_docs() {
  std::ifstream in(std::filesystem::path(amazons::test::source_dir()) / "docs" /
                   "ENGINE_PROTOCOL.md");
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string l; std::getline(in, l);) {
    if (l == "```transcript") {
      inside = true;
    } else if (inside && l == "```") {
      break;
    } else if (inside) {
      lines.push_back(l);
    }
  }
  return lines;
}

EngineProtocol make_protocol(Lines& out) {
  AiConfig config = builtin_ai_config();
  config.threads = 1;
  config.hash_mb = 8;
  return EngineProtocol(config, std::filesystem::path(amazons::test::config_dir()) / "rules",
                        [&out](std::string_view l) { out.push(l); });
}

}  // namespace

TEST_CASE("the protocol transcript in docs/ENGINE_PROTOCOL.md replays") {
  const auto transcript = transcript_from_docs();
  REQUIRE(transcript.size() > 20);
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  bool running = true;
  for (const std::string& line : transcript) {
    REQUIRE((line.rfind("> ", 0) == 0 || line.rfind("< ", 0) == 0));
    const std::string text = line.substr(2);
    if (line[0] == '>') {
      REQUIRE(running);
      running = protocol.handle(text);
      continue;
    }
    for (;;) {
      const auto got = out.next();
      CAPTURE(text);
      REQUIRE_MESSAGE(got, "no answer came");
      if (got->rfind("info ", 0) == 0 && text.rfind("info ", 0) != 0) continue;
      CAPTURE(*got);
      CHECK(matches(text, *got));
      break;
    }
  }
  CHECK_FALSE(running);
  // Nothing unexpected is left over, apart from progress.
  while (auto extra = out.next(std::chrono::milliseconds(50))) CHECK(extra->rfind("info ", 0) == 0);
}

TEST_CASE("every malformed command gets an error line and the engine goes on") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  const char* bad[] = {
      "position",
      "position sideways",
      "position text 8/8 w",
      "position start x",
      "position start moves e2",
      "rules",
      "rules no/such.json",
      "rules ../../etc",
      "go depth",
      "go depth 0",
      "go nodes -1",
      "go wtime 1000 fast",
      "go movetime 0",
      "perft",
      "perft 9",
      "perft x",
      "threads 0",
      "hash huge",
      "limits",
      "limits depth",
      "limits width 100",
      "level",
      "moves a1-a2/a3",
      "go depth 2 ponder",
      "ponderhit",
      "\x01\x02\x03",
  };
  for (const char* line : bad) {
    CAPTURE(std::string(line));
    CHECK(protocol.handle(line));
    const auto got = out.next(std::chrono::seconds(5));
    REQUIRE(got);
    CHECK(got->rfind("error ", 0) == 0);
  }
  CHECK(protocol.handle("isready"));
  CHECK(out.next() == "readyok");
  CHECK(out.empty());
}

TEST_CASE("clock arguments give a budget from the mover's clock") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  CHECK(protocol.handle("rules botzone8"));
  CHECK(out.next() == "ok");
  const auto before = std::chrono::steady_clock::now();
  // Black to move with 2 s left: a small share of it.
  CHECK(protocol.handle("go wtime 100000 btime 2000 winc 0 binc 0"));
  for (;;) {
    const auto l = out.next();
    REQUIRE(l);
    if (l->rfind("bestmove ", 0) == 0) break;
  }
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::milliseconds(1000));
}

TEST_CASE("end of input waits for a bounded search and stops an infinite one") {
  Lines out;
  {
    EngineProtocol protocol = make_protocol(out);
    CHECK(protocol.handle("go infinite"));
    protocol.finish();
  }
  std::optional<std::string> last;
  while (auto l = out.next(std::chrono::milliseconds(100))) last = l;
  REQUIRE(last);
  CHECK(last->rfind("bestmove ", 0) == 0);
}

namespace {

using Clock = std::chrono::steady_clock;

// The next line that is not progress, or nullopt if none comes within the timeout.
std::optional<std::string> next_answer(Lines& out, std::chrono::milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    auto l = out.next(left);
    if (!l || l->rfind("info ", 0) != 0) return l;
  }
}

bool is_legal_bestmove(const std::string& line, Position pos) {
  if (line.rfind("bestmove ", 0) != 0) return false;
  auto m = parse_move(line.substr(9));
  return m && !pos.try_play(*m);
}

}  // namespace

TEST_CASE("pondering answers no bestmove, even past the go limits, until ponderhit") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  CHECK(protocol.handle("rules botzone8"));
  CHECK(out.next() == "ok");
  CHECK(protocol.handle("position start moves c8-c3/b4"));
  CHECK(out.next() == "ok");
  CHECK(protocol.handle("go ponder movetime 300 depth 20"));
  // Twice the movetime: a search under the go limits would have answered by now.
  CHECK(next_answer(out, std::chrono::milliseconds(600)) == std::nullopt);
  CHECK(protocol.handle("moves a3-a4/a5"));
  CHECK(next_answer(out, std::chrono::seconds(5))->find("a search is running") !=
        std::string::npos);
  const auto hit = Clock::now();
  CHECK(protocol.handle("ponderhit"));
  const auto answer = next_answer(out, std::chrono::seconds(10));
  const auto took = Clock::now() - hit;
  REQUIRE(answer);
  Position pos(botzone8_variant());
  REQUIRE_FALSE(pos.try_play(*parse_move("c8-c3/b4")));
  CHECK(is_legal_bestmove(*answer, pos));
  // The movetime counts from the ponderhit: used to its end (less the reply margin), not over.
  CHECK(took >= std::chrono::milliseconds(200));
  // Within the movetime; the slack is for a loaded machine, where a thread may wait for a core.
  CHECK(took < std::chrono::milliseconds(300 + 700));
  // A normal search again: the next command is accepted.
  CHECK(protocol.handle("position start"));
  CHECK(next_answer(out, std::chrono::seconds(5)) == "ok");
}

TEST_CASE("stop during pondering answers the ponder search's bestmove") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  CHECK(protocol.handle("rules botzone8"));
  CHECK(out.next() == "ok");
  CHECK(protocol.handle("go ponder wtime 60000 btime 60000 winc 1000 binc 1000"));
  CHECK(next_answer(out, std::chrono::milliseconds(200)) == std::nullopt);
  const auto stop = Clock::now();
  CHECK(protocol.handle("stop"));
  const auto answer = next_answer(out, std::chrono::seconds(5));
  REQUIRE(answer);
  CHECK(is_legal_bestmove(*answer, Position(botzone8_variant())));
  CHECK(Clock::now() - stop < std::chrono::milliseconds(1000));  // at once, even under load
  CHECK(protocol.handle("ponderhit"));
  CHECK(next_answer(out, std::chrono::seconds(5)) ==
        "error ponderhit: not pondering (send go ponder first)");
  CHECK(protocol.handle("isready"));
  CHECK(next_answer(out, std::chrono::seconds(5)) == "readyok");
}

TEST_CASE("a ponder search that ends by itself still waits for ponderhit or stop") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  // White shuts Black's last queen in at once: the search proves the win and ends.
  CHECK(protocol.handle("position text 8/8/8/8/8/3W4/xx6/B7 w"));
  CHECK(out.next() == "ok");
  CHECK(protocol.handle("go ponder"));
  CHECK(next_answer(out, std::chrono::milliseconds(300)) == std::nullopt);
  CHECK(protocol.handle("stop"));
  const auto answer = next_answer(out, std::chrono::seconds(5));
  REQUIRE(answer);
  CHECK(is_legal_bestmove(*answer, *parse_position("8/8/8/8/8/3W4/xx6/B7 w")));
  // And ponderhit on such a search answers at once with the proven move.
  CHECK(protocol.handle("go ponder movetime 5000"));
  CHECK(next_answer(out, std::chrono::milliseconds(300)) == std::nullopt);
  const auto hit = Clock::now();
  CHECK(protocol.handle("ponderhit"));
  CHECK(next_answer(out, std::chrono::seconds(5)) == answer);
  CHECK(Clock::now() - hit < std::chrono::milliseconds(1000));
}

TEST_CASE("end of input during pondering answers as stop does") {
  Lines out;
  {
    EngineProtocol protocol = make_protocol(out);
    CHECK(protocol.handle("go ponder movetime 100"));
    protocol.finish();
  }
  std::optional<std::string> last;
  while (auto l = out.next(std::chrono::milliseconds(100))) last = l;
  REQUIRE(last);
  CHECK(last->rfind("bestmove ", 0) == 0);
}

TEST_CASE("quit during pondering ends the ponder search without a bestmove") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  CHECK(protocol.handle("go ponder"));
  CHECK(next_answer(out, std::chrono::milliseconds(100)) == std::nullopt);
  CHECK_FALSE(protocol.handle("quit"));
  CHECK(next_answer(out, std::chrono::milliseconds(200)) == std::nullopt);
}
