// The name registry against a real Redis: a name has one holder across the cluster.
#include <atomic>
#include <thread>

#include "cluster/names.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

TEST_SUITE("redis") {
  TEST_CASE(
      "names: a claimed name is exclusive - the holder refreshes and releases it - then it is "
      "free") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    NameRegistry a(ra, "node-a", Millis{5000}, "t:"), b(rb, "node-b", Millis{5000}, "t:");
    const auto mine = must(a.claim("alice", "s1"));
    CHECK(mine.won);
    CHECK(mine.holder == NameHolder{"node-a", "s1"});
    const auto theirs = must(b.claim("alice", "s9"));
    CHECK_FALSE(theirs.won);
    CHECK(theirs.holder == NameHolder{"node-a", "s1"});
    // Another session on the same node is refused too: one connection per name.
    CHECK_FALSE(must(a.claim("alice", "s2")).won);
    CHECK(must(a.claim("alice", "s1")).won);  // the holder's own claim refreshes
    CHECK_FALSE(must(b.release("alice", "s9")));
    CHECK(must(b.holder("alice"))->node == "node-a");
    CHECK(must(a.release("alice", "s1")));
    CHECK_FALSE(must(b.holder("alice")));
    CHECK(must(b.claim("alice", "s9")).won);
  }

  TEST_CASE("names: two nodes race for 100 names and each has exactly one holder") {
    RedisServer server;
    constexpr int kNames = 100;
    std::vector<std::atomic<int>> wins(kNames);
    std::atomic<int> errors{0};
    const auto race = [&](const char* node) {
      Redis redis(test::address_of(server));
      NameRegistry names(redis, node, Millis{5000}, "t:");
      for (int i = 0; i < kNames; ++i) {
        auto r = names.claim("p" + std::to_string(i), "s");
        if (!r)
          ++errors;
        else if (r->won)
          ++wins[static_cast<std::size_t>(i)];
      }
    };
    std::thread a(race, "node-a"), b(race, "node-b");
    a.join();
    b.join();
    CHECK(errors == 0);
    for (auto& w : wins) CHECK(w == 1);
  }

  TEST_CASE("names: take replaces the holder and names it - names of a dead node expire") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    NameRegistry a(ra, "node-a", Millis{300}, "t:"), b(rb, "node-b", Millis{300}, "t:");
    CHECK(must(a.claim("bob", "s1")).won);
    CHECK(must(a.claim("carol", "s2")).won);
    // bob logs in again on node-b with his token: node-a must close s1.
    const auto previous = must(b.take("bob", "s7"));
    REQUIRE(previous);
    CHECK(*previous == NameHolder{"node-a", "s1"});
    CHECK_FALSE(must(b.take("dave", "s8")));  // nobody held it
    // node-a refreshes what it believes it holds: bob is reported lost, carol kept.
    const auto gone = must(a.refresh({{"bob", "s1"}, {"carol", "s2"}}));
    CHECK(gone == std::vector<std::string>{"bob"});
    // node-a dies: carol's claim runs out with its TTL; node-b's refreshed ones stay.
    for (int i = 0; i < 5; ++i) {
      std::this_thread::sleep_for(Millis{100});
      CHECK(must(b.refresh({{"bob", "s7"}, {"dave", "s8"}})).empty());
    }
    CHECK_FALSE(must(b.holder("carol")));
    CHECK(must(b.holder("bob"))->node == "node-b");
    // refresh after Redis forgot the scripts still works.
    must(rb.command({"SCRIPT", "FLUSH"}));
    CHECK(must(a.refresh({{"bob", "s1"}})) == std::vector<std::string>{"bob"});
    CHECK(must(b.refresh({{"bob", "s7"}})).empty());
  }

  TEST_CASE("names: a name that vanished from Redis is put back by its holder's refresh") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    NameRegistry a(ra, "node-a", Millis{5000}, "t:"), b(rb, "node-b", Millis{5000}, "t:");
    CHECK(must(a.claim("alice", "s1")).won);
    // Redis restarted empty (here: everything deleted): nobody took alice's name, so the next
    // refresh keeps her logged in and holds the name again, with its TTL.
    must(ra.command({"FLUSHALL"}));
    CHECK_FALSE(must(b.holder("alice")));
    CHECK(must(a.refresh({{"alice", "s1"}})).empty());
    CHECK(must(b.holder("alice")) == NameHolder{"node-a", "s1"});
    const auto ttl = must(rb.command({"PTTL", "t:name:alice"}));
    CHECK(ttl.integer > 0);
    CHECK(ttl.integer <= 5000);
    CHECK_FALSE(must(b.claim("alice", "s9")).won);
  }
}
