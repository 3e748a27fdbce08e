// Matches between two players: engine levels or limits, external programs, or a random mover,
// with alternating colours and varied openings, checked by LocalGame, scored with an Elo
// estimate. amazons-match is a thin command line around this.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ai/ai_player.h"
#include "ai/levels.h"
#include "ai/tools/external_engine.h"
#include "common/expected.h"
#include "common/game_record.h"
#include "common/player.h"
#include "common/time_control.h"
#include "common/variant.h"

namespace amazons::ai {

// Who plays. Text forms (for command lines):
//   hard, level:hard                    a level from the config
//   limits:movetime=200,depth=3,width=0.8,noise=0   full strength with exactly these limits
//   engine:COMMAND, uci:COMMAND, botzone:COMMAND
//                                       an external program in our protocol, UCI or Botzone's
//   random                              a uniformly random mover
// An engine of our own (a level or limits) may end in "+ponder": it thinks on the opponent's
// time (AIPlayer::set_ponder), which needs a free core while the opponent thinks.
struct PlayerSpec {
  enum class Kind : std::uint8_t { Engine, External, Random };
  Kind kind = Kind::Engine;
  std::string label;  // how results name this player
  Level level;        // Kind::Engine
  // Kind::Engine: explicit engine settings instead of those the level and config give (for
  // tuning tools that compare evaluation weights or search widths).
  std::optional<SearchSettings> settings;
  bool ponder = false;             // Kind::Engine
  ExternalEngineOptions external;  // Kind::External
};

Expected<PlayerSpec, std::string> parse_player_spec(std::string_view text, const AiConfig& config);

struct MatchOptions {
  RuleVariant rules = standard_variant();
  int games = 20;           // rounded up to an even number: each opening is played twice
  int opening_plies = 2;    // random plies before the players take over
  int opening_choices = 8;  // picked among this many best moves by the static evaluation
  std::uint64_t seed = 1;
  int parallel = 1;          // games at the same time
  TimeControl time_control;  // unlimited: each player keeps to its own limits
  AiConfig config;           // threads and table size for engine players
};

struct GameOutcome {
  int index = 0;    // 0-based
  int opening = 0;  // games 2k and 2k+1 share opening k
  bool a_is_white = true;
  GameRecord record;
  std::optional<int> winner;          // 0 for player A, 1 for B; empty if the game was aborted
  std::vector<std::string> failures;  // engine failures seen in this game
  // Per player (A, B): the latest reply against its time limit (see MatchSummary::max_overrun).
  std::optional<Millis> overrun[2];
  AIPlayer::PonderStats ponder[2];  // per player; zero for one that does not ponder
};

struct EloEstimate {
  double score = 0.5;        // of player A
  double elo = 0;            // +inf / -inf when one side won every game
  double low = 0, high = 0;  // 95% interval (Wilson score interval)
};
EloEstimate elo_estimate(int wins, int losses);

struct MatchSummary {
  int a_wins = 0, b_wins = 0, unfinished = 0;
  EloEstimate elo;
  // The latest a reply came after the time the player was given for it (negative: always that
  // much early), per player; empty when no move had a time limit.
  std::optional<Millis> max_overrun[2];
  AIPlayer::PonderStats ponder[2];  // summed over the games
  std::vector<GameOutcome> games;   // in order of index
};

class Match {
 public:
  Match(PlayerSpec a, PlayerSpec b, MatchOptions options);

  // Plays every game (options.parallel at a time) and returns the summary. on_game is called
  // after each game from the thread that played it (calls are serialised).
  MatchSummary run(
      const std::function<void(const GameOutcome&, const MatchSummary&)>& on_game = {});

  // Ends the running games soon (recorded as aborted) and starts no more. Any thread.
  void abort();

 private:
  struct Running;
  GameOutcome play_game(int index);

  PlayerSpec specs_[2];
  MatchOptions options_;
  std::atomic<bool> aborted_{false};
  std::shared_ptr<Running> running_;
};

}  // namespace amazons::ai
