// The Fairy-Stockfish / PlayStrategy move-list reader. Properties: whatever reads replays
// legally, writes back to a list that reads to the same start and moves, and writing again
// gives the same text.
#include "formats/move_list.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto record = formats::parse_move_list(fuzz::as_text(data, size));
  if (!record) {
    FUZZ_CHECK(!record.error().empty());
    return 0;
  }
  FUZZ_CHECK(replay(*record).has_value());
  const std::string text = formats::to_move_list(*record);
  const auto again = formats::parse_move_list(text);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*initial_position(*again) == *initial_position(*record));
  FUZZ_CHECK(again->moves == record->moves);
  FUZZ_CHECK(formats::to_move_list(*again) == text);
  return 0;
}
