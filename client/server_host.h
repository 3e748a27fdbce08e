// "Host a game on this computer": runs amazons-server as a child process, learns the port it
// listens on and the addresses it tells friends from what it prints, and stops it (SIGTERM, so
// it commits every move; SIGKILL if it does not end in time) when the host object goes.
//
// Threads: start() returns at once; a thread of the host's own reads the server's output.
// The accessors may be called from any thread (the render thread polls them once a frame).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/expected.h"

namespace amazons::client {

// Why the hosted server cannot start or has stopped: what failed, which the client says in its
// person's language (client::host_failure_text), and the details as the system or the server
// wrote them, for the log.
struct HostFailure {
  enum class Kind : std::uint8_t {
    NotRunnable,  // the program cannot be run (path)
    NoDirectory,  // the database's folder cannot be made (path)
    NoProcess,    // no pipe or process for it
    Storage,      // it ended: its database cannot be opened or used (path)
    Tls,          // it ended: it cannot set up TLS
    Stopped,      // it ended for another reason
  };
  Kind kind = Kind::Stopped;
  std::string path;              // the program, the folder or the database
  int error = 0;                 // errno, when the system refused
  std::string detail;            // the system's words, or the last line of the server's log
  std::filesystem::path log;     // the server's log
  std::string describe() const;  // in English, for a log
};

struct ServerHostOptions {
  std::filesystem::path executable;  // amazons-server
  std::filesystem::path database;    // the server's SQLite file (its directory is created)
  std::filesystem::path log;         // the server's stderr goes here
  std::vector<std::string> extra;    // more arguments, e.g. {"--bind", "127.0.0.1"}
};

class ServerHost {
 public:
  // Starts the server with `--port 0`. Fails at once when the program cannot be started.
  static Expected<std::unique_ptr<ServerHost>, HostFailure> start(ServerHostOptions options);
  // Stops the server and waits for it (a few seconds at most).
  ~ServerHost();
  ServerHost(const ServerHost&) = delete;
  ServerHost& operator=(const ServerHost&) = delete;

  // The port, once the server said it listens; empty while it starts.
  std::optional<unsigned short> port() const;
  // The "host:port" addresses the server says friends can connect to.
  std::vector<std::string> addresses() const;
  // The SHA-256 fingerprint of the server's TLS certificate, once it printed it
  // (tls_fingerprint=... in its output or its log).
  std::optional<std::string> tls_fingerprint() const;
  // Where friends open the game in a browser, one per address: "https://ADDRESS:PORT/" when the
  // server speaks TLS, else "http://ADDRESS:PORT/". A private game's invite link is this plus
  // "#/join/GAME/CODE".
  std::vector<std::string> browser_links() const;
  // Set when the server ended: why, from the end of its log.
  std::optional<HostFailure> failure() const;
  pid_t pid() const { return pid_; }

 private:
  ServerHost() = default;
  void read_output(int fd);

  ServerHostOptions options_;
  pid_t pid_ = -1;
  mutable std::mutex mutex_;
  std::optional<unsigned short> port_;
  std::vector<std::string> addresses_;
  mutable std::optional<std::string> fingerprint_;
  mutable std::chrono::steady_clock::time_point log_checked_{};
  std::optional<HostFailure> failure_;
  bool stopping_ = false;
  std::thread reader_;
};

// Where amazons-server is: beside this program, else the build tree's, else on the PATH.
std::filesystem::path find_server_executable(const std::filesystem::path& build_tree_server);

}  // namespace amazons::client
