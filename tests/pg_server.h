// A real PostgreSQL 15 for a test: started in the constructor (scripts/pg_test_server.sh, on a
// free loopback port, in a fresh temporary directory (in /dev/shm when there is one), as an
// unprivileged user when run as root), stopped in the destructor. Throws std::runtime_error with
// PostgreSQL's own words when it cannot start, so a test that needs it fails with the reason
// instead of skipping.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include "tests/test_paths.h"

#include "tests/test_service.h"

namespace amazons::test {

class PgServer {
 public:
  PgServer() {
    dir_ = scratch_dir("amazons-pg");
    std::string why;
    for (int attempt = 0; attempt < 3; ++attempt) {  // a port taken between probe and bind
      port_ = free_loopback_port();
      const auto [status, out] = run("start '" + dir_.string() + "' " + std::to_string(port_) +
                                     " " + std::to_string(::getpid()));
      if (status == 0) return;
      why = out;
      run("stop '" + dir_.string() + "'");
    }
    throw std::runtime_error("PostgreSQL for the test did not start: " + why);
  }
  ~PgServer() { stop(); }
  // Stops it at once (immediate shutdown, as a crash would) and removes its files.
  void stop() {
    if (!stopped_) run("stop '" + dir_.string() + "'");
    stopped_ = true;
  }
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

  int port() const { return port_; }
  // The URL of a database on this server, as the superuser "amazons" (trusted, no password).
  std::string url(const std::string& dbname = "postgres") const {
    return "postgresql://amazons@127.0.0.1:" + std::to_string(port_) + "/" + dbname;
  }
  // Creates an empty database and returns its URL.
  std::string create_database() {
    constexpr int kPremade = 3;  // made with the cached template, see pg_test_server.sh
    const std::string name = "test" + std::to_string(++databases_);
    if (databases_ <= kPremade) return url(name);
    const auto [status, out] = psql("CREATE DATABASE " + name);
    if (status != 0) throw std::runtime_error("CREATE DATABASE " + name + ": " + out);
    return url(name);
  }
  // Runs SQL with psql as the superuser; returns the exit status and the output.
  std::pair<int, std::string> psql(const std::string& sql, const std::string& dbname = "postgres") {
    return shell("psql -X -q -t -A -v ON_ERROR_STOP=1 '" + url(dbname) + "' -c \"" + sql +
                 "\" 2>&1");
  }

  static std::pair<int, std::string> shell(const std::string& command) {
    return run_shell(command);
  }

 private:
  static std::pair<int, std::string> run(const std::string& args) {
    return shell(amazons::test::source_dir() + "/scripts/pg_test_server.sh " + args + " 2>&1");
  }

  std::filesystem::path dir_;
  int port_ = 0;
  int databases_ = 0;
  bool stopped_ = false;
};

// One server for the whole test process, started on first use and stopped at exit.
inline PgServer& shared_pg_server() {
  static PgServer server;
  return server;
}

}  // namespace amazons::test
