// The pairing queue against a real Redis: atomic under concurrent clients.
#include <map>
#include <mutex>
#include <thread>

#include "cluster/pairing.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

TEST_SUITE("redis") {
  TEST_CASE("pairing: a seek waits or takes the oldest seeker of its pool - one seek per player") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server));
    PairingQueue a(ra, "node-a", "t:"), b(rb, "node-b", "t:");
    const std::string slow = "standard|300+5|rated", fast = "standard|60+0|casual";
    CHECK_FALSE(must(a.seek("ann", slow)).paired);
    CHECK_FALSE(must(b.seek("bea", fast)).paired);  // another pool: no match
    CHECK(must(a.waiting(slow)) == std::vector<std::string>{"ann"});
    CHECK(must(a.waiting(fast)) == std::vector<std::string>{"bea"});
    // ann changes her mind: her seek leaves its pool, and pairs in the other with bea.
    const auto p = must(a.seek("ann", fast));
    CHECK(p.paired);
    CHECK(p.opponent == "bea");
    CHECK(p.opponent_node == "node-b");
    CHECK(must(a.waiting(slow)).empty());
    CHECK(must(a.waiting(fast)).empty());
    // al waits, ax waits in the other pool, al2 meets al; al waits again and bo meets him.
    CHECK_FALSE(must(a.seek("al", slow)).paired);
    CHECK_FALSE(must(a.seek("ax", fast)).paired);
    CHECK(must(a.seek("al2", slow)).opponent == "al");
    CHECK_FALSE(must(a.seek("al", slow)).paired);
    const auto q = must(b.seek("bo", slow));
    CHECK(q.paired);
    CHECK(q.opponent == "al");
    CHECK(q.opponent_node == "node-a");
    CHECK(must(b.seek("bu", fast)).opponent == "ax");
    CHECK_FALSE(must(b.unseek("bo")));
    CHECK_FALSE(must(b.seek("bo", "x")).paired);
    CHECK(must(b.unseek("bo")));
    CHECK(must(b.waiting("x")).empty());
    // Withdrawn only where it was made: node a's stale word does not take bo's seek on b.
    CHECK_FALSE(must(b.seek("bo", "x")).paired);
    CHECK_FALSE(must(a.unseek("bo", false)));
    CHECK(must(b.waiting("x")) == std::vector<std::string>{"bo"});
    CHECK(must(b.unseek("bo", false)));
    CHECK_FALSE(must(b.unseek("nobody", false)));
    // A player seeking again in the same pool does not meet themselves.
    CHECK_FALSE(must(a.seek("cy", "y")).paired);
    CHECK_FALSE(must(a.seek("cy", "y")).paired);
    CHECK(must(a.waiting("y")) == std::vector<std::string>{"cy"});
    // Who seeks, through any node: cy waits, bo and nobody do not.
    CHECK(must(b.seeking({"bo", "cy", "nobody"})) == std::vector<bool>{false, true, false});
    CHECK(must(b.seeking({})).empty());
  }

  TEST_CASE("pairing: two clients seek 200 players at once and everyone is paired exactly once") {
    RedisServer server;
    constexpr int kPerNode = 100;
    std::mutex mutex;
    std::map<std::string, int> times_paired;
    int waiting_results = 0;
    int errors = 0;
    const auto seekers = [&](const char* node) {
      Redis redis(test::address_of(server));
      PairingQueue queue(redis, node, "t:");
      for (int i = 0; i < kPerNode; ++i) {
        const std::string me = std::string(node) + "-p" + std::to_string(i);
        auto r = queue.seek(me, "standard|300+5|rated");
        std::lock_guard lock(mutex);
        if (!r) {
          ++errors;
        } else if (r->paired) {
          ++times_paired[me];
          ++times_paired[r->opponent];
        } else {
          ++waiting_results;
        }
      }
    };
    std::thread a(seekers, "node-a"), b(seekers, "node-b");
    a.join();
    b.join();
    CHECK(errors == 0);
    Redis redis(test::address_of(server));
    PairingQueue queue(redis, "observer", "t:");
    const auto left = must(queue.waiting("standard|300+5|rated"));
    CHECK(left.empty());  // an even number of seekers, all paired
    CHECK(times_paired.size() == 2 * kPerNode);
    for (const auto& [player, n] : times_paired) CHECK_MESSAGE(n == 1, player);
    CHECK(waiting_results == kPerNode);  // half waited, half found someone
  }

  TEST_CASE("pairing: a dead node's seeks are dropped and the others stay") {
    RedisServer server;
    Redis redis(test::address_of(server));
    PairingQueue a(redis, "node-a", "t:"), b(redis, "node-b", "t:");
    CHECK_FALSE(must(a.seek("a1", "p1")).paired);
    CHECK_FALSE(must(a.seek("a2", "p2")).paired);
    CHECK_FALSE(must(b.seek("b1", "p3")).paired);
    auto dropped = must(b.drop_node("node-a"));
    std::sort(dropped.begin(), dropped.end());
    CHECK(dropped == std::vector<std::string>{"a1", "a2"});
    CHECK(must(b.waiting("p1")).empty());
    CHECK(must(b.waiting("p3")) == std::vector<std::string>{"b1"});
    CHECK_FALSE(b.seek("bad\tname", "p"));  // refused, nothing stored
  }
}
