// What the game-session tests share: a session that must start (and, from test_util.h, a
// random legal move).
#pragma once

#include <doctest/doctest.h>

#include <memory>

#include "client/game_session.h"
#include "tests/common/test_util.h"

namespace amazons::test {

inline std::unique_ptr<client::GameSession> start_session(client::SessionSetup setup) {
  auto s = client::GameSession::start(std::move(setup));
  REQUIRE(s);
  return std::move(s).value();
}

}  // namespace amazons::test
