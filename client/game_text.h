// Words and numbers the client shows about a game: move rows, results, clocks. Shared by the
// live game and the replay so both say things the same way.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "common/move.h"
#include "common/types.h"

namespace amazons::client {

// One line of the move list: the move number and up to two moves, the first by `first_mover`.
struct MoveRow {
  int number = 1;
  std::string first;
  std::string second;  // empty while the second mover has not moved
  friend bool operator==(const MoveRow&, const MoveRow&) = default;
};
std::vector<MoveRow> move_rows(const std::vector<Move>& moves);

// "White", "Black".
std::string side_name(Color c);

// "White wins", "Black wins", "Game aborted".
std::string result_title(const GameResult& r);
// Why the game ended, as a sentence: "Black has no legal move left.", "White resigned.",
// "Black ran out of time.", ... For IllegalMove the detail from the game driver is included.
std::string result_reason(const GameResult& r, const std::string& detail = {});

// A clock reading: "5:00", "1:02:03", and tenths under 10 seconds ("0:09.4"). Negative is 0.
std::string format_clock(std::chrono::milliseconds t);

// A server timestamp (format_timestamp(), "2026-12-01T18:00:00.000Z") to the minute:
// "2026-12-01 18:00 UTC". Anything else is shown as it came.
std::string short_timestamp(const std::string& at);

}  // namespace amazons::client
