// amazons-server: hosts games. With no arguments it listens on the default port with the
// embedded database in the current directory; config/server.json and flags override that.
#include <utility>  // before Asio, see server/net/server.h

#include <ifaddrs.h>
#include <net/if.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/asio.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "cluster/lease.h"
#include "cluster/redis.h"
#include "common/protocol_enums.h"
#include "common/shipped_files.h"
#include "server/app/admin.h"
#include "server/storage/backup.h"
#include "server/net/config.h"
#include "server/net/server.h"
#include "server/storage/open_storage.h"
#include "server/storage/pg_storage.h"
#include "tls/tls.h"

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

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return {};
  return name;
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

// amazons-server backup: a consistent copy of the database, also while a server runs on it.
int run_backup(const std::string& db, const std::string& out, bool force) {
  try {
    BackupOptions options;
    options.force = force;
    options.progress = stderr;
    backup(db, out, options);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server backup: %s\n", e.what());
    return 1;
  }
}

// The server's configuration: the defaults, config/server.json or --config, then the flags that
// were given. Returns false with the reason printed when the file is bad.
bool load_config(ServerConfig& config, std::string config_path) {
  const auto shipped = shipped_config_dir(AMAZONS_CONFIG_DIR);
  config.rules_dir = shipped / "rules";
  if (config_path.empty() && std::filesystem::exists(shipped / "server.json"))
    config_path = (shipped / "server.json").string();
  if (config_path.empty()) return true;
  auto loaded = load_config_file(config, config_path);
  if (!loaded) {
    std::fprintf(stderr, "amazons-server: %s\n", loaded.error().c_str());
    return false;
  }
  config = *loaded;
  return true;
}

// amazons-server admin: roles and registrations (README "Moderation").
int run_admin_command(const std::string& db, const AdminCommand& command) {
  try {
    auto storage = open_storage(db);
    return run_admin(*storage, command, stdout,
                     std::chrono::time_point_cast<Millis>(std::chrono::system_clock::now()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "amazons-server admin: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A write to a connection the peer has closed fails with EPIPE instead of killing the server.
  // Asio's sockets ask for that themselves (MSG_NOSIGNAL); hiredis writes with write(), so a
  // Redis that closed a connection (restarted, at maxclients, CLIENT KILL) took the node down
  // with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
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
  std::optional<std::string> tls_cert, tls_key, web_root;
  bool require_tls = false, no_tls = false;
  app.add_option("--tls-cert", tls_cert,
                 "TLS certificate chain (PEM; reloaded on SIGHUP). Default: a self-signed one "
                 "made beside the database")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", tls_key, "the certificate's private key (PEM)")
      ->check(CLI::ExistingFile);
  app.add_flag("--require-tls", require_tls,
               "refuse plain connections except from this machine (loopback)");
  app.add_flag("--no-tls", no_tls, "do not speak TLS on the port");
  app.add_option("--web-root", web_root, "directory of the web client's files served at /");
  std::optional<std::string> test_clock;
  std::optional<std::string> cluster_url, node_name, advertise;
  app.add_option("--cluster", cluster_url,
                 "run as one node of a cluster sharing this Redis (redis://host:port) and the "
                 "PostgreSQL --db");
  app.add_option("--node", node_name, "this node's name in the cluster (default: the host name)");
  app.add_option("--advertise", advertise,
                 "host:port clients reach this node at (default: the node name and the port)");
  app.add_option("--test-clock", test_clock,
                 "TESTS ONLY: a file holding the seconds by which this server's clock runs ahead "
                 "(re-read on SIGHUP; it may only grow), to simulate days passing")
      ->check(CLI::ExistingFile);
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
  std::string backup_file;
  bool backup_force = false;
  auto* backup_cmd = app.add_subcommand(
      "backup",
      "copy the database (the server's --db, --config or default) to FILE, consistently, also "
      "while a server runs on it");
  backup_cmd
      ->add_option("FILE", backup_file,
                   "the copy: a SQLite file, or a pg_dump archive for PostgreSQL")
      ->required();
  backup_cmd->add_flag("--force", backup_force, "replace FILE if it exists");
  backup_cmd->fallthrough();  // backup FILE --db ... --config ... as well as --db ... backup FILE
  AdminCommand admin;
  std::string grant_role;
  auto* admin_cmd = app.add_subcommand(
      "admin",
      "roles and registrations in the server's database (--db, --config or default), also while "
      "a server runs on it");
  admin_cmd->require_subcommand(1);
  admin_cmd->fallthrough();
  auto* grant_cmd = admin_cmd->add_subcommand("grant", "make NAME a moderator or an admin");
  grant_cmd->add_option("NAME", admin.name, "the player")->required();
  grant_cmd->add_option("ROLE", grant_role, "moderator or admin")
      ->required()
      ->check(CLI::IsMember({"moderator", "admin"}));
  auto* revoke_cmd = admin_cmd->add_subcommand("revoke", "make NAME a plain player again");
  revoke_cmd->add_option("NAME", admin.name, "the player")->required();
  auto* close_cmd =
      admin_cmd->add_subcommand("close-registrations", "only names already known may log in");
  auto* open_cmd = admin_cmd->add_subcommand("open-registrations", "anyone may log in again");
  auto* list_cmd = admin_cmd->add_subcommand(
      "list", "print the registrations switch, moderators, admins and bans in force");
  for (auto* sub : {grant_cmd, revoke_cmd, close_cmd, open_cmd, list_cmd}) sub->fallthrough();
  CLI11_PARSE(app, argc, argv);
  if (*migrate_cmd) return run_migrate(migrate_from, migrate_to, migrate_force);

  ServerConfig config;
  if (!load_config(config, config_path)) return 2;
  if (*backup_cmd) return run_backup(db ? *db : config.db.string(), backup_file, backup_force);
  if (*admin_cmd) {
    using Kind = AdminCommand::Kind;
    admin.kind = *grant_cmd    ? Kind::Grant
                 : *revoke_cmd ? Kind::Revoke
                 : *close_cmd  ? Kind::CloseRegistrations
                 : *open_cmd   ? Kind::OpenRegistrations
                               : Kind::List;
    if (*grant_cmd)
      admin.role = protocol::enum_from<protocol::Role>(grant_role).value_or(protocol::Role::Player);
    return run_admin_command(db ? *db : config.db.string(), admin);
  }
  if (port) config.port = *port;
  if (bind) config.bind = *bind;
  if (db) config.db = *db;
  if (password) config.password = *password;
  if (name) config.name = *name;
  if (discovery_port) config.discovery_port = *discovery_port;
  if (threads) config.threads = *threads;
  if (rules_dir) config.rules_dir = *rules_dir;
  if (tls_cert) config.tls_cert = *tls_cert;
  if (tls_key) config.tls_key = *tls_key;
  if (require_tls) config.require_tls = true;
  if (no_tls) config.tls = false;
  if (web_root) config.web_root = *web_root;
  if (config.web_root.empty()) config.web_root = shipped_dir("web", AMAZONS_WEB_DIR);
  if (test_clock) {
    const auto offset = read_test_clock(*test_clock);
    if (!offset) {
      std::fprintf(stderr, "amazons-server: --test-clock: %s\n", offset.error().c_str());
      return 2;
    }
    config.test_clock_file = *test_clock;
    config.test_clock_offset = *offset;
  }
  if (cluster_url) {
    ClusterSettings settings = config.cluster.value_or(ClusterSettings{});
    settings.redis = *cluster_url;
    settings.node = node_name ? *node_name : host_name();
    if (advertise) settings.address = *advertise;
    if (const auto url = cluster::parse_redis_url(settings.redis); !url) {
      std::fprintf(stderr, "amazons-server: --cluster: %s\n", url.error().c_str());
      return 2;
    }
    if (!cluster::valid_node_name(settings.node)) {
      std::fprintf(stderr,
                   "amazons-server: --node: \"%s\" is not a node name (1 to 64 letters, digits, "
                   "'-', '_' or '.')\n",
                   settings.node.c_str());
      return 2;
    }
    if (!is_postgres_url(config.db.string())) {
      std::fprintf(stderr,
                   "amazons-server: --cluster: the nodes of a cluster share one PostgreSQL "
                   "database: give --db postgresql://...\n");
      return 2;
    }
    config.cluster = settings;
  } else {
    if (node_name || advertise) {
      std::fprintf(stderr, "amazons-server: --node and --advertise need --cluster\n");
      return 2;
    }
    config.cluster.reset();  // the config file's "cluster" tunes a cluster; it starts none
  }
  if (config.tls_cert.has_value() != config.tls_key.has_value()) {
    std::fprintf(stderr, "amazons-server: give --tls-cert and --tls-key together\n");
    return 2;
  }
  if (config.require_tls && !config.tls) {
    std::fprintf(stderr, "amazons-server: --require-tls needs TLS (drop --no-tls)\n");
    return 2;
  }

  Log log(stderr, quiet ? Log::Level::Warn : Log::Level::Info);
  raise_file_limit();
  if (config.test_clock_file)
    log.warn("test_clock", {{"file", config.test_clock_file->string()},
                            {"ahead_ms", std::to_string(config.test_clock_offset.count())},
                            {"note", "for tests only: game clocks and expiries use this clock"}});
  try {
    const std::string db_name = describe_db(config.db.string());
    auto storage = open_storage(config.db.string());
    if (storage->schema().upgraded())
      log.info("schema_upgraded", {{"db", db_name},
                                   {"from", std::to_string(storage->schema().found)},
                                   {"to", std::to_string(storage->schema().now)}});
    boost::asio::io_context io;
    Server server(io, config, *storage, log);
    if (config.tls && !load_tls(server, config, log, true)) {
      std::fprintf(stderr,
                   "amazons-server: cannot set up TLS (see the log); --no-tls runs without it\n");
      return 1;
    }
    server.start();

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
    std::printf("in a browser: %s://%s:%u/\n", fingerprint.empty() ? "http" : "https",
                first.c_str(), server.port());
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

    boost::asio::signal_set reload(io, SIGHUP);
    std::function<void()> wait_reload = [&] {
      reload.async_wait([&](const boost::system::error_code& ec, int) {
        if (ec) return;
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
        wait_reload();
      });
    };
    wait_reload();

    std::atomic<bool> ok = true;
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    const auto finish = [&](bool stored_everything) {
      ok = stored_everything;
      boost::system::error_code ignored;
      reload.cancel(ignored);
      signals.cancel(ignored);
      io.stop();
    };
    // A storage failure ends the process with status 1 at once (docs/RELIABILITY.md).
    server.on_stopped(finish);
    signals.async_wait([&](const boost::system::error_code& ec, int sig) {
      if (ec) return;
      log.info("signal", {{"signal", sig == SIGINT ? "SIGINT" : "SIGTERM"}});
      server.stop(finish);
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
