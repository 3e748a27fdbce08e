// A tournament as a pure state machine: players join and withdraw, the tournament pairs them,
// results are fed in, standings come out. No sockets, no lobby, no clock of its own: every call
// that depends on time takes `now`, so doctest drives whole tournaments through it.
//
// Kinds and their rules (all deterministic: ties are broken by name, nothing is random):
//
// Arena, for a fixed duration from the start. Whoever is free is paired as soon as possible:
//   free players are ranked (score, then rating, then name) and the best-ranked free player is
//   paired with the next-ranked free player who was not their last opponent. If the only free
//   candidate is the last opponent, the player waits while anyone else is still playing (they
//   will come free soon); when nobody else is playing the rematch is allowed.
//   Scoring as on lichess.org: a win 2 points, a draw 1, a loss 0. After two wins in a row the
//   player is "on fire": every further win scores 4 (and a draw 2) until a game that is not a
//   win ends the streak. When the time is up the tournament ends at once; games still being
//   played then do not count (as on lichess). Players may join and withdraw while it runs;
//   a withdrawn player is not paired again (joining again resumes with the same score).
//   Ranking: points, then wins, then the direct encounter (as below), then rating, then name.
//
// Round-robin: everyone plays everyone once, round by round (a round starts when the last game
//   of the one before has finished), following the Berger tables: players numbered 1..n by
//   rating (then name) at the start, with an empty seat n when the count is odd. In round r
//   (1-based) players a and b (both < n) meet when a + b = r + 1 (mod n - 1), the lower number
//   white when a + b is odd and the higher number white when it is even; player n meets the a
//   with 2a = r + 1 (mod n - 1), a white in odd rounds and n white in even ones. Whoever faces
//   the empty seat rests that round (no points). Colours: nobody's whites and blacks differ by
//   more than one. A win 1 point, a draw 1/2, a loss 0. A player who withdraws after the start
//   loses the games they had not begun by forfeit (the opponent gets the point, no game).
//   Ranking: points, then Sonneborn-Berger (the sum of the points of the opponents beaten, plus
//   half those drawn with), then the direct encounter when exactly two players are level on
//   both, then rating, then name.
//
// Swiss, a fixed number of rounds (a Dutch-style system). Before each round the players who
//   have not withdrawn are sorted by score, then rating, then name. With an odd count the
//   lowest of them who has had no bye gets the bye (1 point, no game). The rest are split into
//   score groups from the top; a group (with any players floated down into it first) is cut
//   into a top half S1 and a bottom half S2 and S1[i] plays S2[i]; when that repeats a pairing
//   the next orderings of S2 are tried; a group of odd size, or one that cannot be paired
//   without repeats, floats its lowest player down to the next group. Should the last group be
//   impossible to pair, the whole round is paired by backtracking in rank order (each player
//   with the highest-ranked opponent not yet met). No two players ever meet twice; when no
//   pairing without repeats exists the tournament ends early. Colours: the player with more
//   whites than blacks (so far) gets black; if equal, whoever had white last gets black; if
//   still equal the higher-ranked gets white. A win 1, a draw 1/2, a loss 0, a bye 1.
//   Ranking: points, then Buchholz (the sum of the opponents' final points; a bye adds
//   nothing), then the direct encounter (as above), then rating, then name.
//
// Threading: none of its own; one thread at a time (the lobby's strand).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"
#include "common/protocol_types.h"
#include "common/time_control.h"
#include "common/types.h"

namespace amazons::server {

using TournamentId = std::int64_t;

enum class TournamentKind : std::uint8_t { Arena, RoundRobin, Swiss };
enum class TournamentStatus : std::uint8_t {
  Created,   // taking players, not started
  Running,   // started, pairing
  Finished,  // over: standings final (or cancelled with fewer than two players)
};

std::string to_string(TournamentKind k);
std::optional<TournamentKind> parse_tournament_kind(std::string_view s);
std::string to_string(TournamentStatus s);
std::optional<TournamentStatus> parse_tournament_status(std::string_view s);

struct TournamentSettings {
  std::string name;
  TournamentKind kind = TournamentKind::Arena;
  std::string variant = "standard";  // a rule variant's name (the lobby checks it exists)
  TimeControl time_control = TimeControl::fischer(Millis{180'000}, Millis{2'000});
  bool rated = true;
  Millis start_at{0};   // wall clock (milliseconds since the epoch)
  Millis duration{0};   // arena only: how long it runs
  int rounds = 0;       // Swiss only: how many rounds
  int max_players = 0;  // 0: no limit
  bool bots_allowed = true;
  friend bool operator==(const TournamentSettings&, const TournamentSettings&) = default;
};

// Why settings are unusable, or nothing.
Expected<void, std::string> check(const TournamentSettings& s);

// How a game ended, from the tournament's point of view.
enum class TournamentResult : std::uint8_t { WhiteWins, BlackWins, Draw };

struct Pairing {
  enum class State : std::uint8_t {
    Pending,   // waiting for the lobby to start its game
    Playing,   // the game is on
    Finished,  // result counted
    Bye,       // white had no opponent (Swiss: 1 point; round-robin: rests)
    Forfeit,   // not played: `result` says who gets the point
    Void,      // not counted (still playing when an arena ended)
  };
  int round = 0;  // 1-based; arena pairings all have round 0
  std::string white;
  std::string black;  // empty for a bye
  State state = State::Pending;
  std::optional<TournamentResult> result;
  std::int64_t game = 0;  // the lobby's game id once started
  friend bool operator==(const Pairing&, const Pairing&) = default;
};

std::string to_string(Pairing::State s);
std::string to_string(TournamentResult r);

struct TournamentPlayer {
  std::string name;
  double rating = protocol::kInitialRating;
  bool bot = false;
  bool withdrawn = false;
  friend bool operator==(const TournamentPlayer&, const TournamentPlayer&) = default;
};

struct Standing {
  int rank = 0;  // 1-based
  std::string name;
  double points = 0;
  double tiebreak = 0;  // Sonneborn-Berger (round-robin), Buchholz (Swiss), wins (arena)
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  bool on_fire = false;  // arena: the next win scores double
  bool withdrawn = false;
  double rating = 0;
};

class Tournament {
 public:
  Tournament(TournamentId id, TournamentSettings settings);

  TournamentId id() const { return id_; }
  const TournamentSettings& settings() const { return settings_; }
  TournamentStatus status() const { return status_; }
  int round() const { return round_; }  // the current round (0 before the first)
  const std::vector<TournamentPlayer>& players() const { return players_; }
  const std::vector<Pairing>& pairings() const { return pairings_; }
  // When an arena stops pairing (start + duration); nullopt for other kinds.
  std::optional<Millis> ends_at() const;

  // Before the start (and, for an arena, while it runs). Errors: finished, already started
  // (round-robin, Swiss), full, bots not allowed, already in. An arena player who withdrew
  // joins again with their score.
  Expected<void, std::string> join(const std::string& name, double rating, bool bot);
  // Before the start the player is removed; afterwards they are not paired again (round-robin:
  // their unplayed games are forfeited). A game they are playing goes on and counts.
  Expected<void, std::string> withdraw(const std::string& name);

  // Starts the tournament when its start time has come, ends an arena whose time is up, pairs
  // whoever can be paired. Returns the indices (into pairings()) of new Pending pairings,
  // whose games the caller starts and reports with game_started.
  std::vector<int> tick(Millis now);
  // Precondition: the pairing is Pending.
  void game_started(int pairing, std::int64_t game);
  // A game's result; ignored unless the pairing is Playing or Pending (an arena that ended
  // voids the games in progress). Returns the new Pending pairings like tick.
  std::vector<int> record_result(int pairing, TournamentResult result, Millis now);
  // The pairing whose game this is, if any.
  std::optional<int> pairing_of_game(std::int64_t game) const;

  // Ranked, best first, by the rule of the kind (see the top of this file).
  std::vector<Standing> standings() const;

  nlohmann::json to_json() const;
  static Expected<Tournament, std::string> from_json(const nlohmann::json& j);

 private:
  TournamentPlayer* find(const std::string& name);
  bool busy(const std::string& name) const;
  void start();
  void finish();
  std::vector<int> pair_arena();
  std::vector<int> next_round();
  std::vector<int> round_robin_round();
  std::vector<int> swiss_round();
  int add_pairing(int round, std::string white, std::string black);
  bool round_done() const;

  TournamentId id_;
  TournamentSettings settings_;
  TournamentStatus status_ = TournamentStatus::Created;
  int round_ = 0;
  std::vector<TournamentPlayer> players_;
  std::vector<std::string> berger_;  // round-robin seating, fixed at the start ("" = empty seat)
  std::vector<Pairing> pairings_;
};

}  // namespace amazons::server
