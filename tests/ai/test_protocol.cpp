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
      "multipv",
      "multipv 0",
      "multipv x",
      "multipv 99",
      "multipv 3 4",
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

namespace {

// One info line's fields: depth, multipv (0 when the line has none), score (`win N` and `loss N`
// as numbers beyond any other, in the same order), the pv's first move.
struct Info {
  int depth = 0;
  int multipv = 0;
  int score = 0;
  std::string first_move;
};

Info parse_info(const std::string& line) {
  const auto w = words(line);
  Info info;
  REQUIRE(w.size() >= 4);
  REQUIRE(w[0] == "info");
  REQUIRE(w[1] == "depth");
  info.depth = std::stoi(w[2]);
  std::size_t i = 3;
  if (w[i] == "multipv") {
    info.multipv = std::stoi(w[i + 1]);
    i += 2;
  }
  REQUIRE(w[i] == "score");  // right after the depth or the multipv field, as parsers expect
  constexpr int kDecided = 1'000'000;
  if (w[i + 1] == "win" || w[i + 1] == "loss") {
    const int plies = std::stoi(w[i + 2]);
    info.score = w[i + 1] == "win" ? kDecided - plies : plies - kDecided;
  } else {
    info.score = std::stoi(w[i + 1]);
  }
  const auto pv = std::find(w.begin(), w.end(), "pv");
  REQUIRE(pv + 1 < w.end());
  info.first_move = *(pv + 1);
  return info;
}

// Sends `go`, then collects the info lines up to the bestmove line, whose move goes to `best`.
std::vector<Info> go(EngineProtocol& protocol, Lines& out, const std::string& command,
                     std::string& best) {
  CHECK(protocol.handle(command));
  std::vector<Info> infos;
  for (;;) {
    const auto l = out.next();
    REQUIRE(l);
    if (l->rfind("bestmove ", 0) == 0) {
      best = l->substr(9);
      return infos;
    }
    infos.push_back(parse_info(*l));
  }
}

void send(EngineProtocol& protocol, Lines& out, const std::string& command) {
  CAPTURE(command);
  CHECK(protocol.handle(command));
  CHECK(out.next() == "ok");
}

// The lines of each depth come together, numbered 1 to `lines`, with distinct legal first moves
// and non-increasing scores; the last depth's first line is the best move `best`, when given (a
// search that was stopped or ran out of time may answer with a better move its last, unfinished
// depth found, with one line as with several).
void check_lines(const std::vector<Info>& infos, std::size_t lines, int depths,
                 const std::optional<std::string>& best, const Position& pos) {
  REQUIRE(infos.size() == lines * static_cast<std::size_t>(depths));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const Info& info = infos[i];
    CAPTURE(i);
    CHECK(info.depth == static_cast<int>(i / lines) + 1);
    CHECK(info.multipv == static_cast<int>(i % lines) + 1);
    const auto m = parse_move(info.first_move);
    REQUIRE(m);
    CHECK_FALSE(pos.check(*m));
    for (std::size_t j = i - i % lines; j < i; ++j) {
      CHECK(info.first_move != infos[j].first_move);
      CHECK(info.score <= infos[j].score);
    }
  }
  if (best) CHECK(infos[infos.size() - lines].first_move == *best);
}

}  // namespace

TEST_CASE("multipv 3 reports three lines a depth, best first, and multipv 1 the lines of old") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  const Position start(standard_variant());
  std::string best;
  send(protocol, out, "multipv 3");
  // Depth 5: there the third line, searched alone, comes out better than the second, and must be
  // reported above it.
  const auto infos = go(protocol, out, "go depth 5", best);
  check_lines(infos, 3, 5, best, start);

  // The first line is the search multipv 1 makes. From the same table (newgame) the first
  // iteration past the ranking (depth 2) is that search, node for node, before the other lines
  // are searched; deeper ones run on a table the other lines filled too, so only depth 2 is
  // compared.
  send(protocol, out, "newgame");
  std::string best3;
  const auto three = go(protocol, out, "go depth 2", best3);
  check_lines(three, 3, 2, best3, start);
  send(protocol, out, "multipv 1");
  send(protocol, out, "newgame");
  std::string best1;
  const auto one = go(protocol, out, "go depth 2", best1);
  REQUIRE(one.size() == 2);
  for (const Info& info : one) CHECK(info.multipv == 0);  // no multipv field at all
  CHECK(one[1].depth == 2);
  CHECK(one[1].score == three[3].score);
  CHECK(one[1].first_move == three[3].first_move);
  CHECK(best1 == best3);
}

TEST_CASE("multipv gives as many lines as there are legal moves when they are fewer") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  // White's queen on a1 can only step to b1, and shoot from there back to a1 or to c2.
  const std::string text = "7B/8/8/8/8/3x4/xx6/W1x5 w";
  send(protocol, out, "position text " + text);
  send(protocol, out, "multipv 3");
  std::string best;
  const auto infos = go(protocol, out, "go depth 3", best);
  REQUIRE(infos.size() % 2 == 0);
  check_lines(infos, 2, static_cast<int>(infos.size() / 2), best, *parse_position(text));
}

TEST_CASE("multipv analyses by alpha-beta whatever the level searches with") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  // hard is auto: MCTS on this 8x8 board, which reports no lines of its own.
  send(protocol, out, "rules botzone8");
  send(protocol, out, "level hard");
  CHECK(protocol.handle("isready"));
  CHECK(out.next() == "readyok");
  send(protocol, out, "multipv 2");
  std::string best;
  const auto infos = go(protocol, out, "go depth 3", best);
  check_lines(infos, 2, 3, best, Position(botzone8_variant()));
}

TEST_CASE("multipv lines come by whole depths under a movetime and with go infinite and stop") {
  Lines out;
  EngineProtocol protocol = make_protocol(out);
  send(protocol, out, "rules botzone8");
  send(protocol, out, "multipv 3");
  const Position start(botzone8_variant());
  for (const std::string command : {"go movetime 200", "go infinite"}) {
    CAPTURE(command);
    CHECK(protocol.handle(command));
    std::vector<Info> infos;
    std::string best;
    for (;;) {
      const auto l = out.next();
      REQUIRE(l);
      if (l->rfind("bestmove ", 0) == 0) {
        best = l->substr(9);
        break;
      }
      infos.push_back(parse_info(*l));
      // An infinite search is stopped once depth 2 is complete.
      if (command == "go infinite" && infos.back().depth == 2 && infos.back().multipv == 3)
        CHECK(protocol.handle("stop"));
    }
    // Depth 1 at least (the ranking comes at once); how many more a loaded machine reaches in
    // 200 ms varies, but they come three at a time.
    REQUIRE(infos.size() >= (command == "go infinite" ? 6U : 3U));
    REQUIRE(infos.size() % 3 == 0);
    check_lines(infos, 3, static_cast<int>(infos.size() / 3), std::nullopt, start);
    const auto m = parse_move(best);
    REQUIRE(m);
    CHECK_FALSE(start.check(*m));
  }
}
