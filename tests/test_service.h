// What the headers that run a real service for the tests (pg_server.h, redis_server.h) share: a
// shell command's status and output, a free loopback port, and a fresh scratch directory.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

namespace amazons::test {

// Runs `command` with /bin/sh; the exit status (-1 when it did not exit) and what it printed on
// stdout (add 2>&1 for stderr).
inline std::pair<int, std::string> run_shell(const std::string& command) {
  std::FILE* p = ::popen(command.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A loopback port nobody listened on a moment ago (0 when none could be had). Another process
// may take it before the caller binds it: callers retry.
inline int free_loopback_port() {
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

// A path for a service's files, unique to this process and call, in memory (/dev/shm) when
// there is one: a test service's files are thrown away anyway. Not created.
inline std::filesystem::path scratch_dir(const std::string& prefix) {
  static std::atomic<int> counter{0};
  const std::filesystem::path base = ::access("/dev/shm", W_OK) == 0
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  return base / (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
}

}  // namespace amazons::test
