// Plays two Players against each other on this machine: hot-seat, person against AI, AI against
// AI, or any of them against a NetworkPlayer. Owns the position, checks every move, runs the
// clocks and keeps the record.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common/game_record.h"
#include "common/player.h"

namespace amazons {

// Told about the game as it goes, from the thread running LocalGame::play().
class GameObserver {
 public:
  virtual ~GameObserver() = default;
  virtual void on_start(const GameStart& /*white's view*/) {}
  virtual void on_turn(Color /*to_move*/, const ClockState&) {}
  virtual void on_move(const Position& /*after*/, const RecordedMove&, Color /*mover*/) {}
  // For IllegalMove, `detail` says which move and why; otherwise it is empty.
  virtual void on_end(const GameResult&, const std::string& /*detail*/) {}
};

struct LocalGameOptions {
  RuleVariant rules = standard_variant();
  TimeControl time_control;
  std::optional<Position> start;  // default: the variant's start position
  std::vector<Move> opening;      // played first, without asking anyone (must be legal)
  // Resuming a game: both clocks as they stood after the opening (indexed by index_of(Color)).
  // Default: both at the time control's initial time.
  std::optional<std::array<Millis, 2>> clock;
};

class LocalGame {
 public:
  // The players must outlive play().
  LocalGame(LocalGameOptions options, Player& white, Player& black);

  // Runs the game to its end on the calling thread and returns the record. A move that fails
  // Position::check loses the game for its player (EndReason::IllegalMove); so does a reply
  // that never comes before the player's clock runs out (EndReason::Time).
  GameRecord play(GameObserver* observer = nullptr);

  // Makes a running play() return soon, the game recorded as aborted. Any thread.
  void abort();

 private:
  struct Slot;  // one pending request's answer, shared with the reply function

  LocalGameOptions options_;
  Player* players_[2];
  std::atomic<bool> aborted_{false};
  std::mutex mutex_;               // guards current_
  std::shared_ptr<Slot> current_;  // the request being waited for, so abort() can wake it
};

// A player that picks uniformly among the legal moves: the weakest opponent possible.
class RandomPlayer final : public Player {
 public:
  explicit RandomPlayer(std::string name = "random", std::uint64_t seed = 1);
  PlayerInfo info() const override { return {name_, true, std::nullopt}; }
  void request_move(const MoveRequest& request, ReplyFn reply) override;

 private:
  std::string name_;
  std::uint64_t state_;
};

}  // namespace amazons
