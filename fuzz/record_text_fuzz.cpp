// The game-record text reader. Properties: whatever reads replays legally, and writes back (as
// text and as JSON) to a record that reads the same.
#include <nlohmann/json.hpp>

#include "common/game_record.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto record = parse_record_text(fuzz::as_text(data, size));
  if (!record) {
    FUZZ_CHECK(!record.error().empty());
    return 0;
  }
  FUZZ_CHECK(replay(*record).has_value());
  const std::string text = to_text(*record);
  const auto again = parse_record_text(text);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == *record);
  FUZZ_CHECK(to_text(*again) == text);
  const auto json = record_from_json(to_json(*record));
  FUZZ_CHECK(json.has_value());
  FUZZ_CHECK(*json == *record);
  return 0;
}
