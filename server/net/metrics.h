// The server's figures for Prometheus: GET /metrics on the game port answers in the text
// exposition format (version 0.0.4). Every figure is an atomic, so the lobby strand, the
// storage thread and the sessions update them without a lock, and the HTTP session that renders
// them reads each one exactly (the page is not a snapshot of one instant: Prometheus does not
// need one).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/protocol_enums.h"
#include "server/http/transport.h"

namespace amazons::server {

// A latency histogram with fixed bucket bounds, in seconds.
class Histogram {
 public:
  // `upper_bounds` ascending; a last bucket, +Inf, is added.
  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double seconds);

  struct Snapshot {
    std::vector<std::pair<double, std::uint64_t>> cumulative;  // (bound, count at or below)
    std::uint64_t count = 0;                                   // the +Inf bucket
    double sum = 0;                                            // seconds
  };
  Snapshot snapshot() const;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // per bucket, not cumulative; +Inf last
  std::atomic<std::uint64_t> sum_ns_{0};
};

struct ServerMetrics {
  static constexpr std::size_t kTransports = 4;
  static constexpr std::size_t kErrorCodes =
      protocol::EnumNames<protocol::ErrorCode>::kValues.size();

  ServerMetrics();

  // Connections that speak the protocol, open now, by transport.
  std::array<std::atomic<std::int64_t>, kTransports> connections{};
  std::atomic<std::uint64_t> connections_accepted{0};
  std::atomic<std::uint64_t> connections_refused{0};  // over the per-address limit
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> tls_handshake_failures{0};
  // Attempts at a secret refused for being over their address's guessing budget (AuthBudget).
  std::atomic<std::uint64_t> auth_backoffs{0};
  // Games in memory by state, refreshed by the lobby strand about once a second.
  std::atomic<std::int64_t> games_open{0};
  std::atomic<std::int64_t> games_active{0};
  std::atomic<std::uint64_t> moves_committed{0};
  // Errors the server answered, by code (rate_limited among them).
  std::array<std::atomic<std::uint64_t>, kErrorCodes> errors{};
  std::atomic<bool> storage_ok{true};
  std::atomic<bool> accepting{false};  // listening and not stopping: the readiness
  // A cluster node's standing (docs/SCALING.md), refreshed every second; -1 when the server is
  // no cluster's node, else 0 starting, 1 ready, 2 degraded.
  std::atomic<int> cluster_state{-1};
  // Whether the lobby may start anything new: false on a cluster's node until it is ready in
  // it, and whenever Redis is out of reach; set each tick, after the lobby hears it.
  std::atomic<bool> cluster_ready{true};
  std::atomic<std::uint64_t> cluster_forwarded{0};  // requests and attaches sent to other nodes
  std::atomic<std::uint64_t> cluster_received{0};   // messages from other nodes
  std::atomic<std::uint64_t> cluster_takeovers{0};  // games taken over from nodes that died
  std::atomic<std::uint64_t> cluster_bus_gaps{0};   // times messages between nodes were lost
  std::atomic<std::int64_t> cluster_leases{0};      // games and challenges this node holds
  // From a move's line arriving to its acknowledgement being handed to the connection, which
  // waits for the commit: the server's share of a player's round trip.
  Histogram move_round_trip;
  // From a write batch being queued to its transaction being committed.
  Histogram storage_commit;

  void count_error(protocol::ErrorCode code);
  void count_connection(Transport t, int delta);
  // The whole page, text exposition format 0.0.4.
  std::string render() const;
};

}  // namespace amazons::server
