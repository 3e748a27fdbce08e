#include "tui/move_entry.h"

#include <algorithm>
#include <cctype>

#include "client/words.h"
#include "common/movegen.h"
#include "common/notation.h"

namespace amazons::tui {

namespace {

bool is_separator(char c) { return c == '-' || c == '/' || c == ' ' || c == ',' || c == 'x'; }

// Splits into squares ("d", "d1", "d10"): a letter starts one, digits continue it; a separator
// after a square closes it. Returns false with `problem` set on a character that has no place.
bool tokenize(const client::Catalogue& t, std::string_view text, std::vector<std::string>& squares,
              bool& closed, std::string& problem) {
  closed = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
    if (c >= 'a' && c <= 'l') {
      squares.emplace_back(1, c);
      closed = false;
    } else if (c >= '0' && c <= '9') {
      if (squares.empty() || closed) {
        problem = t("tui.entry.file_first");
        return false;
      }
      squares.back() += c;
      if (squares.back().size() > 3) {
        problem = t("tui.entry.not_square", {{"text", squares.back()}});
        return false;
      }
    } else if (is_separator(c)) {
      if (!squares.empty()) closed = true;
    } else {
      problem = t("tui.entry.no_place", {{"text", std::string(1, text[i])}});
      return false;
    }
  }
  if (squares.size() > 3) {
    problem = t("tui.entry.three_squares");
    return false;
  }
  return true;
}

std::string canonical_of(const std::vector<std::string>& squares, bool closed) {
  std::string out;
  for (std::size_t i = 0; i < squares.size(); ++i) {
    if (i == 1) out += '-';
    if (i == 2) out += '/';
    out += squares[i];
  }
  // A separator typed after the last square (or a later square) ends it.
  if (closed && squares.size() == 1) out += '-';
  if (closed && squares.size() == 2) out += '/';
  return out;
}

// Why no legal move starts with the typed squares; `squares` holds at least one.
// A rule broken by the typed move, in the words of error.illegal_move.REASON.
std::string broken_rule(const client::Catalogue& t, const std::string& what, MoveError e) {
  return what + ": " + client::error_text(t, "illegal_move", code(e));
}

std::string explain(const client::Catalogue& t, const Position& pos,
                    const std::vector<std::string>& squares) {
  std::vector<Square> parsed;
  for (const std::string& token : squares) {
    auto s = parse_square(token);
    if (!s || !s->on_board(pos.size())) {
      if (token.size() == 1) break;  // only a file letter: judged by the squares before it
      return t("tui.entry.not_on_board", {{"text", token}});
    }
    parsed.push_back(*s);
  }
  const Color me = pos.side_to_move();
  const std::string side = client::side_name(t, me);
  if (parsed.empty())
    return t("tui.entry.no_queen_on_file", {{"side", side}, {"file", squares[0]}});
  const Square from = parsed[0];
  if (pos.piece_at(from) != queen_of(me))
    return t("tui.entry.no_queen_on", {{"side", side}, {"square", to_string(from)}});
  if (queen_destinations(pos, from).empty())
    return t("tui.entry.queen_stuck", {{"square", to_string(from)}});
  if (parsed.size() == 1 && squares.size() == 1) return t("tui.entry.no_start");
  if (parsed.size() == 1)
    return t("tui.entry.not_to_file", {{"square", to_string(from)}, {"file", squares[1]}});
  const Square to = parsed[1];
  // Shooting back to where the queen came from is always possible, so this judges the step.
  if (auto e = pos.check(Move(from, to, from)))
    return broken_rule(t, to_string(from) + "-" + to_string(to), *e);
  if (parsed.size() == 2 && squares.size() == 2) return t("tui.entry.no_start");
  if (parsed.size() == 2)
    return t("tui.entry.no_arrow_to_file", {{"square", to_string(to)}, {"file", squares[2]}});
  const Move m(from, to, parsed[2]);
  if (auto e = pos.check(m)) return broken_rule(t, to_string(m), *e);
  return t("tui.entry.no_start");
}

}  // namespace

MoveEntry read_move_entry(const client::Catalogue& t, const Position& pos, std::string_view text) {
  MoveEntry out;
  std::vector<std::string> squares;
  bool closed = false;
  if (!tokenize(t, text, squares, closed, out.problem)) return out;
  out.canonical = canonical_of(squares, closed);
  if (pos.is_game_over()) {
    out.problem =
        t("tui.entry.no_legal_move", {{"side", client::side_name(t, pos.side_to_move())}});
    return out;
  }
  MoveList all;
  generate_moves(pos, all);
  for (Move m : all)
    if (to_string(m).rfind(out.canonical, 0) == 0) out.fits.push_back(m);
  if (out.fits.empty()) {
    out.problem = explain(t, pos, squares);
    return out;
  }
  out.completion = to_string(out.fits.front());
  for (Move m : out.fits) {
    const std::string written = to_string(m);
    std::size_t n = 0;
    while (n < written.size() && n < out.completion.size() && written[n] == out.completion[n]) ++n;
    out.completion.resize(n);
  }
  if (squares.empty()) return out;
  auto same = [&](auto field) {
    return std::all_of(out.fits.begin(), out.fits.end(),
                       [&](Move m) { return field(m) == field(out.fits.front()); });
  };
  if (same([](Move m) { return m.from(); })) out.from = out.fits.front().from();
  if (squares.size() >= 2 && !out.from.is_none() && same([](Move m) { return m.to(); }))
    out.to = out.fits.front().to();
  return out;
}

}  // namespace amazons::tui
