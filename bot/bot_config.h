// amazons-bot's settings: built-in defaults, then a JSON file (config/bot.json or --config),
// then command-line flags. Every problem is reported as "setting: what is wrong", in the
// language of the catalogue handed in.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ai/tools/external_engine.h"
#include "client/catalogue.h"
#include "common/expected.h"
#include "common/protocol.h"
#include "common/time_control.h"
#include "net/address.h"
#include "net/connection.h"

namespace amazons::bot {

enum class RatedFilter : std::uint8_t { Any, Rated, Casual };

// Which games the bot takes: challenges it accepts and open games it joins.
struct GameFilter {
  std::vector<std::string> rules;  // rule variant names; empty: any
  bool unlimited = true;           // games without a clock
  // Bounds on the time a side has for the game, estimated as initial + 40 x increment, or
  // 40 x the time per move; 0: no bound.
  double min_seconds = 0;
  double max_seconds = 0;
  RatedFilter rated = RatedFilter::Any;
  bool bots = true;  // opponents that are programs too
};

// A quick-pairing request the bot keeps open while it has room for a game.
struct SeekSettings {
  std::string rules = "standard";
  TimeControl time;
  bool rated = false;
};

struct BotConfig {
  // Where and who.
  std::string host = "127.0.0.1";
  unsigned short port = 7420;
  bool tls = false;  // "server": "tls://host:port"
  // "server": "a:7420,b:7420": the further nodes of a cluster, tried in turn (net::Connection).
  std::vector<net::ConnectionOptions::Endpoint> more_servers;
  // TLS: accept exactly this certificate (SHA-256, "AB:CD:..."); without it a certificate the
  // system's CAs vouch for, else the one remembered in known_servers (trust on first use).
  std::optional<std::string> tls_fingerprint;
  // TLS: the fingerprints first seen per server ("host:port FINGERPRINT" lines); empty: none kept.
  std::filesystem::path known_servers;
  std::string name = "amazons-bot";
  std::optional<std::string> password;
  std::optional<std::string> server_password;

  // Who plays: the built-in engine at a level, or an external program.
  std::string level = "medium";
  std::optional<std::string> engine;  // a command line, run with /bin/sh -c
  ai::ExternalProtocol protocol = ai::ExternalProtocol::Engine;
  int engine_restarts = 2;          // per game, for a program that crashes or prints garbage
  std::filesystem::path ai_config;  // the engine levels (config/ai.json)
  int threads = 1;                  // search threads per game
  int hash_mb = 32;                 // transposition table per game
  // The built-in engine thinks on the opponent's time about the reply it expects, and keeps
  // what it learned when that reply comes (AIPlayer::set_ponder). Not for engine programs.
  bool ponder = false;

  // Which games.
  int max_games = 1;  // played at once
  bool join_open = true;
  bool accept_challenges = true;
  std::optional<SeekSettings> seek;
  bool rematch = false;
  bool claim = true;  // claim games whose opponent stays away past the grace period
  int games = 0;      // play this many games, then leave; 0: no end
  // Join this tournament at every login, play the games it pairs, and leave when it ends.
  std::optional<std::int64_t> tournament;
  GameFilter accept;

  // Timing and logs.
  Millis lag_margin{300};      // kept back from the clock for the network (plus the round trip)
  Millis list_interval{5000};  // how often to look for open games
  std::string log_level = "info";
};

// Where the bot remembers the certificates of servers it met over TLS:
// $XDG_STATE_HOME/amazons/known_servers, else $HOME/.local/state/amazons/known_servers, else (on
// Windows) %LOCALAPPDATA%\amazons\known_servers; empty when none is an absolute path.
std::filesystem::path default_known_servers();
// Takes the server from parsed addresses (the first, then the further nodes of a cluster); tcp://
// and tls:// only (the bot speaks no WebSocket).
// The error is in `t`'s language, as are those below.
std::optional<std::string> apply_server(BotConfig& c, const std::vector<net::ServerAddress>& all,
                                        const client::Catalogue& t);
// Why the server address given as `path` (the setting or the flag) cannot be used.
std::string address_text(const client::Catalogue& t, std::string_view path,
                         const net::AddressError& e);

// Applies the settings in a JSON object onto `config` (unknown keys are refused).
Expected<BotConfig, std::string> apply_bot_json(BotConfig config, const nlohmann::json& j,
                                                const client::Catalogue& t);
Expected<BotConfig, std::string> load_bot_config(BotConfig config,
                                                 const std::filesystem::path& path,
                                                 const client::Catalogue& t);

// Checks that the settings fit together; fills in what follows from others (a Botzone program
// plays only the botzone8 variant). Call after the file and the flags are applied. The error is
// in `t`'s language.
Expected<BotConfig, std::string> finish_config(BotConfig config, const client::Catalogue& t);

// Why a game with these settings does not fit the filter (in `t`'s language, for the log), or
// nullopt when it does.
std::optional<std::string> refusal(const GameFilter& filter, const std::string& rules,
                                   const TimeControl& time, bool rated,
                                   const protocol::PlayerRef& opponent, const client::Catalogue& t);

std::string_view to_string(RatedFilter f);

}  // namespace amazons::bot
