// The bot: one account on a server, logged in with the bot flag, that finds games and plays them
// with the engine or an external engine program. It joins open games that fit its filters,
// accepts fitting challenges, seeks games when told to, plays up to max_games at once (one
// Player and one ServerGame each), offers rematches when told to, and logs what it does as
// structured lines.
//
// Threads: run() owns the calling thread. The connection delivers to it by polling, so all the
// bot's decisions run there, one at a time; players think on threads of their own.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ai/levels.h"
#include "bot/bot_config.h"
#include "common/log.h"
#include "net/address.h"
#include "net/connection.h"
#include "net/server_game.h"

namespace amazons::bot {

class Bot final : private net::ServerGameObserver {
 public:
  // Loads the engine levels (for --level) and checks that the level exists. The error is one
  // line for people, in `t`'s language; so are the sentences the bot writes into its log (why it
  // declines a game, how to mend a refused certificate). The log's events and keys stay as they
  // are, for tools that read it.
  static Expected<std::unique_ptr<Bot>, std::string> create(BotConfig config, Log& log,
                                                            client::Catalogue t);
  ~Bot() override;
  Bot(const Bot&) = delete;
  Bot& operator=(const Bot&) = delete;

  // Connects and plays until the bot is done: `games` games finished, stopped, or the server
  // refused it for good. Returns the exit status: 0 done or stopped, 1 refused or gave up.
  int run();
  // Any thread (a signal handler too): the first call stops taking new games and lets the ones
  // in progress finish; the second resigns them and leaves at once.
  void stop() { ++stop_requests_; }

 private:
  struct Seat;  // a game in progress: its player and its driver

  Bot(BotConfig config, ai::AiConfig ai, Log& log, client::Catalogue t);
  std::unique_ptr<Player> make_player(const std::string& game);
  // Makes the connection (TLS with `pin` trusted, if any) and starts it.
  void connect(std::optional<std::string> pin);
  // TLS: the pin for this server, from --tls-fingerprint or the known-servers file.
  std::optional<std::string> known_pin();
  // "host:port": how the known-servers file names this server.
  std::string server_key() const { return net::host_port({config_.host, config_.port}); }
  // A certificate no CA vouches for: trust it if nothing was pinned (first use), else refuse.
  void on_certificate(const net::ClientError& e);
  void on_event(const net::ConnectionEvent& event);
  void on_message(const protocol::ServerMessage& message);
  void on_login(const net::LoginEvent& login);
  void on_challenge(const protocol::ChallengeReceived& c);
  void open_seat(const std::string& game);
  void look_for_games();
  void join(const protocol::GameSummary& g);
  void keep_seeking();
  // Offers a rematch once per game, when the settings and the room allow.
  void offer_rematch(const std::string& game, const std::string& opponent);
  void tick();
  void drain();
  void quit_now();
  int active_games() const;
  bool has_room() const;
  bool wants_games() const;

  void on_game_start(const net::ServerGame& game) override;
  void on_game_move(const net::ServerGame& game, Move move, Color mover) override;
  void on_game_end(const net::ServerGame& game, const GameResult& result) override;
  void on_game_note(const net::ServerGame& game, std::string_view what,
                    const std::string& detail) override;

  const BotConfig config_;
  const ai::AiConfig ai_;
  Log& log_;
  const client::Catalogue t_;
  std::unique_ptr<net::Connection> connection_;
  std::map<std::string, std::unique_ptr<Seat>> seats_;  // games in progress
  std::vector<std::unique_ptr<Seat>> retired_;          // finished, until their players are idle
  // Games on their way, each holding a place: joins and accepted challenges until answered,
  // rematch offers until the opponent answers or kRematchWait passes. Key -> opponent's name.
  std::map<std::string, std::string> pending_;
  std::set<std::string> rematches_;        // games we offered a rematch for
  std::optional<std::string> trust_next_;  // first use: connect again trusting this fingerprint
  bool logged_in_ = false;
  bool seeking_ = false;
  bool draining_ = false;
  bool tournament_over_ = false;
  bool done_ = false;
  int exit_status_ = 0;
  int started_games_ = 0;
  int finished_games_ = 0;
  std::uint64_t seed_ = 1;
  std::atomic<int> stop_requests_{0};
  int stops_seen_ = 0;
};

}  // namespace amazons::bot
