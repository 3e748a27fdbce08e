// A position drawn in text for terminals and logs.
#pragma once

#include <string>

#include "common/move.h"
#include "common/position.h"

namespace amazons::ai {

// One line per rank, the top rank first, files lettered below and above: W and B are queens,
// x an arrow, . an empty square. When `last` is a move, its queen and arrow are bracketed and
// the square the queen left is shown as ( ). Every line ends with '\n'.
std::string board_diagram(const Position& pos, Move last = Move::none());

}  // namespace amazons::ai
