// One game as a pure state machine: seats, position, clock, result. `handle(seat, message)`
// returns the messages to send and the rows to store; it touches no socket and no database, so
// tests drive whole games through it. The lobby decides who sits where and routes the output.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "common/position.h"
#include "common/protocol.h"
#include "server/core/clock.h"
#include "server/core/storage.h"

namespace amazons::server {

// Who a room message is for. The lobby maps seats to connections.
enum class Audience : std::uint8_t { White, Black, Spectators, Everyone };
constexpr Audience seat_audience(Color c) {
  return c == Color::White ? Audience::White : Audience::Black;
}

struct RoomEvent {
  Audience to = Audience::Everyone;
  protocol::ServerMessage message;
};

struct RoomOutput {
  std::vector<RoomEvent> events;
  std::optional<protocol::Error> error;  // the request was refused and nothing changed
  std::optional<MoveRow> stored_move;    // store before delivering the events
  bool ended = false;                    // the game just ended: store its row
};

struct GameSettings {
  std::string rules;  // the name asked for
  RuleVariant variant;
  TimeControl time;
  bool rated = false;
  std::optional<std::string> invite;  // private games
};

class GameRoom {
 public:
  // An open game with empty seats. `claim_grace`: how long a player must stay disconnected
  // before the opponent may claim the game.
  GameRoom(GameId id, GameSettings settings, Millis claim_grace);
  // A game read back from storage after a restart. Both players start offline, and the side to
  // move gets its stored remaining time again from `now`: downtime is charged to nobody.
  static Expected<GameRoom, std::string> restore(const StoredGame& stored, Millis claim_grace,
                                                 Instant now);

  GameId id() const { return id_; }
  std::string id_text() const { return std::to_string(id_); }
  const GameSettings& settings() const { return settings_; }
  protocol::GameStatus status() const { return status_; }
  const std::optional<PlayerInfo>& seat(Color c) const { return seats_[at(c)]; }
  std::optional<Color> color_of(std::string_view name) const;
  bool online(Color c) const { return !offline_since_[at(c)].has_value(); }
  int plies() const { return static_cast<int>(moves_.size()); }
  const Position& position() const { return position_; }
  const std::optional<GameResult>& result() const { return result_; }
  // The time `c` has left at `now`, never below zero; nullopt when the game is untimed.
  std::optional<Millis> time_left(Color c, Millis now) const {
    if (!clock_.timed()) return std::nullopt;
    return std::max(clock_.remaining(c, now), Millis{0});
  }
  // When the running clock runs out, for the lobby's timer.
  std::optional<Millis> deadline() const { return clock_.deadline(); }

  // Precondition: status() == Open and the seat is empty.
  void sit(Color c, PlayerInfo player);
  // Starts the game. Precondition: both seats taken, status() == Open.
  RoomOutput start(Instant now);

  // A player's request about this game: move, resign, abort or claim. Anything else is refused.
  RoomOutput handle(Color seat, const protocol::ClientMessage& message, Instant now);
  // Ends the game on time when the running clock has run out.
  RoomOutput tick(Instant now);
  // A seat's player connected or disconnected; tells everyone in the game.
  RoomOutput set_online(Color seat, bool online, Instant now);

  // Rematch: records the offer; true when both players have now offered.
  bool offer_rematch(Color seat);
  // A moderator's decision: a win for `winner` (EndReason::Adjudicated), or aborted when empty.
  // Refused unless the game is active.
  RoomOutput adjudicate(std::optional<Color> winner, Instant now);

  protocol::State state(std::optional<Color> viewer, Instant now, int spectators) const;
  protocol::GameSummary summary(int spectators) const;
  protocol::Start start_message(std::optional<Color> viewer, Instant now) const;
  GameRow row() const;
  GameRecord record() const;

 private:
  static std::size_t at(Color c) { return static_cast<std::size_t>(index_of(c)); }
  RoomOutput play(Color seat, const std::string& text, Instant now);
  RoomOutput resign(Color seat, Instant now);
  RoomOutput abort(Color seat, Instant now);
  RoomOutput claim(Color seat, Instant now);
  RoomOutput finish(GameResult result, Instant now, RoomOutput out = {});
  RoomOutput refuse(protocol::ErrorCode code, std::string message) const;

  GameId id_;
  GameSettings settings_;
  Millis claim_grace_;
  protocol::GameStatus status_ = protocol::GameStatus::Open;
  std::array<std::optional<PlayerInfo>, 2> seats_;
  Position position_;
  std::vector<RecordedMove> moves_;
  GameClock clock_;
  std::optional<GameResult> result_;
  Timestamp started_at_{};
  std::optional<Timestamp> ended_at_;
  std::array<std::optional<Millis>, 2> offline_since_;
  std::array<bool, 2> rematch_{};
};

}  // namespace amazons::server
