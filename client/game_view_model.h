// What the game screen shows, kept up to date from the game's events: the position, the last
// move, the move list, both players with their clocks, whose turn it is, the result and the
// actions that apply. Pure: time is passed in, so tests can move it. Render thread only.
#pragma once

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "client/game_text.h"
#include "common/player.h"

namespace amazons::client {

using SteadyTime = std::chrono::steady_clock::time_point;

// The buttons of the game screen.
enum class GameAction : std::uint8_t {
  Resign,   // the local human to move gives up
  Abort,    // call the game off, only before both sides have moved
  Leave,    // back to the menu; a running local game stays saved and can be resumed
  Rematch,  // a new game with the same settings, the players changing colours
  Replay,   // step through the finished game
};

class GameViewModel {
 public:
  // `human[index_of(c)]` is true when colour c is played by a person at this screen.
  GameViewModel(const GameStart& start, std::array<bool, 2> human);

  void on_turn(Color to_move, const ClockState& clock, SteadyTime at);
  void on_move(const Position& after, const RecordedMove& m, Color mover, SteadyTime at);
  void on_end(const GameResult& result, const std::string& detail, SteadyTime at);

  const Position& position() const { return position_; }
  const RuleVariant& rules() const { return rules_; }
  const PlayerInfo& player(Color c) const { return players_[idx(c)]; }
  bool is_human(Color c) const { return human_[idx(c)]; }
  const std::vector<Move>& moves() const { return moves_; }
  std::optional<Move> last_move() const;
  std::vector<MoveRow> move_rows() const { return client::move_rows(moves_); }

  bool running() const { return !result_; }
  Color to_move() const { return position_.side_to_move(); }
  // A person at this screen is to move (and the game runs).
  bool human_to_move() const { return running() && is_human(to_move()); }
  // A program is choosing its move for the side to move.
  bool thinking(Color c) const { return running() && to_move() == c && !is_human(c); }

  bool has_clock() const { return clock_.control.kind != TimeControl::Kind::Unlimited; }
  // The time left for `c` at `now`, running down for the side to move.
  Millis clock(Color c, SteadyTime now) const;
  bool low_time(Color c, SteadyTime now) const;
  std::string clock_text(Color c, SteadyTime now) const { return format_clock(clock(c, now)); }

  // "White to move", "Black is thinking...", or the result title once the game is over.
  std::string status() const;
  const std::optional<GameResult>& result() const { return result_; }
  // The game driver's detail of an illegal move that ended the game; else empty.
  const std::string& end_detail() const { return detail_; }
  std::string result_title() const;
  std::string result_reason() const;

  // The actions that apply now, in the order the screen shows them.
  std::vector<GameAction> actions() const;

 private:
  static std::size_t idx(Color c) { return static_cast<std::size_t>(index_of(c)); }

  RuleVariant rules_;
  Position position_;
  std::array<PlayerInfo, 2> players_;
  std::array<bool, 2> human_;
  std::vector<Move> moves_;
  ClockState clock_;
  std::optional<SteadyTime> turn_started_;  // when the side to move's clock started running
  std::optional<GameResult> result_;
  std::string detail_;
};

// The time below which a clock shows the low-time warning: a quarter of the base time, at most
// 20 seconds.
Millis low_time_threshold(const TimeControl& tc);

}  // namespace amazons::client
