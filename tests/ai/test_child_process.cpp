// ChildProcess, the same cases on every platform (child_process_posix.cpp on Linux,
// child_process_windows.cpp under Wine): our engine as the program at the other end.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <string>

#include "ai/tools/child_process.h"
#include "tests/ai/engine_path.h"

using amazons::ai::ChildProcess;

namespace {

std::string engine_command() {
  return amazons::test::kEngine.string() + " --config-dir " + amazons::test::config_dir();
}

ChildProcess::Clock::time_point in_seconds(int s) {
  return ChildProcess::Clock::now() + std::chrono::seconds(s);
}

}  // namespace

TEST_CASE("child process: lines go both ways, and a program that quits exits with code 0") {
  auto child = ChildProcess::start(engine_command());
  REQUIRE(child);
  auto& c = **child;
  CHECK_FALSE(c.exit_status());
  REQUIRE(c.send_line("isready"));
  std::string line;
  REQUIRE(c.read_line(line, in_seconds(30)) == ChildProcess::Read::Line);
  CHECK(line == "readyok");
  REQUIRE(c.send_line("quit"));
  CHECK(c.read_line(line, in_seconds(30)) == ChildProcess::Read::Closed);
  CHECK(c.exit_status(std::chrono::seconds(30)) == "exited with code 0");
}

TEST_CASE("child process: nothing to read before the deadline is a timeout, not an end") {
  auto child = ChildProcess::start(engine_command());
  REQUIRE(child);
  std::string line;
  CHECK((*child)->read_line(line, ChildProcess::Clock::now() + std::chrono::milliseconds(200)) ==
        ChildProcess::Read::Timeout);
  CHECK_FALSE((*child)->exit_status());
}

TEST_CASE("child process: kill ends a running program, and then it reads nothing") {
  auto child = ChildProcess::start(engine_command());
  REQUIRE(child);
  auto& c = **child;
  c.kill();
  const auto status = c.exit_status(std::chrono::seconds(30));
  REQUIRE(status);
  CHECK(status->find("code 0") == std::string::npos);
  std::string line;
  CHECK(c.read_line(line, in_seconds(30)) == ChildProcess::Read::Closed);
  CHECK_FALSE(c.send_line("isready"));
}

TEST_CASE("child process: a command that does not exist ends saying so") {
  auto child = ChildProcess::start("amazons-no-such-program", /*quiet_stderr=*/true);
  REQUIRE(child);
  const auto status = (*child)->exit_status(std::chrono::seconds(30));
  REQUIRE(status);
  CHECK(status->find("(command not found?)") != std::string::npos);
}
