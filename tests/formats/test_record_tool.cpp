// amazons-record run as a process on real files.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../client/temp_dir.h"
#include "format_test_util.h"
#include "formats/move_list.h"
#include "formats/record_formats.h"
#include "tests/text_checks.h"

using namespace amazons;
using namespace amazons::formats;
using amazons::test::contains;
namespace fs = std::filesystem;

namespace {

const fs::path kTool = fs::path(amazons::test::binary_dir()) / "formats" / "amazons-record";

struct Run {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

Run run(const test::TempDir& dir, const std::string& args) {
  const fs::path out = dir.path() / "stdout.log", err = dir.path() / "stderr.log";
  const std::string command = "cd '" + dir.path().string() + "' && timeout 30 '" + kTool.string() +
                              "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int raw = std::system(command.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

// The files in a directory, so a test can see that nothing (not even a temporary) was left.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("record tool: json to sgf to moves to text and back, each a file") {
  test::TempDir dir;
  const GameRecord game = test::random_record(standard_variant(), 11);
  spill(dir.path() / "game.json", to_json(game).dump(2));
  Run r = run(dir, "convert game.json game.sgf");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(contains(r.out, "game.json -> game.sgf: " + std::to_string(game.moves.size()) + " moves"));
  const std::string sgf = slurp(dir.path() / "game.sgf");
  CHECK(sgf.starts_with("(;FF[4]GM[18]"));
  r = run(dir, "convert game.sgf back.json");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto back = parse_record_json(slurp(dir.path() / "back.json"));
  REQUIRE(back);
  CHECK(*back == game);
  r = run(dir, "convert back.json game.moves");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(slurp(dir.path() / "game.moves").starts_with(to_uci(game.moves[0].move)));
  r = run(dir, "convert game.moves game.txt");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto text = parse_record_text(slurp(dir.path() / "game.txt"));
  REQUIRE(text);
  CHECK(text->moves.size() == game.moves.size());
  // Written files are ordinary, readable files.
  const auto perms = fs::status(dir.path() / "game.sgf").permissions();
  CHECK((perms & fs::perms::others_read) != fs::perms::none);
}

TEST_CASE("record tool: --from and --to override the extensions") {
  test::TempDir dir;
  spill(dir.path() / "game.dat", "d1d7,d7g7 a7b7,b7c7\n");
  Run r = run(dir, "convert game.dat out.dat");
  CHECK(r.status == 1);
  CHECK(contains(r.err, "game.dat: unknown file extension '.dat'"));
  r = run(dir, "convert game.dat out.dat --from moves --to sgf");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(slurp(dir.path() / "out.dat").starts_with("(;FF[4]GM[18]"));
  // --from sgf on a move list: the SGF reader refuses it.
  r = run(dir, "convert game.dat out2.sgf --from sgf");
  CHECK(r.status == 1);
  CHECK(contains(r.err, "read as sgf"));
  CHECK_FALSE(fs::exists(dir.path() / "out2.sgf"));
}

TEST_CASE("record tool: an illegal game is refused with the ply and nothing is written") {
  test::TempDir dir;
  spill(dir.path() / "bad.sgf", "(;FF[4]GM[18];B[djddgd];W[dadggd])");
  spill(dir.path() / "out.json", "the old file");
  const auto before = listing(dir.path());
  const Run r = run(dir, "convert bad.sgf out.json");
  CHECK(r.status == 1);
  CHECK(contains(
      r.err,
      "bad.sgf (read as sgf): move 2 (W[dadggd], d10-d4/g7): the path of the queen is blocked"));
  CHECK(slurp(dir.path() / "out.json") == "the old file");
  CHECK(listing(dir.path()) == before);
}

TEST_CASE("record tool: every bad command line and file gets a clear message, never a crash") {
  test::TempDir dir;
  spill(dir.path() / "ok.moves", "d1d7,d7g7\n");
  fs::create_directories(dir.path() / "sub");
  struct Case {
    std::string args;
    int status;
    std::string message;
  };
  const Case cases[] = {
      {"", 2, "expected a command"},
      {"frobnicate", 2, "unknown command 'frobnicate'"},
      {"convert ok.moves", 2, "convert: expected IN and OUT"},
      {"convert ok.moves out.sgf --fast", 2, "--fast: unknown option"},
      {"convert ok.moves out.sgf --from", 2, "--from: expected a format name"},
      {"convert ok.moves out.sgf --to pgn", 2, "--to pgn: unknown format"},
      {"convert missing.sgf out.json", 1, "missing.sgf: no such file"},
      {"convert sub out.json --from sgf", 1, "sub: is a directory"},
      {"convert ok.moves noext", 1, "noext: no file extension"},
      {"convert ok.moves out.lg", 1, "littlegolem can only be read"},
      {"convert ok.moves nodir/out.sgf", 1, "nodir/out.sgf: cannot create a file in nodir"},
      {"convert ok.moves sub --to sgf", 1, "sub: is a directory"},
      {"check", 2, "check: expected IN"},
      {"check ok.moves --to sgf", 2, "--to has no meaning"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Run r = run(dir, c.args);
    CHECK(r.status == c.status);
    CHECK_MESSAGE(contains(r.err, c.message), r.err);
  }
}

TEST_CASE("record tool: --help, --version and check") {
  test::TempDir dir;
  Run r = run(dir, "--help");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "amazons-record convert IN OUT"));
  CHECK(contains(r.out, "littlegolem"));
  r = run(dir, "--version");
  CHECK(r.status == 0);
  CHECK(r.out.starts_with("amazons-record "));
  spill(dir.path() / "lg.sgf",
        "(;FF[4]EV[amazons.ch.1]PB[Bruno]PW[Wanda]RE[W]SO[http://www.littlegolem.com]"
        ";W[d1-d7-g7];B[resign])");
  r = run(dir, "check lg.sgf");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(contains(r.out, "white Wanda, black Bruno, 1 moves, white won (resign)"));
  r = run(dir, "check lg.sgf --from littlegolem");
  CHECK(r.status == 0);
  r = run(dir, "check lg.sgf --from moves");
  CHECK(r.status == 1);
  CHECK(contains(r.err, "read as moves"));
}

TEST_CASE("record tool: a file far too large is refused before it is read") {
  test::TempDir dir;
  {
    std::ofstream big(dir.path() / "big.sgf", std::ios::binary);
    const std::string chunk(1024 * 1024, ' ');
    for (std::uintmax_t i = 0; i <= kMaxRecordFileBytes / chunk.size(); ++i) big << chunk;
  }
  const Run r = run(dir, "convert big.sgf out.json");
  CHECK(r.status == 1);
  CHECK(contains(r.err, "larger than 16 MB"));
}
