// Premoves: a whole move entered while the opponent thinks, judged against the position as it
// stands (the opponent's queens and arrows where they are now), and sent the moment the
// opponent's move arrives if it is still legal there; otherwise it is dropped with a notice
// that says why. One premove at a time. Pure logic, no clock and no socket: the online game
// model owns one, the screens draw it and feed it. Single-threaded.
#pragma once

#include <optional>
#include <string>

#include "client/catalogue.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons::client {

// `pos` with `me` to move and nothing else changed: the position a premove is entered and
// checked in. Returns `pos` itself when `me` is already to move.
Position premove_position(const Position& pos, Color me);

// Why a premove that was legal when entered is illegal now, as the end of a sentence
// ("the arrow square g7 is now blocked"), in the catalogue's language.
std::string premove_drop_reason(const Catalogue& t, Move m, MoveError e);

class Premove {
 public:
  // What became of the premove when the opponent's move arrived.
  struct Outcome {
    Move move;
    std::optional<MoveError> error;  // nullopt: still legal, send it
    bool send() const { return !error.has_value(); }
    // "Premove d1-d7/g7 dropped: ..." for the person; empty when it is sent.
    std::string notice(const Catalogue& t) const;
  };

  // Records `m` as the premove of `me`. False, and nothing changes, when a premove is already
  // pending or `m` is not a legal move of `me` in `pos` as it stands (see premove_position).
  bool set(const Position& pos, Color me, Move m);
  const std::optional<Move>& move() const { return move_; }
  bool pending() const { return move_.has_value(); }
  // Drops the pending premove; false when there was none.
  bool cancel();
  // The opponent has moved and `pos` has the premove's side to move: takes the premove out and
  // says whether it is still legal. Nullopt when none was pending.
  std::optional<Outcome> resolve(const Position& pos);
  // The panel line while one is pending: "Premove d1-d7/g7, Esc cancels"; empty otherwise.
  std::string panel_line(const Catalogue& t) const;

 private:
  std::optional<Move> move_;
};

}  // namespace amazons::client
