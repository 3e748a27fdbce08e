// The SGF reader (GM[18]). Properties: whatever reads replays legally, writes back as SGF that
// reads to the same moves, and writing again gives the same text.
#include "formats/sgf.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto record = formats::parse_sgf(fuzz::as_text(data, size));
  if (!record) {
    FUZZ_CHECK(!record.error().empty());
    return 0;
  }
  FUZZ_CHECK(replay(*record).has_value());
  const std::string sgf = formats::to_sgf(*record);
  const auto again = formats::parse_sgf(sgf);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->moves.size() == record->moves.size());
  for (std::size_t i = 0; i < record->moves.size(); ++i)
    FUZZ_CHECK(again->moves[i].move == record->moves[i].move);
  FUZZ_CHECK(again->result == record->result);
  FUZZ_CHECK(formats::to_sgf(*again) == sgf);
  return 0;
}
