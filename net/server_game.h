// Plays one game that a server runs: the driver for games against remote opponents. It mirrors
// the game from the server's messages and plays this account's seat with a local Player (the
// engine, an external engine program, the person at the desktop client); the other seat is a
// NetworkPlayer whose moves are the ones the server reports.
//
// The server is the authority. A move, ours included, becomes part of the game when the server
// reports it (`moved`); clocks are the server's; the game ends when the server says so, with the
// server's result, and never because of anything judged here. What the driver adds is on the
// local player's side: it asks for a move with the server's clock less a margin for the network,
// checks the answer with the rules core before sending it, resends an answer that a dropped
// connection may have lost, and re-synchronises from the full `state` the server sends when the
// login resumes the game.
//
// Threads: every member function, the destructor included, runs in the link's callback context
// (see net/connection.h). The local player is called on a thread of the game's own, so a player
// that blocks (an engine program starting up) never stalls the connection; its answers come
// back through the link.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/player.h"
#include "common/position.h"
#include "common/protocol.h"
#include "net/connection.h"
#include "net/network_player.h"
#include "net/serial_executor.h"

namespace amazons::net {

struct ServerGameOptions {
  // Kept back from the local player's clock so that its move reaches the server in time; the
  // link's measured round trip is added to it.
  Millis lag_margin{300};
  // When the local player has not answered by the time its clock, less half that margin, is
  // spent, its request is cancelled and the game resigned: for programs, so that a hung one
  // resigns instead of losing on time in silence. A person is left to the clock.
  bool resign_before_flag = false;
  // Claims the win when the opponent stays disconnected past the server's grace period.
  bool claim_abandoned = false;
};

class ServerGame;

// What happens in a server game, for logs and views. Called in the callback context.
class ServerGameObserver {
 public:
  virtual ~ServerGameObserver() = default;
  virtual void on_game_start(const ServerGame&) {}
  virtual void on_game_move(const ServerGame&, Move, Color /*mover*/) {}
  virtual void on_game_end(const ServerGame&, const GameResult&) {}
  // Something worth a log line, e.g. "resync", "illegal_answer", "resign_before_flag", "claim",
  // "send_failed"; `detail` is a sentence.
  virtual void on_game_note(const ServerGame&, std::string_view /*what*/,
                            const std::string& /*detail*/) {}
};

class ServerGame {
 public:
  // `local` plays this account's seat; it must outlive the game, and so must `link` and
  // `observer`. Nothing happens until the game's `start` or `state` is handled.
  ServerGame(std::string id, Player& local, ServerLink& link, ServerGameOptions options = {},
             ServerGameObserver* observer = nullptr);
  // Cancels the local player's request and waits for the calls queued to it to return. Answers
  // that come later are dropped.
  ~ServerGame();
  ServerGame(const ServerGame&) = delete;
  ServerGame& operator=(const ServerGame&) = delete;

  // A message from the server: start, state, moved, end and presence drive the game; messages
  // about other games, and other types, are ignored.
  void handle(const protocol::ServerMessage& message);

  const std::string& id() const { return id_; }
  bool started() const { return started_; }
  bool finished() const { return result_.has_value(); }
  const std::optional<GameResult>& result() const { return result_; }
  // True while calls to the local player are still queued or running (after the end, too).
  bool busy() const { return executor_ && executor_->busy(); }

  // Valid once started().
  Color color() const { return color_; }
  const RuleVariant& rules() const { return rules_; }
  const std::string& rules_name() const { return rules_name_; }
  const TimeControl& time_control() const { return time_; }
  bool rated() const { return rated_; }
  const protocol::PlayerRef& player(Color c) const { return c == Color::White ? white_ : black_; }
  const Position& position() const { return position_; }
  const std::vector<Move>& moves() const { return moves_; }
  const NetworkPlayer& opponent() const { return *network_; }
  // The clock as the server last reported it, counted down since for the side to move.
  std::optional<ClockState> clock_now() const;

 private:
  struct Gate;  // lets late answers find the game, or find it gone

  void begin(const std::string& rules_name, const nlohmann::json& variant,
             const protocol::PlayerRef& white, const protocol::PlayerRef& black,
             const TimeControl& time, bool rated, std::optional<Color> color);
  void on_state(const protocol::State& s);
  void on_moved(const protocol::Moved& m);
  void on_presence(const protocol::Presence& p);
  void resync(const std::vector<std::string>& moves, const std::string& why);
  void request_state(const std::string& why);
  void set_clock(const std::optional<protocol::ClockView>& clock);
  bool apply(Move m);
  void ask();
  void on_local_answer(std::uint64_t serial, PlayerAction action);
  void send_answer();
  void resign(const std::string& why);
  void schedule_claim(Millis delay);
  void finish(const GameResult& result);
  void note(std::string_view what, const std::string& detail);
  ClockState budget(Color side) const;
  Millis margin() const;

  const std::string id_;
  Player& local_;
  ServerLink& link_;
  const ServerGameOptions options_;
  ServerGameObserver* const observer_;
  std::shared_ptr<Gate> gate_;
  std::unique_ptr<SerialExecutor> executor_;  // calls to local_
  std::unique_ptr<NetworkPlayer> network_;

  bool started_ = false;
  std::optional<GameResult> result_;
  Color color_ = Color::White;
  RuleVariant rules_ = standard_variant();
  std::string rules_name_;
  TimeControl time_;
  bool rated_ = false;
  protocol::PlayerRef white_, black_;
  Position start_{standard_variant()};
  Position position_{standard_variant()};
  std::vector<Move> moves_;
  std::optional<protocol::ClockView> clock_;
  std::chrono::steady_clock::time_point clock_at_;  // when clock_ arrived

  // The turn being played: which ply was asked for, the request's serial number (answers and
  // timers of older requests are ignored), and the local player's answer once it came.
  std::optional<std::size_t> asked_ply_;
  std::uint64_t serial_ = 0;
  std::optional<Move> answer_;
  bool resigned_ = false;
  std::uint64_t claim_serial_ = 0;
};

}  // namespace amazons::net
