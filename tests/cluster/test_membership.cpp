// Node heartbeats against a real Redis: live nodes, and each dead node reaped by one node only.
#include <algorithm>
#include <thread>

#include "cluster/membership.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

TEST_SUITE("redis") {
  TEST_CASE("membership: heartbeats keep nodes live - a silent node is reaped once by one node") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server)), rc(test::address_of(server));
    Membership a(ra, "node-a", Millis{300}, "t:"), b(rb, "node-b", Millis{300}, "t:"),
        c(rc, "node-c", Millis{300}, "t:");
    must(a.heartbeat("10.0.0.1:7420"));
    must(b.heartbeat("10.0.0.2:7420"));
    must(c.heartbeat("10.0.0.3:7420"));
    auto live = must(a.live());
    REQUIRE(live.size() == 3);
    CHECK(live[0].node == "node-a");
    CHECK(live[0].address == "10.0.0.1:7420");
    CHECK(live[0].expires_in > Millis{0});
    CHECK(live[0].expires_in <= Millis{300});
    CHECK(must(a.reap()).empty());

    // node-c goes silent; a and b keep beating and both reap, concurrently.
    for (int i = 0; i < 5; ++i) {
      std::this_thread::sleep_for(Millis{100});
      must(a.heartbeat("10.0.0.1:7420"));
      must(b.heartbeat("10.0.0.2:7420"));
    }
    std::vector<std::string> by_a, by_b;
    std::thread ta([&] { by_a = must(a.reap()); });
    std::thread tb([&] { by_b = must(b.reap()); });
    ta.join();
    tb.join();
    CHECK(by_a.size() + by_b.size() == 1);
    CHECK(
        (by_a == std::vector<std::string>{"node-c"} || by_b == std::vector<std::string>{"node-c"}));
    live = must(a.live());
    REQUIRE(live.size() == 2);
    CHECK(live[1].node == "node-b");
    // node-b stops gracefully.
    must(b.leave());
    live = must(a.live());
    REQUIRE(live.size() == 1);
    CHECK(live[0].node == "node-a");
    CHECK(must(a.reap()).empty());
  }
}
