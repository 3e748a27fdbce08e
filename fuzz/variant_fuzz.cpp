// The rule-variant loader (config/rules/*.json, the engine's `rules FILE`, records). Properties:
// whatever loads is valid, writes back to JSON that loads to the same variant, and gives a start
// position whose moves the rules core can generate and check.
#include "common/movegen.h"
#include "common/position.h"
#include "common/variant.h"
#include "fuzz/fuzz_check.h"

#include <nlohmann/json.hpp>

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto v = parse_variant(fuzz::as_text(data, size));
  if (!v) {
    FUZZ_CHECK(!v.error().empty());
    return 0;
  }
  FUZZ_CHECK(validate(*v).has_value());
  const auto again = variant_from_json(to_json(*v));
  FUZZ_CHECK(again && *again == *v);

  Position pos(*v);
  MoveList moves;
  generate_moves(pos, moves);
  FUZZ_CHECK(moves.size() == count_moves(pos));
  for (std::size_t i = 0; i < moves.size(); i += 1 + moves.size() / 16)
    FUZZ_CHECK(!pos.check(moves[i]).has_value());
  return 0;
}
