// The engine as a Player: thinks on its own thread when asked for a move and replies from there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ai/levels.h"
#include "ai/search.h"
#include "common/player.h"

namespace amazons::ai {

class AIPlayer final : public Player {
 public:
  // `seed` varies the deliberate mistakes of the weak levels from game to game.
  AIPlayer(Level level, const AiConfig& config, std::string name = {}, std::uint64_t seed = 1);
  // With explicit engine settings instead of the level's width and noise (for tuning tools); the
  // level still gives the limits.
  AIPlayer(Level level, const SearchSettings& settings, std::string name = {},
           std::uint64_t seed = 1);
  ~AIPlayer() override;
  AIPlayer(const AIPlayer&) = delete;
  AIPlayer& operator=(const AIPlayer&) = delete;

  PlayerInfo info() const override { return {name_, true, std::nullopt}; }
  void on_game_start(const GameStart& start) override;
  // Never blocks: the search runs on its own thread and replies when done. The time taken is the
  // level's, tightened by the request's clock.
  void request_move(const MoveRequest& request, ReplyFn reply) override;
  // The time this player promises to answer the request within (its hard limit plus the margin
  // it keeps for the reply), or nullopt when only depth or node limits bound it.
  std::optional<Millis> time_limit(const MoveRequest& request) const;
  // Stops the search; its (ignored) reply comes at once.
  void cancel_request() override;
  // Starts pondering after this player's own move (see set_ponder).
  void on_move(Move move, Color mover) override;
  void on_game_end(const GameResult& result) override;

  // Pondering: after its move the player thinks, on the opponent's time, about the position after
  // the reply it expects (the second move of its principal variation). When that reply comes, the
  // search for the next move starts with the table the ponder search filled (as the engine
  // protocol's ponderhit); another reply just ends the ponder search. Off by default; set before
  // the game starts.
  void set_ponder(bool on) { ponder_ = on; }
  struct PonderStats {
    int hits = 0;    // the expected reply came
    int misses = 0;  // another one came
  };
  PonderStats ponder_stats() const;

  // Called on the search thread after each completed depth and with each result. Set before the
  // game starts.
  void set_progress_callback(std::function<void(const SearchProgress&)> cb) {
    on_progress_ = std::move(cb);
  }
  // The last finished search, for tools that show what the engine thought.
  std::optional<SearchResult> last_result() const;
  const Level& level() const { return level_; }

 private:
  Level level_;
  std::string name_;
  std::uint64_t seed_;
  std::uint64_t games_ = 0;
  SearchSettings settings_;
  std::unique_ptr<Search> search_;
  std::function<void(const SearchProgress&)> on_progress_;
  // The driver's thread only (request_move, on_move, on_game_start/end).
  bool ponder_ = false;
  Color color_ = Color::White;
  std::optional<Position> asked_;      // the position of the last request
  std::optional<Position> pondering_;  // the position the ponder search thinks about
  void end_ponder();
  mutable std::mutex mutex_;
  std::optional<SearchResult> last_;  // guarded by mutex_
  PonderStats stats_;                 // guarded by mutex_
};

}  // namespace amazons::ai
