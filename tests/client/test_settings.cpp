#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "client/settings.h"
#include "client/user_files.h"
#include "tests/client/temp_dir.h"

using namespace amazons;
using namespace amazons::client;
namespace fs = std::filesystem;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST_CASE("the config and data directories follow XDG, else HOME") {
  CHECK(*config_dir(env_of({{"XDG_CONFIG_HOME", "/x/cfg"}, {"HOME", "/home/a"}})) ==
        fs::path("/x/cfg/amazons"));
  CHECK(*config_dir(env_of({{"HOME", "/home/a"}})) == fs::path("/home/a/.config/amazons"));
  // A relative XDG path is ignored, as the spec says.
  CHECK(*config_dir(env_of({{"XDG_CONFIG_HOME", "rel"}, {"HOME", "/home/a"}})) ==
        fs::path("/home/a/.config/amazons"));
  CHECK(*data_dir(env_of({{"XDG_DATA_HOME", "/x/data"}})) == fs::path("/x/data/amazons"));
  CHECK(*data_dir(env_of({{"HOME", "/home/a"}})) == fs::path("/home/a/.local/share/amazons"));
  auto none = data_dir(env_of({}));
  REQUIRE_FALSE(none);
  CHECK(none.error().find("HOME") != std::string::npos);
}

TEST_CASE("settings are saved and loaded back unchanged") {
  test::TempDir dir;
  const fs::path file = dir.path() / "amazons" / "settings.json";
  Settings s;
  s.name = "Zoë";
  s.last_server = "127.0.0.1:7000";
  s.discovery_target = "127.0.0.1";
  s.discovery_port = 7500;
  s.light_squares = {1, 2, 3};
  s.dark_squares = {250, 128, 0};
  s.sound = false;
  s.coordinates = false;
  s.territory_view = true;
  s.last_variant = "botzone8";
  s.last_time_control = "300+5";
  s.last_level = "hard";
  s.language = "zh-CN";
  REQUIRE_FALSE(save_settings(file, s));  // creates the directory
  const LoadedSettings loaded = load_settings(file);
  CHECK(loaded.problems.empty());
  CHECK(loaded.settings == s);
}

TEST_CASE("a missing settings file gives the defaults quietly") {
  test::TempDir dir;
  const LoadedSettings loaded = load_settings(dir.path() / "settings.json");
  CHECK(loaded.problems.empty());
  CHECK(loaded.settings == Settings{});
}

TEST_CASE("a corrupt settings file gives the defaults, says so, and is kept aside") {
  test::TempDir dir;
  const fs::path file = dir.path() / "settings.json";
  write(file, "{\"name\": \"Ann\", ");
  const LoadedSettings loaded = load_settings(file);
  CHECK(loaded.settings == Settings{});
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].find("is not valid JSON") != std::string::npos);
  CHECK(loaded.problems[0].find("settings.json.bad") != std::string::npos);
  CHECK_FALSE(fs::exists(file));
  CHECK(fs::exists(dir.path() / "settings.json.bad"));
}

TEST_CASE("a settings file with a number too large for a double is set aside, not a crash") {
  test::TempDir dir;
  const fs::path file = dir.path() / "settings.json";
  write(file, "{\"name\": \"Ann\", \"volume\": 1e999}");
  const LoadedSettings loaded = load_settings(file);
  CHECK(loaded.settings == Settings{});
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].find("is not valid JSON") != std::string::npos);
  CHECK(fs::exists(dir.path() / "settings.json.bad"));
}

TEST_CASE("bad fields keep their defaults, good ones are used, unknown keys are ignored") {
  const LoadedSettings loaded = settings_from_json(nlohmann::json::parse(R"({
    "name": "", "light_squares": "#12345", "dark_squares": "#A0b0C0", "sound": "yes",
    "coordinates": false, "future_option": 3, "discovery_port": 70000})"));
  CHECK(loaded.settings.discovery_port == Settings{}.discovery_port);
  CHECK(loaded.settings.name == Settings{}.name);
  CHECK(loaded.settings.light_squares == Settings{}.light_squares);
  CHECK(loaded.settings.dark_squares == Rgb{0xa0, 0xb0, 0xc0});
  CHECK(loaded.settings.sound == true);
  CHECK(loaded.settings.coordinates == false);
  REQUIRE(loaded.problems.size() == 4);
  CHECK(loaded.problems[0] ==
        "setting \"name\" is not usable: a name must not be empty; using the default");
  CHECK(settings_from_json(nlohmann::json::array()).problems.size() == 1);
}

TEST_CASE("names and colours are checked") {
  CHECK_FALSE(check_name("Ann"));
  CHECK(check_name(""));
  CHECK(check_name("   "));
  CHECK(check_name("a\nb"));
  CHECK(check_name(std::string(kMaxNameLength + 1, 'x')));
  CHECK(to_hex({0xe8, 0xd5, 0x0b}) == "#e8d50b");
  CHECK(parse_hex("#E8D50B") == Rgb{0xe8, 0xd5, 0x0b});
  CHECK_FALSE(parse_hex("e8d50b"));
  CHECK_FALSE(parse_hex("#e8d50g"));
}

TEST_CASE("files are written whole, or not at all, with a clear error") {
  test::TempDir dir;
  const fs::path file = dir.path() / "a" / "b.txt";
  REQUIRE_FALSE(write_file_atomically(file, "one"));
  REQUIRE_FALSE(write_file_atomically(file, "two"));
  CHECK(*read_file(file) == "two");
  CHECK_FALSE(fs::exists(dir.path() / "a" / "b.txt.tmp"));
  // A directory where the file should be cannot be replaced.
  fs::create_directories(dir.path() / "c");
  auto problem = write_file_atomically(dir.path() / "c", "x");
  REQUIRE(problem);
  CHECK(problem->find((dir.path() / "c").string()) != std::string::npos);
  auto missing = read_file(dir.path() / "nope");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("cannot open") != std::string::npos);
}

TEST_CASE("pinned TLS certificates are kept per host:port and a bad fingerprint is dropped") {
  test::TempDir dir;
  const auto file = dir.path() / "settings.json";
  std::string fp;
  for (int i = 0; i < 32; ++i) fp += std::string(i ? ":" : "") + "0A";
  Settings s;
  s.pinned_servers["example.org:7420"] = fp;
  s.pinned_servers["[::1]:9000"] = fp;
  REQUIRE_FALSE(save_settings(file, s));
  const auto loaded = load_settings(file);
  CHECK(loaded.problems.empty());
  CHECK(loaded.settings.pinned_servers == s.pinned_servers);

  const auto mixed = settings_from_json(nlohmann::json{
      {"pinned_servers",
       {{"good:1", "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a"},
        {"bad:2", "not hex"},
        {"worse:3", 42}}}});
  CHECK(mixed.settings.pinned_servers ==
        std::map<std::string, std::string>{{"good:1", fp}});  // normalised to AB:CD:...
  CHECK(mixed.problems.size() == 2);
  CHECK(mixed.problems.front().find("pinned_servers") != std::string::npos);
  const auto not_object = settings_from_json(nlohmann::json{{"pinned_servers", "x"}});
  CHECK(not_object.settings.pinned_servers.empty());
  CHECK(not_object.problems.size() == 1);
}
