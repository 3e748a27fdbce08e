// The LittleGolem reader. Properties: whatever reads replays legally and converts to SGF that
// reads back to the same moves and result.
#include "formats/littlegolem.h"
#include "formats/sgf.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto record = formats::parse_littlegolem(fuzz::as_text(data, size));
  if (!record) {
    FUZZ_CHECK(!record.error().empty());
    return 0;
  }
  FUZZ_CHECK(replay(*record).has_value());
  const auto sgf = formats::parse_sgf(formats::to_sgf(*record));
  FUZZ_CHECK(sgf.has_value());
  FUZZ_CHECK(sgf->moves.size() == record->moves.size());
  for (std::size_t i = 0; i < record->moves.size(); ++i)
    FUZZ_CHECK(sgf->moves[i].move == record->moves[i].move);
  FUZZ_CHECK(sgf->result == record->result);
  return 0;
}
