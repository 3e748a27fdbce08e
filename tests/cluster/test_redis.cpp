// The hiredis connection against a real Redis: commands, errors, timeouts, reconnecting, and a
// Redis that dies and comes back empty.
#include <chrono>

#include "cluster/membership.h"
#include "cluster/redis.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_SUITE("redis") {
  TEST_CASE("redis url: host and port - IPv6 in brackets - clear refusals") {
    auto a = parse_redis_url("redis://127.0.0.1:6380");
    REQUIRE(a);
    CHECK(a->host == "127.0.0.1");
    CHECK(a->port == 6380);
    CHECK(parse_redis_url("redis://cache.example/")->port == 6379);
    auto v6 = parse_redis_url("redis://[::1]:7000");
    REQUIRE(v6);
    CHECK(v6->host == "::1");
    CHECK(v6->port == 7000);
    CHECK(v6->text() == "[::1]:7000");
    CHECK(contains(parse_redis_url("http://x").error(), "redis://"));
    CHECK(contains(parse_redis_url("redis://h:0").error(), "port"));
    CHECK(contains(parse_redis_url("redis://h:99999").error(), "port"));
    CHECK(contains(parse_redis_url("redis://h:12ab").error(), "port"));
    CHECK(contains(parse_redis_url("redis://:pw@h:1").error(), "passwords"));
    CHECK(contains(parse_redis_url("redis://h:1/3").error(), "database"));
    CHECK(contains(parse_redis_url("redis://").error(), "host"));
    CHECK(contains(parse_redis_url("redis://::1").error(), "brackets"));
    CHECK(contains(parse_redis_url("redis://[[]:1").error(), "host"));
    CHECK(contains(parse_redis_url("redis://a b:1").error(), "host"));
    CHECK(contains(parse_redis_url("redis://[::1").error(), "]"));
    // Found by fuzz/bus_fuzz.cpp: brackets around something that is not IPv6 would not write
    // back as the same address.
    CHECK(contains(parse_redis_url("redis://[3%]").error(), "IPv6 addresses only"));
    CHECK(contains(parse_redis_url("redis://[localhost]:1").error(), "IPv6 addresses only"));
    CHECK(parse_redis_url("redis://[fe80::1%eth0]:1")->text() == "[fe80::1%eth0]:1");
  }

  TEST_CASE("redis: argv commands are binary safe and an error reply keeps the connection") {
    RedisServer server;
    Redis redis(test::address_of(server));
    // Spaces, quotes, a NUL and a newline: sent as one argument, read back unchanged.
    const std::string value = std::string("a b \"c\"\n", 9) + std::string(1, '\0') + "%s";
    CHECK(must(redis.command({"SET", "k", value})).str == "OK");
    const auto back = must(redis.command({"GET", "k"}));
    CHECK(back.type == RedisReply::Type::String);
    CHECK(back.str == value);
    CHECK(must(redis.command({"GET", "missing"})).nil());
    CHECK(must(redis.command({"INCR", "n"})).integer == 1);

    auto bad = redis.command({"NOSUCHCOMMAND", "x"});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().kind == RedisErrorKind::Server);
    CHECK(contains(bad.error().message, "unknown command"));
    CHECK(redis.connected());
    CHECK(must(redis.command({"INCR", "n"})).integer == 2);
    CHECK(redis.reconnects() == 0);

    const auto replies =
        must(redis.pipeline({{"INCR", "n"}, {"GET", "n"}, {"LRANGE", "l", "0", "-1"}}));
    REQUIRE(replies.size() == 3);
    CHECK(replies[0].integer == 3);
    CHECK(replies[1].str == "3");
    CHECK(replies[2].type == RedisReply::Type::Array);
    // An error inside a pipeline fails it, and the connection stays in step.
    auto mixed = redis.pipeline({{"INCR", "n"}, {"INCR", "k"}, {"INCR", "n"}});
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().kind == RedisErrorKind::Server);
    CHECK(must(redis.command({"GET", "n"})).str == "5");
  }

  TEST_CASE("redis: nobody listening is Unreachable at once with the address") {
    RedisServer server;
    const int port = server.port();
    server.stop();
    Redis redis(RedisAddress{"127.0.0.1", port});
    const auto start = std::chrono::steady_clock::now();
    auto r = redis.command({"PING"});
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == RedisErrorKind::Unreachable);
    CHECK_MESSAGE(contains(r.error().message, "127.0.0.1:" + std::to_string(port)),
                  r.error().message);
    CHECK_MESSAGE(contains(r.error().message, "refused"), r.error().message);
    // Within the reconnect interval the next command does not even try.
    auto again = redis.command({"PING"});
    REQUIRE_FALSE(again);
    CHECK(contains(again.error().message, "trying again shortly"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  }

  TEST_CASE("redis: a command that outlives command_timeout fails and the next reconnects") {
    RedisServer server;
    RedisOptions options;
    options.command_timeout = Millis{200};
    Redis redis(test::address_of(server), options);
    must(redis.command({"SET", "k", "v"}));
    const auto start = std::chrono::steady_clock::now();
    auto slow = redis.command({"DEBUG", "SLEEP", "1"});  // Redis busy for 1 s
    const auto took = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(slow);
    CHECK(slow.error().kind == RedisErrorKind::Io);
    CHECK_MESSAGE(contains(slow.error().message, "timed out after 200 ms"), slow.error().message);
    CHECK(took < std::chrono::milliseconds(700));
    CHECK_FALSE(redis.connected());
    // The new connection waits its turn behind the sleep, then works.
    options.command_timeout = Millis{2000};
    Redis patient(test::address_of(server), options);
    CHECK(must(patient.command({"GET", "k"})).str == "v");
    CHECK(must(redis.command({"GET", "k"})).str == "v");
    CHECK(redis.reconnects() == 1);
  }

  TEST_CASE("redis: killed and restarted empty - clear errors - reconnect - epoch change seen") {
    RedisServer server;
    Redis redis(test::address_of(server));
    EpochWatch epoch(redis, "t:");
    const auto first = must(epoch.check());
    CHECK(first.change == EpochChange::Created);
    CHECK(first.epoch.size() == 16);
    CHECK(must(epoch.check()).change == EpochChange::Unchanged);
    Redis other_node(test::address_of(server));
    EpochWatch other(other_node, "t:");
    const auto seen = must(other.check());
    CHECK(seen.change == EpochChange::First);
    CHECK(seen.epoch == first.epoch);
    must(redis.command({"SET", "t:data", "x"}));

    server.kill();
    auto down = redis.command({"GET", "t:data"});
    REQUIRE_FALSE(down);
    CHECK((down.error().kind == RedisErrorKind::Io ||
           down.error().kind == RedisErrorKind::Unreachable));
    CHECK_MESSAGE(contains(down.error().message, "redis 127.0.0.1:"), down.error().message);
    auto check_down = epoch.check();
    REQUIRE_FALSE(check_down);
    CHECK(check_down.error().kind == RedisErrorKind::Unreachable);

    server.restart();
    // The reconnect interval (100 ms) may still hold the next attempt back.
    REQUIRE(test::eventually([&] { return redis.command({"PING"}).has_value(); }));
    CHECK(must(redis.command({"GET", "t:data"})).nil());  // empty: nothing persisted
    const auto after = must(epoch.check());  // the scripts were forgotten too: loaded again
    CHECK(after.change == EpochChange::Lost);
    CHECK(after.epoch != first.epoch);
    const auto other_after = must(other.check());
    CHECK(other_after.change == EpochChange::Lost);
    CHECK(other_after.epoch == after.epoch);
    CHECK(must(epoch.check()).change == EpochChange::Unchanged);
    CHECK(redis.reconnects() >= 1);
  }

  TEST_CASE("redis script: loaded on first use and again after Redis forgot it") {
    RedisServer server;
    Redis redis(test::address_of(server));
    const RedisScript script("return {KEYS[1], ARGV[1], tonumber(ARGV[2]) + 1}");
    const std::string keys[] = {"key one"};
    const std::string args[] = {"arg\none", "41"};
    auto r = must(script.run(redis, keys, args));
    REQUIRE(r.elements.size() == 3);
    CHECK(r.elements[0].str == "key one");
    CHECK(r.elements[1].str == "arg\none");
    CHECK(r.elements[2].integer == 42);
    CHECK(must(redis.command({"SCRIPT", "EXISTS", script.sha()})).elements.at(0).integer == 1);
    must(redis.command({"SCRIPT", "FLUSH"}));
    CHECK(must(script.run(redis, keys, args)).elements.at(2).integer == 42);
    const RedisScript broken("return redis.call('NOSUCH')");
    auto err = broken.run(redis, {}, {});
    REQUIRE_FALSE(err);
    CHECK(err.error().kind == RedisErrorKind::Server);
  }
}
