#include <doctest/doctest.h>

#include <cmath>

#include "server/core/auth.h"
#include "server/core/canonical_name.h"
#include "server/core/clock.h"
#include "server/core/glicko2.h"
#include "server/core/rate_limiter.h"

using namespace amazons;
using namespace amazons::server;

TEST_CASE("clock: Fischer charges the mover and adds the increment") {
  GameClock c(TimeControl::fischer(Millis{10'000}, Millis{2'000}));
  c.start(Color::White, Millis{100});
  CHECK(c.remaining(Color::White, Millis{1'100}) == Millis{9'000});
  CHECK(c.remaining(Color::Black, Millis{1'100}) == Millis{10'000});
  CHECK(c.complete_move(Millis{3'100}) == Millis{3'000});
  CHECK(c.remaining(Color::White, Millis{3'100}) == Millis{9'000});  // 10 - 3 + 2
  CHECK(c.running() == Color::Black);
  CHECK(c.deadline() == Millis{13'100});
  CHECK_FALSE(c.flagged(Millis{13'099}));
  CHECK(c.flagged(Millis{13'100}) == Color::Black);
  const auto v = c.view(Millis{4'100});
  REQUIRE(v.has_value());
  CHECK(v->white == 9'000);
  CHECK(v->black == 9'000);
  CHECK(v->running == Color::Black);
}

TEST_CASE("clock: per-move time is fresh every move and nothing carries over") {
  GameClock c(TimeControl::fixed_per_move(Millis{5'000}));
  c.start(Color::White, Millis{0});
  c.complete_move(Millis{1'000});
  CHECK(c.remaining(Color::White, Millis{1'000}) == Millis{5'000});
  CHECK(c.remaining(Color::Black, Millis{5'999}) == Millis{1});
  CHECK(c.flagged(Millis{6'000}) == Color::Black);
}

TEST_CASE("clock: an untimed game never flags and shows no clock") {
  GameClock c(TimeControl::unlimited());
  c.start(Color::White, Millis{0});
  CHECK_FALSE(c.flagged(Millis{1'000'000'000}));
  CHECK_FALSE(c.deadline());
  CHECK_FALSE(c.view(Millis{5}).has_value());
}

TEST_CASE("clock: stopping charges the running side") {
  GameClock c(TimeControl::fischer(Millis{10'000}, Millis{0}));
  c.start(Color::Black, Millis{0});
  c.stop(Millis{4'000});
  CHECK_FALSE(c.running());
  CHECK(c.remaining(Color::Black, Millis{99'000}) == Millis{6'000});
}

TEST_CASE("glicko2: Glickman's worked example") {
  // Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against three opponents.
  const Rating player{1500, 200, 0.06};
  const GameOutcome games[] = {
      {{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
  const Rating r = glicko2_update(player, games, 0.5);
  CHECK(r.rating == doctest::Approx(1464.06).epsilon(1e-4));
  CHECK(r.deviation == doctest::Approx(151.52).epsilon(1e-3));
  CHECK(r.volatility == doctest::Approx(0.05999).epsilon(1e-4));
}

TEST_CASE("glicko2: new players move a lot, winners gain what losers lose roughly") {
  const Rating fresh;
  CHECK(fresh.rating == 1500);
  CHECK(fresh.deviation == 350);
  CHECK(fresh.volatility == 0.06);
  const Rating w = glicko2_update(fresh, fresh, 1.0);
  const Rating l = glicko2_update(fresh, fresh, 0.0);
  CHECK(w.rating > 1600);
  CHECK(l.rating < 1400);
  CHECK(w.rating - 1500 == doctest::Approx(1500 - l.rating));
  CHECK(w.deviation < 350);
  const Rating idle = glicko2_update(Rating{1700, 50, 0.06}, std::span<const GameOutcome>{});
  CHECK(idle.rating == 1700);
  CHECK(idle.deviation > 50);
}

TEST_CASE("rate limiter: bursts, then the rate") {
  RateLimiter r(2.0, 3.0);
  CHECK(r.allow(Millis{0}));
  CHECK(r.allow(Millis{0}));
  CHECK(r.allow(Millis{0}));
  CHECK_FALSE(r.allow(Millis{0}));
  CHECK_FALSE(r.allow(Millis{400}));
  CHECK(r.allow(Millis{500}));
  CHECK_FALSE(r.allow(Millis{500}));
  CHECK(r.allow(Millis{10'000}));
}

TEST_CASE("auth: password hashes verify only the right password and are salted") {
  const auto h1 = hash_password("correct horse", HashStrength::Minimal);
  const auto h2 = hash_password("correct horse", HashStrength::Minimal);
  REQUIRE(h1.has_value());
  REQUIRE(h2.has_value());
  CHECK(*h1 != *h2);
  CHECK(h1->starts_with("$argon2id$"));
  CHECK(verify_password("correct horse", *h1));
  CHECK_FALSE(verify_password("correct horsE", *h1));
  CHECK_FALSE(verify_password("x", "not a hash"));
}

TEST_CASE("auth: tokens are random, digests stable") {
  const auto a = new_token();
  const auto b = new_token();
  CHECK(a.size() == 32);
  CHECK(a != b);
  CHECK(token_digest(a) == token_digest(a));
  CHECK(token_digest(a) != token_digest(b));
  CHECK(equal_secret("abc", "abc"));
  CHECK_FALSE(equal_secret("abc", "abd"));
  CHECK_FALSE(equal_secret("abc", "ab"));
  CHECK(random_code(10).size() == 10);
}

TEST_CASE("names: look-alikes share one canonical form, other names do not") {
  const std::string reg = canonical_name("reg");
  // Case, trailing punctuation, and TR39's confusables: a Cyrillic "е" (U+0435), a fullwidth
  // "Ｒ" (U+FF32, NFKC), "0" for "o", "1" and "|" for "l", "rn" for "m".
  for (const char* name : {"Reg", "REG", "REG.", "reg_", "reg-.", "r\xd0\xb5g",
                           "\xef\xbc\xb2"
                           "eg"})
    CHECK_MESSAGE(canonical_name(name) == reg, name);
  CHECK(canonical_name("B0B") == canonical_name("bob"));
  CHECK(canonical_name("l1|") == canonical_name("LLL"));
  CHECK(canonical_name("ALICE") == canonical_name("alice"));
  CHECK(canonical_name("rn") == canonical_name("m"));
  CHECK(canonical_name("Stra\xc3\x9f"
                       "e") == canonical_name("STRASSE"));  // full case folding
  // Not look-alikes: inner punctuation, other letters and digits.
  for (const char* name : {"re.g", "r3g", "regs", "_reg", "rag", "reg2"})
    CHECK_MESSAGE(canonical_name(name) != reg, name);
  // A name of punctuation only keeps it, or all such names would be one (the empty one).
  CHECK(canonical_name("...") != canonical_name("-"));
  CHECK_FALSE(canonical_name("...").empty());
  // Bytes that are not UTF-8 are left as they are.
  CHECK(canonical_name("\xff\xfe") == "\xff\xfe");
  // The display name is never changed: the form is only a key.
  CHECK(canonical_name(canonical_name("Reg.")) == reg);
}
