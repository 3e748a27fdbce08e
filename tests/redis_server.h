// A real Redis 7 for a test: started in the constructor (scripts/redis_test_server.sh, on a free
// loopback port, in a fresh temporary directory, with no persistence), stopped in the
// destructor. kill() and restart() make the crash-and-come-back-empty case: the same port, no
// data. Throws std::runtime_error with Redis's own words when it cannot start, so a test that
// needs it fails with the reason instead of skipping.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include "tests/test_paths.h"

#include "tests/test_service.h"

namespace amazons::test {

class RedisServer {
 public:
  RedisServer() {
    dir_ = scratch_dir("amazons-redis");
    std::string why;
    for (int attempt = 0; attempt < 3; ++attempt) {  // a port taken between probe and bind
      port_ = free_loopback_port();
      const auto [status, out] = start_once();
      if (status == 0) return;
      why = out;
      run("stop '" + dir_.string() + "'");
    }
    throw std::runtime_error("Redis for the test did not start: " + why);
  }
  ~RedisServer() { stop(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  // SIGKILL, as a crash would: everything it held is gone.
  void kill() { run("kill '" + dir_.string() + "'"); }
  // Starts again on the same port, empty. Throws when it cannot.
  void restart() {
    const auto [status, out] = start_once();
    if (status != 0) throw std::runtime_error("Redis did not restart: " + out);
  }
  void stop() {
    if (!stopped_) run("stop '" + dir_.string() + "'");
    stopped_ = true;
  }

  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  // Runs redis-cli against it; returns the exit status and the output.
  std::pair<int, std::string> cli(const std::string& args) const {
    return shell("redis-cli -h 127.0.0.1 -p " + std::to_string(port_) + " " + args + " 2>&1");
  }

  static std::pair<int, std::string> shell(const std::string& command) {
    return run_shell(command);
  }

 private:
  std::pair<int, std::string> start_once() const {
    return run("start '" + dir_.string() + "' " + std::to_string(port_) + " " +
               std::to_string(::getpid()));
  }
  static std::pair<int, std::string> run(const std::string& args) {
    return shell(amazons::test::source_dir() + "/scripts/redis_test_server.sh " + args + " 2>&1");
  }

  std::filesystem::path dir_;
  int port_ = 0;
  bool stopped_ = false;
};

}  // namespace amazons::test
