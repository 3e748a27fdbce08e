#include "bot/command_line.h"

#include <sstream>

#include <CLI/CLI.hpp>

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
                                                      const std::filesystem::path& config_dir) {
  CLI::App app{
      "amazons-bot: plays on an amazons server as a bot account, with the built-in engine or an "
      "external engine program. Settings come from config/bot.json (or --config), then from "
      "these flags.",
      "amazons-bot"};
  std::optional<std::string> server, name, password, server_password, level, engine, protocol,
      config_path, ai_config, seek, rules, accept_rated, log_level;
  std::optional<int> max_games, threads, hash_mb, engine_restarts, games;
  std::optional<std::int64_t> tournament;
  std::optional<double> min_time, max_time, lag_margin_ms, list_interval;
  bool no_join = false, no_challenges = false, no_bots = false, no_unlimited = false,
       no_claim = false, rematch = false, rated = false, ponder = false;

  std::optional<std::string> tls_fingerprint, known_servers;
  app.add_option(
         "--server", server,
         "the server: HOST:PORT, or tls://HOST:PORT for TLS (default 127.0.0.1:7420); the nodes of "
         "a cluster separated by commas (a:7420,b:7420), tried in turn")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--tls-fingerprint", tls_fingerprint,
                 "TLS: trust exactly the certificate with this SHA-256 fingerprint (AB:CD:...)");
  app.add_option("--known-servers", known_servers,
                 "TLS: the file of certificates trusted on first use (default "
                 "$XDG_STATE_HOME/amazons/known_servers or ~/.local/state/amazons/known_servers)");
  app.add_option("--name", name, "the bot's account name");
  app.add_option("--password", password, "the account's password (protects the name)");
  app.add_option("--server-password", server_password, "the server's password, if it has one");
  app.add_option("--level", level, "play with the built-in engine at this level (config/ai.json)");
  app.add_option("--engine", engine, "play with this engine program (a command line)");
  app.add_option("--protocol", protocol, "the engine program's protocol")
      ->check(CLI::IsMember({"amazons", "uci", "botzone"}));
  app.add_option("--config", config_path, "the settings file (default: config/bot.json)");
  app.add_option("--ai-config", ai_config, "the engine levels (default: config/ai.json)");
  app.add_option("--max-games", max_games, "games played at once")->check(CLI::Range(1, 64));
  app.add_option("--seek", seek,
                 "seek games with this clock: 300+5, 30/move, 1d/move (correspondence) or none");
  app.add_option("--rules", rules,
                 "rule variants to play, comma separated (the first is the one sought)");
  app.add_flag("--rated", rated, "seek rated games");
  app.add_option("--accept-rated", accept_rated, "which games to take")
      ->check(CLI::IsMember({"any", "rated", "casual"}));
  app.add_option("--min-time", min_time, "take no game faster than this many seconds a side")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--max-time", max_time, "take no game slower than this many seconds a side")
      ->check(CLI::Range(0.0, 1e7));
  app.add_flag("--no-unlimited", no_unlimited, "take no game without a clock");
  app.add_flag("--no-join", no_join, "do not join open games");
  app.add_flag("--no-challenges", no_challenges, "decline every challenge");
  app.add_flag("--no-bots", no_bots, "do not play other bots");
  app.add_flag("--no-claim", no_claim, "do not claim games abandoned by the opponent");
  app.add_flag("--rematch", rematch, "offer and accept rematches");
  app.add_option("--tournament", tournament,
                 "join this tournament (its id), play the games it pairs, leave when it ends")
      ->check(CLI::PositiveNumber);
  app.add_option("--games", games, "play this many games, then leave")
      ->check(CLI::Range(1, 1'000'000'000));
  app.add_option("--threads", threads, "search threads per game")->check(CLI::Range(1, 64));
  app.add_flag("--ponder", ponder,
               "think on the opponent's time about the reply the engine expects (--level only)");
  app.add_option("--hash", hash_mb, "transposition table per game, MB")
      ->check(CLI::Range(1, 1 << 14));
  app.add_option("--engine-restarts", engine_restarts,
                 "restarts per game of an engine program that crashes")
      ->check(CLI::Range(0, 100));
  app.add_option("--lag-margin", lag_margin_ms, "milliseconds kept back from the clock")
      ->check(CLI::Range(0.0, 60'000.0));
  app.add_option("--list-interval", list_interval, "seconds between looks for open games")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--log-level", log_level, "debug, info, warn or error")
      ->check(CLI::IsMember({"debug", "info", "warn", "error"}));

  std::vector<const char*> argv = {"amazons-bot"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    return CommandLine{{}, app.help()};
  } catch (const CLI::ParseError& e) {
    return Error{std::string(e.what())};
  }
  if (level && engine) return Error{"--level and --engine: choose one of them"};

  BotConfig c;
  c.ai_config = config_dir / "ai.json";
  const auto file = config_path ? std::filesystem::path(*config_path) : config_dir / "bot.json";
  if (config_path || std::filesystem::exists(file)) {
    auto loaded = load_bot_config(c, file);
    if (!loaded) return Error{loaded.error()};
    c = *loaded;
  }
  if (server) {
    auto a = net::parse_server_addresses(*server);
    if (!a) return Error{a.error()};
    if (auto why = apply_server(c, *a)) return Error{*why};
  }
  if (tls_fingerprint) {
    auto fp = tls::parse_fingerprint(*tls_fingerprint);
    if (!fp)
      return Error{"--tls-fingerprint: expected 32 bytes in hex (AB:CD:...), got \"" +
                   *tls_fingerprint + "\""};
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
    if (!c.engine) return Error{"--protocol: it is the protocol of an engine program (--engine)"};
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
    if (c.accept.rules.empty()) return Error{"--rules: no rule variant named"};
  }
  if (seek) {
    auto t = parse_time_control(*seek);
    if (!t) return Error{"--seek: " + t.error()};
    SeekSettings s = c.seek.value_or(SeekSettings{});
    s.time = *t;
    if (!c.accept.rules.empty())
      s.rules = c.accept.rules.front();
    else if (c.engine && c.protocol == ai::ExternalProtocol::Botzone)
      s.rules = "botzone8";
    c.seek = s;
  }
  if (rated) {
    if (!c.seek) return Error{"--rated: it applies to the games sought (--seek)"};
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

  auto finished = finish_config(std::move(c));
  if (!finished) return Error{finished.error()};
  return CommandLine{*finished, std::nullopt};
}

}  // namespace amazons::bot
