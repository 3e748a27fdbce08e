// The tuning tools as their users run them: bench/tune keeps its games with --records, and
// bench/texel fits the evaluation's weights to them (docs/ENGINE.md, "Tuning").
#include <doctest/doctest.h>
#include <sys/wait.h>
#include "tests/test_paths.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "tests/client/temp_dir.h"

using namespace amazons;
using amazons::test::TempDir;

namespace {

const std::string kTune = amazons::test::binary_dir() + "/bench/tune";
const std::string kTexel = amazons::test::binary_dir() + "/bench/texel";

struct Run {
  int status = -1;
  std::string out;  // stdout and stderr
};

Run run(const std::string& command) {
  Run r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.out += buffer;
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

long number_before(const std::string& text, const std::string& marker) {
  const auto at = text.find(marker);
  if (at == std::string::npos) return -1;
  auto start = at;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(text[start - 1]))) --start;
  return std::atol(text.c_str() + start);
}

// The fitted weight printed for `key` in texel's `tune --b "..."` line.
double fitted(const std::string& out, const std::string& key) {
  const auto at = out.find(key + "=");
  REQUIRE(at != std::string::npos);
  return std::atof(out.c_str() + at + key.size() + 1);
}

}  // namespace

TEST_CASE("tuning: tune --records keeps every game, and texel fits the weights to them") {
  TempDir dir;
  const auto records = dir.path() / "games.jsonl";
  const Run match =
      run(kTune + " --rules botzone8 --movetime 20 -n 4 -j 2 --openings 4 --records " +
          records.string());
  CAPTURE(match.out);
  REQUIRE(match.status == 0);
  const auto lines = lines_of(records);
  REQUIRE(lines.size() == 4);  // one JSON record a game
  for (const std::string& line : lines) {
    const auto record = parse_record_json(line);
    REQUIRE(record);
    CHECK(record->rules.size == 8);
    REQUIRE(record->result);
    CHECK(record->result->winner);
  }
  // A second run appends rather than replacing.
  REQUIRE(run(kTune + " --rules botzone8 --movetime 20 -n 2 --openings 4 --seed 7 --records " +
              records.string())
              .status == 0);
  CHECK(lines_of(records).size() == 6);

  const Run fit = run(kTexel + " " + records.string() + " --size 8");
  CAPTURE(fit.out);
  REQUIRE(fit.status == 0);
  CHECK(fit.out.find("from 6 games (0 left out)") != std::string::npos);
  const long positions = number_before(fit.out, " positions from");
  CHECK(positions > 60);  // some 25 decided positions a game, before the regions separate
  CHECK(fit.out.find("tune --b \"eval.small.opening.t1=") != std::string::npos);

  // --skip leaves out each game's first plies: 10 fewer positions a game.
  const Run skipped = run(kTexel + " " + records.string() + " --size 8 --skip 10");
  REQUIRE(skipped.status == 0);
  CHECK(number_before(skipped.out, " positions from") == positions - 60);

  // --l2 pulls the fit towards today's weights: a strong pull leaves them where they are, no
  // pull lets at least one move.
  const Run held = run(kTexel + " " + records.string() + " --size 8 --l2 1e6");
  const Run free = run(kTexel + " " + records.string() + " --size 8 --l2 0");
  REQUIRE(held.status == 0);
  REQUIRE(free.status == 0);
  // Today's weights, as tune lists them.
  const Run list = run(kTune + " --list");
  REQUIRE(list.status == 0);
  auto today = [&](const std::string& key) {
    const auto at = list.out.find(key + " ");
    REQUIRE(at != std::string::npos);
    return std::atof(list.out.c_str() + list.out.find_first_not_of(' ', at + key.size()));
  };
  for (const char* key : {"eval.small.opening.c2", "eval.small.middlegame.mob",
                          "eval.small.endgame.t1", "eval.small.endgame.c1"}) {
    CAPTURE(key);
    CHECK(fitted(held.out, key) == doctest::Approx(today(key)).epsilon(0.01));
  }
  // Every weight of the free fit is a number, and at least one of the fifteen moved. (A weight
  // that these few games never vary stays; before texel held such a direction, it made every
  // weight NaN, one run in a few.)
  CAPTURE(free.out);
  const auto line = free.out.find("tune --b \"");
  REQUIRE(line != std::string::npos);
  const std::string pairs = free.out.substr(line + 10, free.out.find('"', line + 10) - line - 10);
  int moved = 0, weights = 0;
  for (std::size_t at = 0; at < pairs.size();) {
    const auto comma = std::min(pairs.find(',', at), pairs.size());
    const std::string pair = pairs.substr(at, comma - at);
    const auto eq = pair.find('=');
    REQUIRE(eq != std::string::npos);
    const double value = std::atof(pair.c_str() + eq + 1);
    CHECK(std::isfinite(value));
    if (std::abs(value - today(pair.substr(0, eq))) > 0.01) ++moved;
    ++weights;
    at = comma + 1;
  }
  CHECK(weights == 15);
  CHECK(moved > 0);

  // Games of another board size are left out, and with nothing to fit texel says so.
  const Run other = run(kTexel + " " + records.string() + " --size 10");
  CHECK(other.status == 2);
  CHECK(other.out.find("no positions to fit (6 games left out)") != std::string::npos);
}

TEST_CASE("tuning: bad input to tune and texel is refused with a clear message") {
  TempDir dir;
  const auto bad = dir.path() / "bad.jsonl";
  std::ofstream(bad) << "{\"not\": \"a record\"}\n";
  const Run garbage = run(kTexel + " " + bad.string());
  CHECK(garbage.status == 2);
  CHECK(garbage.out.find(bad.string() + ":1: ") != std::string::npos);

  const Run missing = run(kTexel + " " + (dir.path() / "none.jsonl").string());
  CHECK(missing.status != 0);
  CHECK(missing.out.find("none.jsonl") != std::string::npos);

  const Run unwritable =
      run(kTune + " --movetime 20 -n 2 --records " + (dir.path() / "no/such/dir/f").string());
  CHECK(unwritable.status == 2);
  CHECK(unwritable.out.find("--records: cannot write") != std::string::npos);
}
