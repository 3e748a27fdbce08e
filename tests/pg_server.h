// A real PostgreSQL 15 for a test: started in the constructor (scripts/pg_test_server.sh, on a
// free loopback port, in a fresh temporary directory (in /dev/shm when there is one), as an
// unprivileged user when run as root), stopped in the destructor. Throws std::runtime_error with
// PostgreSQL's own words when it cannot start, so a test that needs it fails with the reason
// instead of skipping.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace amazons::test {

class PgServer {
 public:
  PgServer() {
    static std::atomic<int> counter{0};
    // In memory when possible: a test server's files are thrown away anyway.
    const std::filesystem::path base = ::access("/dev/shm", W_OK) == 0
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    dir_ = base / ("amazons-pg-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::string why;
    for (int attempt = 0; attempt < 3; ++attempt) {  // a port taken between probe and bind
      port_ = free_port();
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
    std::FILE* p = ::popen(command.c_str(), "r");
    if (!p) return {-1, "popen failed"};
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = ::pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
  }

 private:
  static std::pair<int, std::string> run(const std::string& args) {
    return shell(AMAZONS_SOURCE_DIR "/scripts/pg_test_server.sh " + args + " 2>&1");
  }
  static int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
    ::close(fd);
    return port;
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
