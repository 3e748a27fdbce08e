// amazons-engine's command line (ai/tools/engine_command_line.h): which mode each form of it
// runs, with what. The modes themselves are tested through the program in the other ai tests.
#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

#include "ai/levels.h"
#include "ai/tools/engine_command_line.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

Expected<EngineCommand, int> parse_engine_args(std::vector<std::string> args) {
  args.insert(args.begin(), "amazons-engine");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_engine_command_line(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("engine command line: no subcommand speaks the protocol, --botzone Botzone's format") {
  auto command = parse_engine_args({});
  REQUIRE(command);
  CHECK(std::holds_alternative<ProtocolArgs>(command->mode));
  CHECK(command->config_dir == default_config_dir());
  command = parse_engine_args({"--botzone", "--movetime", "500", "--first-movetime", "1000",
                               "--once", "--threads", "2", "--config-dir", "cfg"});
  REQUIRE(command);
  CHECK(command->config_dir == "cfg");
  const auto& bz = std::get<BotzoneArgs>(command->mode).options;
  CHECK(bz.movetime == Millis{500});
  CHECK(bz.first_movetime == Millis{1000});
  CHECK_FALSE(bz.keep_running);
  CHECK(bz.threads == 2);
  command = parse_engine_args({"--botzone"});
  REQUIRE(command);
  CHECK(std::get<BotzoneArgs>(command->mode).options.keep_running);
}

TEST_CASE("engine command line: selfplay, analyse and perft take their own options") {
  auto command = parse_engine_args({"selfplay", "--rules", "small", "--level", "easy", "--movetime",
                                    "20", "--depth", "3", "--seed", "7"});
  REQUIRE(command);
  const auto& selfplay = std::get<SelfplayArgs>(command->mode);
  CHECK(selfplay.rules == "small");
  CHECK(selfplay.level == "easy");
  CHECK(selfplay.movetime_ms == 20);
  CHECK(selfplay.depth == 3);
  CHECK(selfplay.seed == 7);
  CHECK(selfplay.seed_given);
  command = parse_engine_args({"selfplay"});
  REQUIRE(command);
  CHECK_FALSE(std::get<SelfplayArgs>(command->mode).seed_given);

  command = parse_engine_args({"analyse", "game.json", "--movetime", "50", "--out", "a.json"});
  REQUIRE(command);
  const auto& analyse = std::get<AnalyseArgs>(command->mode);
  CHECK(analyse.game == "game.json");
  CHECK(analyse.movetime_ms == 50);
  CHECK(analyse.out == "a.json");

  command = parse_engine_args({"perft", "3", "--divide", "--threads", "1", "--position", "p"});
  REQUIRE(command);
  const auto& perft = std::get<PerftArgs>(command->mode);
  CHECK(perft.depth == 3);
  CHECK(perft.divide);
  CHECK(perft.threads == 1);
  CHECK(perft.position == "p");
  CHECK(perft.rules == "standard");
}

TEST_CASE("engine command line: malformed arguments exit with CLI11's status, --help with 0") {
  CHECK(parse_engine_args({"--help"}).error() == 0);
  CHECK(parse_engine_args({"perft"}).error() != 0);
  CHECK(parse_engine_args({"perft", "9"}).error() != 0);
  CHECK(parse_engine_args({"--movetime", "1"}).error() != 0);
  CHECK(parse_engine_args({"selfplay", "perft", "1"}).error() != 0);
}
