// amazons-server's command line (server/app/command_line.h): flags over the configuration file,
// the checks of flags that go together, and the commands beside serving. The options' effects
// on a running server are tested in tests/integration/.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "server/app/command_line.h"
#include "tests/client/temp_dir.h"

using namespace amazons;
using namespace amazons::server;

namespace {

// A config/ directory of the test's own, with server.json when `json` is not empty.
struct CommandLineFixture {
  test::TempDir dir;
  ShippedPaths shipped;
  explicit CommandLineFixture(const std::string& json = "") {
    shipped.config_dir = dir.path() / "config";
    shipped.web_dir = dir.path() / "web";
    std::filesystem::create_directories(shipped.config_dir);
    if (!json.empty()) write("config/server.json", json);
  }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto path = dir.path() / name;
    std::ofstream(path) << text;
    return path;
  }
  Expected<Command, int> parse(std::vector<std::string> args) const {
    args.insert(args.begin(), "amazons-server");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    return parse_command_line(static_cast<int>(argv.size()), argv.data(), shipped);
  }
  ServerConfig serve(std::vector<std::string> args) const {
    const auto command = parse(std::move(args));
    REQUIRE(command);
    REQUIRE(std::holds_alternative<ServeCommand>(*command));
    return std::get<ServeCommand>(*command).config;
  }
  int exit_status(std::vector<std::string> args) const {
    const auto command = parse(std::move(args));
    REQUIRE_FALSE(command);
    return command.error();
  }
};

}  // namespace

TEST_CASE("command line: no arguments serve the defaults, the shipped rules and web client") {
  if (std::getenv("AMAZONS_CONFIG_DIR")) return;  // would stand for the test's config/
  const CommandLineFixture f;
  const auto command = f.parse({});
  REQUIRE(command);
  REQUIRE(std::holds_alternative<ServeCommand>(*command));
  const auto& serve = std::get<ServeCommand>(*command);
  CHECK_FALSE(serve.quiet);
  CHECK(serve.config.port == kDefaultPort);
  CHECK(serve.config.db == "amazons.db");
  CHECK(serve.config.rules_dir == f.shipped.config_dir / "rules");
  CHECK(serve.config.web_root == f.shipped.web_dir);
  CHECK(serve.config.tls);
  CHECK_FALSE(serve.config.cluster);
}

TEST_CASE("command line: a flag given wins over server.json, one not given keeps the file's") {
  if (std::getenv("AMAZONS_CONFIG_DIR")) return;
  const CommandLineFixture f(R"({"name": "from the file", "port": 7000, "threads": 3})");
  const auto config = f.serve({"--port", "7001", "--bind", "127.0.0.1", "--no-tls", "--quiet"});
  CHECK(config.name == "from the file");
  CHECK(config.port == 7001);
  CHECK(config.threads == 3);
  CHECK(config.bind == "127.0.0.1");
  CHECK_FALSE(config.tls);
  CHECK(std::get<ServeCommand>(*f.parse({"--quiet"})).quiet);
}

TEST_CASE("command line: --config names the file, and a bad one exits 2") {
  const CommandLineFixture f;
  const auto good = f.write("good.json", R"({"name": "named"})");
  CHECK(f.serve({"--config", good.string()}).name == "named");
  const auto bad = f.write("bad.json", R"({"no_such_key": 1})");
  CHECK(f.exit_status({"--config", bad.string()}) == 2);
}

TEST_CASE("command line: every serving flag reaches the configuration") {
  const CommandLineFixture f;
  const auto cert = f.write("cert.pem", "");
  const auto key = f.write("key.pem", "");
  const auto clock = f.write("clock", "3600");
  const auto config = f.serve({"--db",
                               "x.db",
                               "--password",
                               "secret",
                               "--name",
                               "n",
                               "--discovery-port",
                               "-1",
                               "--threads",
                               "4",
                               "--rules-dir",
                               "r",
                               "--tls-cert",
                               cert.string(),
                               "--tls-key",
                               key.string(),
                               "--require-tls",
                               "--web-root",
                               "w",
                               "--test-clock",
                               clock.string()});
  CHECK(config.db == "x.db");
  CHECK(config.password == "secret");
  CHECK(config.name == "n");
  CHECK(config.discovery_port == -1);
  CHECK(config.threads == 4);
  CHECK(config.rules_dir == "r");
  CHECK(config.tls_cert == cert);
  CHECK(config.tls_key == key);
  CHECK(config.require_tls);
  CHECK(config.web_root == "w");
  CHECK(config.test_clock_file == clock);
  CHECK(config.test_clock_offset == std::chrono::hours(1));
}

TEST_CASE("command line: flags that do not go together exit 2") {
  const CommandLineFixture f;
  const auto cert = f.write("cert.pem", "");
  CHECK(f.exit_status({"--tls-cert", cert.string()}) == 2);
  CHECK(f.exit_status({"--require-tls", "--no-tls"}) == 2);
  CHECK(f.exit_status({"--node", "a"}) == 2);
  CHECK(f.exit_status({"--advertise", "a:1"}) == 2);
  CHECK(f.exit_status({"--cluster", "redis://127.0.0.1:6379"}) == 2);  // not PostgreSQL
  const std::string pg = "postgresql://u@127.0.0.1/amazons";
  CHECK(f.exit_status({"--cluster", "http://x", "--db", pg, "--node", "a"}) == 2);
  CHECK(f.exit_status({"--cluster", "redis://127.0.0.1:6379", "--db", pg, "--node", "a b"}) == 2);
  CHECK(f.exit_status({"--test-clock", f.write("clock", "soon").string()}) == 2);
}

TEST_CASE("command line: --cluster, --node and --advertise make a node of a cluster") {
  const CommandLineFixture f(R"({"cluster": {"lease_seconds": 7, "prefix": "t:"}})");
  const auto alone = f.serve({});
  CHECK_FALSE(alone.cluster);  // the file's "cluster" tunes a cluster; it starts none
  const auto config =
      f.serve({"--cluster", "redis://127.0.0.1:6379", "--db", "postgresql://u@127.0.0.1/amazons",
               "--node", "n-1", "--advertise", "n1.example.org:7420"});
  REQUIRE(config.cluster);
  CHECK(config.cluster->redis == "redis://127.0.0.1:6379");
  CHECK(config.cluster->node == "n-1");
  CHECK(config.cluster->address == "n1.example.org:7420");
  CHECK(config.cluster->lease_ttl == std::chrono::seconds(7));
  CHECK(config.cluster->prefix == "t:");
}

TEST_CASE("command line: malformed arguments exit with CLI11's status, --help with 0") {
  const CommandLineFixture f;
  CHECK(f.exit_status({"--port", "70000"}) != 0);
  CHECK(f.exit_status({"--no-such-flag"}) != 0);
  CHECK(f.exit_status({"--help"}) == 0);
}

TEST_CASE("command line: migrate, backup and admin") {
  const CommandLineFixture f(R"({"db": "configured.db"})");
  SUBCASE("migrate is read before the configuration, which may even be broken") {
    const auto bad = f.write("bad.json", "{");
    const auto command =
        f.parse({"--config", bad.string(), "migrate", "--from", "a.db", "--to", "b.db", "--force"});
    REQUIRE(command);
    const auto& migrate = std::get<MigrateCommand>(*command);
    CHECK(migrate.from == "a.db");
    CHECK(migrate.to == "b.db");
    CHECK(migrate.force);
    CHECK(f.exit_status({"migrate", "--from", "a.db"}) != 0);
  }
  SUBCASE("backup copies --db, else the configuration's database") {
    auto command = f.parse({"backup", "copy.db"});
    REQUIRE(command);
    CHECK(std::get<BackupCommand>(*command).db == "configured.db");
    CHECK(std::get<BackupCommand>(*command).file == "copy.db");
    CHECK_FALSE(std::get<BackupCommand>(*command).force);
    command = f.parse({"backup", "copy.db", "--db", "other.db", "--force"});
    REQUIRE(command);
    CHECK(std::get<BackupCommand>(*command).db == "other.db");
    CHECK(std::get<BackupCommand>(*command).force);
  }
  SUBCASE("admin names one of its commands") {
    using Kind = AdminCommand::Kind;
    auto command = f.parse({"admin", "grant", "alice", "moderator"});
    REQUIRE(command);
    const auto& grant = std::get<AdminRun>(*command);
    CHECK(grant.db == "configured.db");
    CHECK(grant.command.kind == Kind::Grant);
    CHECK(grant.command.name == "alice");
    CHECK(grant.command.role == protocol::Role::Moderator);
    command = f.parse({"--db", "x.db", "admin", "revoke", "bob"});
    REQUIRE(command);
    CHECK(std::get<AdminRun>(*command).db == "x.db");
    CHECK(std::get<AdminRun>(*command).command.kind == Kind::Revoke);
    for (const auto& [word, kind] : std::vector<std::pair<std::string, Kind>>{
             {"close-registrations", Kind::CloseRegistrations},
             {"open-registrations", Kind::OpenRegistrations},
             {"list", Kind::List}}) {
      command = f.parse({"admin", word});
      REQUIRE(command);
      CHECK(std::get<AdminRun>(*command).command.kind == kind);
    }
    CHECK(f.exit_status({"admin"}) != 0);
    CHECK(f.exit_status({"admin", "grant", "alice", "king"}) != 0);
  }
}
