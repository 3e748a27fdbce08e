#include "ai/board_text.h"

namespace amazons::ai {

namespace {

char piece_char(Piece p) {
  switch (p) {
    case Piece::WhiteQueen:
      return 'W';
    case Piece::BlackQueen:
      return 'B';
    case Piece::Arrow:
      return 'x';
    case Piece::Empty:
      break;
  }
  return '.';
}

std::string file_letters(int size) {
  std::string s = "   ";
  for (int f = 0; f < size; ++f) {
    s += "  ";
    s += static_cast<char>('a' + f);
  }
  return s + '\n';
}

}  // namespace

std::string board_diagram(const Position& pos, Move last) {
  const int n = pos.size();
  std::string out = file_letters(n);
  for (int rank = n - 1; rank >= 0; --rank) {
    const std::string label = std::to_string(rank + 1);
    out += std::string(3 - label.size(), ' ') + label + ' ';
    for (int file = 0; file < n; ++file) {
      const Square s = Square::at(file, rank);
      const bool marked = !last.is_none() && (s == last.to() || s == last.arrow());
      const bool left = !last.is_none() && s == last.from() && pos.piece_at(s) == Piece::Empty;
      out += marked ? '[' : left ? '(' : ' ';
      out += left ? ' ' : piece_char(pos.piece_at(s));
      out += marked ? ']' : left ? ')' : ' ';
    }
    out += ' ' + label + '\n';
  }
  return out + file_letters(n);
}

}  // namespace amazons::ai
