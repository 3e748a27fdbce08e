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

std::string premove_drop_reason(const Catalogue& t, Move m, MoveError e) {
  switch (e) {
    case MoveError::GameOver:
      return t("premove.why.no_moves");
    case MoveError::DestinationOccupied:
      return t("premove.why.square", {{"square", to_string(m.to())}});
    case MoveError::PathBlocked:
      return t("premove.why.queen_way", {{"square", to_string(m.to())}});
    case MoveError::ArrowOccupied:
      return t("premove.why.arrow_square", {{"square", to_string(m.arrow())}});
    case MoveError::ArrowPathBlocked:
      return t("premove.why.arrow_way", {{"square", to_string(m.arrow())}});
    case MoveError::OffBoard:
    case MoveError::NotOwnQueen:
    case MoveError::NotOnQueenLine:
    case MoveError::ArrowNotOnLine:
      break;  // the opponent cannot cause these; said as the server's refusal would say them
  }
  return t("error.illegal_move." + std::string(code(e)));
}

std::string Premove::Outcome::notice(const Catalogue& t) const {
  if (!error) return {};
  return t("premove.dropped",
           {{"move", to_string(move)}, {"why", premove_drop_reason(t, move, *error)}});
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

std::string Premove::panel_line(const Catalogue& t) const {
  return move_ ? t("premove.line", {{"move", to_string(*move_)}}) : std::string();
}

}  // namespace amazons::client
