// The search interface: what to think about, for how long, and how the answer comes back.
//
// A Search thinks on threads of its own. start() never blocks; stop() asks it to finish and
// returns at once; wait() blocks until it has finished. Progress and the result go out through
// the callbacks given to start(), called on a search thread; turning them into text is the
// caller's business (the protocol loop, the AI player). start(), wait(), set_settings() and
// clear() belong to the owner and are called from one thread at a time; stop() and running()
// from any thread. The callbacks must not call start() or wait() (they run on the thread those
// would join).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ai/evaluate.h"
#include "ai/score.h"
#include "common/move.h"
#include "common/position.h"
#include "common/time_control.h"

namespace amazons::ai {

// When to stop. Everything given applies; the first limit reached ends the search. With no time
// limit, no depth or node limit and not infinite, the search thinks for kDefaultMoveTime.
struct SearchLimits {
  std::optional<Millis> movetime;   // this move must be answered within this time
  std::optional<Millis> time_left;  // the mover's clock; a budget is taken from it
  Millis increment{0};              // added to the clock after the move
  int depth = 0;                    // full moves; 0 for no limit
  std::uint64_t nodes = 0;          // 0 for no limit
  bool infinite = false;            // think until stop() (or a depth or node limit)
};

inline constexpr Millis kDefaultMoveTime{1000};

// How the search narrows the tree: at each node it ranks every queen step by the evaluation after
// the step, expands the arrows of the best `*_steps` of them, and searches the best `*_width` of
// the resulting moves. Wider near the root, where mistakes cost most.
struct Selectivity {
  int root_width = 32;      // root moves searched at depth >= 3 (all of them at depth <= 2)
  int near_width = 10;      // moves searched one ply below the root
  int far_width = 6;        // moves searched deeper
  int near_steps = 10;      // queen steps expanded one ply below the root
  int far_steps = 8;        // queen steps expanded deeper
  int frontier_steps = 12;  // queen steps expanded at the last ply
  int reduction_from = 4;   // moves after this many are searched one ply shallower first
  double scale = 1.0;       // multiplies every width (levels use it to weaken the engine)
};

// Monte-Carlo tree search with evaluation cut-offs (SearchKind::Mcts): no random playouts; a new
// leaf is valued by the static evaluation, squashed to a winning chance by a logistic curve.
struct MctsParams {
  double exploration = 0.25;  // UCT constant
  double temperature = 120;   // hundredths of a square per unit of the logistic's argument
  double prior_weight = 1.0;  // the static value counts as this many visits
  int children = 48;          // moves kept per node, best by the static evaluation
  int widen_base = 6;         // children open to selection: base + per_sqrt * sqrt(visits)
  double widen_per_sqrt = 2.0;
  int steps = 16;                     // queen steps whose arrows are expanded, as in Selectivity
  std::size_t max_nodes = 4'000'000;  // per thread; beyond it leaves are no longer expanded
  friend bool operator==(const MctsParams&, const MctsParams&) = default;
};

// Auto picks one by the board at the start of each search: MCTS on boards up to
// kMctsLargestBoard, alpha-beta on larger ones, as matches against the earlier engine measured
// (docs/ENGINE.md, "Which one, and why").
enum class SearchKind : std::uint8_t { AlphaBeta, Mcts, Auto };

inline constexpr int kMctsLargestBoard = 8;

// The search Auto runs on a board of `size` squares a side; other kinds are returned as they are.
constexpr SearchKind resolve(SearchKind kind, int size) {
  if (kind != SearchKind::Auto) return kind;
  return size <= kMctsLargestBoard ? SearchKind::Mcts : SearchKind::AlphaBeta;
}

// "alphabeta", "mcts" and "auto", as levels, protocol limits and match specs write them.
std::string_view to_string(SearchKind kind);
std::optional<SearchKind> parse_search_kind(std::string_view text);

// What the engine is: fixed for the life of a Search object unless changed between searches.
struct SearchSettings {
  SearchKind kind = SearchKind::AlphaBeta;
  int threads = 1;           // search threads (lazy SMP); at least 1
  std::size_t hash_mb = 32;  // transposition table size
  EvalParams eval;
  Selectivity selectivity;
  MctsParams mcts;
  // Alpha-beta only (MCTS ignores it and reports one line): after each completed depth, the
  // best this many root moves are reported, each with its own line and a score that is not a
  // bound (fewer when there are fewer legal moves). Every line past the first costs about a
  // search of the root without the moves already reported, so 1 for play. 1 to kMaxMultiPv.
  int multipv = 1;
};

// The most lines a search gives: an analysis board shows a few, and each costs a root search.
inline constexpr int kMaxMultiPv = 10;

// One line of a completed depth. With SearchSettings::multipv > 1, on_progress is called once for
// each line of the depth, best first (scores non-increasing), and the result's best move is the
// first line's (as with one line, a depth cut short may still replace it with a better move).
struct SearchProgress {
  int depth = 0;    // completed depth (full moves)
  int multipv = 1;  // which line of the depth: 1 for the best
  Score score = 0;
  std::vector<Move> pv;
  std::uint64_t nodes = 0;  // positions evaluated or expanded, all threads
  Millis elapsed{0};
  std::uint64_t nps = 0;
};

struct SearchResult {
  Move best;  // Move::none() only when the side to move has no move
  Score score = 0;
  int depth = 0;
  std::vector<Move> pv;
  std::uint64_t nodes = 0;
  Millis elapsed{0};
  std::uint64_t nps = 0;
  bool stopped = false;                     // ended by stop() rather than by its own limits
  SearchKind kind = SearchKind::AlphaBeta;  // the search that produced it (never Auto)
  // MCTS: root visits its tree already had when the search began (it goes on with the tree of
  // the same position, such as a ponder search's); 0 for a new tree and for alpha-beta.
  std::uint64_t kept_visits = 0;
};

// Nodes a second over `elapsed`, counted as at least a millisecond.
inline std::uint64_t nodes_per_second(std::uint64_t nodes, Millis elapsed) {
  return nodes * 1000 / static_cast<std::uint64_t>(std::max(elapsed, Millis{1}).count());
}

struct SearchCallbacks {
  std::function<void(const SearchProgress&)> on_progress;  // each line of each completed depth
  std::function<void(const SearchResult&)> on_done;        // once, when the search ends
};

class Search {
 public:
  virtual ~Search() = default;

  // Starts thinking about `pos` and returns at once (without search threads: when it is done).
  // If a search is still running it is stopped and waited for first. on_done is called exactly
  // once, on a search thread, before wait() returns; the best move is always legal when the side
  // to move has one.
  virtual void start(const Position& pos, const SearchLimits& limits,
                     SearchCallbacks callbacks) = 0;
  // Asks the running search to end as soon as it can (within a millisecond or so); returns at
  // once. Any thread; harmless when nothing runs.
  virtual void stop() = 0;
  // Blocks until the search has ended and returns its result (the last one if none runs).
  virtual SearchResult wait() = 0;
  virtual bool running() const = 0;

  // Between searches only.
  virtual void set_settings(const SearchSettings& settings) = 0;
  virtual const SearchSettings& settings() const = 0;
  // Forgets what earlier searches learnt (a new game). Between searches only.
  virtual void clear() = 0;
};

// Whether this build can run a search on threads of its own. Without (the WebAssembly build for a
// page that may not share memory), Search::start searches to the end before it returns, on the
// caller's thread, with one search thread; an unbounded search is refused by the protocol.
bool search_threads_available();

std::unique_ptr<Search> make_search(const SearchSettings& settings = {});

// The blocking convenience: searches and returns the result.
SearchResult search_now(Search& search, const Position& pos, const SearchLimits& limits);

// "d1-d7/g7 a7-b8/c8 ..." for logs and the protocol.
std::string pv_string(const std::vector<Move>& pv);

}  // namespace amazons::ai
