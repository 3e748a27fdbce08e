// The server's settings: config/server.json, then command-line flags on top.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"
#include "server/core/auth.h"
#include "server/core/lobby.h"

namespace amazons::server {

inline constexpr int kDefaultPort = 7420;
inline constexpr int kDefaultDiscoveryPort = 7421;

// Cluster mode (--cluster, --node; docs/SCALING.md): this server is one node of several that
// share one PostgreSQL and one Redis.
struct ClusterSettings {
  std::string redis;       // redis://host:port
  std::string node;        // this node's name: letters, digits, '-', '_', '.'
  std::string address;     // host:port clients reach this node at; empty: the host name and port
  Millis lease_ttl{5000};  // a game's lease: another node takes it over this long after a death
  Millis node_ttl{5000};   // a node missing its heartbeat this long is gone
  Millis name_ttl{15000};  // a dead node's players' names are free again after this
  std::string prefix = "amz:";  // of every Redis key and channel (tests share one Redis)
};

struct ServerConfig {
  std::string name = "amazons";
  int port = kDefaultPort;  // 0: any free port
  std::string bind = "::";  // "::" listens on IPv6 and IPv4
  std::filesystem::path db = "amazons.db";
  std::optional<std::string> password;         // server password for a private server
  int discovery_port = kDefaultDiscoveryPort;  // 0: any free port; -1: no LAN discovery
  int threads = 2;                             // network threads
  std::filesystem::path rules_dir;
  HashStrength password_hashing = HashStrength::Interactive;
  // Threads that hash and check passwords (Argon2id, about 64 MiB and a tenth of a second each
  // when interactive), apart from the network threads.
  int password_threads = 2;
  // Limits.
  int connections_per_address = 16;
  std::size_t max_write_queue_bytes = 1 << 20;
  Millis idle_ping{30'000};          // silent this long: the server sends a ping
  Millis idle_timeout{60'000};       // silent this long: the connection is closed
  Millis handshake_timeout{10'000};  // to send a first request, finish TLS or the upgrade
  Millis line_timeout{60'000};  // a line begun and not ended this long: the connection is closed
  // TLS on the port. Without cert and key files, a self-signed certificate beside the database.
  bool tls = true;
  std::optional<std::filesystem::path> tls_cert;
  std::optional<std::filesystem::path> tls_key;
  bool require_tls = false;    // plain connections only from trusted local addresses
  bool trust_loopback = true;  // loopback connections count as private (no proxy in front)
  // The web client.
  std::filesystem::path web_root;            // the built files served at "/"
  std::vector<std::string> allowed_origins;  // other pages that may open a WebSocket
  // The addresses ("host" or "host:port") people reach this server at, when not its own IP
  // address (a DNS name): pages from them may open a WebSocket, and the first is where the
  // --require-tls redirect points. Never taken from a request's Host header (DNS rebinding).
  std::vector<std::string> public_addresses;
  LobbyConfig lobby;
  std::optional<ClusterSettings> cluster;
  // Tests only (--test-clock FILE, never from a config file): how far the server's clock runs
  // ahead of the machine's, to simulate days passing in a real server process.
  std::optional<std::filesystem::path> test_clock_file;
  Millis test_clock_offset{0};
};

// Reads a --test-clock file: one number of seconds (>= 0) the server's clock runs ahead.
Expected<Millis, std::string> read_test_clock(const std::filesystem::path& path);

// Applies the keys of a config file's JSON onto `config`. Unknown keys and bad values are
// refused with "key: problem".
Expected<ServerConfig, std::string> apply_config_json(ServerConfig config, const nlohmann::json& j);
Expected<ServerConfig, std::string> load_config_file(ServerConfig config,
                                                     const std::filesystem::path& path);

}  // namespace amazons::server
