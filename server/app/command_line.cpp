#include "server/app/command_line.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>

#include "cluster/lease.h"
#include "cluster/redis.h"
#include "common/protocol_enums.h"
#include "common/shipped_files.h"
#include "server/app/host.h"
#include "server/storage/pg_storage.h"

namespace amazons::server {

namespace {

// The flags of serving, kept apart until the configuration file is read: a flag that was given
// wins over the file, one that was not leaves the file's value.
struct ServeFlags {
  std::optional<int> port, discovery_port, threads;
  std::optional<std::string> bind, db, password, name, rules_dir;
  std::string config_path;
  bool quiet = false;
  std::optional<std::string> tls_cert, tls_key, web_root;
  bool require_tls = false, no_tls = false;
  std::optional<std::string> test_clock;
  std::optional<std::string> cluster_url, node_name, advertise;
};

void add_serve_flags(CLI::App& app, ServeFlags& f) {
  app.add_option("--port", f.port, "TCP port (0 picks a free one and prints it)")
      ->check(CLI::Range(0, 65535));
  app.add_option("--bind", f.bind,
                 "address to listen on (default :: = every IPv6 and IPv4 address)");
  app.add_option("--db", f.db,
                 "database: a SQLite file (created if missing) or "
                 "postgresql://user[:password]@host[:port]/dbname");
  app.add_option("--config", f.config_path,
                 "JSON config file (default: config/server.json if present)");
  app.add_option("--password", f.password, "server password: only clients that know it may log in");
  app.add_option("--name", f.name, "server name shown in LAN discovery");
  app.add_option("--discovery-port", f.discovery_port,
                 "UDP port for LAN discovery (-1: off, 0: any)")
      ->check(CLI::Range(-1, 65535));
  app.add_option("--threads", f.threads, "network threads")->check(CLI::Range(1, 64));
  app.add_option("--rules-dir", f.rules_dir, "directory of rule variant files");
  app.add_flag("--quiet", f.quiet, "log warnings and errors only");
  app.add_option("--tls-cert", f.tls_cert,
                 "TLS certificate chain (PEM; reloaded on SIGHUP). Default: a self-signed one "
                 "made beside the database")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", f.tls_key, "the certificate's private key (PEM)")
      ->check(CLI::ExistingFile);
  app.add_flag("--require-tls", f.require_tls,
               "refuse plain connections except from this machine (loopback)");
  app.add_flag("--no-tls", f.no_tls, "do not speak TLS on the port");
  app.add_option("--web-root", f.web_root, "directory of the web client's files served at /");
  app.add_option("--cluster", f.cluster_url,
                 "run as one node of a cluster sharing this Redis (redis://host:port) and the "
                 "PostgreSQL --db");
  app.add_option("--node", f.node_name, "this node's name in the cluster (default: the host name)");
  app.add_option("--advertise", f.advertise,
                 "host:port clients reach this node at (default: the node name and the port)");
  app.add_option("--test-clock", f.test_clock,
                 "TESTS ONLY: a file holding the seconds by which this server's clock runs ahead "
                 "(re-read on SIGHUP; it may only grow), to simulate days passing")
      ->check(CLI::ExistingFile);
}

// The command line's subcommands, and what they were given.
struct Subcommands {
  CLI::App* migrate = nullptr;
  MigrateCommand migrate_args;
  CLI::App* backup = nullptr;
  BackupCommand backup_args;
  CLI::App* admin = nullptr;
  AdminCommand admin_args;
  std::string grant_role;
  CLI::App *grant = nullptr, *revoke = nullptr, *close = nullptr, *open = nullptr, *list = nullptr;
};

void add_subcommands(CLI::App& app, Subcommands& s) {
  s.migrate =
      app.add_subcommand("migrate",
                         "copy every player, rating and game from one database into another, then "
                         "compare the counts (stop the server first)");
  s.migrate->add_option("--from", s.migrate_args.from, "the database to copy (a SQLite file)")
      ->required();
  s.migrate->add_option("--to", s.migrate_args.to, "the database to fill (postgresql://...)")
      ->required();
  s.migrate->add_flag("--force", s.migrate_args.force,
                      "delete what the target holds first instead of refusing a non-empty one");
  s.backup = app.add_subcommand(
      "backup",
      "copy the database (the server's --db, --config or default) to FILE, consistently, also "
      "while a server runs on it");
  s.backup
      ->add_option("FILE", s.backup_args.file,
                   "the copy: a SQLite file, or a pg_dump archive for PostgreSQL")
      ->required();
  s.backup->add_flag("--force", s.backup_args.force, "replace FILE if it exists");
  s.backup->fallthrough();  // backup FILE --db ... --config ... as well as --db ... backup FILE
  s.admin = app.add_subcommand(
      "admin",
      "roles and registrations in the server's database (--db, --config or default), also while "
      "a server runs on it");
  s.admin->require_subcommand(1);
  s.admin->fallthrough();
  s.grant = s.admin->add_subcommand("grant", "make NAME a moderator or an admin");
  s.grant->add_option("NAME", s.admin_args.name, "the player")->required();
  s.grant->add_option("ROLE", s.grant_role, "moderator or admin")
      ->required()
      ->check(CLI::IsMember({"moderator", "admin"}));
  s.revoke = s.admin->add_subcommand("revoke", "make NAME a plain player again");
  s.revoke->add_option("NAME", s.admin_args.name, "the player")->required();
  s.close = s.admin->add_subcommand("close-registrations", "only names already known may log in");
  s.open = s.admin->add_subcommand("open-registrations", "anyone may log in again");
  s.list = s.admin->add_subcommand(
      "list", "print the registrations switch, moderators, admins and bans in force");
  for (auto* sub : {s.grant, s.revoke, s.close, s.open, s.list}) sub->fallthrough();
}

AdminCommand admin_command(const Subcommands& s) {
  using Kind = AdminCommand::Kind;
  AdminCommand command = s.admin_args;
  command.kind = *s.grant    ? Kind::Grant
                 : *s.revoke ? Kind::Revoke
                 : *s.close  ? Kind::CloseRegistrations
                 : *s.open   ? Kind::OpenRegistrations
                             : Kind::List;
  if (*s.grant)
    command.role =
        protocol::enum_from<protocol::Role>(s.grant_role).value_or(protocol::Role::Player);
  return command;
}

// The configuration before the flags: the defaults, then config/server.json or --config. The
// reason is printed when the file is bad.
std::optional<ServerConfig> load_config(std::string config_path, const ShippedPaths& shipped) {
  ServerConfig config;
  const auto config_dir = shipped_config_dir(shipped.config_dir);
  config.rules_dir = config_dir / "rules";
  if (config_path.empty() && std::filesystem::exists(config_dir / "server.json"))
    config_path = (config_dir / "server.json").string();
  if (config_path.empty()) return config;
  auto loaded = load_config_file(config, config_path);
  if (!loaded) {
    std::fprintf(stderr, "amazons-server: %s\n", loaded.error().c_str());
    return std::nullopt;
  }
  return *loaded;
}

// Cluster mode from --cluster, --node and --advertise, checked; the reason when they do not fit.
Expected<std::optional<ClusterSettings>, std::string> cluster_settings(const ServeFlags& f,
                                                                       const ServerConfig& config) {
  if (!f.cluster_url) {
    if (f.node_name || f.advertise)
      return Unexpected(std::string("--node and --advertise need --cluster"));
    return std::optional<ClusterSettings>();  // the config file's "cluster" tunes one; starts none
  }
  ClusterSettings settings = config.cluster.value_or(ClusterSettings{});
  settings.redis = *f.cluster_url;
  settings.node = f.node_name ? *f.node_name : host_name();
  if (f.advertise) settings.address = *f.advertise;
  if (const auto url = cluster::parse_redis_url(settings.redis); !url)
    return Unexpected("--cluster: " + url.error());
  if (!cluster::valid_node_name(settings.node))
    return Unexpected("--node: \"" + settings.node +
                      "\" is not a node name (1 to 64 letters, digits, '-', '_' or '.')");
  if (!is_postgres_url(config.db.string()))
    return Unexpected(
        std::string("--cluster: the nodes of a cluster share one PostgreSQL database: give --db "
                    "postgresql://..."));
  return std::optional<ClusterSettings>(settings);
}

// The flags that were given, over the configuration; the reason when they do not go together.
Expected<ServerConfig, std::string> apply_flags(ServerConfig config, const ServeFlags& f,
                                                const ShippedPaths& shipped) {
  if (f.port) config.port = *f.port;
  if (f.bind) config.bind = *f.bind;
  if (f.db) config.db = *f.db;
  if (f.password) config.password = *f.password;
  if (f.name) config.name = *f.name;
  if (f.discovery_port) config.discovery_port = *f.discovery_port;
  if (f.threads) config.threads = *f.threads;
  if (f.rules_dir) config.rules_dir = *f.rules_dir;
  if (f.tls_cert) config.tls_cert = *f.tls_cert;
  if (f.tls_key) config.tls_key = *f.tls_key;
  if (f.require_tls) config.require_tls = true;
  if (f.no_tls) config.tls = false;
  if (f.web_root) config.web_root = *f.web_root;
  if (config.web_root.empty()) config.web_root = shipped_dir("web", shipped.web_dir);
  if (f.test_clock) {
    const auto offset = read_test_clock(*f.test_clock);
    if (!offset) return Unexpected("--test-clock: " + offset.error());
    config.test_clock_file = *f.test_clock;
    config.test_clock_offset = *offset;
  }
  auto cluster = cluster_settings(f, config);
  if (!cluster) return Unexpected(cluster.error());
  config.cluster = *cluster;
  if (config.tls_cert.has_value() != config.tls_key.has_value())
    return Unexpected(std::string("give --tls-cert and --tls-key together"));
  if (config.require_tls && !config.tls)
    return Unexpected(std::string("--require-tls needs TLS (drop --no-tls)"));
  return config;
}

}  // namespace

Expected<Command, int> parse_command_line(int argc, const char* const* argv,
                                          const ShippedPaths& shipped) {
  CLI::App app{"amazons-server: hosts Game of the Amazons games over TCP (docs/PROTOCOL.md)"};
  ServeFlags flags;
  add_serve_flags(app, flags);
  Subcommands sub;
  add_subcommands(app, sub);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return Unexpected(app.exit(e));
  }
  if (*sub.migrate) return Command(sub.migrate_args);

  const auto config = load_config(flags.config_path, shipped);
  if (!config) return Unexpected(2);
  const std::string db = flags.db ? *flags.db : config->db.string();
  if (*sub.backup) return Command(BackupCommand{db, sub.backup_args.file, sub.backup_args.force});
  if (*sub.admin) return Command(AdminRun{db, admin_command(sub)});
  auto serving = apply_flags(*config, flags, shipped);
  if (!serving) {
    std::fprintf(stderr, "amazons-server: %s\n", serving.error().c_str());
    return Unexpected(2);
  }
  return Command(ServeCommand{std::move(*serving), flags.quiet});
}

}  // namespace amazons::server
