// The pub/sub bus: envelopes, sequence tracking, and two real connections through Redis.
#include <mutex>
#include <thread>
#include <vector>

#include "cluster/bus.h"
#include "tests/cluster/cluster_test.h"

using namespace amazons;
using namespace amazons::cluster;
using amazons::test::must;
using amazons::test::RedisServer;

namespace {

// Collects what a subscriber hands over, for the test thread to look at.
struct Inbox {
  std::mutex mutex;
  std::vector<BusMessage> messages;
  std::vector<std::pair<bool, std::string>> connection;
  std::vector<std::string> malformed;

  BusSubscriber::Handlers handlers() {
    return {[this](BusMessage m) {
              std::lock_guard lock(mutex);
              messages.push_back(std::move(m));
            },
            [this](bool up, const std::string& why) {
              std::lock_guard lock(mutex);
              connection.emplace_back(up, why);
            },
            [this](const std::string&, const std::string& why) {
              std::lock_guard lock(mutex);
              malformed.push_back(why);
            }};
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
  std::vector<BusMessage> take() {
    std::lock_guard lock(mutex);
    return messages;
  }
  std::vector<std::pair<bool, std::string>> events() {
    std::lock_guard lock(mutex);
    return connection;
  }
};

BusSubscriber::Options fast_options() {
  BusSubscriber::Options o;
  o.redis.connect_timeout = Millis{300};
  o.redis.command_timeout = Millis{300};
  o.reconnect_interval = Millis{50};
  o.ping_interval = Millis{200};
  return o;
}

}  // namespace

TEST_SUITE("redis") {
  TEST_CASE("bus envelope: round trip of any body and untrusted payloads refused with a reason") {
    const BusEnvelope e{"node-a", 77, 3, std::string("line\nline2 \0 end", 16)};
    const auto back = decode_envelope(encode_envelope(e));
    REQUIRE(back);
    CHECK(*back == e);
    CHECK(decode_envelope("amz1 n 1 1\n")->body.empty());
    for (const char* bad : {"", "hello", "amz1 ", "amz1 n 1 1", "amz1 n 1\nx", "amz1 n x 1\n",
                            "amz1 n 1 0\n", "amz1 n 0 1\n", "amz1 bad!name 1 1\n", "amz1 n 1 -1\n",
                            "amz1 n 1 99999999999999999999999\n"})
      CHECK_MESSAGE(!decode_envelope(bad), bad);
    CHECK_FALSE(decode_envelope("amz1 n 1 " + std::string(300, '1') + "\n"));
  }

  TEST_CASE("bus sequence tracker: in order - gaps counted - duplicates dropped - restarts seen") {
    SequenceTracker t;
    const auto at = [&](const char* ch, const char* node, std::uint64_t inc, std::uint64_t seq) {
      return t.accept(ch, BusEnvelope{node, inc, seq, ""});
    };
    auto v = at("c", "a", 5, 4);  // first contact mid-stream: nothing missed
    CHECK(v.deliver);
    CHECK(v.missed == 0);
    CHECK_FALSE(v.restarted);
    CHECK(at("c", "a", 5, 5).missed == 0);
    v = at("c", "a", 5, 9);
    CHECK(v.deliver);
    CHECK(v.missed == 3);
    CHECK_FALSE(at("c", "a", 5, 9).deliver);  // a duplicate
    CHECK_FALSE(at("c", "a", 5, 7).deliver);  // older
    CHECK(at("c", "b", 1, 1).missed == 0);    // another sender has its own numbers
    CHECK(at("d", "a", 5, 1).missed == 0);    // and so has another channel
    v = at("c", "a", 6, 2);                   // node a restarted; we missed its first message
    CHECK(v.deliver);
    CHECK(v.restarted);
    CHECK(v.missed == 1);
    CHECK(at("c", "a", 6, 3).missed == 0);
  }

  TEST_CASE("bus: messages reach a subscriber on another connection in order with their sender") {
    RedisServer server;
    Inbox inbox;
    BusSubscriber sub(test::address_of(server), fast_options(), {"t:game:1", "t:node:b"},
                      inbox.handlers());
    REQUIRE(test::eventually([&] { return sub.confirmed() == 2; }));
    Redis redis(test::address_of(server));
    BusPublisher pub(redis, "node-a");
    constexpr int kMessages = 500;
    for (int i = 1; i <= kMessages; ++i)
      CHECK(must(pub.publish(i % 5 == 0 ? "t:node:b" : "t:game:1", "m" + std::to_string(i))) == 1);
    CHECK(must(pub.publish("t:elsewhere", "nobody listens")) == 0);
    REQUIRE(test::eventually([&] { return inbox.count() == kMessages; }));
    const auto got = inbox.take();
    std::uint64_t game_seq = 0, node_seq = 0;
    for (int i = 1; i <= kMessages; ++i) {
      const BusMessage& m = got[static_cast<std::size_t>(i - 1)];
      CHECK(m.envelope.body == "m" + std::to_string(i));
      CHECK(m.envelope.node == "node-a");
      CHECK(m.envelope.incarnation == pub.incarnation());
      CHECK(m.verdict.missed == 0);
      if (m.channel == "t:game:1")
        CHECK(m.envelope.seq == ++game_seq);
      else
        CHECK(m.envelope.seq == ++node_seq);
    }
    CHECK(game_seq == 400);
    CHECK(node_seq == 100);

    // Subscribing later, and unsubscribing.
    sub.subscribe("t:game:2");
    REQUIRE(test::eventually([&] { return sub.confirmed() == 3; }));
    must(pub.publish("t:game:2", "late"));
    REQUIRE(test::eventually([&] { return inbox.count() == kMessages + 1; }));
    CHECK(inbox.take().back().envelope.body == "late");
    sub.unsubscribe("t:game:1");
    REQUIRE(test::eventually([&] { return sub.confirmed() == 2; }));
    CHECK(must(pub.publish("t:game:1", "unheard")) == 0);
  }

  TEST_CASE("bus: a message lost on the way is reported as missed and garbage is dropped") {
    RedisServer server;
    Inbox inbox;
    BusSubscriber sub(test::address_of(server), fast_options(), {"t:c"}, inbox.handlers());
    REQUIRE(test::eventually([&] { return sub.confirmed() == 1; }));
    Redis redis(test::address_of(server));
    must(redis.command({"PUBLISH", "t:c", encode_envelope({"node-a", 9, 1, "one"})}));
    // 2 and 3 never arrive (a publisher whose publishes failed, a subscriber that was away).
    must(redis.command({"PUBLISH", "t:c", encode_envelope({"node-a", 9, 4, "four"})}));
    must(redis.command({"PUBLISH", "t:c", encode_envelope({"node-a", 9, 4, "four again"})}));
    must(redis.command({"PUBLISH", "t:c", "not an envelope"}));
    must(redis.command({"PUBLISH", "t:c", encode_envelope({"node-a", 9, 5, "five"})}));
    REQUIRE(test::eventually([&] { return inbox.count() == 3; }));
    const auto got = inbox.take();
    CHECK(got[0].envelope.body == "one");
    CHECK(got[1].envelope.body == "four");
    CHECK(got[1].verdict.missed == 2);
    CHECK(got[2].envelope.body == "five");
    CHECK(got[2].verdict.missed == 0);
    CHECK(sub.malformed() == 1);
    std::lock_guard lock(inbox.mutex);
    REQUIRE(inbox.malformed.size() == 1);
    CHECK(inbox.malformed[0].find("amz1") != std::string::npos);
  }

  TEST_CASE(
      "bus: Redis killed and restarted - the subscriber says so - comes back - sees the gap") {
    RedisServer server;
    Inbox inbox;
    BusSubscriber sub(test::address_of(server), fast_options(), {"t:c"}, inbox.handlers());
    REQUIRE(test::eventually([&] { return sub.confirmed() == 1; }));
    Redis redis(test::address_of(server));
    BusPublisher pub(redis, "node-a");
    must(pub.publish("t:c", "before"));
    REQUIRE(test::eventually([&] { return inbox.count() == 1; }));

    server.kill();
    REQUIRE(test::eventually([&] { return !sub.connected(); }));
    auto lost = pub.publish("t:c", "into the void");  // fails; its number is used up
    REQUIRE_FALSE(lost);
    CHECK(lost.error().message.find("redis 127.0.0.1:") != std::string::npos);
    server.restart();
    REQUIRE(test::eventually([&] { return sub.confirmed() == 1; }));
    REQUIRE(test::eventually([&] { return pub.publish("t:c", "after").has_value(); }));
    REQUIRE(test::eventually([&] { return inbox.count() == 2; }));
    const auto got = inbox.take();
    CHECK(got[1].envelope.body == "after");
    CHECK(got[1].verdict.missed >= 1);  // "into the void", and any retry of "after" that failed
    const auto events = inbox.events();
    REQUIRE(events.size() >= 3);
    CHECK(events[0].first);
    CHECK_FALSE(events[1].first);
    CHECK_MESSAGE(events[1].second.find("redis 127.0.0.1:") != std::string::npos, events[1].second);
    CHECK(events.back().first);
  }

  TEST_CASE("bus: a Redis that stops answering is noticed by the ping") {
    RedisServer server;
    Inbox inbox;
    BusSubscriber sub(test::address_of(server), fast_options(), {"t:c"}, inbox.handlers());
    REQUIRE(test::eventually([&] { return sub.confirmed() == 1; }));
    Redis redis(test::address_of(server));
    // Redis stalls for 1.5 s: ping after 200 ms idle, no answer within 300 ms.
    std::thread stall([&] { (void)server.cli("DEBUG SLEEP 1.5"); });
    const bool noticed = test::eventually([&] { return !sub.connected(); }, Millis{1400});
    stall.join();
    CHECK(noticed);
    const auto events = inbox.events();
    REQUIRE(events.size() >= 2);
    CHECK_MESSAGE(events[1].second.find("PING") != std::string::npos, events[1].second);
    REQUIRE(test::eventually([&] { return sub.connected() && sub.confirmed() == 1; }));
  }
}
