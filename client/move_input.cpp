#include "client/move_input.h"

#include "common/movegen.h"

namespace amazons::client {

void MoveInput::reset(const Position& pos, bool enabled) {
  pos_ = pos;
  stage_ = enabled && !pos.is_game_over() ? InputStage::ChooseQueen : InputStage::Disabled;
  queen_ = destination_ = Square::none();
  targets_ = {};
  drag_from_.reset();
  press_reselected_ = false;
  ready_.reset();
}

void MoveInput::disable() {
  stage_ = InputStage::Disabled;
  queen_ = destination_ = Square::none();
  targets_ = {};
  drag_from_.reset();
}

bool MoveInput::is_selectable(Square s) const {
  return s.on_board(pos_.size()) && pos_.piece_at(s) == queen_of(pos_.side_to_move()) &&
         queen_destinations(pos_, s).any();
}

Bitboard MoveInput::selectable() const {
  Bitboard out;
  if (stage_ == InputStage::Disabled) return out;
  for (Square q : pos_.queens(pos_.side_to_move()))
    if (is_selectable(q) && !(stage_ == InputStage::ChooseArrow && q == queen_)) out.set(q);
  return out;
}

bool MoveInput::accepts(Square s) const {
  if (stage_ == InputStage::Disabled || !s.on_board(pos_.size())) return false;
  if (targets_.test(s)) return true;
  if (stage_ == InputStage::ChooseArrow && s == destination_) return true;
  return selectable().test(s);
}

void MoveInput::select(Square queen) {
  stage_ = InputStage::ChooseDestination;
  queen_ = queen;
  destination_ = Square::none();
  targets_ = queen_destinations(pos_, queen);
}

void MoveInput::choose_destination(Square to) {
  stage_ = InputStage::ChooseArrow;
  destination_ = to;
  targets_ = arrow_targets(pos_, queen_, to);
}

InputEffect MoveInput::press(Square s) {
  if (stage_ == InputStage::Disabled || !s.on_board(pos_.size())) return InputEffect::None;
  press_reselected_ = false;
  // In ChooseArrow the queen's old square is empty and always an arrow target, so targets come
  // before queens.
  if (stage_ == InputStage::ChooseArrow && targets_.test(s)) {
    ready_ = Move(queen_, destination_, s);
    disable();
    return InputEffect::MoveReady;
  }
  if (stage_ == InputStage::ChooseDestination && targets_.test(s)) {
    choose_destination(s);
    return InputEffect::Changed;
  }
  if (stage_ == InputStage::ChooseArrow && s == destination_) {
    drag_from_ = s;  // the moved queen may be dragged on to another destination
    return InputEffect::Changed;
  }
  if (is_selectable(s)) {
    press_reselected_ = stage_ == InputStage::ChooseDestination && s == queen_;
    select(s);
    drag_from_ = s;
    return InputEffect::Changed;
  }
  return InputEffect::None;
}

InputEffect MoveInput::release(Square s) {
  if (!drag_from_) return InputEffect::None;
  const Square from = *drag_from_;
  drag_from_.reset();
  if (s == from) {
    if (!press_reselected_) return InputEffect::Changed;
    // A click on the queen that was already selected puts it down again.
    press_reselected_ = false;
    stage_ = InputStage::ChooseQueen;
    queen_ = Square::none();
    targets_ = {};
    return InputEffect::Changed;
  }
  if (!s.on_board(pos_.size())) return InputEffect::Changed;
  if (stage_ == InputStage::ChooseDestination && targets_.test(s)) {
    choose_destination(s);
    return InputEffect::Changed;
  }
  if (stage_ == InputStage::ChooseArrow && from == destination_ &&
      queen_destinations(pos_, queen_).test(s)) {
    choose_destination(s);
    return InputEffect::Changed;
  }
  return InputEffect::Changed;  // an illegal drop: the queen goes back, the selection stays
}

InputEffect MoveInput::back() {
  drag_from_.reset();
  switch (stage_) {
    case InputStage::ChooseArrow:
      select(queen_);
      return InputEffect::Changed;
    case InputStage::ChooseDestination:
      stage_ = InputStage::ChooseQueen;
      queen_ = Square::none();
      targets_ = {};
      return InputEffect::Changed;
    case InputStage::ChooseQueen:
    case InputStage::Disabled:
      break;
  }
  return InputEffect::None;
}

Move MoveInput::take_move() {
  const Move m = *ready_;
  ready_.reset();
  return m;
}

std::string stage_code(InputStage s) {
  switch (s) {
    case InputStage::Disabled:
      return "disabled";
    case InputStage::ChooseQueen:
      return "choose_queen";
    case InputStage::ChooseDestination:
      return "choose_destination";
    case InputStage::ChooseArrow:
      return "choose_arrow";
  }
  return "";
}

std::string stage_hint(InputStage s) {
  switch (s) {
    case InputStage::ChooseQueen:
      return "Pick up one of your queens.";
    case InputStage::ChooseDestination:
      return "Move it to a marked square.";
    case InputStage::ChooseArrow:
      return "Shoot the arrow to a ringed square.  Esc: back";
    case InputStage::Disabled:
      break;
  }
  return {};
}

}  // namespace amazons::client
