#include "formats/littlegolem.h"

#include <algorithm>
#include <cctype>

#include "common/notation.h"
#include "formats/record_check.h"
#include "formats/sgf.h"

namespace amazons::formats {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const std::string* value_of(const SgfNode& node, std::string_view id) {
  const SgfProperty* p = node.find(id);
  return p && !p->values.empty() ? &p->values[0] : nullptr;
}

bool is_sgf_points(std::string_view v) {
  return v.size() == 6 &&
         std::all_of(v.begin(), v.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

}  // namespace

Expected<Move, std::string> parse_coordinate_move(std::string_view text) {
  std::vector<Square> squares;
  std::size_t i = 0;
  const auto expected = [&] {
    return Unexpected(std::string("expected a move such as d1-d7-g7, d1d7g7 or d1d7,d7g7"));
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '-' || c == '/' || c == ',' || c == 'x' || c == ' ') {
      if (squares.empty()) return expected();
      ++i;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) return expected();
    std::size_t j = i + 1;
    while (j < text.size() && j - i <= 3 && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j == i + 1 || j - i > 3) return expected();
    auto sq = parse_square(text.substr(i, j - i));
    if (!sq) return Unexpected(std::string(text.substr(i, j - i)) + " is not a square");
    squares.push_back(*sq);
    i = j;
    if (squares.size() > 4) return expected();
  }
  if (squares.size() == 4) {
    if (squares[1] != squares[2])
      return Unexpected("the arrow is shot from " + to_string(squares[2]) +
                        ", not from the queen's square " + to_string(squares[1]));
    squares.erase(squares.begin() + 2);
  }
  if (squares.size() != 3) return expected();
  return Move(squares[0], squares[1], squares[2]);
}

bool looks_like_littlegolem(const SgfNode& root) {
  if (root.find("GM")) return false;
  const std::string* so = value_of(root, "SO");
  const std::string* ev = value_of(root, "EV");
  return (so && lower(*so).find("littlegolem") != std::string::npos) ||
         (ev && lower(*ev).starts_with("amazons"));
}

Expected<GameRecord, std::string> littlegolem_record(const std::vector<SgfNode>& nodes) {
  if (nodes.empty()) return Unexpected(std::string("the game tree has no node"));
  const SgfNode& root = nodes[0];
  if (const std::string* gm = value_of(root, "GM"); gm && *gm != "18")
    return Unexpected("GM[" + *gm + "]: not an Amazons game");
  const RuleVariant variant = standard_variant();
  if (const std::string* sz = value_of(root, "SZ"); sz && *sz != std::to_string(variant.size))
    return Unexpected("SZ[" + *sz + "]: LittleGolem plays the Amazons on 10x10 only");
  for (const char* id : {"AB", "AW", "AA", "AE"})
    for (const auto& node : nodes)
      if (const SgfProperty* p = node.find(id))
        return Unexpected("line " + std::to_string(p->line) + ": " + p->id +
                          ": LittleGolem records have no setup");

  // The side that moves first is our White; its letter is the colour of the first move.
  char first = 'W';
  for (const auto& node : nodes) {
    if (node.find("W")) {
      first = 'W';
      break;
    }
    if (node.find("B")) {
      first = 'B';
      break;
    }
  }
  const auto ours = [&](char c) { return c == first ? Color::White : Color::Black; };

  GameRecord record;
  record.rules = variant;
  for (char c : {'W', 'B'}) {
    if (const std::string* name = value_of(root, std::string("P") + c))
      (ours(c) == Color::White ? record.white : record.black).name = *name;
  }

  Position pos(variant);
  char to_move = first;
  std::optional<char> resigned;
  for (const auto& node : nodes) {
    const SgfProperty* b = node.find("B");
    const SgfProperty* w = node.find("W");
    if (b && w) return Unexpected("line " + std::to_string(b->line) + ": a node with both B and W");
    const SgfProperty* mp = b ? b : w;
    if (!mp) continue;
    const std::string head = "move " + std::to_string(record.moves.size() + 1) + " (" + mp->id +
                             "[" + (mp->values.empty() ? "" : mp->values[0]) + "]";
    if (resigned) return Unexpected(head + "): the game ended with a resignation");
    if (mp->values.size() != 1) return Unexpected(head + "): expected one value");
    const char mover = mp->id[0];
    if (mover != to_move) return Unexpected(head + "): " + std::string(1, to_move) + " is to move");
    const std::string& v = mp->values[0];
    if (lower(v) == "resign") {
      resigned = mover;
      continue;
    }
    Move m;
    if (is_sgf_points(v)) {
      Square sq[3];
      for (int i = 0; i < 3; ++i) {
        sq[i] = sgf_square(std::string_view(v).substr(static_cast<std::size_t>(2 * i), 2),
                           variant.size);
        if (sq[i].is_none())
          return Unexpected(head + "): " + v.substr(static_cast<std::size_t>(2 * i), 2) +
                            " is not a point of the 10x10 board");
      }
      m = Move(sq[0], sq[1], sq[2]);
    } else {
      auto parsed = parse_coordinate_move(v);
      if (!parsed) return Unexpected(head + "): " + parsed.error());
      m = *parsed;
    }
    if (auto err = pos.try_play(m))
      return Unexpected(head + ", " + to_string(m) + "): " + std::string(describe(*err)));
    record.moves.push_back({m, std::nullopt, std::nullopt});
    to_move = to_move == 'W' ? 'B' : 'W';
  }

  std::optional<char> winner;
  if (const std::string* re = value_of(root, "RE"); re && !re->empty() && *re != "?") {
    if ((*re)[0] != 'W' && (*re)[0] != 'B')
      return Unexpected("RE[" + *re + "]: expected W or B, the winner");
    winner = (*re)[0];
    if (resigned && *winner == *resigned)
      return Unexpected("RE[" + *re + "]: the winner is the side that resigned");
  }
  if (resigned && !winner) winner = *resigned == 'W' ? 'B' : 'W';
  if (winner) {
    GameResult r;
    r.winner = ours(*winner);
    // LittleGolem names the winner only: a finished board is a win on moves, anything else is
    // taken as a resignation.
    r.reason = !resigned && pos.is_game_over() ? EndReason::NoMoves : EndReason::Resign;
    record.result = r;
  }
  return checked(std::move(record));
}

Expected<GameRecord, std::string> parse_littlegolem(std::string_view text) {
  auto nodes = parse_sgf_main_line(text);
  if (!nodes) return Unexpected(nodes.error());
  return littlegolem_record(*nodes);
}

}  // namespace amazons::formats
