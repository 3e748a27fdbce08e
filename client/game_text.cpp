#include "client/game_text.h"

#include <cstdio>

#include "common/notation.h"

namespace amazons::client {

std::vector<MoveRow> move_rows(const std::vector<Move>& moves) {
  std::vector<MoveRow> rows;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i % 2 == 0) {
      rows.push_back({static_cast<int>(i / 2 + 1), to_string(moves[i]), {}});
    } else {
      rows.back().second = to_string(moves[i]);
    }
  }
  return rows;
}

std::string side_name(Color c) { return c == Color::White ? "White" : "Black"; }

std::string result_title(const GameResult& r) {
  if (!r.winner) return "Game aborted";
  return side_name(*r.winner) + " wins";
}

std::string result_reason(const GameResult& r, const std::string& detail) {
  const std::string loser = r.winner ? side_name(~*r.winner) : std::string();
  switch (r.reason) {
    case EndReason::NoMoves:
      return loser + " has no legal move left.";
    case EndReason::Resign:
      return loser + " resigned.";
    case EndReason::Time:
      return loser + " ran out of time.";
    case EndReason::Abandon:
      return loser + " left the game.";
    case EndReason::Aborted:
      return "The game was called off.";
    case EndReason::Adjudicated:
      return "A moderator decided the game.";
    case EndReason::IllegalMove:
      return detail.empty() ? loser + " sent an illegal move." : "Illegal move: " + detail + ".";
  }
  return {};
}

std::string format_clock(std::chrono::milliseconds t) {
  using namespace std::chrono;
  if (t < milliseconds::zero()) t = milliseconds::zero();
  const auto total_ms = t.count();
  char buf[32];
  if (t < seconds(10)) {
    std::snprintf(buf, sizeof buf, "0:%02lld.%lld", static_cast<long long>(total_ms / 1000),
                  static_cast<long long>(total_ms % 1000 / 100));
    return buf;
  }
  // Whole seconds, rounded up, so a clock never shows 0:00 while time is left.
  const long long s = (total_ms + 999) / 1000;
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  }
  return buf;
}

std::string short_timestamp(const std::string& at) {
  if (at.size() >= 16 && at[10] == 'T') return at.substr(0, 10) + " " + at.substr(11, 5) + " UTC";
  return at;
}

}  // namespace amazons::client
