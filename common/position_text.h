// The compact text form of a position (see docs/POSITION_FORMAT.md):
//   "3b2b3/10/10/b8b/10/10/w8w/10/10/3w2w3 w"
// ranks from the top, files from the left; W/B a queen, x an arrow, a number a run of empty
// squares; then the side to move, w or b. The board size is the number of ranks.
#pragma once

#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/notation.h"
#include "common/position.h"

namespace amazons {

std::string to_text(const Position& pos);
// Errors name the character where reading failed and what was expected there.
Expected<Position, ParseError> parse_position(std::string_view text);

}  // namespace amazons
