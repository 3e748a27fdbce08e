// "Host a game on this computer": runs amazons-server as a child process, learns the port it
// listens on and the addresses it tells friends from what it prints, and stops it (SIGTERM, so
// it commits every move; SIGKILL if it does not end in time) when the host object goes.
//
// Threads: start() returns at once; a thread of the host's own reads the server's output.
// The accessors may be called from any thread (the render thread polls them once a frame).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/expected.h"

namespace amazons::client {

struct ServerHostOptions {
  std::filesystem::path executable;  // amazons-server
  std::filesystem::path database;    // the server's SQLite file (its directory is created)
  std::filesystem::path log;         // the server's stderr goes here
  std::vector<std::string> extra;    // more arguments, e.g. {"--bind", "127.0.0.1"}
};

class ServerHost {
 public:
  // Starts the server with `--port 0`. Fails at once when the program cannot be started.
  static Expected<std::unique_ptr<ServerHost>, std::string> start(ServerHostOptions options);
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
  // Set when the server ended or never started: why, for people (with the end of its log).
  std::optional<std::string> failure() const;
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
  std::optional<std::string> failure_;
  bool stopping_ = false;
  std::thread reader_;
};

// Where amazons-server is: beside this program, else the build tree's, else on the PATH.
std::filesystem::path find_server_executable(const std::filesystem::path& build_tree_server);

}  // namespace amazons::client
