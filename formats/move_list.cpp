#include "formats/move_list.h"

#include <cctype>
#include <vector>

#include "common/notation.h"
#include "formats/record_check.h"
#include "formats/record_start.h"

namespace amazons::formats {

namespace {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    if (j > i) words.push_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

// Reads a square (a letter and one or two digits) from the front of `text`.
std::optional<Square> take_square(std::string_view& text) {
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0]))) return std::nullopt;
  std::size_t n = 1;
  while (n < text.size() && n < 3 && std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
  if (n == 1) return std::nullopt;
  auto sq = parse_square(text.substr(0, n));
  if (!sq) return std::nullopt;
  text.remove_prefix(n);
  return *sq;
}

std::string clip(std::string_view s) {
  constexpr std::size_t kShown = 40;
  return s.size() <= kShown ? std::string(s) : std::string(s.substr(0, kShown)) + "...";
}

}  // namespace

Expected<Move, std::string> parse_uci_move(std::string_view text) {
  std::string_view rest = text;
  const auto from = take_square(rest);
  const auto to = from ? take_square(rest) : std::nullopt;
  if (!from || !to || rest.empty() || rest[0] != ',')
    return Unexpected(std::string("expected a move such as d1d7,d7g7"));
  rest.remove_prefix(1);
  const auto shooter = take_square(rest);
  const auto arrow = shooter ? take_square(rest) : std::nullopt;
  if (!shooter || !arrow || !rest.empty())
    return Unexpected(std::string("expected a move such as d1d7,d7g7"));
  if (*shooter != *to)
    return Unexpected("the arrow is shot from " + to_string(*shooter) +
                      ", not from the queen's square " + to_string(*to));
  return Move(*from, *to, *arrow);
}

std::string to_uci(Move m) {
  return to_string(m.from()) + to_string(m.to()) + "," + to_string(m.to()) + to_string(m.arrow());
}

std::string to_fen(const Position& pos) {
  std::string out;
  for (int rank = pos.size() - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < pos.size(); ++file) {
      const Piece p = pos.piece_at(Square::at(file, rank));
      if (p == Piece::Empty) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += p == Piece::WhiteQueen ? 'Q' : p == Piece::BlackQueen ? 'q' : '*';
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  out += pos.side_to_move() == Color::White ? " w - - 0 1" : " b - - 0 1";
  return out;
}

Expected<Position, std::string> parse_fen(std::string_view board, std::string_view side) {
  std::vector<std::string_view> ranks;
  for (std::size_t i = 0;;) {
    const std::size_t j = board.find('/', i);
    ranks.push_back(board.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
    if (ranks.size() > static_cast<std::size_t>(kMaxBoardSize)) break;
  }
  const int size = static_cast<int>(ranks.size());
  if (size < kMinBoardSize || size > kMaxBoardSize)
    return Unexpected("fen: " + std::to_string(size) + " ranks; boards of " +
                      std::to_string(kMinBoardSize) + " to " + std::to_string(kMaxBoardSize) +
                      " squares a side are supported");
  std::vector<Square> white, black;
  Bitboard arrows;
  for (int r = 0; r < size; ++r) {
    const int rank = size - 1 - r;
    const std::string where = "fen: rank " + std::to_string(rank + 1);
    int file = 0;
    const std::string_view row = ranks[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < row.size(); ++i) {
      const char c = row[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        int n = c - '0';
        if (i + 1 < row.size() && std::isdigit(static_cast<unsigned char>(row[i + 1])))
          n = n * 10 + (row[++i] - '0');
        if (n == 0) return Unexpected(where + ": a run of 0 empty squares");
        file += n;
      } else if (c == 'Q' || c == 'q' || c == '*') {
        if (file < size) {
          const Square s = Square::at(file, rank);
          if (c == 'Q')
            white.push_back(s);
          else if (c == 'q')
            black.push_back(s);
          else
            arrows.set(s);
        }
        ++file;
      } else {
        return Unexpected(where + ": unexpected '" + std::string(1, c) +
                          "' (expected Q, q, * or a number)");
      }
      if (file > size)
        return Unexpected(where + ": more than " + std::to_string(size) + " squares");
    }
    if (file != size)
      return Unexpected(where + ": " + std::to_string(file) + " squares, expected " +
                        std::to_string(size));
  }
  Color stm;
  if (side == "w")
    stm = Color::White;
  else if (side == "b")
    stm = Color::Black;
  else
    return Unexpected("fen: the side to move is '" + clip(side) + "', expected w or b");
  auto pos = Position::make(size, white, black, arrows, stm);
  if (!pos) return Unexpected("fen: " + pos.error());
  return std::move(*pos);
}

Expected<GameRecord, std::string> parse_move_list(std::string_view text) {
  const auto words = split_words(text);
  std::size_t i = 0;
  std::optional<Position> start;
  if (i < words.size() && words[i] == "position") ++i;
  if (i < words.size() && words[i] == "startpos") {
    ++i;
  } else if (i < words.size() && words[i] == "fen") {
    ++i;
    if (i + 1 >= words.size())
      return Unexpected(std::string("fen: expected the board and the side to move"));
    auto pos = parse_fen(words[i], words[i + 1]);
    if (!pos) return Unexpected(pos.error());
    start = std::move(*pos);
    i += 2;
    // Castling, en passant and the move counters mean nothing here.
    while (i < words.size() && words[i] != "moves" && words[i].find(',') == std::string_view::npos)
      ++i;
  } else if (i > 0) {
    return Unexpected(std::string("position: expected startpos or fen"));
  }
  if (i < words.size() && words[i] == "moves") ++i;

  GameRecord record;
  Position pos = start ? *start : Position(standard_variant());
  if (start) {
    auto where = record_start_for(*start, "fen");
    record.rules = std::move(where.rules);
    record.start_position = std::move(where.start_position);
  }
  for (; i < words.size(); ++i) {
    const std::string head =
        "move " + std::to_string(record.moves.size() + 1) + " (" + clip(words[i]);
    auto m = parse_uci_move(words[i]);
    if (!m) return Unexpected(head + "): " + m.error());
    if (auto err = pos.try_play(*m))
      return Unexpected(head + ", " + to_string(*m) + "): " + std::string(describe(*err)));
    record.moves.push_back({*m, std::nullopt, std::nullopt});
  }
  return checked(std::move(record));
}

std::string to_move_list(const GameRecord& record) {
  const auto start = initial_position(record);
  const Position pos = start ? *start : Position(record.rules);
  std::string out;
  if (!(pos == Position(standard_variant()))) out = "position fen " + to_fen(pos) + " moves";
  for (const auto& rm : record.moves) {
    if (!out.empty()) out += ' ';
    out += to_uci(rm.move);
  }
  out += '\n';
  return out;
}

}  // namespace amazons::formats
