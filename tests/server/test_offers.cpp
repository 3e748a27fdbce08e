// Offers' own rules, without a lobby: numbering kept seeks past the restored ones, what ends
// with a player's connection and what is kept, expiry, and an address's count of kept offers.
// The requests that use them are in test_lobby.cpp, test_correspondence.cpp and the cluster
// lobby's cases.
#include <doctest/doctest.h>

#include "server/core/offers.h"

using namespace amazons;
using namespace amazons::server;

namespace {
Timestamp day(int d) { return Timestamp{Millis{1'800'000'000'000 + d * 86'400'000LL}}; }

SeekEntry seek(const std::string& player, std::optional<Timestamp> kept = std::nullopt,
               const std::string& address = "10.0.0.1") {
  SeekEntry s;
  s.player = player;
  s.rules = "standard";
  s.kept_until = kept;
  s.address = address;
  return s;
}

ChallengeEntry challenge(const std::string& from, const std::string& to,
                         std::optional<Timestamp> kept = std::nullopt,
                         const std::string& address = "10.0.0.1") {
  ChallengeEntry c;
  c.from = from;
  c.to = to;
  c.kept_until = kept;
  c.address = address;
  return c;
}
}  // namespace

TEST_CASE("offers: kept seeks are numbered past the restored ones, and taken by who matches") {
  Offers offers;
  offers.restore_seek(seek("alice", day(3)), 7);
  CHECK(offers.new_seek_id() == "s8");
  offers.add_seek(seek("bob"));
  CHECK(offers.any_seek([](const SeekEntry& e) { return e.player == "bob"; }));
  const auto taken = offers.take_seek([](const SeekEntry& e) { return e.player != "alice"; });
  REQUIRE(taken);
  CHECK(taken->player == "bob");
  CHECK_FALSE(offers.take_seek_of("bob"));  // gone
  CHECK(offers.take_seek_of("alice"));
  CHECK(offers.seeks().empty());
}

TEST_CASE("offers: a player who leaves takes their unkept offers along, the kept ones wait") {
  Offers offers;
  offers.add_seek(seek("alice"));
  offers.add_seek(seek("bob", day(3)));
  offers.add_challenge("c1", challenge("alice", "carol"));
  offers.add_challenge("c2", challenge("dave", "alice"));
  offers.add_challenge("c3", challenge("alice", "erin", day(3)));
  const auto left = offers.player_left("alice");
  REQUIRE(left.size() == 2);  // both ways, the kept one stays
  CHECK(left[0].first == "c1");
  CHECK(left[1].first == "c2");
  CHECK(offers.has_challenge("c3"));
  CHECK(offers.involve("alice"));  // through c3
  CHECK_FALSE(offers.any_seek([](const SeekEntry& e) { return e.player == "alice"; }));
  CHECK(offers.player_left("bob").empty());
  CHECK(offers.involve("bob"));  // a kept seek waits
  CHECK_FALSE(offers.involve("carol"));
}

TEST_CASE("offers: expiry takes out what is past its time, queued seeks too") {
  Offers offers;
  offers.add_seek(seek("alice", day(1)));
  offers.add_seek(seek("bob", day(5)));
  offers.add_challenge("c1", challenge("carol", "dave", day(2)));
  offers.add_challenge("c2", challenge("carol", "erin"));  // goes with a connection, not a date
  offers.queue_seek("fay", {"standard|x|r", day(1)});
  offers.queue_seek("gus", {"standard|x|r", std::nullopt});
  const auto gone = offers.expire(day(2));
  REQUIRE(gone.seeks.size() == 1);
  CHECK(gone.seeks[0].player == "alice");
  REQUIRE(gone.challenges.size() == 1);
  CHECK(gone.challenges[0].first == "c1");
  REQUIRE(gone.queued_seeks.size() == 1);
  CHECK(gone.queued_seeks[0].first == "fay");
  CHECK(offers.queued_seek("fay") == nullptr);
  CHECK(offers.queued_seek("gus") != nullptr);
  CHECK(offers.forget_queued_seek("gus"));
  CHECK_FALSE(offers.forget_queued_seek("gus"));
  CHECK(offers.expire(day(2)).seeks.empty());  // nothing twice
}

TEST_CASE("offers: an address's kept offers are counted, a replaced seek of its own left out") {
  Offers offers;
  offers.add_seek(seek("alice", day(3)));
  offers.add_seek(seek("bob", day(3), "10.0.0.2"));
  offers.add_seek(seek("carol"));  // not kept: not counted
  offers.add_challenge("c1", challenge("alice", "dave", day(3)));
  offers.add_challenge("c2", challenge("alice", "erin", day(3)));
  offers.add_challenge("c3", challenge("alice", "dave"));  // not kept
  auto kept = offers.kept_from("10.0.0.1", std::string("dave"), std::nullopt);
  CHECK(kept.offers == 3);
  CHECK(kept.to_challenged == 1);
  kept = offers.kept_from("10.0.0.1", std::nullopt, std::string("alice"));
  CHECK(kept.offers == 2);
  CHECK(kept.to_challenged == 0);
  CHECK(offers.kept_from("10.0.0.2", std::nullopt, std::nullopt).offers == 1);
  // A challenge told to another node's connection keeps where it went.
  offers.told("c1", RemoteSession{"b", 7});
  REQUIRE(offers.challenge("c1")->told);
  CHECK(offers.challenge("c1")->told->node == "b");
  CHECK(offers.take_challenge("c1"));
  CHECK(offers.challenge("c1") == nullptr);
}
