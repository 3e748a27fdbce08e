// LittleGolem's game records (littlegolem.net): SGF syntax without GM, the players in PB and
// PW, the winner in RE[W] or RE[B], the site in SO, and moves as W[...] and B[...] nodes, a
// last B[resign] or W[resign] for a resignation. A move is written with board coordinates
// (files a.., ranks 1.. from the bottom) as "d1-d7-g7", "d1d7g7", "d1-d7/g7" or
// "d1d7,d7g7", or as three SGF points ("djddgd"). The game is the standard 10x10 one; the side
// that moves first plays our White. docs/RECORD_FORMATS.md says where this description comes
// from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"
#include "common/game_record.h"
#include "formats/sgf_tree.h"

namespace amazons::formats {

Expected<GameRecord, std::string> parse_littlegolem(std::string_view text);
Expected<GameRecord, std::string> littlegolem_record(const std::vector<SgfNode>& nodes);

// True when the root node looks like LittleGolem's (no GM, and SO or EV names the site or the
// game), so an .sgf file can be given to the right reader.
bool looks_like_littlegolem(const SgfNode& root);

// Reads the squares of a move written with coordinates: "d1-d7-g7", "d1d7g7", "d1-d7/g7",
// "d1d7,d7g7" (upper case too). Only the syntax is checked.
Expected<Move, std::string> parse_coordinate_move(std::string_view text);

}  // namespace amazons::formats
