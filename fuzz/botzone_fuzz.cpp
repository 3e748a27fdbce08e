// The Botzone input parser: a turn number, then 2n-1 move lines from the platform. Properties:
// nothing crashes; a move line that parses is written back to the same line (up to spacing) and
// the same move; a history that replays leaves the bot to move in a position it can search.
#include <string>
#include <vector>

#include "ai/botzone.h"
#include "common/movegen.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;
using namespace amazons::ai;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> lines;
  std::string_view rest = fuzz::as_text(data, size);
  while (!rest.empty() && lines.size() < 400) {
    const auto end = rest.find('\n');
    lines.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  for (const std::string& line : lines) {
    const auto parsed = botzone::parse_move_line(line);
    if (!parsed) {
      FUZZ_CHECK(!parsed.error().empty());
      continue;
    }
    if (!*parsed) continue;
    const std::string written = botzone::format_move(**parsed);
    const auto again = botzone::parse_move_line(written);
    FUZZ_CHECK(again && *again && **again == **parsed);
  }
  const auto turn = botzone::replay(lines);
  if (!turn) {
    FUZZ_CHECK(!turn.error().empty());
    return 0;
  }
  FUZZ_CHECK(turn->position.side_to_move() == turn->me);
  FUZZ_CHECK(turn->history.size() <= lines.size());
  MoveList moves;
  generate_moves(turn->position, moves);
  FUZZ_CHECK(moves.empty() == turn->position.is_game_over());
  return 0;
}
