// The lobby as a cluster node, pure, for tests/server/test_cluster_lobby*.cpp: node lobbies with
// a block of ids, players logged in the way the cluster logs them in, and readers of what the
// effects say.
#pragma once

#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common/notation.h"
#include "common/protocol.h"
#include "server/core/lobby.h"
#include "server/node/cluster_wire.h"

namespace amazons::test::cluster_lobby {

using namespace amazons::server;
using namespace amazons::protocol;

inline LobbyConfig node_config(const std::string& node) {
  LobbyConfig c;
  c.rules_dir = amazons::test::config_dir() + "/rules";
  c.node = node;
  return c;
}

inline Instant at(long long ms) { return {Millis{ms}, Timestamp{Millis{1'800'000'000'000 + ms}}}; }

// Every message of the effects to one session, decoded.
inline std::vector<ServerEnvelope> to(const Effects& fx, SessionId s) {
  std::vector<ServerEnvelope> out;
  for (const auto& m : fx.messages)
    if (m.to == s) out.push_back(*decode_server(*m.line));
  return out;
}
template <class M>
std::optional<M> first(const Effects& fx, SessionId s) {
  for (const auto& e : to(fx, s))
    if (const auto* m = std::get_if<M>(&e.message)) return *m;
  return std::nullopt;
}

// A node's lobby with a block of ids, and a player logged in the way the cluster would log them
// in (the login job's outcome).
struct Node {
  Lobby lobby;
  explicit Node(const std::string& name, const LoadedState& state = {})
      : lobby(node_config(name), state, at(0)) {
    lobby.add_game_ids(100, kGameIdBlock);
  }
  Effects login(SessionId s, const std::string& name, std::vector<GameId> elsewhere = {}) {
    lobby.connect(s, at(0));
    Hello h;
    h.name = name;
    auto fx = lobby.handle_line(s, encode(ClientMessage{h}, nlohmann::json(1)), at(0));
    REQUIRE(fx.cluster.logins.size() == 1);
    CHECK(fx.messages.empty());  // the welcome waits for the cluster's answer
    LoginOutcome out;
    out.job = fx.cluster.logins.front();
    out.row.name = name;
    out.games = std::move(elsewhere);
    out.row.password_hash = password_hash;
    return lobby.complete_login(out, at(0));
  }
  // A registered player (a name with a password, here a stand-in for its hash): only they keep
  // offers beyond their connection.
  Effects login_registered(SessionId s, const std::string& name) {
    password_hash = "$argon2id$stand-in";
    auto fx = login(s, name);
    password_hash.clear();
    return fx;
  }
  std::string password_hash;  // the row's, at the next login
  // Another node's directory, as the bus carries it.
  void set_peer(const std::string& node, const Node& other) {
    auto decoded = wire::decode(wire::encode(wire::Directory{other.lobby.directory()}));
    REQUIRE(decoded.has_value());
    lobby.set_peer(node, std::get<wire::Directory>(*decoded).view, at(0));
  }
};

inline RemotePlayer remote(const std::string& name) { return {name, false, Rating{}, 0}; }

// Game `id` as the shared database has it for the node that takes it over: alice (White)
// against bob, one move played.
inline StoredGame alice_against_bob(GameId id) {
  StoredGame g;
  g.row.id = id;
  g.row.variant = standard_variant();
  g.row.rules = "standard";
  g.row.white = {"alice", false, kInitialRating};
  g.row.black = {"bob", false, kInitialRating};
  g.row.started_at = Timestamp{Millis{1'800'000'000'000}};
  g.moves.push_back({id, 1, *parse_move("d1-d7/g7"), Millis{100}, std::nullopt});
  return g;
}

// A correspondence time control: a day a move.

// A correspondence time control: a day a move.
inline const TimeControl per_day = TimeControl::fixed_per_move(Millis{24LL * 3600 * 1000});

// The one moderator's decision among the effects, for the other nodes.
template <class E>
E event(const Effects& fx) {
  REQUIRE(fx.cluster.moderation.size() == 1);
  REQUIRE(std::holds_alternative<E>(fx.cluster.moderation.front()));
  return std::get<E>(fx.cluster.moderation.front());
}

// A moderator (session 1) on node a; bob (5) and carol (6) on node b.
struct ModeratorHereTwoThere {
  static LoadedState roles() {
    LoadedState state;
    state.moderation.roles["mod"] = Role::Moderator;
    return state;
  }
  Node a{"a", roles()};
  Node b{"b", roles()};
  ModeratorHereTwoThere() {
    a.login(1, "mod");
    b.login(5, "bob");
    b.login(6, "carol");
  }
};

}  // namespace amazons::test::cluster_lobby
