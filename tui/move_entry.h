// Moves typed in the notation ("d1-d7/g7"): what the text typed so far can still become, the
// completion every fitting move agrees on, and why nothing fits. Lenient about the form:
// upper case, spaces and missing separators ("D1 d7 g7", "d1d7g7") are read the same. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "client/catalogue.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons::tui {

struct MoveEntry {
  std::string canonical;         // the typed text in the notation's own form ("d1-d7/")
  std::vector<Move> fits;        // the legal moves whose notation starts with `canonical`
  std::string completion;        // `canonical` extended as far as every fitting move agrees
  std::string problem;           // why no legal move fits (empty when one does, or nothing typed)
  Square from = Square::none();  // the queen every fitting move moves (once some text is typed)
  Square to = Square::none();    // its destination, once typed and the same for every fit
  bool unique() const { return fits.size() == 1; }
};

// Reads `text` as the start of a move of the side to move in `pos`; says why nothing fits in
// the words of `t`.
MoveEntry read_move_entry(const client::Catalogue& t, const Position& pos, std::string_view text);

}  // namespace amazons::tui
