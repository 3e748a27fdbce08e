#include "bot/command_line.h"

#include <cmath>
#include <sstream>

#include <CLI/CLI.hpp>

#include "client/cli_text.h"

#include "tls/tls.h"

namespace amazons::bot {

namespace {

using Error = Unexpected<std::string>;

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

Expected<CommandLine, std::string> parse_command_line(const std::vector<std::string>& args,
                                                      const std::filesystem::path& config_dir,
                                                      const client::Catalogue& t) {
  CLI::App app{t("bot.about"), "amazons-bot"};
  client::speak(app, t);
  std::optional<std::string> server, name, password, server_password, level, engine, protocol,
      config_path, ai_config, seek, rules, accept_rated, log_level;
  std::optional<int> max_games, threads, hash_mb, engine_restarts, games;
  std::optional<std::int64_t> tournament;
  std::optional<double> min_time, max_time, lag_margin_ms, list_interval;
  bool no_join = false, no_challenges = false, no_bots = false, no_unlimited = false,
       no_claim = false, rematch = false, rated = false, ponder = false;

  std::optional<std::string> tls_fingerprint, known_servers;
  app.add_option("--server", server, t("bot.option.server"))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--tls-fingerprint", tls_fingerprint, t("bot.option.tls_fingerprint"));
  app.add_option("--known-servers", known_servers, t("bot.option.known_servers"));
  app.add_option("--name", name, t("bot.option.name"));
  app.add_option("--password", password, t("bot.option.password"));
  app.add_option("--server-password", server_password, t("bot.option.server_password"));
  app.add_option("--level", level, t("bot.option.level"));
  app.add_option("--engine", engine, t("bot.option.engine"));
  app.add_option("--protocol", protocol, t("bot.option.protocol"))
      ->check(client::one_of(t, {"amazons", "uci", "botzone"}));
  app.add_option("--config", config_path, t("bot.option.config"));
  app.add_option("--ai-config", ai_config, t("bot.option.ai_config"));
  app.add_option("--max-games", max_games, t("bot.option.max_games"))
      ->check(client::in_range(t, 1, 64, true));
  app.add_option("--seek", seek, t("bot.option.seek"));
  app.add_option("--rules", rules, t("bot.option.rules"));
  app.add_flag("--rated", rated, t("bot.option.rated"));
  app.add_option("--accept-rated", accept_rated, t("bot.option.accept_rated"))
      ->check(client::one_of(t, {"any", "rated", "casual"}));
  app.add_option("--min-time", min_time, t("bot.option.min_time"))
      ->check(client::in_range(t, 0.0, 1e7, false));
  app.add_option("--max-time", max_time, t("bot.option.max_time"))
      ->check(client::in_range(t, 0.0, 1e7, false));
  app.add_flag("--no-unlimited", no_unlimited, t("bot.option.no_unlimited"));
  app.add_flag("--no-join", no_join, t("bot.option.no_join"));
  app.add_flag("--no-challenges", no_challenges, t("bot.option.no_challenges"));
  app.add_flag("--no-bots", no_bots, t("bot.option.no_bots"));
  app.add_flag("--no-claim", no_claim, t("bot.option.no_claim"));
  app.add_flag("--rematch", rematch, t("bot.option.rematch"));
  app.add_option("--tournament", tournament, t("bot.option.tournament"))
      ->check(client::in_range(t, 1, HUGE_VAL, true));
  app.add_option("--games", games, t("bot.option.games"))
      ->check(client::in_range(t, 1, 1000000000, true));
  app.add_option("--threads", threads, t("bot.option.threads"))
      ->check(client::in_range(t, 1, 64, true));
  app.add_flag("--ponder", ponder, t("bot.option.ponder"));
  app.add_option("--hash", hash_mb, t("bot.option.hash"))
      ->check(client::in_range(t, 1, 1 << 14, true));
  app.add_option("--engine-restarts", engine_restarts, t("bot.option.engine_restarts"))
      ->check(client::in_range(t, 0, 100, true));
  app.add_option("--lag-margin", lag_margin_ms, t("bot.option.lag_margin"))
      ->check(client::in_range(t, 0.0, 60000.0, false));
  app.add_option("--list-interval", list_interval, t("bot.option.list_interval"))
      ->check(client::in_range(t, 0.1, 3600.0, false));
  // Read before parsing (client::cli_catalogue); named here so that they are allowed.
  std::string language, i18n_dir;
  app.add_option("--language", language, t("bot.option.language"));
  app.add_option("--i18n-dir", i18n_dir, t("cli.i18n_dir"));
  app.add_option("--log-level", log_level, t("bot.option.log_level"))
      ->check(client::one_of(t, {"debug", "info", "warn", "error"}));

  std::vector<const char*> argv = {"amazons-bot"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    return CommandLine{{}, app.help()};
  } catch (const CLI::ParseError& e) {
    return Error{client::cli_error_text(t, e)};
  }
  if (level && engine) return Error{t("bot.error.level_and_engine")};

  BotConfig c;
  c.ai_config = config_dir / "ai.json";
  const auto file = config_path ? std::filesystem::path(*config_path) : config_dir / "bot.json";
  if (config_path || std::filesystem::exists(file)) {
    auto loaded = load_bot_config(c, file, t);
    if (!loaded) return Error{loaded.error()};
    c = *loaded;
  }
  if (server) {
    auto a = net::read_server_addresses(*server);
    if (!a) return Error{address_text(t, "--server", a.error())};
    if (auto why = apply_server(c, *a, t)) return Error{*why};
  }
  if (tls_fingerprint) {
    auto fp = tls::parse_fingerprint(*tls_fingerprint);
    if (!fp) return Error{t("bot.error.fingerprint", {{"given", *tls_fingerprint}})};
    c.tls_fingerprint = *fp;
  }
  if (known_servers) c.known_servers = *known_servers;
  if (c.known_servers.empty()) c.known_servers = default_known_servers();
  if (name) c.name = *name;
  if (password) c.password = *password;
  if (server_password) c.server_password = *server_password;
  if (level) {
    c.level = *level;
    c.engine.reset();
  }
  if (engine) c.engine = *engine;
  if (protocol) {
    if (!c.engine) return Error{t("bot.error.protocol")};
    c.protocol = *ai::external_protocol_from_code(*protocol);
  }
  if (ai_config) c.ai_config = *ai_config;
  if (max_games) c.max_games = *max_games;
  if (tournament) c.tournament = *tournament;
  if (threads) c.threads = *threads;
  if (hash_mb) c.hash_mb = *hash_mb;
  if (engine_restarts) c.engine_restarts = *engine_restarts;
  if (games) c.games = *games;
  if (rules) {
    c.accept.rules = split_list(*rules);
    if (c.accept.rules.empty()) return Error{t("bot.error.rules")};
  }
  if (seek) {
    auto time = parse_time_control(*seek);
    // parse_time_control's reason is English: the forms a clock takes are said instead.
    if (!time) return Error{t("bot.error.seek", {{"given", *seek}})};
    SeekSettings s = c.seek.value_or(SeekSettings{});
    s.time = *time;
    if (!c.accept.rules.empty())
      s.rules = c.accept.rules.front();
    else if (c.engine && c.protocol == ai::ExternalProtocol::Botzone)
      s.rules = "botzone8";
    c.seek = s;
  }
  if (rated) {
    if (!c.seek) return Error{t("bot.error.rated")};
    c.seek->rated = true;
  }
  if (accept_rated)
    c.accept.rated = *accept_rated == "rated"    ? RatedFilter::Rated
                     : *accept_rated == "casual" ? RatedFilter::Casual
                                                 : RatedFilter::Any;
  if (min_time) c.accept.min_seconds = *min_time;
  if (max_time) c.accept.max_seconds = *max_time;
  if (no_unlimited) c.accept.unlimited = false;
  if (no_join) c.join_open = false;
  if (no_challenges) c.accept_challenges = false;
  if (no_bots) c.accept.bots = false;
  if (no_claim) c.claim = false;
  if (rematch) c.rematch = true;
  if (ponder) c.ponder = true;
  if (lag_margin_ms) c.lag_margin = Millis{static_cast<Millis::rep>(*lag_margin_ms)};
  if (list_interval) c.list_interval = Millis{static_cast<Millis::rep>(*list_interval * 1000.0)};
  if (log_level) c.log_level = *log_level;

  auto finished = finish_config(std::move(c), t);
  if (!finished) return Error{finished.error()};
  return CommandLine{*finished, std::nullopt};
}

}  // namespace amazons::bot
