// amazons-match's command line (ai/tools/match_command_line.h) and what it prints
// (ai/tools/match_report.h). Matches themselves are in test_match.cpp, the program run as a
// process in test_uci_engine.cpp.
#include <doctest/doctest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ai/levels.h"
#include "ai/tools/match_command_line.h"
#include "ai/tools/match_report.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

Expected<MatchArgs, int> parse_match_args(std::vector<std::string> args) {
  args.insert(args.begin(), "amazons-match");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_match_command_line(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("match command line: two players and the defaults") {
  const auto args = parse_match_args({"easy", "random"});
  REQUIRE(args);
  CHECK(args->spec_a == "easy");
  CHECK(args->spec_b == "random");
  CHECK(args->config_dir == default_config_dir().string());
  CHECK(args->rules == "standard");
  CHECK(args->tc == "none");
  CHECK(args->games == 20);
  CHECK(args->openings == 2);
  CHECK(args->parallel == 1);
  CHECK(args->seed == 1);
  CHECK_FALSE(args->quiet);
  CHECK(args->records.empty());
}

TEST_CASE("match command line: every option reaches the arguments") {
  const auto args =
      parse_match_args({"a",      "b",          "-n",        "7",          "--rules",
                        "small",  "--tc",       "300+5",     "--openings", "0",
                        "-j",     "2",          "--threads", "3",          "--hash",
                        "64",     "--movetime", "250",       "--grace",    "0",
                        "--seed", "9",          "--records", "r.jsonl",    "--config-dir",
                        "cfg",    "-q"});
  REQUIRE(args);
  CHECK(args->games == 7);
  CHECK(args->rules == "small");
  CHECK(args->tc == "300+5");
  CHECK(args->openings == 0);
  CHECK(args->parallel == 2);
  CHECK(args->threads == 3);
  CHECK(args->hash_mb == 64);
  CHECK(args->movetime == 250);
  CHECK(args->grace == 0);
  CHECK(args->seed == 9);
  CHECK(args->records == "r.jsonl");
  CHECK(args->config_dir == "cfg");
  CHECK(args->quiet);
}

TEST_CASE("match command line: malformed arguments exit with CLI11's status, --help with 0") {
  CHECK(parse_match_args({"--help"}).error() == 0);
  CHECK(parse_match_args({"easy"}).error() != 0);
  CHECK(parse_match_args({"a", "b", "-n", "0"}).error() != 0);
  CHECK(parse_match_args({"a", "b", "--openings", "21"}).error() != 0);
}

TEST_CASE("match report: a summary line by line, Elo infinite when one side scored nothing") {
  CHECK(elo_text(35.4) == "+35");
  CHECK(elo_text(-191.2) == "-191");
  CHECK(elo_text(std::numeric_limits<double>::infinity()) == "+inf");
  CHECK(elo_text(-std::numeric_limits<double>::infinity()) == "-inf");
  std::ostringstream out;
  MatchReport report(out, "A", "B", 4, true);
  MatchSummary summary;
  summary.a_wins = 3;
  summary.b_wins = 1;
  summary.elo.score = 0.75;
  summary.elo.elo = 191;
  summary.elo.low = -147;
  summary.elo.high = 528;
  summary.max_overrun[0] = Millis{-12};
  summary.max_overrun[1] = Millis{40};
  report.summary(summary, std::chrono::seconds(75));
  CHECK(out.str() ==
        "\nresult: A 3, B 1 (75.0% for A over 4 games)\n"
        "Elo difference: +191 (95%: -147 .. +528)\n"
        "largest deadline overrun: A 12 ms early at the latest, B 40 ms late\n"
        "time: 1m 15s\n");
}
