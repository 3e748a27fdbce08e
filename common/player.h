// The one interface every kind of player implements: a person at the desktop client, the engine
// (AIPlayer), an external engine process, or an opponent whose moves arrive over the network
// (NetworkPlayer). A driver such as LocalGame asks it for moves and tells it what happens.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "common/move.h"
#include "common/position.h"
#include "common/time_control.h"
#include "common/variant.h"

namespace amazons {

// Both clocks at one moment. For TimeControl::Kind::Unlimited the times mean nothing.
struct ClockState {
  TimeControl control;
  std::array<Millis, 2> remaining{};  // indexed by index_of(Color)
  Millis left(Color c) const { return remaining[static_cast<std::size_t>(index_of(c))]; }
};

struct GameStart {
  RuleVariant rules;
  Position start;  // the position before the first move
  PlayerInfo white;
  PlayerInfo black;
  TimeControl time_control;
  Color your_color = Color::White;
};

// Everything a player may want to know when it is asked to move.
struct MoveRequest {
  Position position;          // the player's colour is to move; the game is not over
  std::vector<Move> history;  // every move so far, from GameStart::start
  ClockState clock;           // at the moment the request was made
};

struct PlayerAction {
  enum class Kind : std::uint8_t { Play, Resign };
  Kind kind = Kind::Play;
  Move move;  // for Play

  static PlayerAction play(Move m) { return {Kind::Play, m}; }
  static PlayerAction resign() { return {Kind::Resign, Move::none()}; }
};

// Delivers a player's answer to the driver. Safe to call from any thread, at most once per
// request; calls after the request was cancelled are ignored.
using ReplyFn = std::function<void(PlayerAction)>;

class Player {
 public:
  virtual ~Player() = default;

  virtual PlayerInfo info() const = 0;

  // A new game begins. Called before any request.
  virtual void on_game_start(const GameStart&) {}

  // Asks for a move. Never blocks: the answer goes to `reply`, once, from any thread (a player
  // may answer from inside this call). Until it answers or the request is cancelled, no other
  // request is made to this player.
  virtual void request_move(const MoveRequest& request, ReplyFn reply) = 0;

  // The driver no longer wants the pending answer (time ran out, the game was stopped). The
  // player should stop thinking; a late reply is ignored. Harmless when nothing is pending.
  virtual void cancel_request() {}

  // Every move played in the game, the player's own included, in order.
  virtual void on_move(Move, Color /*mover*/) {}

  virtual void on_game_end(const GameResult&) {}
};

}  // namespace amazons
