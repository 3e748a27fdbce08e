#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "ai/search.h"
#include "ai/timeman.h"
#include "ai/tt.h"
#include "common/movegen.h"
#include "common/position_text.h"
#include "test_util.h"
#include "timing.h"

using namespace amazons;
using namespace amazons::ai;
using Clock = std::chrono::steady_clock;

namespace {

// True when the side to move wins within `own_moves` of its moves against every defence, by
// exhaustive search.
bool forced_win(Position& pos, int own_moves) {
  auto moves = std::make_unique<MoveList>();
  generate_moves(pos, *moves);
  for (Move m : *moves) {
    pos.do_move(m);
    bool wins = pos.is_game_over();
    if (!wins && own_moves > 1) {
      wins = true;
      auto replies = std::make_unique<MoveList>();
      generate_moves(pos, *replies);
      for (Move r : *replies) {
        pos.do_move(r);
        const bool w = forced_win(pos, own_moves - 1);
        pos.undo_move(r);
        if (!w) {
          wins = false;
          break;
        }
      }
    }
    pos.undo_move(m);
    if (wins) return true;
  }
  return false;
}

// After `m`, does the mover still win within `own_moves` - 1 further moves whatever the reply?
bool move_wins(Position pos, Move m, int own_moves) {
  pos.do_move(m);
  if (pos.is_game_over()) return true;
  auto replies = std::make_unique<MoveList>();
  generate_moves(pos, *replies);
  for (Move r : *replies) {
    pos.do_move(r);
    const bool w = own_moves > 1 && forced_win(pos, own_moves - 1);
    pos.undo_move(r);
    if (!w) return false;
  }
  return true;
}

SearchLimits depth_limit(int depth) {
  SearchLimits l;
  l.depth = depth;
  return l;
}

}  // namespace

TEST_CASE("the engine finds forced wins in small positions") {
  // Found by random play and checked here by exhaustive search: wins in two moves (not one) where
  // almost every first move fails.
  const char* positions[] = {
      "x1x2x/1x4/x2x2/1xWx2/1xx2x/xBxx2 w",     // 2 winning moves of 44
      "1Wx3/x2x2/x2xx1/xBxx1x/1x1xxx/2xx1x b",  // 1 of 22
  };
  for (const char* text : positions) {
    Position pos = *parse_position(text);
    CAPTURE(text);
    REQUIRE(forced_win(pos, 2));
    REQUIRE_FALSE(forced_win(pos, 1));
    auto search = make_search();
    const SearchResult r = search_now(*search, pos, depth_limit(3));
    CHECK(move_wins(pos, r.best, 2));
    CHECK(r.score >= kWinBound);
  }
}

TEST_CASE("a win in one is played at once, at any depth, by every search kind") {
  // Black's queen on a1 has one free neighbour, b1; shooting there from d3 shuts it in.
  Position pos = *parse_position("8/8/8/8/8/3W4/xx6/B7 w");
  for (SearchKind kind : {SearchKind::AlphaBeta, SearchKind::Mcts, SearchKind::Auto}) {
    SearchSettings s;
    s.kind = kind;
    auto search = make_search(s);
    for (int depth : {1, 2, 4}) {
      const SearchResult r = search_now(*search, pos, depth_limit(depth));
      Position after = pos;
      after.do_move(r.best);
      CHECK(after.is_game_over());
    }
  }
}

TEST_CASE("the search converts a won separated endgame against best defence") {
  // Margin one: Black to move has 12 moves left, White 11, and 9 of Black's 12 moves lose.
  const char* positions[] = {
      "W1x1xxWx/x1xx2x1/xxxxxx1x/3xxxx1/1xx2xx1/2xxBx2/xxx1xxxx/B1xx4 b",
      "x1x1W1x1/2xxxx1x/Wx2x1xx/x1xxxxxx/xxxx1Bxx/x1xxx1x1/1B3xx1/1xx2xx1 w",
  };
  for (const char* text : positions) {
    Position pos = *parse_position(text);
    const Color winner = pos.side_to_move();
    auto search = make_search();
    SearchLimits limits;
    limits.movetime = Millis{200};
    while (!pos.is_game_over()) {
      const SearchResult r = search_now(*search, pos, limits);
      REQUIRE_FALSE(pos.check(r.best));
      pos.do_move(r.best);
    }
    CAPTURE(text);
    CHECK(pos.side_to_move() == ~winner);  // the loser is the one left without a move
  }
}

TEST_CASE("a result proven at one depth stays proven, and the position after its move agrees") {
  // Positions of 8x8 games (depth-2 self-play with thrown moves) where the side to move's best
  // move leaves a separated endgame counted won, and a search to depth 6 came back with a
  // heuristic lead (+41.77 and +37.28 squares): a deeper iteration, whose last positions the
  // counter could only bound or whose widths left the winning line out, replaced the proof. The
  // analysis then judged the move before on a heuristic score and the next ply on a proof.
  const char* positions[] = {
      "8/8/Bx3x2/Wx5x/xxxBxxxB/2xxx3/BWW1xx2/1Wx1x2x b",
      "8/5B2/B7/3xxxx1/xxxxWB2/1xW1xxxx/2xxxxx1/1xxWB1W1 b",
  };
  for (const char* text : positions) {
    CAPTURE(text);
    const Position pos = *parse_position(text);
    SearchLimits limits;
    limits.depth = 6;
    const SearchResult before = search_now(*make_search(), pos, limits);
    CAPTURE(before.score);
    CHECK(before.score >= kKnownWin);
    Position after = pos;
    after.do_move(before.best);
    const SearchResult reply = search_now(*make_search(), after, limits);
    CHECK(reply.score == -before.score);
  }
}

TEST_CASE("a separated position the counter proves is reported proven, whatever its moves show") {
  // Positions of 8x8 games (depth-1 self-play with thrown moves) reached by a move whose search
  // had proved it (a count of the position after it), which the next search reported as a
  // heuristic score (-4.09 and -22.39 squares at 60 ms): the counts after its moves came out as
  // bounds only.
  const char* positions[] = {
      "1xWxx3/1xBBxx1x/x2x2xB/2xxxxxx/xxx1xW2/1xxxBx2/2xWWxx1/3xxx2 b",
      "8/1xx3x1/x2xB3/2B5/Bxxxxxxx/WWxx2W1/Bx2xxx1/1x2W3 w",
  };
  for (const char* text : positions) {
    CAPTURE(text);
    const Position pos = *parse_position(text);
    const Score counted = Evaluator().evaluate(pos);
    REQUIRE(counted <= -kKnownWin);
    for (const int depth : {2, 3, 4}) {
      CAPTURE(depth);
      auto search = make_search();
      std::vector<Score> reported;  // each depth's, as the protocol's info lines give them
      SearchCallbacks cb;
      cb.on_progress = [&](const SearchProgress& p) { reported.push_back(p.score); };
      search->start(pos, depth_limit(depth), cb);
      const SearchResult r = search->wait();
      CHECK(r.score == counted);
      CHECK_FALSE(pos.check(r.best));
      CHECK(reported == std::vector<Score>(static_cast<std::size_t>(r.depth), counted));
    }
  }
}

TEST_CASE("stop from another thread ends an infinite search promptly with a legal move") {
  for (SearchKind kind : {SearchKind::AlphaBeta, SearchKind::Mcts, SearchKind::Auto}) {
    for (const Position& pos : {Position(standard_variant()), Position(botzone8_variant())}) {
      CAPTURE(to_string(kind));
      SearchSettings settings;
      settings.kind = kind;
      auto search = make_search(settings);
      SearchLimits limits;
      limits.infinite = true;
      search->start(pos, limits, {});
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      CHECK(search->running());
      Clock::time_point stopped_at;
      std::thread stopper([&] {
        stopped_at = Clock::now();
        search->stop();
      });
      stopper.join();
      const SearchResult r = search->wait();
      const auto latency = std::chrono::duration_cast<Millis>(Clock::now() - stopped_at);
      CHECK(latency < test::deadline_slack());
      CHECK(r.stopped);
      CHECK_FALSE(pos.check(r.best));
      CHECK_FALSE(search->running());
    }
  }
}

TEST_CASE("start returns while the search runs") {
  auto search = make_search();
  SearchLimits limits;
  limits.infinite = true;
  search->start(Position(standard_variant()), limits, {});
  CHECK(search->running());
  search->stop();
  search->wait();
  CHECK_FALSE(search->running());
}

TEST_CASE("progress comes with every completed depth and the result once") {
  const Position pos(botzone8_variant());
  auto search = make_search();
  std::vector<int> depths;
  std::mutex m;
  SearchCallbacks cb;
  cb.on_progress = [&](const SearchProgress& p) {
    std::lock_guard lock(m);
    depths.push_back(p.depth);
    CHECK_FALSE(p.pv.empty());
  };
  int done = 0;
  cb.on_done = [&](const SearchResult&) { ++done; };
  search->start(pos, depth_limit(3), cb);
  const SearchResult r = search->wait();
  CHECK(done == 1);
  CHECK(r.depth == 3);
  CHECK(depths == std::vector<int>{1, 2, 3});
  CHECK_FALSE(r.stopped);
}

TEST_CASE("multi-PV gives each depth its lines best first, with one thread and with two") {
  const Position pos(botzone8_variant());
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    SearchSettings s;
    s.threads = threads;
    s.multipv = 3;
    auto search = make_search(s);
    std::vector<SearchProgress> lines;
    std::mutex m;
    SearchCallbacks cb;
    cb.on_progress = [&](const SearchProgress& p) {
      std::lock_guard lock(m);
      lines.push_back(p);
    };
    search->start(pos, depth_limit(3), cb);
    const SearchResult r = search->wait();
    REQUIRE(lines.size() == 9);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const SearchProgress& p = lines[i];
      CAPTURE(i);
      CHECK(p.depth == static_cast<int>(i / 3) + 1);
      CHECK(p.multipv == static_cast<int>(i % 3) + 1);
      REQUIRE_FALSE(p.pv.empty());
      CHECK_FALSE(pos.check(p.pv.front()));
      if (p.multipv > 1) {
        CHECK(p.score <= lines[i - 1].score);
        CHECK(p.nodes == lines[i - 1].nodes);  // one depth's lines share its count
        for (std::size_t j = i - static_cast<std::size_t>(p.multipv) + 1; j < i; ++j)
          CHECK(p.pv.front() != lines[j].pv.front());
      }
    }
    CHECK(r.depth == 3);
    CHECK(r.best == lines[6].pv.front());
    CHECK(r.score == lines[6].score);
  }
}

TEST_CASE("the hard deadline holds on every board size, with one and two threads, for every kind") {
  for (SearchKind kind : {SearchKind::AlphaBeta, SearchKind::Mcts, SearchKind::Auto}) {
    for (const RuleVariant& v : {botzone8_variant(), standard_variant(), test::small_variant(12)}) {
      for (int threads : {1, 2}) {
        SearchSettings s;
        s.kind = kind;
        s.threads = threads;
        auto search = make_search(s);
        Position pos(v);
        std::mt19937_64 rng(3);
        test::random_game(pos, 10, rng);
        SearchLimits limits;
        limits.movetime = Millis{120};
        // A burst of other work between the two load probes can still make one search late
        // (226 ms against 182 allowed, seen in CI beside the browser tests): an engine that is
        // late is late every time, so each setting gets three tries and one must keep it.
        SearchResult r;
        Millis took{0}, allowed{0};
        for (int attempt = 0; attempt < 3; ++attempt) {
          const Millis slack_before = test::deadline_slack();
          const auto before = Clock::now();
          r = search_now(*search, pos, limits);
          took = std::chrono::duration_cast<Millis>(Clock::now() - before);
          allowed = Millis{120} + std::max(slack_before, test::deadline_slack());
          if (took <= allowed) break;
          MESSAGE("late by " << (took - allowed).count() << " ms on try " << attempt + 1);
        }
        CAPTURE(v.name);
        CAPTURE(threads);
        CAPTURE(to_string(kind));
        CHECK(r.kind == resolve(kind, v.size));
        CHECK(took <= allowed);
        CHECK_FALSE(pos.check(r.best));
        CHECK(r.nodes > 0);
        REQUIRE_FALSE(r.pv.empty());
        CHECK(r.pv.front() == r.best);
      }
    }
  }
}

TEST_CASE("the Auto search's first move keeps its deadline with a table of a gigabyte") {
  // Its first move makes the alpha-beta search, whose table used to be zeroed word by word before
  // the clock could count: 1 GB took 260-400 ms here, far past a 60 ms move. The table now comes
  // from memory the kernel zeroes as the search first touches it.
  SearchSettings s;
  s.kind = SearchKind::Auto;
  s.hash_mb = 1024;
  SearchLimits limits;
  limits.movetime = Millis{60};
  const Position pos(standard_variant());
  Millis took{0}, allowed{0};
  SearchResult r;
  for (int attempt = 0; attempt < 3; ++attempt) {  // a burst of other work may delay one try
    const Millis slack_before = test::deadline_slack();
    const auto before = Clock::now();
    auto search = make_search(s);
    r = search_now(*search, pos, limits);
    took = std::chrono::duration_cast<Millis>(Clock::now() - before);
    allowed = *limits.movetime + std::max(slack_before, test::deadline_slack());
    if (took <= allowed) break;
    MESSAGE("late by " << (took - allowed).count() << " ms on try " << attempt + 1);
  }
  CHECK(took <= allowed);
  CHECK(r.kind == SearchKind::AlphaBeta);
  CHECK_FALSE(pos.check(r.best));
}

#ifdef __linux__
namespace {

// The table's pages in memory, less the first and the last (which an allocator may share with
// its own bookkeeping): none when nothing has written the table since it was taken.
std::size_t resident_pages(const TranspositionTable& tt) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(tt.memory());
  const std::uintptr_t begin = start & ~(page - 1);
  const std::uintptr_t end = (start + tt.bytes() + page - 1) & ~(page - 1);
  std::vector<unsigned char> resident((end - begin) / page);
  REQUIRE(::mincore(reinterpret_cast<void*>(begin), end - begin, resident.data()) == 0);
  std::size_t n = 0;
  for (std::size_t i = 1; i + 1 < resident.size(); ++i) n += resident[i] & 1U;
  return n;
}

// Stores an entry in every bucket, so that every page of the table is written.
void write_every_bucket(TranspositionTable& tt) {
  for (std::uint64_t k = 0; k < tt.entries(); ++k) tt.store(k, 0, Move::none(), 7, 3, Bound::Exact);
}

}  // namespace

TEST_CASE("the transposition table is made and cleared without writing its pages, at any size") {
  // The search makes its table on its first move (Auto) and clears it for a new game, both
  // before its clock can count; writing zeros over a table then costs time in proportion to its
  // size. It was calloc, which glibc serves from the heap, zeroed by memset, once a mapping of
  // the same size has been freed (below 32 MB).
  for (const std::size_t mb : {1, 4, 16, 64}) {
    CAPTURE(mb);
    TranspositionTable tt(mb);
    CHECK(resident_pages(tt) == 0);
    for (int round = 0; round < 3; ++round) {
      CAPTURE(round);
      write_every_bucket(tt);
      CHECK(resident_pages(tt) > 0);
      CHECK(tt.probe(5, 0));
      if (round == 2)
        tt.resize(mb);
      else
        tt.clear();
      CHECK(resident_pages(tt) == 0);
      CHECK_FALSE(tt.probe(5, 0));  // cleared all the same
    }
  }
}
#endif

TEST_CASE("node and depth limits end the search by themselves") {
  const Position pos(botzone8_variant());
  auto search = make_search();
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult r = search_now(*search, pos, limits);
  CHECK(r.nodes < 20000 + 2000);
  CHECK_FALSE(pos.check(r.best));
}

TEST_CASE("a finished game has no best move") {
  const Position pos = *parse_position("6/6/6/B5/xx4/Wx4 w");
  auto search = make_search();
  CHECK(search_now(*search, pos, depth_limit(2)).best.is_none());
}

TEST_CASE("time plans: a fixed time uses all of it, a clock a share of it") {
  const Position pos(standard_variant());
  SearchLimits fixed;
  fixed.movetime = Millis{1000};
  const TimePlan a = plan_time(fixed, pos);
  CHECK(a.hard == Millis{1000} - kMoveOverhead);
  CHECK_FALSE(a.target);

  SearchLimits clock;
  clock.time_left = Millis{60000};
  clock.increment = Millis{1000};
  const TimePlan b = plan_time(clock, pos);
  REQUIRE(b.target);
  REQUIRE(b.hard);
  CHECK(*b.target > Millis{1000});
  CHECK(*b.target < Millis{12000});
  CHECK(*b.hard >= *b.target);
  CHECK(*b.hard <= Millis{30000});

  SearchLimits short_clock;
  short_clock.time_left = Millis{30};
  const TimePlan c = plan_time(short_clock, pos);
  CHECK(*c.hard >= Millis{1});
  CHECK(*c.hard <= Millis{30});
}

TEST_CASE("auto searches small boards by MCTS and larger ones by alpha-beta, in one object") {
  SearchSettings s;
  s.kind = SearchKind::Auto;
  auto search = make_search(s);
  CHECK(search->settings().kind == SearchKind::Auto);
  SearchLimits limits;
  limits.movetime = Millis{60};
  // Back and forth, so that a switch in either direction is exercised.
  for (int round = 0; round < 2; ++round) {
    for (const RuleVariant& v : {botzone8_variant(), standard_variant(), test::small_variant(6)}) {
      const Position pos(v);
      const SearchResult r = search_now(*search, pos, limits);
      CAPTURE(v.name);
      CHECK(r.kind == (v.size <= kMctsLargestBoard ? SearchKind::Mcts : SearchKind::AlphaBeta));
      CHECK_FALSE(pos.check(r.best));
    }
  }
  CHECK(resolve(SearchKind::AlphaBeta, 8) == SearchKind::AlphaBeta);
  CHECK(resolve(SearchKind::Mcts, 10) == SearchKind::Mcts);
  CHECK(parse_search_kind("auto") == SearchKind::Auto);
  CHECK_FALSE(parse_search_kind("Auto"));
  CHECK_FALSE(parse_search_kind(""));
}

TEST_CASE("MCTS keeps its deadline when expanding one node takes longer than the search has") {
  // Separated sides with large regions: every evaluation counts the regions to the endgame
  // counter's full budget, so one expansion (hundreds of evaluations) takes far longer than
  // the 60 ms the search has. It once looked at the clock only between expansions and ended
  // 130 ms late on such positions.
  const Position pos = *parse_position("3B2B3/10/10/B8B/xxxxxxxxxx/10/W8W/10/10/3W2W3 w");
  SearchSettings s;
  s.kind = SearchKind::Mcts;
  auto search = make_search(s);
  SearchLimits limits;
  limits.movetime = Millis{60};
  for (int i = 0; i < 3; ++i) {
    const Millis slack_before = test::deadline_slack();
    const auto before = Clock::now();
    const SearchResult r = search_now(*search, pos, limits);
    const auto took = std::chrono::duration_cast<Millis>(Clock::now() - before);
    CHECK(took <= Millis{60} + std::max(slack_before, test::deadline_slack()));
    CHECK_FALSE(pos.check(r.best));
  }
}

TEST_CASE("MCTS goes on with its tree for the same position and a move or two below it") {
  SearchSettings s;
  s.kind = SearchKind::Mcts;
  auto search = make_search(s);
  const Position pos(botzone8_variant());
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult first = search_now(*search, pos, limits);
  CHECK(first.kept_visits == 0);
  const SearchResult second = search_now(*search, pos, limits);
  CHECK(second.kept_visits > 0);
  CHECK_FALSE(pos.check(second.best));

  // A move below, and a move and the reply below, the search goes on with that part of the
  // tree; a position above or beside it starts a new tree.
  Position other = pos;
  other.do_move(second.best);
  const SearchResult below = search_now(*search, other, limits);
  CHECK(below.kept_visits > 0);
  CHECK_FALSE(other.check(below.best));
  REQUIRE(below.pv.size() >= 2);
  Position two_below = other;
  two_below.do_move(below.pv[0]);
  two_below.do_move(below.pv[1]);
  const SearchResult after_reply = search_now(*search, two_below, limits);
  CHECK(after_reply.kept_visits > 0);
  CHECK_FALSE(two_below.check(after_reply.best));
  CHECK(search_now(*search, pos, limits).kept_visits == 0);
  CHECK(search_now(*search, pos, limits).kept_visits > 0);
  // The same settings again keep it (the engine protocol sets them before every go); other
  // settings, and a new game, do not.
  search->set_settings(s);
  CHECK(search_now(*search, pos, limits).kept_visits > 0);
  SearchSettings wider = s;
  wider.mcts.exploration = 0.5;
  search->set_settings(wider);
  CHECK(search_now(*search, pos, limits).kept_visits == 0);
  search->clear();
  CHECK(search_now(*search, pos, limits).kept_visits == 0);

  // A search stopped from outside, as a ponder search is, leaves its tree to the next one.
  SearchLimits forever;
  forever.infinite = true;
  search->clear();
  search->start(other, forever, {});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  search->stop();
  search->wait();
  const SearchResult after_ponder = search_now(*search, other, limits);
  CHECK(after_ponder.kept_visits > 0);
  CHECK_FALSE(other.check(after_ponder.best));
}
