// Game leases against a real Redis: one winner, expiry and takeover with a higher fencing
// token, renew and release only by the holder, the holder's own deadline.
#include <atomic>
#include <thread>
#include <vector>

#include "cluster/lease.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

namespace {

const Lease* won(const LeaseOutcome& o) { return std::get_if<Lease>(&o); }
const LeaseHolder* lost(const LeaseOutcome& o) { return std::get_if<LeaseHolder>(&o); }

}  // namespace

TEST_SUITE("redis") {
  TEST_CASE("lease: two nodes race for 200 games and each game has exactly one winner") {
    RedisServer server;
    constexpr int kGames = 200;
    std::vector<int> winner(kGames, -1);
    std::vector<std::int64_t> token(kGames, 0);
    std::atomic<int> errors{0};
    const auto race = [&](int me, const char* node) {
      Redis redis(test::address_of(server));
      GameLeases leases(redis, node, {Millis{10'000}, Millis{1000}}, "t:");
      for (int g = 0; g < kGames; ++g) {
        auto r = leases.acquire("g" + std::to_string(g));
        if (!r) {
          ++errors;
          continue;
        }
        if (const Lease* l = won(*r)) {
          if (winner[static_cast<std::size_t>(g)] != -1) ++errors;  // two winners
          winner[static_cast<std::size_t>(g)] = me;
          token[static_cast<std::size_t>(g)] = l->token;
        }
      }
    };
    std::thread a(race, 0, "node-a"), b(race, 1, "node-b");
    a.join();
    b.join();
    CHECK(errors == 0);
    int wins[2] = {0, 0};
    Redis redis(test::address_of(server));
    GameLeases observer(redis, "observer", {}, "t:");
    for (int g = 0; g < kGames; ++g) {
      REQUIRE(winner[static_cast<std::size_t>(g)] != -1);
      ++wins[winner[static_cast<std::size_t>(g)]];
      const auto h = must(observer.holder("g" + std::to_string(g)));
      REQUIRE(h);
      CHECK(h->node == (winner[static_cast<std::size_t>(g)] == 0 ? "node-a" : "node-b"));
      CHECK(h->token == token[static_cast<std::size_t>(g)]);
    }
    CHECK(wins[0] + wins[1] == kGames);
    MESSAGE("node-a won " << wins[0] << ", node-b " << wins[1]);
  }

  TEST_CASE(
      "lease: the loser learns the holder - expiry lets the other take over with a higher token") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    const LeaseOptions options{Millis{300}, Millis{100}};
    GameLeases a(ra, "node-a", options, "t:"), b(rb, "node-b", options, "t:");
    auto first = must(a.acquire("42"));
    REQUIRE(won(first));
    const Lease la = *won(first);
    CHECK(la.token == 1);
    CHECK(la.valid());
    auto refused = must(b.acquire("42"));
    REQUIRE(lost(refused));
    CHECK(lost(refused)->node == "node-a");
    CHECK(lost(refused)->token == 1);
    CHECK(lost(refused)->ttl_left > Millis{0});
    CHECK(lost(refused)->ttl_left <= Millis{300});

    // node-a stops renewing (it died): its own deadline passes before Redis lets go.
    std::this_thread::sleep_for(Millis{210});
    CHECK_FALSE(la.valid());
    REQUIRE(test::eventually([&] { return must(b.holder("42")) == std::nullopt; }, Millis{1000}));
    auto taken = must(b.acquire("42"));
    REQUIRE(won(taken));
    CHECK(won(taken)->token == 2);
    CHECK(won(taken)->node == "node-b");

    // The old holder's renew and release both fail: the lease is not its own any more.
    Lease stale = la;
    CHECK_FALSE(must(a.renew(stale)));
    CHECK_FALSE(stale.valid());
    CHECK_FALSE(must(a.release(la)));
    CHECK(must(b.holder("42"))->node == "node-b");
  }

  TEST_CASE("lease: renew extends from now - release frees it for the next who gets token+1") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    const LeaseOptions options{Millis{300}, Millis{100}};
    GameLeases a(ra, "node-a", options, "t:"), b(rb, "node-b", options, "t:");
    Lease l = *won(must(a.acquire("7")));
    // Renewed every 100 ms for 0.6 s, twice its TTL: held throughout.
    for (int i = 0; i < 6; ++i) {
      std::this_thread::sleep_for(Millis{100});
      const auto before = l.valid_until;
      REQUIRE(must(a.renew(l)));
      CHECK(l.valid_until > before);
      CHECK(lost(must(b.acquire("7"))));
    }
    CHECK(must(a.release(l)));
    CHECK_FALSE(must(a.release(l)));  // only once
    auto next = must(b.acquire("7"));
    REQUIRE(won(next));
    CHECK(won(next)->token == 2);
  }

  TEST_CASE("lease: the token floor keeps tokens rising across a Redis that lost its counters") {
    RedisServer server;
    Redis redis(test::address_of(server));
    GameLeases a(redis, "node-a", {Millis{5000}, Millis{500}}, "t:");
    Lease l = *won(must(a.acquire("9")));
    CHECK(l.token == 1);
    must(redis.command({"FLUSHALL"}));  // as a restart without persistence does
    // Without a floor the counter starts again; with PostgreSQL's last token it continues.
    CHECK(won(must(a.acquire("9")))->token == 1);
    must(redis.command({"FLUSHALL"}));
    CHECK(won(must(a.acquire("9", 57)))->token == 58);
    // A floor below the counter changes nothing.
    must(redis.command({"DEL", "t:lease:9"}));
    CHECK(won(must(a.acquire("9", 3)))->token == 59);
  }

  TEST_CASE("lease: while Redis is down the holder's deadline passes and renew cannot help") {
    RedisServer server;
    Redis redis(test::address_of(server));
    GameLeases a(redis, "node-a", {Millis{1500}, Millis{300}}, "t:");
    Lease l = *won(must(a.acquire("5")));
    CHECK(l.valid());
    server.kill();
    auto r = a.renew(l);
    REQUIRE_FALSE(r);
    CHECK(l.valid());  // an error does not shorten it...
    std::this_thread::sleep_until(l.valid_until + Millis{5});
    CHECK_FALSE(l.valid());  // ...but nothing extends it: the game must stop here
    CHECK_FALSE(a.renew(l));
    CHECK_FALSE(l.valid());
  }

  TEST_CASE("lease: a node renews all its leases in one round trip and learns which it lost") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    const LeaseOptions options{Millis{400}, Millis{100}};
    GameLeases a(ra, "node-a", options, "t:"), b(rb, "node-b", options, "t:");
    std::vector<Lease> held;
    for (int g = 1; g <= 50; ++g) held.push_back(*won(must(a.acquire(std::to_string(g)))));
    std::vector<Lease*> all;
    for (auto& l : held) all.push_back(&l);
    // Game 7's lease is lost (as if it had expired) and node-b takes it.
    must(rb.command({"DEL", "t:lease:7"}));
    const auto taken = must(b.acquire("7"));
    REQUIRE(won(taken));
    Lease theirs = *won(taken);
    for (int round = 0; round < 4; ++round) {  // 0.8 s, twice the TTL
      std::this_thread::sleep_for(Millis{200});
      REQUIRE(must(b.renew(theirs)));
      if (round == 2) must(ra.command({"SCRIPT", "FLUSH"}));  // Redis forgot the script
      CHECK(must(a.renew_all(all)) == std::vector<std::string>{"7"});
    }
    for (const Lease& l : held) CHECK(l.valid() == (l.game != "7"));
    CHECK(must(b.holder("7"))->node == "node-b");
    CHECK(must(b.holder("50"))->node == "node-a");
    CHECK(lost(must(b.acquire("50"))));
  }

  TEST_CASE("lease: bad node names and options are refused and lease values parse strictly") {
    RedisServer server;
    Redis redis(test::address_of(server));
    CHECK_THROWS(GameLeases(redis, "has space"));
    CHECK_THROWS(GameLeases(redis, ""));
    CHECK_THROWS(GameLeases(redis, "n", {Millis{100}, Millis{100}}));
    CHECK(parse_lease_value("node-a 12")->token == 12);
    CHECK_FALSE(parse_lease_value("node-a"));
    CHECK_FALSE(parse_lease_value("node-a x"));
    CHECK_FALSE(parse_lease_value(" 3"));
    CHECK_FALSE(parse_lease_value("n 0"));
    // A lease key someone else wrote garbage into is a clear Protocol error, not a crash.
    must(redis.command({"SET", "amz:lease:1", "garbage"}));
    GameLeases a(redis, "node-a");
    auto r = a.acquire("1");
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == RedisErrorKind::Protocol);
  }
}
