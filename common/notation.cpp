#include "common/notation.h"

#include <cctype>

namespace amazons {

std::string ParseError::message() const {
  if (column == 0) return problem;
  return "at character " + std::to_string(column) + ": " + problem;
}

std::string to_string(Square s) {
  if (s.is_none()) return "-";
  std::string out(1, static_cast<char>('a' + s.file()));
  out += std::to_string(s.rank() + 1);
  return out;
}

std::string to_string(Move m) {
  if (m.is_none()) return "(none)";
  return to_string(m.from()) + "-" + to_string(m.to()) + "/" + to_string(m.arrow());
}

namespace {

std::string describe(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  return "a control or non-ASCII byte";
}

// Reads one square starting at text[pos]; advances pos past it.
Expected<Square, ParseError> read_square(std::string_view text, std::size_t& pos) {
  const char last_file = static_cast<char>('a' + kMaxBoardSize - 1);
  if (pos >= text.size())
    return Unexpected(ParseError{pos + 1, "expected a square, found the end of the text"});
  const char f = static_cast<char>(std::tolower(static_cast<unsigned char>(text[pos])));
  if (f < 'a' || f > last_file)
    return Unexpected(ParseError{pos + 1, "expected a file letter a-" + std::string(1, last_file) +
                                              ", found " + describe(text[pos])});
  const int file = f - 'a';
  ++pos;
  if (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos])))
    return Unexpected(ParseError{
        pos + 1, pos >= text.size() ? "expected a rank number, found the end of the text"
                                    : "expected a rank number, found " + describe(text[pos])});
  const std::size_t rank_column = pos + 1;
  if (text[pos] == '0')
    return Unexpected(ParseError{rank_column, "a rank number cannot start with 0"});
  int rank = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) &&
         rank <= kMaxBoardSize)
    rank = rank * 10 + (text[pos++] - '0');
  if (rank > kMaxBoardSize)
    return Unexpected(ParseError{rank_column, "rank must be 1-" + std::to_string(kMaxBoardSize)});
  return Square::at(file, rank - 1);
}

Expected<bool, ParseError> expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size())
    return Unexpected(
        ParseError{pos + 1, std::string("expected '") + c + "', found the end of the text"});
  if (text[pos] != c)
    return Unexpected(
        ParseError{pos + 1, std::string("expected '") + c + "', found " + describe(text[pos])});
  ++pos;
  return true;
}

}  // namespace

Expected<Square, ParseError> parse_square(std::string_view text) {
  std::size_t pos = 0;
  auto sq = read_square(text, pos);
  if (sq && pos != text.size())
    return Unexpected(
        ParseError{pos + 1, "unexpected " + describe(text[pos]) + " after the square"});
  return sq;
}

Expected<Move, ParseError> parse_move(std::string_view text) {
  std::size_t pos = 0;
  auto from = read_square(text, pos);
  if (!from) return Unexpected(from.error());
  if (auto dash = expect(text, pos, '-'); !dash) return Unexpected(dash.error());
  auto to = read_square(text, pos);
  if (!to) return Unexpected(to.error());
  if (auto slash = expect(text, pos, '/'); !slash) return Unexpected(slash.error());
  auto arrow = read_square(text, pos);
  if (!arrow) return Unexpected(arrow.error());
  if (pos != text.size())
    return Unexpected(ParseError{pos + 1, "unexpected " + describe(text[pos]) + " after the move"});
  return Move(*from, *to, *arrow);
}

}  // namespace amazons
