// What amazons-match prints on standard output: what is played, a line per game as it ends (and
// every failure of a player), and the summary: score, Elo difference, overruns, ponder hits.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>

#include "ai/tools/match.h"

namespace amazons::ai {

class MatchReport {
 public:
  // `a`, `b`: the players' labels; `total`: the games to be played; `quiet`: failures and the
  // summary only.
  MatchReport(std::ostream& out, std::string a, std::string b, int total, bool quiet);

  void header(const RuleVariant& rules, int openings, const TimeControl& control, int parallel);
  // A game has ended; `so_far` counts it.
  void game(const GameOutcome& g, const MatchSummary& so_far);
  void summary(const MatchSummary& summary, std::chrono::seconds elapsed);

 private:
  std::ostream& out_;
  std::string names_[2];
  int total_;
  bool quiet_;
};

// "+35", "-inf": an Elo difference as the summary writes it.
std::string elo_text(double elo);

}  // namespace amazons::ai
