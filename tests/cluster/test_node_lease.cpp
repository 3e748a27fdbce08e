// Node leases against a real Redis (cluster/node_lease.h): a node's keys live and die with its
// one lease, a dead lease's keys are claimed in one script by exactly one node with a higher
// token, and what a node does each renewal costs Redis the same whatever the number of keys.
#include <algorithm>
#include <charconv>
#include <string>
#include <thread>
#include <vector>

#include "cluster/names.h"
#include "cluster/node_lease.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

namespace {

// Every command Redis has run since it started, scripts' own commands included (INFO
// commandstats counts those as their own).
long long commands_run(Redis& redis) {
  const auto info = must(redis.command({"INFO", "commandstats"}));
  long long total = 0;
  for (std::size_t at = info.str.find("calls="); at != std::string::npos;
       at = info.str.find("calls=", at + 1)) {
    long long calls = 0;
    const char* from = info.str.data() + at + 6;
    std::from_chars(from, info.str.data() + info.str.size(), calls);
    total += calls;
  }
  return total;
}

}  // namespace

TEST_SUITE("redis") {
  TEST_CASE("node lease: a node's keys are one lease and a dead lease is claimed whole and once") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server)), rc(test::address_of(server));
    const LeaseOptions brief{Millis{1000}, Millis{200}}, options{Millis{30'000}, Millis{500}};
    NodeLease a(ra, "node-a", brief, "t:"), b(rb, "node-b", options, "t:"),
        c(rc, "node-c", options, "t:");
    const auto ta = must(a.acquire());
    const auto tb = must(b.acquire());
    must(c.acquire());
    CHECK(tb > ta);
    CHECK(a.valid());
    for (const char* key : {"17", "c12", "t18"})
      CHECK(must(a.take(key, TakeMode::New)).token == ta);
    CHECK(must(a.take("17", TakeMode::New)).token == ta);  // already a's
    // b may not take what a holds, and learns who does.
    const auto refused = must(b.take("17", TakeMode::Fresh));
    CHECK(refused.token == 0);
    REQUIRE(refused.holder);
    CHECK(refused.holder->node == "node-a");
    CHECK(refused.holder->owner == ta);
    CHECK(refused.holder->alive);
    const auto h = must(c.holder("c12"));
    REQUIRE(h);
    CHECK(h->node == "node-a");
    CHECK_FALSE(must(c.holder("99")));
    CHECK(must(c.held(std::vector<std::string>{"17", "99", "t18"})) ==
          std::vector<bool>{true, false, true});
    must(a.drop("t18"));
    CHECK_FALSE(must(c.holder("t18")));

    // A live lease is not claimed.
    CHECK(must(b.dead()).empty());
    CHECK_FALSE(must(b.claim(ta)));
    // a stops renewing: its lease runs out in Redis (the wait is Redis's clock, not a sleep to
    // be tuned: the test cannot go on until it happens).
    REQUIRE(test::eventually([&] { return !must(b.dead()).empty(); }, Millis{3000}));
    const auto dead = must(b.dead());
    REQUIRE(dead.size() == 1);
    CHECK(dead[0].owner == ta);
    CHECK(dead[0].node == "node-a");
    // Its keys are still named as a's, by a lease that ran out: they wait for a claim.
    const auto waiting = must(c.holder("17"));
    REQUIRE(waiting);
    CHECK_FALSE(waiting->alive);
    CHECK(waiting->node == "node-a");
    // b and c race for the claim: exactly one gets every key, with a token above all.
    std::optional<Claimed> by_b, by_c;
    std::thread tb_thread([&] { by_b = must(b.claim(ta)); });
    std::thread tc_thread([&] { by_c = must(c.claim(ta)); });
    tb_thread.join();
    tc_thread.join();
    REQUIRE(by_b.has_value() != by_c.has_value());
    const Claimed& won = by_b ? *by_b : *by_c;
    NodeLease& winner = by_b ? b : c;
    CHECK(won.token > tb);
    std::vector<std::string> keys = won.keys;
    std::sort(keys.begin(), keys.end());
    CHECK(keys == std::vector<std::string>{"17", "c12"});
    const auto now_held = must(a.take("17", TakeMode::Fresh));  // (a has no lease: refused)
    CHECK(now_held.token == 0);
    const auto after = must(winner.holder("17"));
    REQUIRE(after);
    CHECK(after->node == winner.node());
    CHECK(must(winner.take("17", TakeMode::New)).token == won.token);
    CHECK(must(b.dead()).empty());

    // a comes back: its old lease is gone for good, renewing it says so, and a new lease has a
    // new token.
    CHECK_FALSE(must(a.renew()));
    CHECK_FALSE(a.valid());
    CHECK(must(a.acquire()) > won.token);
  }

  TEST_CASE("node lease: a fresh key draws a token above the floor and a kept key keeps its own") {
    RedisServer server;
    Redis redis(test::address_of(server));
    NodeLease a(redis, "node-a", {Millis{5000}, Millis{500}}, "t:");
    CHECK(must(a.take("17", TakeMode::New)).token == 0);  // no lease yet
    const auto token = must(a.acquire(40));
    CHECK(token == 41);  // above the floor PostgreSQL had seen
    CHECK(must(a.take("17", TakeMode::Fresh, 70)).token == 71);
    CHECK(must(a.take("18", TakeMode::Keep, 12)).token == 12);
    CHECK(must(a.take("19", TakeMode::New)).token == token);
    CHECK(must(a.renew()));
    CHECK(must(a.release()));
    CHECK_FALSE(a.valid());
    // Released: another node claims its keys at once.
    Redis other(test::address_of(server));
    NodeLease b(other, "node-b", {Millis{5000}, Millis{500}}, "t:");
    must(b.acquire());
    const auto claimed = must(b.claim(token));
    REQUIRE(claimed);
    CHECK(claimed->keys.size() == 3);
    CHECK(claimed->token > 71);
  }

  TEST_CASE("node lease: a renewal costs Redis the same with 100 keys as with 2000") {
    RedisServer server;
    Redis redis(test::address_of(server)), probe(test::address_of(server));
    // The commands one node's lease duties cost (a renewal, a look for dead leases) with `keys`
    // keys held, measured in Redis's own counters around 20 rounds.
    const auto per_round = [&](int keys, const std::string& prefix) {
      NodeLease lease(redis, "node-a", {Millis{5000}, Millis{500}}, prefix);
      must(lease.acquire());
      for (int k = 0; k < keys; ++k)
        REQUIRE(must(lease.take(std::to_string(k + 1), TakeMode::New)).token != 0);
      // Once first, so that Redis has loaded the scripts (a NOSCRIPT and a SCRIPT LOAD).
      must(lease.renew());
      must(lease.dead());
      const long long before = commands_run(probe);
      for (int round = 0; round < 20; ++round) {
        REQUIRE(must(lease.renew()));
        REQUIRE(must(lease.dead()).empty());
      }
      const long long after = commands_run(probe);
      return static_cast<double>(after - before - 1) / 20.0;  // (less the INFO of `before`)
    };
    const double small = per_round(100, "s:");
    const double large = per_round(2000, "l:");
    MESSAGE("Redis commands per round: " << small << " with 100 keys, " << large << " with 2,000");
    CHECK(small == large);
    CHECK(small <= 6);
  }

  TEST_CASE("node lease: names held under it need no refreshing and free themselves once claimed") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server)),
        probe(test::address_of(server));
    NodeLease a(ra, "node-a", {Millis{1000}, Millis{200}}, "t:");
    NodeLease b(rb, "node-b", {Millis{30'000}, Millis{500}}, "t:");
    NameRegistry names(ra, "node-a", Millis{7000}, "t:");
    const auto pttl = [&](const std::string& key) {
      return must(probe.command({"PTTL", key})).integer;
    };
    must(b.acquire());
    // Before a lease, a name has a TTL of its own; under one, none: the lease keeps it.
    CHECK(must(names.claim("early", "1.1")).won);
    CHECK(pttl("t:name:early") > 0);
    names.hold_under(must(a.acquire()));
    CHECK(must(names.claim("early", "1.1")).won);  // claimed again: under the lease now
    CHECK(must(names.claim("alice", "1.2")).won);
    CHECK_FALSE(must(names.take("bob", "1.3")));
    CHECK(must(names.claim("carol", "1.4")).won);
    CHECK(must(names.release("carol", "1.4")));
    for (const char* name : {"early", "alice", "bob"})
      CHECK(pttl(std::string("t:name:") + name) == -1);
    // a dies; b claims its lease: a's names free themselves the names' TTL later.
    REQUIRE(test::eventually([&] { return !must(b.dead()).empty(); }, Millis{3000}));
    REQUIRE(must(b.claim(a.token(), 0, Millis{5000})));
    for (const char* name : {"early", "alice", "bob"}) {
      const auto left = pttl(std::string("t:name:") + name);
      CHECK(left > 0);
      CHECK(left <= 5000);
    }
    CHECK(pttl("t:name:carol") == -2);  // released: gone already
  }

  TEST_CASE("node lease: a lease given up past its deadline is not renewed, and its names stay") {
    RedisServer server;
    Redis ra(test::address_of(server)), rb(test::address_of(server)),
        probe(test::address_of(server));
    NodeLease a(ra, "node-a", {Millis{1000}, Millis{200}}, "t:");
    NodeLease b(rb, "node-b", {Millis{30'000}, Millis{500}}, "t:");
    NameRegistry names(ra, "node-a", Millis{7000}, "t:");
    must(b.acquire());
    const auto first = must(a.acquire());
    names.hold_under(first);
    CHECK(must(names.claim("alice", "1.2")).won);
    CHECK(must(a.take("17", TakeMode::New)).token == first);
    // Past its deadline node a gives the lease up: it is never renewed again, even while Redis
    // still has it, and a new one is taken. Its player is still here: the name is claimed again
    // under the new lease.
    a.forget();
    CHECK_FALSE(a.valid());
    CHECK_FALSE(must(a.renew()));
    const auto second = must(a.acquire());
    CHECK(second > first);
    names.hold_under(second);
    CHECK(must(names.claim("alice", "1.2")).won);
    // The old lease runs out and node b claims it: its key goes to b, but not the name, which a
    // live lease lists again (node a renews its new lease meanwhile).
    REQUIRE(test::eventually(
        [&] {
          REQUIRE(must(a.renew()));
          return !must(b.dead()).empty();
        },
        Millis{3000}));
    const auto claimed = must(b.claim(first, 0, Millis{5000}));
    REQUIRE(claimed);
    CHECK(claimed->keys == std::vector<std::string>{"17"});
    CHECK(must(probe.command({"PTTL", "t:name:alice"})).integer == -1);
  }
}
