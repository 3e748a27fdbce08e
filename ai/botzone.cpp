#include "ai/botzone.h"

#include <charconv>
#include <istream>
#include <ostream>

#include "ai/search.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/variant.h"

namespace amazons::ai::botzone {

namespace {

constexpr int kMaxTurn = 1000;  // far beyond any game; refuses absurd inputs before reading them

Square square_at(int x, int y) { return Square::at(x, kBoardSize - 1 - y); }

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return std::string(s);
}

std::optional<int> parse_turn(std::string_view line) {
  const std::string t = trimmed(line);
  int n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return n;
}

// The move the bot plays: the search's, checked once more, since an illegal move loses at once.
Move choose(Search& search, const Position& pos, Millis budget) {
  SearchLimits limits;
  limits.movetime = budget;
  const SearchResult r = search_now(search, pos, limits);
  if (!r.best.is_none() && !pos.check(r.best)) return r.best;
  MoveList moves;
  generate_moves(pos, moves);
  return moves.empty() ? Move::none() : moves[0];
}

}  // namespace

Expected<std::optional<Move>, std::string> parse_move_line(std::string_view line) {
  int v[6];
  const std::string t = trimmed(line);
  const char* p = t.data();
  const char* end = t.data() + t.size();
  for (int i = 0; i < 6; ++i) {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    const auto [next, ec] = std::from_chars(p, end, v[i]);
    if (ec != std::errc() || next == p)
      return Unexpected(std::string("expected six integers \"x0 y0 x1 y1 x2 y2\", got \"") + t +
                        "\"");
    p = next;
    if (p < end && *p != ' ' && *p != '\t')
      return Unexpected(std::string("expected six integers \"x0 y0 x1 y1 x2 y2\", got \"") + t +
                        "\"");
  }
  if (p != end) return Unexpected("more than six numbers in \"" + t + "\"");
  bool all_minus_one = true;
  for (int x : v) all_minus_one = all_minus_one && x == -1;
  if (all_minus_one) return std::optional<Move>{};
  for (int x : v)
    if (x < 0 || x >= kBoardSize)
      return Unexpected("coordinate " + std::to_string(x) + " is off the 8x8 board in \"" + t +
                        "\"");
  return std::optional<Move>(
      Move(square_at(v[0], v[1]), square_at(v[2], v[3]), square_at(v[4], v[5])));
}

std::string format_move(Move m) {
  auto xy = [](Square s) {
    return std::to_string(s.file()) + " " + std::to_string(kBoardSize - 1 - s.rank());
  };
  return xy(m.from()) + " " + xy(m.to()) + " " + xy(m.arrow());
}

Expected<Turn, std::string> replay(const std::vector<std::string>& lines) {
  if (lines.empty() || lines.size() % 2 == 0)
    return Unexpected("expected an odd number of move lines, got " + std::to_string(lines.size()));
  Turn turn{Position(botzone8_variant()), Color::Black, {}};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = "line " + std::to_string(i + 2) + " (" +
                              (i % 2 == 0 ? "request " : "response ") + std::to_string(i / 2 + 1) +
                              ")";
    auto parsed = parse_move_line(lines[i]);
    if (!parsed) return Unexpected(where + ": " + parsed.error());
    if (!parsed->has_value()) {
      if (i != 0)
        return Unexpected(where + ": \"-1 -1 -1 -1 -1 -1\" is only valid as the first request");
      continue;
    }
    if (i == 0) turn.me = Color::White;  // Black has moved: we are White
    const Move m = **parsed;
    if (auto e = turn.position.try_play(m))
      return Unexpected(where + ": illegal move " + to_string(m) + ": " +
                        std::string(describe(*e)));
    turn.history.push_back(m);
  }
  if (turn.position.side_to_move() != turn.me)
    return Unexpected(std::string("the moves leave ") +
                      std::string(color_name(turn.position.side_to_move())) +
                      " to move, but this bot plays " + std::string(color_name(turn.me)));
  return turn;
}

int run(std::istream& in, std::ostream& out, std::ostream& err, const Options& options) {
  SearchSettings settings;
  settings.threads = options.threads;
  settings.hash_mb = options.hash_mb;
  auto search = make_search(settings);

  std::optional<Turn> game;
  for (std::string line; std::getline(in, line);) {
    if (trimmed(line).empty()) continue;
    const auto started = std::chrono::steady_clock::now();
    bool first = false;  // the bot's first decision of the game gets the longer budget
    if (auto n = parse_turn(line)) {
      first = *n == 1;
      // A full request: the turn number and the whole history.
      if (*n < 1 || *n > kMaxTurn) {
        err << "botzone: turn number must be 1 to " << kMaxTurn << ", got " << *n << "\n";
        return 1;
      }
      std::vector<std::string> lines;
      for (int i = 0; i < 2 * *n - 1; ++i) {
        std::string l;
        if (!std::getline(in, l)) {
          err << "botzone: input ended after " << i << " of the " << 2 * *n - 1
              << " move lines of turn " << *n << "\n";
          return 1;
        }
        lines.push_back(l);
      }
      auto turn = replay(lines);
      if (!turn) {
        err << "botzone: " << turn.error() << "\n";
        return 1;
      }
      game = std::move(*turn);
      search->clear();
    } else {
      // Long-running mode: one request line, the opponent's move.
      if (!game) {
        err << "botzone: expected the turn number first, got \"" << trimmed(line) << "\"\n";
        return 1;
      }
      auto parsed = parse_move_line(line);
      if (!parsed || !parsed->has_value()) {
        err << "botzone: request: "
            << (parsed ? std::string("\"-1 -1 -1 -1 -1 -1\" in the middle of a game")
                       : parsed.error())
            << "\n";
        return 1;
      }
      if (auto e = game->position.try_play(**parsed)) {
        err << "botzone: request: illegal move " << to_string(**parsed) << ": " << describe(*e)
            << "\n";
        return 1;
      }
      game->history.push_back(**parsed);
    }

    const Millis budget = first ? options.first_movetime : options.movetime;
    const Millis spent =
        std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - started);
    const Move m = choose(*search, game->position, std::max(Millis{1}, budget - spent));
    if (m.is_none()) {
      err << "botzone: no legal move left; the game is lost\n";
      out << kNoMove << std::endl;
    } else {
      game->position.do_move(m);
      game->history.push_back(m);
      out << format_move(m) << "\n";
    }
    if (!options.keep_running) {
      out.flush();
      return 0;
    }
    out << kKeepRunning << std::endl;
  }
  return 0;
}

}  // namespace amazons::ai::botzone
