// Move and square notation: untrusted text from the network, files and engines. Properties:
// whatever parses is written back canonically and parses to the same value; errors point inside
// the text; checking the move against real positions of every size never crashes.
#include "common/notation.h"
#include "common/position.h"
#include "common/variant.h"
#include "fuzz/fuzz_check.h"

using namespace amazons;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);

  const auto square = parse_square(text);
  if (square) {
    const auto again = parse_square(to_string(*square));
    FUZZ_CHECK(again && *again == *square);
  } else {
    FUZZ_CHECK(!square.error().message().empty());
  }

  const auto move = parse_move(text);
  if (!move) {
    FUZZ_CHECK(!move.error().message().empty());
    return 0;
  }
  const std::string written = to_string(*move);
  const auto again = parse_move(written);
  FUZZ_CHECK(again && *again == *move);
  FUZZ_CHECK(to_string(*again) == written);

  // A parsed move may name squares off a small board: the rules core must refuse it, not crash.
  for (const RuleVariant& v : {standard_variant(), botzone8_variant()}) {
    Position pos(v);
    const Position before = pos;
    if (pos.try_play(*move)) FUZZ_CHECK(pos == before);  // refused: nothing changed
  }
  return 0;
}
