#include "server/core/lobby_effects.h"

namespace amazons::server {

void ClusterEffects::append(ClusterEffects&& other) {
  const auto move_all = [](auto& to, auto& from) {
    for (auto& x : from) to.push_back(std::move(x));
  };
  move_all(forwards, other.forwards);
  move_all(bounces, other.bounces);
  move_all(attaches, other.attaches);
  move_all(logins, other.logins);
  move_all(seeks, other.seeks);
  move_all(unseeks, other.unseeks);
  move_all(drop_seeks, other.drop_seeks);
  move_all(acquire, other.acquire);
  move_all(release, other.release);
  move_all(logouts, other.logouts);
  move_all(turns, other.turns);
  move_all(moderation, other.moderation);
  move_all(read_players, other.read_players);
  move_all(read_games, other.read_games);
  reserve_ids = reserve_ids || other.reserve_ids;
}

void Effects::append(Effects&& other) {
  for (auto& m : other.messages) messages.push_back(std::move(m));
  writes.append(std::move(other.writes));
  for (auto& q : other.queries) queries.push_back(std::move(q));
  for (auto& j : other.password_jobs) password_jobs.push_back(std::move(j));
  for (auto s : other.close) close.push_back(s);
  for (auto e : other.errors) errors.push_back(e);
  cluster.append(std::move(other.cluster));
  for (auto& b : other.auth_backoffs) auth_backoffs.push_back(std::move(b));
}

}  // namespace amazons::server
