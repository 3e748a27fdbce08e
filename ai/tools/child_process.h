// Another program run as a child process, talked to line by line over its stdin and stdout.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/expected.h"

namespace amazons::ai {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMaxLine = 64 * 1024;

  // Runs `command` with /bin/sh -c, in a process group of its own (so that stopping it stops
  // whatever it started). Its stdin and stdout are connected to this object; its stderr goes to
  // ours, or nowhere when quiet_stderr.
  static Expected<std::unique_ptr<ChildProcess>, std::string> start(const std::string& command,
                                                                    bool quiet_stderr = false);
  // Kills the process group if it still runs, and reaps the child.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Sends `line` and a newline. False when the child no longer reads (it exited or closed stdin).
  bool send_line(std::string_view line);

  enum class Read : std::uint8_t {
    Line,     // a line (without its newline, a trailing \r removed)
    Timeout,  // nothing complete before the deadline
    Closed,   // the child closed its stdout (usually: it exited)
    TooLong,  // more than kMaxLine characters without a newline
  };
  Read read_line(std::string& line, Clock::time_point deadline);

  // How the child ended ("exited with code 3", "killed by signal 11 (Segmentation fault)"), or
  // nullopt while it runs. Waits up to `wait` for it to end.
  std::optional<std::string> exit_status(
      std::chrono::milliseconds wait = std::chrono::milliseconds(0));
  // Kills the process group (SIGKILL). Harmless when it has ended.
  void kill();
  pid_t pid() const { return pid_; }

 private:
  ChildProcess(pid_t pid, int fd) : pid_(pid), fd_(fd) {}

  pid_t pid_;
  int fd_;
  std::string buffer_;
  std::optional<std::string> status_;  // set once reaped
};

}  // namespace amazons::ai
