// The position-text parser (engine protocol, tools, records). Properties: whatever parses writes
// back canonically and parses to the same position; its move generator and checker agree.
#include "common/movegen.h"
#include "common/position_text.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto pos = parse_position(fuzz::as_text(data, size));
  if (!pos) {
    FUZZ_CHECK(!pos.error().message().empty());
    FUZZ_CHECK(pos.error().column <= size + 1);
    return 0;
  }
  const std::string text = to_text(*pos);
  const auto again = parse_position(text);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == *pos);
  FUZZ_CHECK(to_text(*again) == text);

  Position p = *pos;
  MoveList moves;
  generate_moves(p, moves);
  FUZZ_CHECK(moves.size() == count_moves(p));
  FUZZ_CHECK(moves.empty() == p.is_game_over());
  for (std::size_t i = 0; i < moves.size(); i += 1 + moves.size() / 8) {
    FUZZ_CHECK(!p.check(moves[i]).has_value());
    const Position before = p;
    p.do_move(moves[i]);
    p.undo_move(moves[i]);
    FUZZ_CHECK(p == before);
  }
  return 0;
}
