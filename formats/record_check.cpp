#include "formats/record_check.h"

#include <nlohmann/json.hpp>

namespace amazons::formats {

Expected<GameRecord, std::string> checked(GameRecord record) {
  // The JSON reader is the one place that checks a whole record; going through it keeps every
  // format to the same rules.
  auto again = record_from_json(to_json(record));
  if (!again) return Unexpected(again.error());
  return record;
}

}  // namespace amazons::formats
