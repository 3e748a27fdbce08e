#include "common/position_text.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace amazons {

std::string to_text(const Position& pos) {
  std::string out;
  const int n = pos.size();
  for (int rank = n - 1; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < n; ++file) {
      const Piece p = pos.piece_at(Square::at(file, rank));
      if (p == Piece::Empty) {
        ++empty_run;
        continue;
      }
      if (empty_run > 0) out += std::to_string(empty_run);
      empty_run = 0;
      out += p == Piece::WhiteQueen ? 'W' : p == Piece::BlackQueen ? 'B' : 'x';
    }
    if (empty_run > 0) out += std::to_string(empty_run);
    if (rank > 0) out += '/';
  }
  out += pos.side_to_move() == Color::White ? " w" : " b";
  return out;
}

Expected<Position, ParseError> parse_position(std::string_view text) {
  // First pass: split the board field into ranks to learn the size.
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos)
    return Unexpected(
        ParseError{text.size() + 1, "expected a space and the side to move (w or b)"});
  const std::string_view board = text.substr(0, space);
  const std::size_t ranks =
      static_cast<std::size_t>(std::count(board.begin(), board.end(), '/')) + 1;
  if (ranks < static_cast<std::size_t>(kMinBoardSize) ||
      ranks > static_cast<std::size_t>(kMaxBoardSize))
    return Unexpected(ParseError{1, "the board has " + std::to_string(ranks) +
                                        " ranks; a board has " + std::to_string(kMinBoardSize) +
                                        " to " + std::to_string(kMaxBoardSize)});
  const int size = static_cast<int>(ranks);

  std::vector<Square> white, black;
  Bitboard arrows;
  int rank = size - 1, file = 0;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    const std::size_t column = i + 1;
    if (c == '/') {
      if (file != size)
        return Unexpected(ParseError{column, "rank " + std::to_string(rank + 1) + " has " +
                                                 std::to_string(file) + " squares, expected " +
                                                 std::to_string(size)});
      --rank;
      file = 0;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (c == '0')
        return Unexpected(ParseError{column, "a run of empty squares cannot start with 0"});
      int run = 0;
      while (i < board.size() && std::isdigit(static_cast<unsigned char>(board[i])) &&
             run <= kMaxBoardSize)
        run = run * 10 + (board[i++] - '0');
      --i;
      file += run;
      if (file > size)
        return Unexpected(ParseError{column, "rank " + std::to_string(rank + 1) +
                                                 " is longer than " + std::to_string(size) +
                                                 " squares"});
      continue;
    }
    if (file >= size)
      return Unexpected(ParseError{column, "rank " + std::to_string(rank + 1) + " is longer than " +
                                               std::to_string(size) + " squares"});
    const Square s = Square::at(file, rank);
    switch (c) {
      case 'W':
        white.push_back(s);
        break;
      case 'B':
        black.push_back(s);
        break;
      case 'x':
      case 'X':
        arrows.set(s);
        break;
      default:
        return Unexpected(ParseError{
            column, std::string("expected W, B, x, a number or '/', found '") + c + "'"});
    }
    if (white.size() > static_cast<std::size_t>(kMaxQueensPerSide) ||
        black.size() > static_cast<std::size_t>(kMaxQueensPerSide))
      return Unexpected(ParseError{
          column, "more than " + std::to_string(kMaxQueensPerSide) + " queens of one side"});
    ++file;
  }
  if (file != size)
    return Unexpected(ParseError{
        board.size() + 1,
        "rank 1 has " + std::to_string(file) + " squares, expected " + std::to_string(size)});

  const std::string_view side = text.substr(space + 1);
  Color to_move;
  if (side == "w" || side == "W") {
    to_move = Color::White;
  } else if (side == "b" || side == "B") {
    to_move = Color::Black;
  } else {
    return Unexpected(
        ParseError{space + 2, "expected the side to move, w or b, and nothing after it"});
  }
  auto pos = Position::make(size, white, black, arrows, to_move);
  if (!pos) return Unexpected(ParseError{0, pos.error()});
  return std::move(*pos);
}

}  // namespace amazons
