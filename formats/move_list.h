// Move lists as Fairy-Stockfish (variant "amazons") and PlayStrategy write them: moves separated
// by white space, each "d1d7,d7g7" (the queen's step, then the arrow shot from where it landed),
// optionally after a UCI-style start: "position startpos moves ..." or
// "position fen FEN moves ...". The FEN is Fairy-Stockfish's: ranks from the top, Q White,
// q Black, * an arrow, digits for empty squares, then w or b (further fields are ignored).
#pragma once

#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::formats {

Expected<GameRecord, std::string> parse_move_list(std::string_view text);
// The moves on one line; preceded by "position fen FEN moves" unless the game starts from the
// standard start. Precondition: the record replays legally.
std::string to_move_list(const GameRecord& record);

// One move, "d1d7,d7g7". Only the syntax is checked.
Expected<Move, std::string> parse_uci_move(std::string_view text);
std::string to_uci(Move m);

std::string to_fen(const Position& pos);
Expected<Position, std::string> parse_fen(std::string_view board, std::string_view side);

}  // namespace amazons::formats
