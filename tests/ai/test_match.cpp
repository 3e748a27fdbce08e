#include <doctest/doctest.h>

#include <cmath>

#include "ai/tools/match.h"
#include "test_util.h"
#include "timing.h"

using namespace amazons;
using namespace amazons::ai;

TEST_CASE("player specs name levels, limits, external programs and the random mover") {
  const AiConfig c = builtin_ai_config();
  auto hard = parse_player_spec("hard", c);
  REQUIRE(hard);
  CHECK(hard->kind == PlayerSpec::Kind::Engine);
  CHECK(hard->level == *c.find("hard"));
  auto lvl = parse_player_spec("level:easy", c);
  REQUIRE(lvl);
  CHECK(lvl->level.name == "easy");

  auto lim = parse_player_spec("limits:movetime=150,depth=3,width=0.5,noise=20", c);
  REQUIRE(lim);
  CHECK(lim->level.movetime == Millis{150});
  CHECK(lim->level.depth == 3);
  CHECK(lim->level.width == 0.5);
  CHECK(lim->level.noise == 20);

  auto ext = parse_player_spec("engine:./amazons-engine --threads 1", c);
  REQUIRE(ext);
  CHECK(ext->kind == PlayerSpec::Kind::External);
  CHECK(ext->external.command == "./amazons-engine --threads 1");
  CHECK(ext->external.protocol == ExternalProtocol::Engine);
  auto bz = parse_player_spec("botzone:./bot", c);
  REQUIRE(bz);
  CHECK(bz->external.protocol == ExternalProtocol::Botzone);
  CHECK(parse_player_spec("random", c)->kind == PlayerSpec::Kind::Random);
  CHECK_FALSE(hard->ponder);
  auto pondering = parse_player_spec("max+ponder", c);
  REQUIRE(pondering);
  CHECK(pondering->ponder);
  CHECK(pondering->level == *c.find("max"));
  CHECK(pondering->label == "max+ponder");
  auto lim_ponder = parse_player_spec("limits:movetime=50,search=mcts+ponder", c);
  REQUIRE(lim_ponder);
  CHECK(lim_ponder->ponder);
  CHECK(lim_ponder->level.search == SearchKind::Mcts);
  // An external command may end in anything.
  auto ext_ponder = parse_player_spec("engine:./engine --mode x+ponder", c);
  REQUIRE(ext_ponder);
  CHECK(ext_ponder->external.command == "./engine --mode x+ponder");
  CHECK_FALSE(ext_ponder->ponder);
}

TEST_CASE("bad player specs say what is expected") {
  const AiConfig c = builtin_ai_config();
  CHECK(parse_player_spec("grandmaster", c).error().find("is not a player: expected a level") !=
        std::string::npos);
  CHECK(parse_player_spec("engine:", c).error() ==
        "engine: give the command to run after the colon");
  CHECK(parse_player_spec("limits:speed=3", c).error().find("unknown key 'speed'") !=
        std::string::npos);
  CHECK(parse_player_spec("limits:depth", c).error().find("expected key=value") !=
        std::string::npos);
  CHECK(parse_player_spec("limits:width=0", c).error().find("width must be") != std::string::npos);
  CHECK(parse_player_spec("random+ponder", c).error() ==
        "'random+ponder': only a level or limits can ponder");
  CHECK(parse_player_spec("grandmaster+ponder", c).error().find("is not a player") !=
        std::string::npos);
  CHECK(parse_player_spec("limits:noise=5,width=0.5", c)
            .error()
            .find("give movetime, depth or nodes") != std::string::npos);
}

TEST_CASE("Elo estimates: even, lopsided and one-sided scores") {
  const EloEstimate even = elo_estimate(20, 20);
  CHECK(even.elo == doctest::Approx(0));
  CHECK(even.low < 0);
  CHECK(even.high > 0);
  CHECK(even.low == doctest::Approx(-even.high));

  const EloEstimate three_to_one = elo_estimate(30, 10);
  CHECK(three_to_one.score == doctest::Approx(0.75));
  CHECK(three_to_one.elo == doctest::Approx(190.8).epsilon(0.01));
  CHECK(three_to_one.low < three_to_one.elo);
  CHECK(three_to_one.high > three_to_one.elo);

  const EloEstimate sweep = elo_estimate(40, 0);
  CHECK(std::isinf(sweep.elo));
  CHECK(sweep.low > 200);  // 40-0 is strong evidence, but finite
  CHECK(std::isinf(sweep.high));
}

TEST_CASE("a match alternates colours, replays each opening with both, and counts wins") {
  const AiConfig c = builtin_ai_config();
  MatchOptions o;
  o.rules = test::small_variant(8);
  o.games = 4;
  o.parallel = 2;
  o.opening_plies = 2;
  o.config = c;
  o.config.threads = 1;
  o.config.hash_mb = 4;
  auto engine = parse_player_spec("limits:depth=1", c);
  auto random = parse_player_spec("random", c);
  REQUIRE(engine);
  REQUIRE(random);
  Match match(*engine, *random, o);
  int reported = 0;
  const MatchSummary s = match.run([&](const GameOutcome&, const MatchSummary&) { ++reported; });
  CHECK(reported == 4);
  REQUIRE(s.games.size() == 4);
  CHECK(s.a_wins == 4);  // the engine beats a random mover
  CHECK(s.a_wins + s.b_wins + s.unfinished == 4);
  for (int k = 0; k < 2; ++k) {
    const GameOutcome& first = s.games[static_cast<std::size_t>(2 * k)];
    const GameOutcome& second = s.games[static_cast<std::size_t>(2 * k + 1)];
    CHECK(first.a_is_white);
    CHECK_FALSE(second.a_is_white);
    CHECK(first.opening == second.opening);
    REQUIRE(first.record.moves.size() >= 2);
    REQUIRE(second.record.moves.size() >= 2);
    CHECK(first.record.moves[0].move == second.record.moves[0].move);
    CHECK(first.record.moves[1].move == second.record.moves[1].move);
    CHECK(replay(first.record));
  }
  // Depth-limited play has no time limit to overrun; the random mover has none either.
  CHECK_FALSE(s.max_overrun[0]);
  CHECK_FALSE(s.max_overrun[1]);
}

TEST_CASE("timed players report their latest reply against the limit") {
  const AiConfig c = builtin_ai_config();
  MatchOptions o;
  o.rules = test::small_variant(6);
  o.games = 2;
  o.config = c;
  o.config.threads = 1;
  o.config.hash_mb = 4;
  Match match(*parse_player_spec("limits:movetime=40", c), *parse_player_spec("random", c), o);
  const MatchSummary s = match.run();
  REQUIRE(s.max_overrun[0]);
  CHECK(*s.max_overrun[0] < test::deadline_slack());
}

TEST_CASE("a pondering player in a match thinks on the opponent's time and counts the replies") {
  const AiConfig c = builtin_ai_config();
  MatchOptions o;
  o.rules = test::small_variant(6);
  o.games = 2;
  o.parallel = 1;
  o.config = c;
  o.config.threads = 1;
  o.config.hash_mb = 4;
  // Both search kinds ponder (what each keeps from it is tested in test_search).
  // 50 ms: every limit keeps 30 ms back for the reply, so 30 would leave no search at all.
  for (const char* a : {"limits:movetime=50,search=mcts+ponder", "limits:movetime=50+ponder"}) {
    CAPTURE(a);
    Match match(*parse_player_spec(a, c), *parse_player_spec("limits:movetime=50", c), o);
    const MatchSummary s = match.run();
    CHECK(s.a_wins + s.b_wins == 2);
    CHECK(s.ponder[0].hits + s.ponder[0].misses > 0);
    CHECK(s.ponder[1].hits + s.ponder[1].misses == 0);
  }
}
