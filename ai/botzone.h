// Botzone's Amazons "simple interaction" format (8x8, Black first), so the engine can play on
// that platform. A turn's input is the turn number n, then 2n-1 lines "x0 y0 x1 y1 x2 y2": the
// requests (the opponent's moves) and the bot's own earlier responses, alternately, request
// first. x is the column from the left, y the row from the top, both from 0; Black's first
// request is "-1 -1 -1 -1 -1 -1". The bot prints one line, its move, and may then print
// >>>BOTZONE_REQUEST_KEEP_RUNNING<<< to stay alive: each later turn then brings only the next
// request line.
#pragma once

#include <chrono>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ai/levels.h"
#include "common/expected.h"
#include "common/move.h"
#include "common/position.h"

namespace amazons::ai::botzone {

inline constexpr std::string_view kKeepRunning = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";
inline constexpr std::string_view kNoMove = "-1 -1 -1 -1 -1 -1";
inline constexpr int kBoardSize = 8;

// A line of six integers: a move, or nullopt for the "no move yet" marker. Only the syntax and
// the board bounds are checked here; legality is the position's business.
Expected<std::optional<Move>, std::string> parse_move_line(std::string_view line);
std::string format_move(Move m);

// The game so far, rebuilt from one full input.
struct Turn {
  Position position;  // the bot is to move
  Color me = Color::Black;
  std::vector<Move> history;
};

// Replays the 2n-1 lines after the turn number (request first). Every move is checked; an error
// names the line ("line 3 (request 2): ...").
Expected<Turn, std::string> replay(const std::vector<std::string>& lines);

struct Options {
  Millis movetime{900};         // every turn after the first
  Millis first_movetime{1800};  // the first turn: Botzone allows twice as long
  bool keep_running = true;
  int threads = 1;  // Botzone gives a bot one core
  std::size_t hash_mb = 64;
};

// Plays until the input ends (or after one turn without keep_running). Returns 0 when the input
// ended cleanly, 1 after bad input (explained on `err`); never throws on input.
int run(std::istream& in, std::ostream& out, std::ostream& err, const Options& options);

}  // namespace amazons::ai::botzone
