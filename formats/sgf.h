// SGF for the Amazons: GM[18] as the SGF standard's Amazons page defines it
// (red-bean.com/sgf/amazons.html). A point is two letters, the column from the left and the row
// from the top ("dj" is d1 on a 10x10 board); a move is three points, from, to and arrow
// (B[djddgd] is d1-d7/g7). The first mover is called Black. docs/RECORD_FORMATS.md says which
// properties are read and written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"
#include "common/game_record.h"
#include "formats/sgf_tree.h"

namespace amazons::formats {

// Reads the main line of an Amazons SGF file and checks every move against the rules. Errors
// name the property or the move, e.g. "move 3 (B[djddgd], d1-d7/g7): the path of the queen is
// blocked".
Expected<GameRecord, std::string> parse_sgf(std::string_view text);
Expected<GameRecord, std::string> sgf_record(const std::vector<SgfNode>& nodes);

// Precondition: the record replays legally.
std::string to_sgf(const GameRecord& record);

// Two letters for a square of a size x size board, rows counted from the top.
std::string sgf_point(Square s, int size);
// The square of two letters, or none when they are not a point of the board.
Square sgf_square(std::string_view point, int size);

}  // namespace amazons::formats
