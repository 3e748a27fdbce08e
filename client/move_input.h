// The input state machine of the game screen: how presses, releases and "back" on board squares
// become one legal move. Pure logic; the view translates pixels to squares and draws what it
// says. Single-threaded: used by the render thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/bitboard.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons::client {

enum class InputStage : std::uint8_t {
  Disabled,           // not a local human's turn, or a move was entered: input is ignored
  ChooseQueen,        // waiting for an own queen that can move
  ChooseDestination,  // a queen is selected; its legal destinations are the targets
  ChooseArrow,        // the destination is chosen; the legal arrow targets are the targets
};

enum class InputEffect : std::uint8_t {
  None,       // nothing changed (an illegal or meaningless input)
  Changed,    // the stage, selection or drag changed
  MoveReady,  // a complete legal move was entered: take it with take_move()
};

// A click is a press and a release on the same square; a drag is a press on a queen and a
// release elsewhere. Pressing acts at once (select a queen, choose a destination or an arrow);
// releasing somewhere else drops the dragged queen there if that is a legal destination, and
// otherwise puts it back. Only highlighted squares are accepted, so an illegal move cannot be
// entered.
// "choose_queen", ... for state dumps and tests.
std::string stage_code(InputStage s);
// The hint for the person entering a move at this stage (the desktop and the terminal client).
std::string stage_hint(InputStage s);

class MoveInput {
 public:
  // Starts entering a move in `pos` (its side to move is the one entering); `enabled` is false
  // when the side to move is not a local human. Precondition for enabled: the game is running.
  void reset(const Position& pos, bool enabled);
  void disable();

  InputStage stage() const { return stage_; }
  Square queen() const { return queen_; }              // selected queen (two middle stages)
  Square destination() const { return destination_; }  // chosen destination (ChooseArrow)
  // Squares a press would complete the current stage on: destinations or arrow targets.
  Bitboard targets() const { return targets_; }
  // Own queens that have a legal move, so selecting them is possible now.
  Bitboard selectable() const;
  // Whether pressing `s` now would do something (for hover feedback).
  bool accepts(Square s) const;
  // The square a queen is being dragged from, while the button is held after pressing a queen.
  std::optional<Square> drag_origin() const { return drag_from_; }

  // Mouse button pressed on `s` (Square::none() when off the board).
  InputEffect press(Square s);
  // Mouse button released on `s` (Square::none() when off the board).
  InputEffect release(Square s);
  // Right click or Esc: ChooseArrow -> ChooseDestination -> ChooseQueen; also ends a drag.
  InputEffect back();

  // The entered move, if the last effect was MoveReady and it was not taken yet.
  std::optional<Move> ready_move() const { return ready_; }
  // Returns the entered move and leaves input disabled until the next reset.
  // Precondition: ready_move().
  Move take_move();

 private:
  void select(Square queen);
  void choose_destination(Square to);
  bool is_selectable(Square s) const;

  Position pos_{standard_variant()};
  InputStage stage_ = InputStage::Disabled;
  Square queen_ = Square::none();
  Square destination_ = Square::none();
  Bitboard targets_;
  std::optional<Square> drag_from_;
  bool press_reselected_ = false;  // the press was on the queen that was already selected
  std::optional<Move> ready_;
};

}  // namespace amazons::client
