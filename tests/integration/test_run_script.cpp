// scripts/run.sh on a machine without a display: a local server with two bots playing one game,
// printed move by move. The printed moves must replay legally to the printed result, and nothing
// the script started may outlive it.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <sys/wait.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "client/game_watch.h"
#include "common/movegen.h"
#include "common/variant.h"

using namespace amazons;

namespace {

// Processes whose command line mentions `needle` (other than this test).
std::vector<std::string> processes_mentioning(const std::string& needle) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream in(entry.path() / "cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (char& c : cmd)
      if (c == '\0') c = ' ';
    if (cmd.find(needle) != std::string::npos) found.push_back(entry.path().filename().string());
  }
  return found;
}

}  // namespace

TEST_CASE("run.sh without a display: two bots play one game on a local server, printed legally") {
  // Exactly what a user without a display gets: the standard rules (about 10 s).
  const std::string command = std::string("cd '") + amazons::test::source_dir() +
                              "' && env -u DISPLAY -u WAYLAND_DISPLAY AMAZONS_RUN_NO_BUILD=1 "
                              "AMAZONS_BUILD_DIR='" +
                              amazons::test::binary_dir() + "' ./scripts/run.sh 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = ::pclose(pipe);
  CAPTURE(output);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(output.find("no graphical display") != std::string::npos);

  Position pos(standard_variant());
  std::size_t moves = 0;
  std::string result_line, work_dir;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (auto m = client::parse_watch_move(line)) {
      INFO(line);
      REQUIRE_FALSE(pos.check(*m));
      pos.do_move(*m);
      ++moves;
    }
    if (line.starts_with("Result: ")) result_line = line;
    if (line.starts_with("run.sh: working in ")) work_dir = line.substr(19);
  }
  CHECK(moves > 10);
  // The bots play on until one side cannot move (2 s a move is plenty for their levels).
  CHECK(count_moves(pos) == 0);
  const std::string winner = pos.side_to_move() == Color::White ? "Black" : "White";
  CHECK(result_line ==
        "Result: " + winner + " wins (no_moves) after " + std::to_string(moves) + " moves");
  REQUIRE_FALSE(work_dir.empty());
  CHECK_FALSE(std::filesystem::exists(work_dir));
  CHECK(processes_mentioning(work_dir).empty());
  CHECK(output.find("the game is over") != std::string::npos);
}
