#include "ai/tools/match_report.h"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace amazons::ai {

namespace {

std::string overrun_text(const std::optional<Millis>& o) {
  if (!o) return "no time limit";
  if (o->count() <= 0) return std::to_string(-o->count()) + " ms early at the latest";
  return std::to_string(o->count()) + " ms late";
}

std::string duration_text(std::chrono::seconds s) {
  const auto m = s.count() / 60;
  return (m > 0 ? std::to_string(m) + "m " : std::string()) + std::to_string(s.count() % 60) + "s";
}

std::string ending(const GameRecord& r, const std::string& loser) {
  if (!r.result) return "unfinished";
  switch (r.result->reason) {
    case EndReason::NoMoves:
      return loser + " cannot move";
    case EndReason::Resign:
      return loser + " resigned";
    case EndReason::Time:
      return loser + " ran out of time";
    case EndReason::IllegalMove:
      return loser + " played an illegal move";
    case EndReason::Abandon:
      return loser + " left";
    case EndReason::Adjudicated:
      return "adjudicated against " + loser;
    case EndReason::Aborted:
      break;
  }
  return "aborted";
}

}  // namespace

std::string elo_text(double e) {
  if (std::isinf(e)) return e > 0 ? "+inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f", e);
  return buf;
}

MatchReport::MatchReport(std::ostream& out, std::string a, std::string b, int total, bool quiet)
    : out_(out), names_{std::move(a), std::move(b)}, total_(total), quiet_(quiet) {}

void MatchReport::header(const RuleVariant& rules, int openings, const TimeControl& control,
                         int parallel) {
  out_ << names_[0] << " vs " << names_[1] << " on " << rules.name << " (" << rules.size << "x"
       << rules.size << "), " << total_ << " games, " << openings
       << " random opening plies, time control " << to_string(control) << ", " << parallel
       << " at a time" << std::endl;
}

void MatchReport::game(const GameOutcome& g, const MatchSummary& s) {
  for (const std::string& f : g.failures) out_ << "  ! game " << g.index + 1 << ": " << f << "\n";
  if (quiet_) return;
  const int a_color = g.a_is_white ? 0 : 1;
  out_ << "game " << g.index + 1 << "/" << total_ << "  " << names_[0] << " ("
       << (g.a_is_white ? "white" : "black") << ") vs " << names_[1] << ": ";
  if (g.winner) {
    const int w = *g.winner;
    out_ << names_[w] << " wins, "
         << ending(g.record, std::string(color_name(w == 0 ? static_cast<Color>(1 - a_color)
                                                           : static_cast<Color>(a_color))));
  } else {
    out_ << "no result";
  }
  out_ << " after " << g.record.moves.size() << " plies  [" << s.a_wins << "-" << s.b_wins << "]"
       << std::endl;
}

void MatchReport::summary(const MatchSummary& summary, std::chrono::seconds elapsed) {
  const int played = summary.a_wins + summary.b_wins;
  out_ << "\nresult: " << names_[0] << " " << summary.a_wins << ", " << names_[1] << " "
       << summary.b_wins;
  if (summary.unfinished > 0) out_ << ", unfinished " << summary.unfinished;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * summary.elo.score);
  out_ << " (" << pct << " for " << names_[0] << " over " << played << " games)\n"
       << "Elo difference: " << elo_text(summary.elo.elo) << " (95%: " << elo_text(summary.elo.low)
       << " .. " << elo_text(summary.elo.high) << ")\n"
       << "largest deadline overrun: " << names_[0] << " " << overrun_text(summary.max_overrun[0])
       << ", " << names_[1] << " " << overrun_text(summary.max_overrun[1]) << "\n";
  for (int s = 0; s < 2; ++s) {
    const auto& p = summary.ponder[s];
    if (p.hits + p.misses > 0)
      out_ << "pondering: " << names_[s] << " expected the reply " << p.hits << " times of "
           << p.hits + p.misses << "\n";
  }
  out_ << "time: " << duration_text(elapsed) << std::endl;
}

}  // namespace amazons::ai
