#include "server/net/metrics.h"

#include <cmath>
#include <cstdio>

namespace amazons::server {

namespace {

// 0.25 ms to 10 s: a move's round trip on loopback is well under a millisecond, a commit on a
// slow disk tens of them, and anything past a few seconds is an outage worth seeing.
std::vector<double> latency_bounds() {
  return {0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

template <class T>
void sample(std::string& out, const std::string& name, T value) {
  out += name;
  out += ' ';
  out += std::to_string(value);
  out += '\n';
}

void histogram(std::string& out, const char* name, const char* help, const Histogram& h) {
  header(out, name, "histogram", help);
  const auto s = h.snapshot();
  for (const auto& [bound, count] : s.cumulative)
    sample(out, std::string(name) + "_bucket{le=\"" + number(bound) + "\"}", count);
  sample(out, std::string(name) + "_bucket{le=\"+Inf\"}", s.count);
  out += std::string(name) + "_sum " + number(s.sum) + '\n';
  sample(out, std::string(name) + "_count", s.count);
}

}  // namespace

Histogram::Histogram(std::vector<double> upper_bounds)
    : bounds_(std::move(upper_bounds)),
      counts_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {}

void Histogram::observe(double seconds) {
  if (!(seconds >= 0)) seconds = 0;  // NaN or a clock step backwards
  std::size_t i = 0;
  while (i < bounds_.size() && seconds > bounds_[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(std::llround(seconds * 1e9)),
                    std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot s;
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    s.cumulative.emplace_back(bounds_[i], running);
  }
  s.count = running + counts_[bounds_.size()].load(std::memory_order_relaxed);
  s.sum = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
  return s;
}

ServerMetrics::ServerMetrics()
    : move_round_trip(latency_bounds()), storage_commit(latency_bounds()) {}

void ServerMetrics::count_error(protocol::ErrorCode code) {
  const auto& values = protocol::EnumNames<protocol::ErrorCode>::kValues;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i].first == code) {
      errors[i].fetch_add(1, std::memory_order_relaxed);
      return;
    }
}

void ServerMetrics::count_connection(Transport t, int delta) {
  const auto i = static_cast<std::size_t>(t);
  if (i < connections.size()) connections[i].fetch_add(delta, std::memory_order_relaxed);
}

std::string ServerMetrics::render() const {
  std::string out;
  out.reserve(4096);
  header(out, "amazons_connections", "gauge",
         "Connections that speak the protocol, open now, by transport.");
  for (std::size_t i = 0; i < kTransports; ++i)
    sample(out,
           "amazons_connections{transport=\"" + std::string(to_string(static_cast<Transport>(i))) +
               "\"}",
           connections[i].load());
  header(out, "amazons_connections_accepted_total", "counter", "TCP connections accepted.");
  sample(out, "amazons_connections_accepted_total", connections_accepted.load());
  header(out, "amazons_connections_refused_total", "counter",
         "Connections refused for being over the per-address limit.");
  sample(out, "amazons_connections_refused_total", connections_refused.load());
  header(out, "amazons_http_requests_total", "counter", "HTTP requests answered (not upgrades).");
  sample(out, "amazons_http_requests_total", http_requests.load());
  header(out, "amazons_tls_handshake_failures_total", "counter", "TLS handshakes that failed.");
  sample(out, "amazons_tls_handshake_failures_total", tls_handshake_failures.load());
  header(out, "amazons_auth_backoff_total", "counter",
         "Invite codes and passwords refused unchecked: their address was over its guessing "
         "budget.");
  sample(out, "amazons_auth_backoff_total", auth_backoffs.load());
  header(out, "amazons_games", "gauge", "Games in the lobby by state (refreshed every second).");
  sample(out, "amazons_games{state=\"open\"}", games_open.load());
  sample(out, "amazons_games{state=\"active\"}", games_active.load());
  header(out, "amazons_moves_committed_total", "counter",
         "Moves committed to storage (their rate is the moves per second).");
  sample(out, "amazons_moves_committed_total", moves_committed.load());
  header(out, "amazons_errors_total", "counter", "Error replies sent to clients, by code.");
  const auto& codes = protocol::EnumNames<protocol::ErrorCode>::kValues;
  for (std::size_t i = 0; i < kErrorCodes; ++i)
    sample(out, "amazons_errors_total{code=\"" + std::string(codes[i].second) + "\"}",
           errors[i].load());
  header(out, "amazons_storage_up", "gauge", "1 while storage commits, 0 after it failed.");
  sample(out, "amazons_storage_up", storage_ok.load() ? 1 : 0);
  const int cluster = cluster_state.load();
  header(out, "amazons_ready", "gauge", "1 while the server accepts players (GET /ready).");
  sample(out, "amazons_ready",
         accepting.load() && storage_ok.load() && cluster_ready.load() ? 1 : 0);
  if (cluster >= 0) {
    header(out, "amazons_cluster_state", "gauge",
           "This node's standing in its cluster: 0 starting, 1 ready, 2 degraded (Redis or the bus "
           "out of reach).");
    sample(out, "amazons_cluster_state", cluster);
    header(out, "amazons_cluster_leases", "gauge", "Games and challenges this node runs.");
    sample(out, "amazons_cluster_leases", cluster_leases.load());
    header(out, "amazons_cluster_forwarded_total", "counter",
           "Requests of this node's players sent to the node that runs their game.");
    sample(out, "amazons_cluster_forwarded_total", cluster_forwarded.load());
    header(out, "amazons_cluster_received_total", "counter", "Messages from other nodes.");
    sample(out, "amazons_cluster_received_total", cluster_received.load());
    header(out, "amazons_cluster_takeovers_total", "counter",
           "Games this node took over from a node that died.");
    sample(out, "amazons_cluster_takeovers_total", cluster_takeovers.load());
    header(out, "amazons_cluster_bus_gaps_total", "counter",
           "Times messages from another node were lost on the bus.");
    sample(out, "amazons_cluster_bus_gaps_total", cluster_bus_gaps.load());
  }
  histogram(out, "amazons_move_round_trip_seconds",
            "From a move's line arriving to its acknowledgement leaving, after its commit.",
            move_round_trip);
  histogram(out, "amazons_storage_commit_seconds",
            "From a write batch being queued to its transaction being committed.", storage_commit);
  return out;
}

}  // namespace amazons::server
