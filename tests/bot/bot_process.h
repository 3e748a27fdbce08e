// Runs the real amazons-bot executable as a child process, its log in a file, for end-to-end
// tests against a real server.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_paths.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace amazons::test {

inline const std::string kBotBinary = amazons::test::binary_dir() + "/bot/amazons-bot";
inline const std::string kEngineBinary = amazons::test::binary_dir() + "/ai/amazons-engine";
inline const std::filesystem::path kTestData =
    std::filesystem::path(amazons::test::source_dir()) / "tests" / "ai" / "data";

// Our engine as an external program.
inline std::string engine_command(const std::string& extra = "") {
  return kEngineBinary + " --config-dir " + amazons::test::config_dir() + extra;
}

class BotProcess {
 public:
  // Starts `amazons-bot --server 127.0.0.1:PORT --config <empty file> ARGS...`: the settings are
  // the built-in defaults and the flags, whatever config/bot.json says.
  BotProcess(const std::filesystem::path& dir, unsigned short port, std::vector<std::string> args)
      : log_path_(dir / ("bot-" + std::to_string(++counter()) + ".log")) {
    const auto config = dir / "empty-bot.json";
    std::ofstream(config) << "{}";
    std::vector<std::string> argv = {kBotBinary, "--server", "127.0.0.1:" + std::to_string(port),
                                     "--config", config.string()};
    for (auto& a : args) argv.push_back(std::move(a));
    // Everything the child needs is made before the fork: it may only call async-signal-safe
    // functions, as other threads of the test may hold locks.
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const std::string log = log_path_.string();
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, STDERR_FILENO);
      const int null = ::open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
  }
  ~BotProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  BotProcess(const BotProcess&) = delete;
  BotProcess& operator=(const BotProcess&) = delete;

  // The exit status once the bot has ended within `timeout` (-1: killed by a signal).
  std::optional<int> wait_exit(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return exit_;
  }
  void signal(int sig) {
    if (pid_ > 0) kill(pid_, sig);
  }

  std::string log() const {
    std::ifstream in(log_path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // The log lines with `event=NAME` (and `also` in them), in order.
  std::vector<std::string> events(const std::string& name, const std::string& also = "") const {
    std::vector<std::string> out;
    std::istringstream in(log());
    for (std::string line; std::getline(in, line);)
      if (line.find(" event=" + name + " ") != std::string::npos ||
          line.ends_with(" event=" + name))
        if (line.find(also) != std::string::npos) out.push_back(line);
    return out;
  }
  // Waits until the log has an `event=NAME` line containing `also`.
  bool wait_event(const std::string& name, const std::string& also = "",
                  std::chrono::milliseconds timeout = std::chrono::seconds(30)) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (events(name, also).empty()) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path log_path_;
  pid_t pid_ = -1;
  std::optional<int> exit_;
};

}  // namespace amazons::test
