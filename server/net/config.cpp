#include "server/net/config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

namespace amazons::server {

namespace {

using nlohmann::json;

std::optional<std::string> number(const json& j, const std::string& key, double lo, double hi,
                                  double& out) {
  if (!j.is_number()) return key + ": expected a number, got " + j.type_name();
  const double v = j.get<double>();
  if (!(v >= lo && v <= hi))
    return key + ": must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  out = v;
  return std::nullopt;
}

std::optional<std::string> integer(const json& j, const std::string& key, long long lo,
                                   long long hi, long long& out) {
  if (!j.is_number_integer()) return key + ": expected an integer, got " + j.type_name();
  const long long v = j.get<long long>();
  if (v < lo || v > hi)
    return key + ": must be between " + std::to_string(lo) + " and " + std::to_string(hi);
  out = v;
  return std::nullopt;
}

std::optional<std::string> boolean(const json& j, const std::string& key, bool& out);

std::optional<std::string> text(const json& j, const std::string& key, std::string& out) {
  if (!j.is_string()) return key + ": expected a string, got " + j.type_name();
  out = j.get<std::string>();
  return std::nullopt;
}

Millis seconds(double s) { return Millis{static_cast<long long>(s * 1000)}; }

std::optional<std::string> apply_limits(ServerConfig& c, const json& limits) {
  if (!limits.is_object()) return std::string("limits: expected an object");
  for (const auto& [key, v] : limits.items()) {
    const std::string k = "limits." + key;
    long long i = 0;
    double d = 0;
    std::optional<std::string> err;
    if (key == "connections_per_address") {
      if (!(err = integer(v, k, 1, 100'000, i))) c.connections_per_address = static_cast<int>(i);
    } else if (key == "requests_per_second") {
      if (!(err = number(v, k, 0.1, 1e6, d))) c.lobby.requests_per_second = d;
    } else if (key == "requests_burst") {
      if (!(err = number(v, k, 1, 1e6, d))) c.lobby.requests_burst = d;
    } else if (key == "errors_burst") {
      if (!(err = number(v, k, 1, 1e6, d))) c.lobby.errors_burst = d;
    } else if (key == "max_write_queue_kib") {
      if (!(err = integer(v, k, 64, 1 << 20, i)))
        c.max_write_queue_bytes = static_cast<std::size_t>(i) * 1024;
    } else if (key == "idle_ping_seconds") {
      if (!(err = number(v, k, 0.05, 86'400, d))) c.idle_ping = seconds(d);
    } else if (key == "handshake_timeout_seconds") {
      if (!(err = number(v, k, 0.1, 3'600, d))) c.handshake_timeout = seconds(d);
    } else if (key == "idle_timeout_seconds") {
      if (!(err = number(v, k, 0.1, 86'400, d))) c.idle_timeout = seconds(d);
    } else if (key == "line_timeout_seconds") {
      if (!(err = number(v, k, 0.1, 86'400, d))) c.line_timeout = seconds(d);
    } else if (key == "claim_grace_seconds") {
      if (!(err = number(v, k, 0, 86'400 * 30, d))) c.lobby.claim_grace = seconds(d);
    } else if (key == "finished_retention_seconds") {
      if (!(err = number(v, k, 0, 86'400, d))) c.lobby.finished_retention = seconds(d);
    } else if (key == "chat_max_bytes") {
      if (!(err = integer(v, k, 1, 10'000, i)))
        c.lobby.max_chat_bytes = static_cast<std::size_t>(i);
    } else if (key == "chat_per_second") {
      if (!(err = number(v, k, 0.01, 1000, d))) c.lobby.chat_per_second = d;
    } else if (key == "open_games_per_player") {
      if (!(err = integer(v, k, 1, 10'000, i)))
        c.lobby.max_open_games_per_player = static_cast<std::size_t>(i);
    } else if (key == "offer_lifetime_days") {
      if (!(err = number(v, k, 0.001, 365, d))) c.lobby.offer_lifetime = seconds(d * 86'400);
    } else if (key == "max_offer_lifetime_days") {
      if (!(err = number(v, k, 0.001, 365, d))) c.lobby.max_offer_lifetime = seconds(d * 86'400);
    } else if (key == "players_create_tournaments") {
      err = boolean(v, k, c.lobby.players_create_tournaments);
    } else if (key == "correspondence_games_per_player") {
      if (!(err = integer(v, k, 1, 10'000, i)))
        c.lobby.max_correspondence_games = static_cast<std::size_t>(i);
    } else if (key == "kept_offers_per_address") {
      if (!(err = integer(v, k, 1, 1'000'000, i)))
        c.lobby.max_kept_offers_per_address = static_cast<std::size_t>(i);
    } else if (key == "kept_challenges_per_player") {
      if (!(err = integer(v, k, 1, 1'000'000, i)))
        c.lobby.max_kept_challenges_per_player = static_cast<std::size_t>(i);
    } else if (key == "password_checks_per_address") {
      if (!(err = integer(v, k, 1, 1'000, i)))
        c.lobby.max_password_checks_per_address = static_cast<std::size_t>(i);
    } else if (key == "auth_failures_burst") {
      if (!(err = integer(v, k, 1, 1'000'000, i)))
        c.lobby.auth_budget.burst = static_cast<double>(i);
    } else if (key == "auth_failures_per_minute") {
      if (!(err = number(v, k, 0.01, 1'000'000, d))) c.lobby.auth_budget.per_minute = d;
    } else if (key == "open_reports_per_address") {
      if (!(err = integer(v, k, 1, 1'000'000, i)))
        c.lobby.max_open_reports_per_address = static_cast<std::size_t>(i);
    } else if (key == "open_reports_per_target") {
      if (!(err = integer(v, k, 1, 1'000'000, i)))
        c.lobby.max_open_reports_per_target = static_cast<std::size_t>(i);
    } else {
      err = k + ": unknown key";
    }
    if (err) return err;
  }
  if (c.lobby.offer_lifetime > c.lobby.max_offer_lifetime)
    return std::string("limits.offer_lifetime_days: must not exceed max_offer_lifetime_days");
  if (c.idle_timeout <= c.idle_ping)
    return std::string("limits.idle_timeout_seconds: must be longer than idle_ping_seconds");
  return std::nullopt;
}

std::optional<std::string> boolean(const json& j, const std::string& key, bool& out) {
  if (!j.is_boolean()) return key + ": expected true or false, got " + j.type_name();
  out = j.get<bool>();
  return std::nullopt;
}

std::optional<std::string> apply_tls(ServerConfig& c, const json& tls) {
  if (!tls.is_object()) return std::string("tls: expected an object");
  for (const auto& [key, v] : tls.items()) {
    const std::string k = "tls." + key;
    std::string s;
    std::optional<std::string> err;
    if (key == "enabled") {
      err = boolean(v, k, c.tls);
    } else if (key == "cert" || key == "key") {
      auto& field = key == "cert" ? c.tls_cert : c.tls_key;
      if (v.is_null())
        field.reset();
      else if (!(err = text(v, k, s)))
        field = s;
    } else if (key == "require") {
      err = boolean(v, k, c.require_tls);
    } else if (key == "trust_loopback") {
      err = boolean(v, k, c.trust_loopback);
    } else if (key == "allow_plain_passwords") {
      err = boolean(v, k, c.lobby.allow_plain_passwords);
    } else {
      err = k + ": unknown key";
    }
    if (err) return err;
  }
  if (c.tls_cert.has_value() != c.tls_key.has_value())
    return std::string("tls: give both cert and key, or neither");
  return std::nullopt;
}

// "cluster": {"lease_seconds", "node_seconds", "name_seconds", "prefix"}; the Redis and the node
// come from --cluster and --node.
std::optional<std::string> apply_cluster(ServerConfig& c, const json& j) {
  if (!j.is_object()) return std::string("cluster: expected an object");
  ClusterSettings settings = c.cluster.value_or(ClusterSettings{});
  for (const auto& [key, v] : j.items()) {
    const std::string k = "cluster." + key;
    double d = 0;
    std::string s;
    std::optional<std::string> err;
    const auto seconds = [](double x) { return Millis{static_cast<long long>(x * 1000)}; };
    if (key == "lease_seconds") {
      if (!(err = number(v, k, 0.5, 600, d))) settings.lease_ttl = seconds(d);
    } else if (key == "node_seconds") {
      if (!(err = number(v, k, 0.5, 600, d))) settings.node_ttl = seconds(d);
    } else if (key == "name_seconds") {
      if (!(err = number(v, k, 1, 3600, d))) settings.name_ttl = seconds(d);
    } else if (key == "prefix") {
      if (!(err = text(v, k, s))) {
        if (s.empty() || s.size() > 64 || s.find_first_of(" \t\r\n") != std::string::npos)
          err = k + ": 1 to 64 characters without spaces";
        else
          settings.prefix = s;
      }
    } else {
      err = k + ": unknown key";
    }
    if (err) return err;
  }
  // Kept even without --cluster: the flags may come after the file.
  c.cluster = settings;
  return std::nullopt;
}

std::optional<std::string> apply_web(ServerConfig& c, const json& web) {
  if (!web.is_object()) return std::string("web: expected an object");
  for (const auto& [key, v] : web.items()) {
    const std::string k = "web." + key;
    std::string s;
    std::optional<std::string> err;
    if (key == "root") {
      if (!(err = text(v, k, s))) c.web_root = s;
    } else if (key == "allowed_origins") {
      if (!v.is_array()) return k + ": expected a list of origins like \"https://example.org\"";
      c.allowed_origins.clear();
      for (const auto& o : v) {
        if (!o.is_string()) return k + ": expected strings";
        const auto origin = o.get<std::string>();
        if (!origin.starts_with("http://") && !origin.starts_with("https://"))
          return k + ": \"" + origin + "\" is not an origin (http://host[:port] or https://...)";
        c.allowed_origins.push_back(origin);
      }
    } else if (key == "public_addresses") {
      if (!v.is_array()) return k + ": expected a list of addresses like \"amazons.example.org\"";
      c.public_addresses.clear();
      for (const auto& a : v) {
        if (!a.is_string()) return k + ": expected strings";
        const auto address = a.get<std::string>();
        const bool plain =
            !address.empty() && std::all_of(address.begin(), address.end(), [](unsigned char ch) {
              return std::isalnum(ch) || ch == '.' || ch == '-' || ch == ':' || ch == '[' ||
                     ch == ']';
            });
        if (!plain) return k + ": \"" + address + "\" is not host or host:port";
        c.public_addresses.push_back(address);
      }
    } else {
      err = k + ": unknown key";
    }
    if (err) return err;
  }
  return std::nullopt;
}

}  // namespace

Expected<ServerConfig, std::string> apply_config_json(ServerConfig c, const json& j) {
  if (!j.is_object()) return Unexpected(std::string("expected a JSON object"));
  for (const auto& [key, v] : j.items()) {
    long long i = 0;
    std::string s;
    std::optional<std::string> err;
    if (key == "name") {
      if (!(err = text(v, key, s))) c.name = s;
    } else if (key == "port") {
      if (!(err = integer(v, key, 0, 65535, i))) c.port = static_cast<int>(i);
    } else if (key == "bind") {
      if (!(err = text(v, key, s))) c.bind = s;
    } else if (key == "db") {
      if (!(err = text(v, key, s))) c.db = s;
    } else if (key == "password") {
      if (v.is_null())
        c.password.reset();
      else if (!(err = text(v, key, s)))
        c.password = s;
    } else if (key == "discovery_port") {
      if (!(err = integer(v, key, -1, 65535, i))) c.discovery_port = static_cast<int>(i);
    } else if (key == "threads") {
      if (!(err = integer(v, key, 1, 64, i))) c.threads = static_cast<int>(i);
    } else if (key == "rules_dir") {
      if (!(err = text(v, key, s))) c.rules_dir = s;
    } else if (key == "password_threads") {
      if (!(err = integer(v, key, 1, 64, i))) c.password_threads = static_cast<int>(i);
    } else if (key == "password_hashing") {
      if (!(err = text(v, key, s))) {
        if (s == "interactive")
          c.password_hashing = HashStrength::Interactive;
        else if (s == "minimal")
          c.password_hashing = HashStrength::Minimal;
        else
          err = "password_hashing: expected \"interactive\" or \"minimal\"";
      }
    } else if (key == "limits") {
      err = apply_limits(c, v);
    } else if (key == "cluster") {
      err = apply_cluster(c, v);
    } else if (key == "tls") {
      err = apply_tls(c, v);
    } else if (key == "web") {
      err = apply_web(c, v);
    } else {
      err = key + ": unknown key";
    }
    if (err) return Unexpected(*err);
  }
  return c;
}

Expected<ServerConfig, std::string> load_config_file(ServerConfig config,
                                                     const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return Unexpected("cannot read " + path.string());
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    return Unexpected(path.string() + ": " + e.what());
  }
  auto c = apply_config_json(std::move(config), j);
  if (!c) return Unexpected(path.string() + ": " + c.error());
  return c;
}

Expected<Millis, std::string> read_test_clock(const std::filesystem::path& path) {
  std::ifstream in(path);
  double seconds_ahead = -1;
  if (!(in >> seconds_ahead) || !std::isfinite(seconds_ahead) || seconds_ahead < 0 ||
      seconds_ahead > 10.0 * 365 * 86'400)
    return Unexpected(path.string() + ": expected a number of seconds from 0 to ten years");
  return seconds(seconds_ahead);
}

}  // namespace amazons::server
