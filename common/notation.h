// Text forms of squares and moves: "d1", "d1-d7/g7". Files a..l from the left, ranks 1..12
// from the bottom; upper-case letters are accepted on input, output is always lower case.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/move.h"
#include "common/types.h"

namespace amazons {

// Why a piece of text could not be read, and where.
struct ParseError {
  std::size_t column = 0;  // 1-based character position in the text; 0 if not tied to one
  std::string problem;     // what was wrong there, e.g. "expected '-'"
  // "at character 3: expected '-'" (or just the problem when there is no column).
  std::string message() const;
};

std::string to_string(Square s);
std::string to_string(Move m);

// Reads a square such as "d1" or "J10". The result is some square of the largest board; whether
// it lies on a given board is checked by the caller (Position::check() says "off the board").
Expected<Square, ParseError> parse_square(std::string_view text);

// Reads a whole move such as "d1-d7/g7". Only the syntax is checked here.
Expected<Move, ParseError> parse_move(std::string_view text);

}  // namespace amazons
