// amazons-server: hosts games. With no arguments it listens on the default port with the
// embedded database in the current directory; config/server.json and flags override that.
#include <utility>  // before Asio, see net_server.h

#include <ifaddrs.h>
#include <net/if.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "server/config.h"
#include "server/net_server.h"
#include "server/open_storage.h"
#include "server/pg_storage.h"

using namespace amazons;
using namespace amazons::server;

namespace {

// The addresses other machines can reach this one at, for the people the host tells.
std::vector<std::string> reachable_addresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* i = list; i; i = i->ifa_next) {
    if (!i->ifa_addr || (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP)) continue;
    char host[INET6_ADDRSTRLEN] = {};
    if (i->ifa_addr->sa_family == AF_INET) {
      inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr, host, sizeof host);
      out.push_back(host);
    } else if (i->ifa_addr->sa_family == AF_INET6) {
      const auto* a6 = reinterpret_cast<sockaddr_in6*>(i->ifa_addr);
      if (IN6_IS_ADDR_LINKLOCAL(&a6->sin6_addr)) continue;
      inet_ntop(AF_INET6, &a6->sin6_addr, host, sizeof host);
      out.push_back(std::string("[") + host + "]");
    }
  }
  freeifaddrs(list);
  return out;
}

// Thousands of connections need more descriptors than the usual soft limit of 1024.
void raise_file_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

// amazons-server migrate: copies one database into another (docs in README, "Hosting a server").
int run_migrate(const std::string& from, const std::string& to, bool force) {
  try {
    std::fprintf(stderr, "migrate: from %s to %s\n", describe_db(from).c_str(),
                 describe_db(to).c_str());
    if (!std::filesystem::exists(from) && !is_postgres_url(from))
      throw StorageError("no database at " + from);
    auto source = open_storage(from);
    auto target = open_storage(to);
    MigrateOptions options;
    options.force = force;
    options.progress = stderr;
    migrate(*source, *target, options);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server migrate: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"amazons-server: hosts Game of the Amazons games over TCP (docs/PROTOCOL.md)"};
  std::optional<int> port, discovery_port, threads;
  std::optional<std::string> bind, db, password, name, rules_dir;
  std::string config_path;
  bool quiet = false;
  app.add_option("--port", port, "TCP port (0 picks a free one and prints it)")
      ->check(CLI::Range(0, 65535));
  app.add_option("--bind", bind, "address to listen on (default :: = every IPv6 and IPv4 address)");
  app.add_option("--db", db,
                 "database: a SQLite file (created if missing) or "
                 "postgresql://user[:password]@host[:port]/dbname");
  app.add_option("--config", config_path,
                 "JSON config file (default: config/server.json if present)");
  app.add_option("--password", password, "server password: only clients that know it may log in");
  app.add_option("--name", name, "server name shown in LAN discovery");
  app.add_option("--discovery-port", discovery_port, "UDP port for LAN discovery (-1: off, 0: any)")
      ->check(CLI::Range(-1, 65535));
  app.add_option("--threads", threads, "network threads")->check(CLI::Range(1, 64));
  app.add_option("--rules-dir", rules_dir, "directory of rule variant files");
  app.add_flag("--quiet", quiet, "log warnings and errors only");
  std::string migrate_from, migrate_to;
  bool migrate_force = false;
  auto* migrate_cmd =
      app.add_subcommand("migrate",
                         "copy every player, rating and game from one database into another, then "
                         "compare the counts (stop the server first)");
  migrate_cmd->add_option("--from", migrate_from, "the database to copy (a SQLite file)")
      ->required();
  migrate_cmd->add_option("--to", migrate_to, "the database to fill (postgresql://...)")
      ->required();
  migrate_cmd->add_flag("--force", migrate_force,
                        "delete what the target holds first instead of refusing a non-empty one");
  CLI11_PARSE(app, argc, argv);
  if (*migrate_cmd) return run_migrate(migrate_from, migrate_to, migrate_force);

  ServerConfig config;
  config.rules_dir = std::filesystem::path(AMAZONS_CONFIG_DIR) / "rules";
  if (config_path.empty() &&
      std::filesystem::exists(std::filesystem::path(AMAZONS_CONFIG_DIR) / "server.json"))
    config_path = (std::filesystem::path(AMAZONS_CONFIG_DIR) / "server.json").string();
  if (!config_path.empty()) {
    auto loaded = load_config_file(config, config_path);
    if (!loaded) {
      std::fprintf(stderr, "amazons-server: %s\n", loaded.error().c_str());
      return 2;
    }
    config = *loaded;
  }
  if (port) config.port = *port;
  if (bind) config.bind = *bind;
  if (db) config.db = *db;
  if (password) config.password = *password;
  if (name) config.name = *name;
  if (discovery_port) config.discovery_port = *discovery_port;
  if (threads) config.threads = *threads;
  if (rules_dir) config.rules_dir = *rules_dir;

  Log log(stderr, quiet ? Log::Level::Warn : Log::Level::Info);
  raise_file_limit();
  try {
    const std::string db_name = describe_db(config.db.string());
    auto storage = open_storage(config.db.string());
    if (storage->schema().upgraded())
      log.info("schema_upgraded", {{"db", db_name},
                                   {"from", std::to_string(storage->schema().found)},
                                   {"to", std::to_string(storage->schema().now)}});
    boost::asio::io_context io;
    Server server(io, config, *storage, log);
    server.start();

    std::printf("amazons-server \"%s\" listening on port %u", config.name.c_str(), server.port());
    if (server.discovery_port())
      std::printf(" (LAN discovery on UDP port %u)", *server.discovery_port());
    std::printf("\ndatabase: %s\n", db_name.c_str());
    const auto addresses = reachable_addresses();
    if (config.bind == "::" || config.bind == "0.0.0.0") {
      std::printf("friends can connect to:\n");
      for (const auto& a : addresses) std::printf("  %s:%u\n", a.c_str(), server.port());
      if (addresses.empty())
        std::printf("  (no network interface is up; this machine only: 127.0.0.1:%u)\n",
                    server.port());
    } else {
      std::printf("friends can connect to: %s:%u\n", config.bind.c_str(), server.port());
    }
    std::fflush(stdout);

    bool ok = true;
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int sig) {
      if (ec) return;
      log.info("signal", {{"signal", sig == SIGINT ? "SIGINT" : "SIGTERM"}});
      server.stop([&](bool stored_everything) {
        ok = stored_everything;
        io.stop();
      });
    });
    std::vector<std::thread> pool;
    for (int i = 1; i < config.threads; ++i) pool.emplace_back([&] { io.run(); });
    io.run();
    for (auto& t : pool) t.join();
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    log.error("fatal", {{"why", e.what()}});
    std::fprintf(stderr, "amazons-server: %s\n", e.what());
    return 1;
  }
}
