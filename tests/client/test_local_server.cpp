#include <doctest/doctest.h>

#include <signal.h>

#include "client/local_server.h"
#include "tests/client/temp_dir.h"

using namespace amazons;
using namespace amazons::client;

namespace {

LocalServer::Options loopback(const std::filesystem::path& db) {
  LocalServer::Options o;
  o.executable = std::filesystem::path(AMAZONS_BINARY_DIR) / "server" / "amazons-server";
  o.database = db;
  o.bind = "127.0.0.1";  // tests stay on loopback
  o.discovery = false;
  return o;
}

}  // namespace

TEST_CASE("the server's port line is read; other lines are not taken for it") {
  CHECK(parse_listening_port("amazons-server \"x\" listening on port 7420") == 7420);
  CHECK(parse_listening_port(
            "amazons-server \"a b\" listening on port 41234 (LAN discovery on UDP port 7421)") ==
        41234);
  CHECK_FALSE(parse_listening_port("database: /tmp/x.db"));
  CHECK_FALSE(parse_listening_port("amazons-server \"x\" listening on port 0"));
  CHECK_FALSE(parse_listening_port("amazons-server \"x\" listening on port 70000"));
  CHECK_FALSE(parse_listening_port("amazons-server \"x\" listening on port "));
}

TEST_CASE("--host's server starts on a free port with the database given and stops cleanly") {
  test::TempDir dir;
  const auto db = dir.path() / "data" / "server.db";
  auto server = LocalServer::start(loopback(db));
  REQUIRE_MESSAGE(server, (server ? std::string() : server.error()));
  CHECK((*server)->port() > 0);
  CHECK(std::filesystem::exists(db));  // the directory was made, the database created
  CHECK((*server)->addresses() ==
        std::vector<std::string>{"127.0.0.1:" + std::to_string((*server)->port())});
  CHECK((*server)->summary().find(std::to_string((*server)->port())) != std::string::npos);
  (*server)->stop();
  (*server)->stop();  // harmless twice
}

TEST_CASE("a server that cannot start says why") {
  test::TempDir dir;
  auto options = loopback(dir.path() / "server.db");
  options.executable = dir.path() / "no-such-server";
  auto missing = LocalServer::start(options);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().find("missing") != std::string::npos);

  // A database path that is a directory: the server exits at once.
  options = loopback(dir.path());
  auto bad_db = LocalServer::start(options);
  REQUIRE_FALSE(bad_db);
  CHECK(bad_db.error().find("stopped at once") != std::string::npos);
}
