#include "server/app/serve.h"

#include <utility>  // before Asio, see server/net/server.h

#include <atomic>
#include <boost/asio.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "server/app/host.h"
#include "server/app/process.h"
#include "server/net/server.h"
#include "server/storage/open_storage.h"
#include "tls/tls.h"

namespace amazons::server {

namespace {

// The certificate and key the server uses: the host's files, or its own self-signed pair beside
// the database (made on first start).
struct TlsFiles {
  std::filesystem::path cert, key;
  bool self_signed = false;
};

TlsFiles tls_files(const ServerConfig& config) {
  if (config.tls_cert) return {*config.tls_cert, *config.tls_key, false};
  const auto db = config.db.string();
  const bool url = db.find("://") != std::string::npos;
  const auto dir = url ? std::filesystem::current_path() : config.db.parent_path();
  const auto stem = url ? std::string("amazons") : config.db.stem().string();
  return {dir / (stem + "-tls-cert.pem"), dir / (stem + "-tls-key.pem"), true};
}

// Loads the certificate (making the self-signed one if needed) into `server`. False, with the
// reason logged, when it cannot.
bool load_tls(Server& server, const ServerConfig& config, Log& log, bool first) {
  const auto files = tls_files(config);
  std::error_code ec;
  if (files.self_signed && !std::filesystem::exists(files.cert, ec)) {
    std::vector<std::string> names{"localhost", "127.0.0.1", "::1"};
    if (const auto h = host_name(); !h.empty()) names.push_back(h);
    for (auto a : reachable_addresses()) {
      if (a.starts_with('[')) a = a.substr(1, a.size() - 2);
      names.push_back(a);
    }
    std::filesystem::remove(files.key, ec);  // a key without its certificate is useless
    if (auto made = tls::write_self_signed(files.cert, files.key, names); !made) {
      log.error("tls_failed", {{"why", made.error()}});
      return false;
    }
    log.info("tls_certificate_made", {{"cert", files.cert.string()}});
  }
  auto context = tls::server_context(files.cert, files.key);
  auto fingerprint = tls::fingerprint_of_pem(files.cert);
  if (!context || !fingerprint) {
    log.error(first ? "tls_failed" : "tls_reload_failed",
              {{"why", !context ? context.error() : fingerprint.error()}});
    return false;
  }
  server.use_tls(std::move(*context), *fingerprint);
  if (!first)
    log.info("tls_reloaded", {{"cert", files.cert.string()}, {"fingerprint", *fingerprint}});
  return true;
}

// Opens the database (`db_name`: as describe_db gives it), logging a schema upgrade. Throws
// StorageError.
std::unique_ptr<Storage> open_database(const ServerConfig& config, const std::string& db_name,
                                       Log& log) {
  auto storage = open_storage(config.db.string());
  if (storage->schema().upgraded())
    log.info("schema_upgraded", {{"db", db_name},
                                 {"from", std::to_string(storage->schema().found)},
                                 {"to", std::to_string(storage->schema().now)}});
  return storage;
}

// Where the server listens, for the host to read and to pass on to the players.
void print_where_to_connect(const Server& server, const ServerConfig& config,
                            const std::string& db_name) {
  std::printf("amazons-server \"%s\" listening on port %u", config.name.c_str(), server.port());
  if (server.discovery_port())
    std::printf(" (LAN discovery on UDP port %u)", *server.discovery_port());
  std::printf("\ndatabase: %s\n", db_name.c_str());
  if (config.cluster)
    std::printf("cluster node \"%s\" on %s\n", config.cluster->node.c_str(),
                config.cluster->redis.c_str());
  const auto fingerprint = server.tls_fingerprint();
  if (!fingerprint.empty())
    std::printf("TLS certificate fingerprint (SHA-256): %s\n", fingerprint.c_str());
  const auto addresses = reachable_addresses();
  const bool everywhere = config.bind == "::" || config.bind == "0.0.0.0";
  const std::string first = !everywhere         ? config.bind
                            : addresses.empty() ? "127.0.0.1"
                                                : addresses.front();
  std::printf("in a browser: %s://%s:%u/\n", fingerprint.empty() ? "http" : "https", first.c_str(),
              server.port());
  if (everywhere) {
    std::printf("friends can connect to:\n");
    for (const auto& a : addresses) std::printf("  %s:%u\n", a.c_str(), server.port());
    if (addresses.empty())
      std::printf("  (no network interface is up; this machine only: 127.0.0.1:%u)\n",
                  server.port());
  } else {
    std::printf("friends can connect to: %s:%u\n", config.bind.c_str(), server.port());
  }
  std::fflush(stdout);
}

// SIGHUP: the certificate again, and in tests the clock's offset (which may only grow).
void reload(Server& server, const ServerConfig& config, Log& log) {
  log.info("signal", {{"signal", "SIGHUP"}});
  if (config.tls) load_tls(server, config, log, false);
  if (config.test_clock_file) {
    const auto offset = read_test_clock(*config.test_clock_file);
    if (!offset || !server.set_clock_offset(*offset))
      log.error("test_clock_refused",
                {{"why", offset ? "the offset may only grow" : offset.error()}});
    else
      log.warn("test_clock", {{"ahead_ms", std::to_string(offset->count())}});
  }
}

// Runs the io_context on config.threads threads until the server has stopped: by a stop signal
// (add_stop_signals; gracefully) or by itself (storage failed). Returns whether everything was
// stored.
bool run_until_stopped(boost::asio::io_context& io, Server& server, const ServerConfig& config,
                       Log& log) {
  boost::asio::signal_set reloads(io);
  add_reload_signals(reloads);
  std::function<void()> wait_reload = [&] {
    reloads.async_wait([&](const boost::system::error_code& ec, int) {
      if (ec) return;
      reload(server, config, log);
      wait_reload();
    });
  };
  wait_reload();

  std::atomic<bool> ok = true;
  boost::asio::signal_set stops(io);
  add_stop_signals(stops);
  const auto finish = [&](bool stored_everything) {
    ok = stored_everything;
    boost::system::error_code ignored;
    reloads.cancel(ignored);
    stops.cancel(ignored);
    io.stop();
  };
  // A storage failure ends the process with status 1 at once (docs/RELIABILITY.md).
  server.on_stopped(finish);
  stops.async_wait([&](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    log.info("signal", {{"signal", signal_name(sig)}});
    server.stop(finish);
  });
  std::vector<std::thread> pool;
  for (int i = 1; i < config.threads; ++i) pool.emplace_back([&] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
  return ok;
}

}  // namespace

int serve(const ServerConfig& config, bool quiet) {
  Log log(stderr, quiet ? Log::Level::Warn : Log::Level::Info);
  raise_file_limit();
  if (config.test_clock_file)
    log.warn("test_clock", {{"file", config.test_clock_file->string()},
                            {"ahead_ms", std::to_string(config.test_clock_offset.count())},
                            {"note", "for tests only: game clocks and expiries use this clock"}});
  try {
    const std::string db_name = describe_db(config.db.string());
    auto storage = open_database(config, db_name, log);
    boost::asio::io_context io;
    Server server(io, config, *storage, log);
    if (config.tls && !load_tls(server, config, log, true)) {
      std::fprintf(stderr,
                   "amazons-server: cannot set up TLS (see the log); --no-tls runs without it\n");
      return 1;
    }
    server.start();
    print_where_to_connect(server, config, db_name);
    return run_until_stopped(io, server, config, log) ? 0 : 1;
  } catch (const std::exception& e) {
    // The code tells a program that started this server (the desktop client's hosting) what
    // failed, in words of its own; `why` is for the operator.
    const bool storage = dynamic_cast<const StorageError*>(&e) != nullptr;
    log.error("fatal", {{"code", storage ? "storage" : "other"}, {"why", e.what()}});
    std::fprintf(stderr, "amazons-server: %s\n", e.what());
    return 1;
  }
}

}  // namespace amazons::server
