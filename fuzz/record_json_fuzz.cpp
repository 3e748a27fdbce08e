// The game-record JSON reader (saved games, the server's archive, imports). Properties: whatever
// reads replays legally, and writes back (as JSON and as text) to a record that reads the same.
#include <nlohmann/json.hpp>

#include "common/game_record.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto record = parse_record_json(fuzz::as_text(data, size));
  if (!record) {
    FUZZ_CHECK(!record.error().empty());
    return 0;
  }
  FUZZ_CHECK(replay(*record).has_value());
  const auto again = record_from_json(to_json(*record));
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == *record);

  // The text form keeps everything but per-move times.
  GameRecord untimed = *record;
  for (auto& m : untimed.moves) m.elapsed = m.clock_left = std::nullopt;
  const auto text = parse_record_text(to_text(*record));
  FUZZ_CHECK(text.has_value());
  FUZZ_CHECK(*text == untimed);
  return 0;
}
