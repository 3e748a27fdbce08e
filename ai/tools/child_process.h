// Another program run as a child process, talked to line by line over its stdin and stdout.
// The line handling is shared (child_process.cpp); starting, reading, waiting and killing are
// the platform's: child_process_posix.cpp or child_process_windows.cpp, chosen by CMake.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
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

  // Runs `command` through the system's shell (POSIX: /bin/sh -c; Windows: cmd.exe /s /c), with
  // whatever it starts (POSIX: a process group of its own; Windows: a job object), so that
  // stopping it stops them all. Its stdin and stdout are connected to this object; its stderr
  // goes to ours, or nowhere when quiet_stderr.
  static Expected<std::unique_ptr<ChildProcess>, std::string> start(const std::string& command,
                                                                    bool quiet_stderr = false);
  // Kills the child and what it started if it still runs, and reaps it.
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
  // Kills the child and what it started (POSIX: SIGKILL to its group; Windows: the job is
  // terminated). Harmless when it has ended.
  void kill();

 private:
  struct Os;  // the platform's handles, defined by the platform's file
  explicit ChildProcess(std::unique_ptr<Os> os);

  // The platform's part of the transport. write_all: false once the child no longer reads.
  bool write_all(std::string_view data);
  enum class Chunk : std::uint8_t { Data, Nothing, Closed };
  // Appends what the child wrote to `into`, waiting up to `wait` for something: Data when
  // something was appended, Nothing when the wait ended first, Closed at the end of its output.
  Chunk read_some(std::string& into, std::chrono::milliseconds wait);

  std::unique_ptr<Os> os_;
  std::string buffer_;
  std::optional<std::string> status_;  // set once reaped
};

}  // namespace amazons::ai
