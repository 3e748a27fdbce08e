#include "client/server_host.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace amazons::client {

namespace {

constexpr auto kStopWait = std::chrono::seconds(5);  // for the server to commit and exit

std::optional<unsigned short> number_after(const std::string& line, const std::string& marker) {
  const auto at = line.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const int n = std::atoi(line.c_str() + at + marker.size());
  if (n <= 0 || n > 65535) return std::nullopt;
  return static_cast<unsigned short>(n);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

// Why the server ended, from its log: its last line, and what failed when it said (the fatal
// event's code, or TLS that could not be set up).
HostFailure ended(const ServerHostOptions& options) {
  HostFailure f{HostFailure::Kind::Stopped, {}, 0, {}, options.log};
  std::ifstream in(options.log);
  for (std::string line; std::getline(in, line);) {
    line = trimmed(line);
    if (line.empty()) continue;
    f.detail = line;
    if (line.find(" event=fatal ") != std::string::npos &&
        line.find(" code=storage ") != std::string::npos) {
      f.kind = HostFailure::Kind::Storage;
      f.path = options.database.string();
    } else if (line.find(" event=tls_failed ") != std::string::npos) {
      f.kind = HostFailure::Kind::Tls;
    }
  }
  return f;
}

// The fingerprint in `text` after "TLS certificate fingerprint (SHA-256): " (the server's
// output) or "tls_fingerprint=" (its log), if it is there and well formed.
std::optional<std::string> fingerprint_in(const std::string& text) {
  std::size_t start = std::string::npos;
  for (const std::string marker : {"TLS certificate fingerprint (SHA-256): ", "tls_fingerprint="})
    if (const auto at = text.find(marker); at != std::string::npos) {
      start = at + marker.size();
      break;
    }
  if (start == std::string::npos) return std::nullopt;
  if (start < text.size() && text[start] == '"') ++start;
  std::string fp;
  for (auto i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':') break;
    fp += c;
  }
  if (fp.size() != 95) return std::nullopt;  // 32 bytes: "AB:" x 31 + "CD"
  return fp;
}

}  // namespace

std::string HostFailure::describe() const {
  switch (kind) {
    case Kind::NotRunnable:
      return "cannot run the server program " + path + ": " + detail;
    case Kind::NoDirectory:
      return "cannot create " + path + ": " + detail;
    case Kind::NoProcess:
      return "cannot start the server: " + detail;
    case Kind::Storage:
    case Kind::Tls:
    case Kind::Stopped:
      return "the server stopped" + (detail.empty() ? std::string() : ": " + detail);
  }
  return detail;
}

Expected<std::unique_ptr<ServerHost>, HostFailure> ServerHost::start(ServerHostOptions options) {
  const auto refused = [&](HostFailure::Kind kind, std::string path, int error) {
    return Unexpected(HostFailure{kind, std::move(path), error, std::strerror(error), options.log});
  };
  if (access(options.executable.c_str(), X_OK) != 0) {
    const int error = errno;
    return refused(HostFailure::Kind::NotRunnable, options.executable.string(), error);
  }
  std::error_code ec;
  std::filesystem::create_directories(options.database.parent_path(), ec);
  if (ec)
    return refused(HostFailure::Kind::NoDirectory, options.database.parent_path().string(),
                   ec.value());
  std::vector<std::string> args = {options.executable.string(), "--port", "0", "--db",
                                   options.database.string()};
  args.insert(args.end(), options.extra.begin(), options.extra.end());

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return refused(HostFailure::Kind::NoProcess, {}, errno);
  const int log = ::open(options.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    ::close(out[0]);
    ::close(out[1]);
    if (log >= 0) ::close(log);
    return refused(HostFailure::Kind::NoProcess, {}, error);
  }
  if (pid == 0) {
    // The server must not outlive a client that is killed or crashes: it gets SIGTERM (and
    // shuts down gracefully) when the thread that started it ends, which is the client's main
    // thread. The check closes the race with a parent that died before prctl.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);
    dup2(out[1], STDOUT_FILENO);
    if (log >= 0) dup2(log, STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(out[1]);
  if (log >= 0) ::close(log);
  std::unique_ptr<ServerHost> host(new ServerHost());
  host->options_ = std::move(options);
  host->pid_ = pid;
  host->reader_ = std::thread([h = host.get(), fd = out[0]] { h->read_output(fd); });
  return host;
}

void ServerHost::read_output(int fd) {
  std::FILE* in = fdopen(fd, "r");
  if (in == nullptr) {
    ::close(fd);
    return;
  }
  char buffer[512];
  bool listing = false;  // inside the list under "friends can connect to:"
  while (std::fgets(buffer, sizeof buffer, in)) {
    const std::string line = trimmed(buffer);
    std::lock_guard lock(mutex_);
    if (auto fp = fingerprint_in(line)) fingerprint_ = std::move(fp);
    if (!port_) {
      port_ = number_after(line, "listening on port ");
      continue;
    }
    const std::string marker = "friends can connect to:";
    if (const auto at = line.find(marker); at != std::string::npos) {
      const std::string rest = trimmed(line.substr(at + marker.size()));
      if (!rest.empty()) addresses_.push_back(rest);
      listing = rest.empty();
    } else if (listing && !line.empty() && line.front() != '(') {
      addresses_.push_back(line);
    } else if (listing && !line.empty()) {
      addresses_.push_back(line);  // "(no network interface is up; ...)"
      listing = false;
    }
  }
  std::fclose(in);
  // End of output: the server has ended (or closed its output, which it does only to end).
  std::lock_guard lock(mutex_);
  if (!stopping_) failure_ = ended(options_);
}

ServerHost::~ServerHost() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + kStopWait;
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (reader_.joinable()) reader_.join();
}

std::optional<unsigned short> ServerHost::port() const {
  std::lock_guard lock(mutex_);
  return port_;
}

std::vector<std::string> ServerHost::addresses() const {
  std::lock_guard lock(mutex_);
  return addresses_;
}

std::optional<std::string> ServerHost::tls_fingerprint() const {
  std::lock_guard lock(mutex_);
  if (fingerprint_ || !port_) return fingerprint_;
  // The server logs it in its "listening" line, on stderr, which goes to the log file: read the
  // file's start again now and then until it is there.
  const auto now = std::chrono::steady_clock::now();
  if (now - log_checked_ < std::chrono::milliseconds(500)) return std::nullopt;
  log_checked_ = now;
  std::ifstream in(options_.log);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  fingerprint_ = fingerprint_in(head);
  return fingerprint_;
}

std::vector<std::string> ServerHost::browser_links() const {
  const bool tls = tls_fingerprint().has_value();
  std::vector<std::string> out;
  for (const std::string& a : addresses()) {
    if (a.empty() || a.front() == '(') continue;  // "(no network interface is up; ...)"
    out.push_back((tls ? "https://" : "http://") + a + "/");
  }
  return out;
}

std::optional<HostFailure> ServerHost::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

std::filesystem::path find_server_executable(const std::filesystem::path& build_tree_server) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = self.parent_path() / "amazons-server";
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  if (!build_tree_server.empty() && access(build_tree_server.c_str(), X_OK) == 0)
    return build_tree_server;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      const std::filesystem::path dir(std::string(rest.substr(0, colon)));
      if (!dir.empty() && access((dir / "amazons-server").c_str(), X_OK) == 0)
        return dir / "amazons-server";
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  return "amazons-server";
}

}  // namespace amazons::client
