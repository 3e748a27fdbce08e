// ChildProcess on POSIX: posix_spawn of /bin/sh -c in a process group of its own, one socket
// pair for the child's stdin and stdout.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "ai/tools/child_process.h"

extern char** environ;

namespace amazons::ai {

struct ChildProcess::Os {
  pid_t pid;
  int fd;
};

namespace {

std::string describe_status(int status) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    std::string s = "exited with code " + std::to_string(code);
    if (code == 127) s += " (command not found?)";
    // The shell reports a command that died of signal N as exit code 128 + N.
    if (code > 128 && code < 128 + 65)
      s += " (killed by signal " + std::to_string(code - 128) + ", " + strsignal(code - 128) + ")";
    return s;
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "ended with status " + std::to_string(status);
}

}  // namespace

ChildProcess::ChildProcess(std::unique_ptr<Os> os) : os_(std::move(os)) {}

Expected<std::unique_ptr<ChildProcess>, std::string> ChildProcess::start(const std::string& command,
                                                                         bool quiet_stderr) {
  // One socket pair serves as the child's stdin and stdout: writing to a socket can be told not
  // to raise SIGPIPE when the child has gone (MSG_NOSIGNAL), which a pipe cannot.
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return Unexpected(std::string("cannot create a socket pair: ") + std::strerror(errno));

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  if (quiet_stderr)
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);

  std::string sh = "sh", dash_c = "-c", cmd = command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return Unexpected("cannot start '" + command + "': " + std::strerror(rc));
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(std::make_unique<Os>(Os{pid, fds[0]})));
}

ChildProcess::~ChildProcess() {
  kill();
  exit_status(std::chrono::milliseconds(1000));
  close(os_->fd);
}

bool ChildProcess::write_all(std::string_view data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = send(os_->fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

ChildProcess::Chunk ChildProcess::read_some(std::string& into, std::chrono::milliseconds wait) {
  pollfd p{os_->fd, POLLIN, 0};
  const int r = poll(&p, 1, static_cast<int>(wait.count()));
  if (r < 0 && errno != EINTR) return Chunk::Closed;
  if (r <= 0) return Chunk::Nothing;
  char chunk[4096];
  const ssize_t n = recv(os_->fd, chunk, sizeof chunk, 0);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return Chunk::Nothing;
  if (n <= 0) return Chunk::Closed;
  into.append(chunk, static_cast<std::size_t>(n));
  return Chunk::Data;
}

std::optional<std::string> ChildProcess::exit_status(std::chrono::milliseconds wait) {
  if (status_) return status_;
  const auto until = Clock::now() + wait;
  for (;;) {
    int status = 0;
    const pid_t r = waitpid(os_->pid, &status, WNOHANG);
    if (r == os_->pid) {
      status_ = describe_status(status);
      return status_;
    }
    if (r < 0 && errno != EINTR) {
      status_ = "ended (its status is unknown)";
      return status_;
    }
    if (Clock::now() >= until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void ChildProcess::kill() {
  if (status_) return;
  ::kill(-os_->pid, SIGKILL);
}

}  // namespace amazons::ai
