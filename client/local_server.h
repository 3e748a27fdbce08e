// A game server on this computer for the client's --host option: amazons-server run as a child
// process on a free port with the user's database, stopped (SIGTERM, then SIGKILL after a grace
// period) when this object goes.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ai/child_process.h"
#include "common/expected.h"

namespace amazons::client {

class LocalServer {
 public:
  struct Options {
    std::filesystem::path executable;  // amazons-server
    std::filesystem::path database;    // created if missing, with its directory
    std::string bind = "::";           // every address: friends on the network can join
    bool discovery = true;             // answer LAN discovery (the server's default port)
    std::chrono::milliseconds startup_timeout{15000};
  };

  // Starts the server and waits until it says which port it listens on. The error says why it
  // did not start (the program missing, the database unusable, ...).
  static Expected<std::unique_ptr<LocalServer>, std::string> start(const Options& options);
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  unsigned short port() const { return port_; }
  // "host:port" lines the server printed for friends to connect to (may be empty).
  const std::vector<std::string>& addresses() const { return addresses_; }
  // What the menu shows: "Hosting on port 7420: friends connect to 192.168.1.5:7420".
  std::string summary() const;
  // Asks the server to stop and waits for it (up to a few seconds); harmless when stopped.
  void stop();

 private:
  LocalServer() = default;

  std::unique_ptr<ai::ChildProcess> process_;
  unsigned short port_ = 0;
  std::vector<std::string> addresses_;
};

// Reads the port from amazons-server's first line ("amazons-server \"x\" listening on port N ...").
std::optional<unsigned short> parse_listening_port(std::string_view line);

}  // namespace amazons::client
