// ClusterKey: what a cluster node runs, parsed once from the text Redis and the nodes use, and
// written back the same; the offers table's row ids map to the same keys.
#include <doctest/doctest.h>

#include "server/core/cluster_key.h"

using amazons::server::ClusterKey;

TEST_CASE("cluster key: games, challenges and tournaments parse once and print the same") {
  const auto game = ClusterKey::parse("17");
  REQUIRE(game);
  CHECK(game->is_game());
  CHECK(game->id() == 17);
  CHECK(game->text() == "17");
  CHECK(game->offer_id() == "g17");
  const auto challenge = ClusterKey::parse("c12");
  REQUIRE(challenge);
  CHECK(challenge->is_challenge());
  CHECK(challenge->text() == "c12");
  CHECK(challenge->offer_id() == "c12");
  const auto tournament = ClusterKey::parse("t17");
  REQUIRE(tournament);
  CHECK(tournament->is_tournament());
  CHECK(tournament->id() == 17);
  CHECK(tournament->text() == "t17");
  // A game and a tournament of one number are two keys.
  CHECK(*game != *tournament);
  CHECK(ClusterKey::game(17) == *game);
  // One text per key: a game named with leading zeros is the same game.
  CHECK(ClusterKey::parse("017")->text() == "17");
  for (const char* bad : {"", "c", "t", "g17", "s:alice", "-3", "0", "c0", "t-1", "17x", "c1 2",
                          "99999999999999999999"})
    CHECK_MESSAGE(!ClusterKey::parse(bad), bad);
}

TEST_CASE("cluster key: offers table rows name the keys of kept open games and challenges") {
  CHECK(ClusterKey::of_offer("g17") == ClusterKey::game(17));
  CHECK(ClusterKey::of_offer("c12") == ClusterKey::challenge(12));
  CHECK_FALSE(ClusterKey::of_offer("s:alice"));  // a kept seek: no node runs it
  CHECK_FALSE(ClusterKey::of_offer("17"));
  CHECK_FALSE(ClusterKey::of_offer("t17"));
  CHECK_FALSE(ClusterKey::of_offer("gx"));
}
