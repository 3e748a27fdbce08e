#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/shipped_files.h"
#include "tests/client/temp_dir.h"
#include "tests/test_env.h"

using namespace amazons;
namespace fs = std::filesystem;

namespace {

// A fresh PREFIX with bin/ in it, removed at the end.
struct ShippedPrefix {
  test::TempDir dir;
  fs::path root = dir.path();
  ShippedPrefix() { fs::create_directories(root / "usr" / "bin"); }
};

}  // namespace

TEST_CASE("shipped files: an installed program reads PREFIX/share/amazons, not the build tree") {
  ShippedPrefix prefix;
  const auto program = prefix.root / "usr" / "bin" / "amazons-server";
  const fs::path build_tree = "/nonexistent/build/web/dist";
  CHECK(shipped_dir("web", build_tree, program) == build_tree);  // nothing installed yet
  fs::create_directories(prefix.root / "usr" / "share" / "amazons" / "web");
  CHECK(shipped_dir("web", build_tree, program) ==
        prefix.root / "usr" / "share" / "amazons" / "web");
  CHECK(shipped_dir("config", build_tree, program) == build_tree);
  // The programs people play with are in PREFIX/games (Debian policy 11.11).
  fs::create_directories(prefix.root / "usr" / "games");
  CHECK(shipped_dir("web", build_tree, prefix.root / "usr" / "games" / "amazons-bot") ==
        prefix.root / "usr" / "share" / "amazons" / "web");
  // A program in the build tree (not in a bin/ folder) keeps the build tree's files.
  fs::create_directories(prefix.root / "server");
  CHECK(shipped_dir("web", build_tree, prefix.root / "server" / "amazons-server") == build_tree);
  CHECK(shipped_dir("web", build_tree, fs::path{}) == build_tree);
}

TEST_CASE("shipped files: $AMAZONS_CONFIG_DIR comes first, an empty one counts as unset") {
  const char* saved = std::getenv("AMAZONS_CONFIG_DIR");
  const std::string before = saved ? saved : "";
  test::set_env("AMAZONS_CONFIG_DIR", "/somewhere/config");
  CHECK(shipped_config_dir("/build/config") == fs::path("/somewhere/config"));
  test::set_env("AMAZONS_CONFIG_DIR", "");
  CHECK(shipped_config_dir("/build/config") == shipped_dir("config", "/build/config"));
  if (saved)
    test::set_env("AMAZONS_CONFIG_DIR", before);
  else
    test::unset_env("AMAZONS_CONFIG_DIR");
}

TEST_CASE("shipped files: the running program is this test's executable") {
  const auto self = running_program();
  REQUIRE(!self.empty());
  CHECK(self.stem() == "common");  // common.exe on Windows
  CHECK(fs::is_regular_file(self));
}
