#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <sstream>
#include <streambuf>
#include <thread>

#include "ai/botzone.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "test_util.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

botzone::Options fast(bool keep_running = true) {
  botzone::Options o;
  o.movetime = Millis{40};
  o.first_movetime = Millis{60};
  o.keep_running = keep_running;
  o.hash_mb = 4;
  return o;
}

struct BotzoneRun {
  int code;
  std::string out, err;
};

BotzoneRun run(const std::string& input, const botzone::Options& options = fast()) {
  std::istringstream in(input);
  std::ostringstream out, err;
  const int code = botzone::run(in, out, err, options);
  return {code, out.str(), err.str()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) lines.push_back(l);
  return lines;
}

// A one-way stream between threads: the reader blocks until text arrives or the writer closes.
class Pipe : public std::streambuf {
 public:
  void write(const std::string& text) {
    std::lock_guard lock(mutex_);
    data_ += text;
    cv_.notify_all();
  }
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    cv_.notify_all();
  }
  // The next whole line the other side wrote, or nullopt after 20 s without one.
  std::optional<std::string> read_line() {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, std::chrono::seconds(20),
                      [&] { return data_.find('\n', taken_) != std::string::npos; }))
      return std::nullopt;
    const std::size_t end = data_.find('\n', taken_);
    std::string line = data_.substr(taken_, end - taken_);
    taken_ = end + 1;
    return line;
  }

 protected:
  int_type underflow() override {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return taken_ < data_.size() || closed_; });
    if (taken_ >= data_.size()) return traits_type::eof();
    current_ = data_[taken_++];
    setg(&current_, &current_, &current_ + 1);
    return traits_type::to_int_type(current_);
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) write(std::string(1, traits_type::to_char_type(c)));
    return c;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::string data_;
  std::size_t taken_ = 0;
  bool closed_ = false;
  char current_ = 0;
};

}  // namespace

TEST_CASE("Botzone coordinates: x from the left, y from the top") {
  // Black's queen at (2, 0) is c8; a move to (2, 5) = c3 shooting at (1, 4) = b4.
  auto m = botzone::parse_move_line("2 0 2 5 1 4");
  REQUIRE(m);
  REQUIRE(m->has_value());
  CHECK(**m == test::mv("c8-c3/b4"));
  CHECK(botzone::format_move(test::mv("c8-c3/b4")) == "2 0 2 5 1 4");
  auto start = botzone::parse_move_line("-1 -1 -1 -1 -1 -1\r");
  REQUIRE(start);
  CHECK_FALSE(start->has_value());
}

TEST_CASE("bad Botzone move lines are refused with a reason") {
  CHECK(botzone::parse_move_line("").error().find("expected six integers") == 0);
  CHECK(botzone::parse_move_line("1 2 3 4 5").error().find("expected six integers") == 0);
  CHECK(botzone::parse_move_line("1 2 3 4 5 6 7").error().find("more than six numbers") == 0);
  CHECK(botzone::parse_move_line("1 2 3 x 5 6").error().find("expected six integers") == 0);
  CHECK(botzone::parse_move_line("1 2 3 8 5 6").error().find("coordinate 8 is off") == 0);
  CHECK(botzone::parse_move_line("1 2 3 -1 5 6").error().find("coordinate -1 is off") == 0);
  CHECK(botzone::parse_move_line("99999999999 2 3 4 5 6").error().find("expected six") == 0);
}

TEST_CASE("a history replays into the position the bot must move in") {
  auto black = botzone::replay({"-1 -1 -1 -1 -1 -1"});
  REQUIRE(black);
  CHECK(black->me == Color::Black);
  CHECK(black->position == Position(botzone8_variant()));

  auto white = botzone::replay({"2 0 2 5 1 4"});
  REQUIRE(white);
  CHECK(white->me == Color::White);
  CHECK(white->history.size() == 1);

  auto illegal = botzone::replay({"-1 -1 -1 -1 -1 -1", "2 0 2 5 1 4", "0 0 0 1 0 2"});
  REQUIRE_FALSE(illegal);
  CHECK(illegal.error().find("line 4 (request 2): illegal move") == 0);
  CHECK_FALSE(botzone::replay({"-1 -1 -1 -1 -1 -1", "-1 -1 -1 -1 -1 -1", "2 0 2 5 1 4"}));
  CHECK(botzone::replay({"a", "b"}).error().find("odd number") != std::string::npos);
}

TEST_CASE("the bot answers a first turn with a legal move and keeps running") {
  const BotzoneRun r = run("1\n-1 -1 -1 -1 -1 -1\n");
  CHECK(r.code == 0);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == botzone::kKeepRunning);
  auto m = botzone::parse_move_line(lines[0]);
  REQUIRE(m);
  REQUIRE(m->has_value());
  CHECK_FALSE(Position(botzone8_variant()).check(**m));
}

TEST_CASE("in long-running mode each turn brings one request line") {
  // The bot runs on its own thread reading a pipe-like stream; each turn the test reads the
  // bot's answer, plays it, and sends back only the opponent's reply.
  Pipe to_bot, from_bot;
  std::istream bot_in(&to_bot);
  std::ostream bot_out(&from_bot);
  std::ostringstream bot_err;
  int code = -1;
  std::thread bot([&] { code = botzone::run(bot_in, bot_out, bot_err, fast()); });

  Position pos(botzone8_variant());
  const Move first = test::mv("c8-c3/b4");
  pos.do_move(first);
  to_bot.write("1\n" + botzone::format_move(first) + "\n");
  for (int turn = 0; turn < 4; ++turn) {
    const auto answer_line = from_bot.read_line();
    REQUIRE(answer_line);
    CHECK(from_bot.read_line() == std::string(botzone::kKeepRunning));
    auto answer = botzone::parse_move_line(*answer_line);
    REQUIRE(answer);
    REQUIRE(answer->has_value());
    REQUIRE_FALSE(pos.check(**answer));
    pos.do_move(**answer);
    MoveList moves;
    generate_moves(pos, moves);
    REQUIRE_FALSE(moves.empty());
    pos.do_move(moves[0]);
    to_bot.write(botzone::format_move(moves[0]) + "\n");
  }
  to_bot.close();
  bot.join();
  CHECK(code == 0);
  CHECK(bot_err.str().empty());
}

TEST_CASE("a full later turn is accepted as well (bots restarted every turn)") {
  const BotzoneRun r = run("2\n-1 -1 -1 -1 -1 -1\n2 0 2 5 1 4\n0 5 1 5 1 6\n", fast(false));
  // Black played c8-c3/b4 as its response; now White's a3-b3/b2 arrives and Black must move.
  CHECK(r.code == 0);
  const auto lines = lines_of(r.out);
  REQUIRE(lines.size() == 1);
  auto turn = botzone::replay({"-1 -1 -1 -1 -1 -1", "2 0 2 5 1 4", "0 5 1 5 1 6"});
  REQUIRE(turn);
  auto m = botzone::parse_move_line(lines[0]);
  REQUIRE(m);
  CHECK_FALSE(turn->position.check(**m));
}

TEST_CASE("bad Botzone input gets a clear error and no crash") {
  struct Case {
    std::string input;
    std::string error;
  };
  const Case cases[] = {
      {"hello\n", "expected the turn number first"},
      {"0\n", "turn number must be 1"},
      {"5000000\n", "turn number must be 1"},
      {"2\n-1 -1 -1 -1 -1 -1\n", "input ended after 1 of the 3 move lines"},
      {"1\n1 2 3\n", "line 2 (request 1): expected six integers"},
      {"1\n0 0 0 1 0 2\n", "illegal move"},
      {"1\n-1 -1 -1 -1 -1 -1\n7 7 7 7 7 7\n", "request: illegal move"},
      {"1\n-1 -1 -1 -1 -1 -1\ngarbage\n", "request: expected six integers"},
  };
  for (const Case& c : cases) {
    const BotzoneRun r = run(c.input);
    CAPTURE(c.input);
    CHECK(r.code == 1);
    CHECK(r.err.find(c.error) != std::string::npos);
  }
}
