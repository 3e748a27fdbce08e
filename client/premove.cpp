#include "client/premove.h"

#include <cassert>

#include "common/notation.h"

namespace amazons::client {

Position premove_position(const Position& pos, Color me) {
  if (pos.side_to_move() == me) return pos;
  // A position that was valid stays valid with the other side to move.
  auto flipped = Position::make(pos.size(), pos.queens(Color::White), pos.queens(Color::Black),
                                pos.arrows(), me);
  assert(flipped.has_value());
  return *flipped;
}

std::string premove_drop_reason(Move m, MoveError e) {
  switch (e) {
    case MoveError::GameOver:
      return "you have no move left";
    case MoveError::DestinationOccupied:
      return "the square " + to_string(m.to()) + " is now blocked";
    case MoveError::PathBlocked:
      return "the queen's way to " + to_string(m.to()) + " is now blocked";
    case MoveError::ArrowOccupied:
      return "the arrow square " + to_string(m.arrow()) + " is now blocked";
    case MoveError::ArrowPathBlocked:
      return "the arrow's way to " + to_string(m.arrow()) + " is now blocked";
    case MoveError::OffBoard:
    case MoveError::NotOwnQueen:
    case MoveError::NotOnQueenLine:
    case MoveError::ArrowNotOnLine:
      break;  // the opponent cannot cause these; said as the rules core says them
  }
  return std::string(describe(e));
}

std::string Premove::Outcome::notice() const {
  if (!error) return {};
  return "Premove " + to_string(move) + " dropped: " + premove_drop_reason(move, *error);
}

bool Premove::set(const Position& pos, Color me, Move m) {
  if (move_ || premove_position(pos, me).check(m)) return false;
  move_ = m;
  return true;
}

bool Premove::cancel() { return std::exchange(move_, std::nullopt).has_value(); }

std::optional<Premove::Outcome> Premove::resolve(const Position& pos) {
  if (!move_) return std::nullopt;
  const Move m = *std::exchange(move_, std::nullopt);
  return Outcome{m, pos.check(m)};
}

std::string Premove::panel_line() const {
  return move_ ? "Premove " + to_string(*move_) + ", Esc cancels" : std::string();
}

}  // namespace amazons::client
