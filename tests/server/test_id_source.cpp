// IdSource: one server counts each kind of number on from what it stored; a cluster node hands
// out every kind from the blocks reserved for it, and asks for the next block in time.
#include <doctest/doctest.h>

#include "server/core/id_source.h"

using amazons::server::IdSource;

TEST_CASE("id source: one server counts each kind on its own, past what it has stored") {
  using Kind = IdSource::Kind;
  IdSource ids = IdSource::counting();
  CHECK(ids.take(Kind::Game) == 1);
  CHECK(ids.take(Kind::Game) == 2);
  CHECK(ids.take(Kind::Challenge) == 1);  // c1 beside game 1: two keys
  ids.used(Kind::Report, 41);
  CHECK(ids.take(Kind::Report) == 42);
  ids.used(Kind::Tournament, 7);
  ids.used(Kind::Tournament, 3);  // an older one read later moves nothing back
  CHECK(ids.take(Kind::Tournament) == 8);
  CHECK(ids.take(Kind::Game) == 3);
  CHECK_FALSE(ids.wants_block());  // it never asks anyone
}

TEST_CASE("id source: a node takes every kind from its blocks and asks for the next in time") {
  using Kind = IdSource::Kind;
  IdSource ids = IdSource::from_blocks(10);
  CHECK(ids.take(Kind::Game) == 0);  // nothing reserved yet
  CHECK(ids.wants_block());
  CHECK_FALSE(ids.wants_block());  // asked: not again until the block comes
  ids.add_block(100, 10);
  CHECK(ids.take(Kind::Game) == 100);
  CHECK(ids.take(Kind::Challenge) == 101);  // one sequence for every kind
  CHECK(ids.take(Kind::Report) == 102);
  CHECK(ids.take(Kind::Tournament) == 103);
  ids.used(Kind::Game, 5000);  // stored numbers are never in a node's blocks: nothing changes
  CHECK(ids.take(Kind::Game) == 104);
  CHECK_FALSE(ids.wants_block());  // 5 of 10 left
  CHECK(ids.take(Kind::Game) == 105);
  CHECK(ids.wants_block());  // 4 left: under half a block
  ids.add_block(0, 0);       // the reservation failed: it may ask again
  CHECK(ids.wants_block());
  ids.add_block(300, 10);
  for (int expected = 106; expected < 110; ++expected) CHECK(ids.take(Kind::Game) == expected);
  CHECK(ids.take(Kind::Game) == 300);  // the next block, once the first is used up
}
