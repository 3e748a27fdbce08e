// What the parts of ClusterNode share (cluster_node.cpp and its cluster_node_*.cpp): the timings
// of its duties, how sessions are named in the name registry, and a request on its way to the
// node that runs its key. Included by those files only.
#pragma once

#include <charconv>
#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "common/protocol.h"
#include "server/core/cluster_key.h"
#include "server/node/cluster_node.h"

namespace amazons::server {

namespace cluster_node_detail {

using Clock = std::chrono::steady_clock;
using protocol::ErrorCode;

inline constexpr Millis kMembersInterval{1000};
inline constexpr Millis kScanInterval{1000};
inline constexpr Millis kResolveInterval{250};
// wire::Tick: how often, and for how long after the last real message to a node.
inline constexpr Millis kTickInterval{1000};
inline constexpr Millis kTickFor{10'000};
inline constexpr Millis kIdle{100};  // the longest the thread sleeps between looking at its duties
// A game whose lease is free is taken over only when it was seen free again this much later:
// its node may be about to take the lease of a game it has just started.
inline constexpr Millis kFreeTwice{1000};
inline constexpr Millis kFreeTwiceOnRequest{500};
// How often every unfinished game, kept offer and tournament in PostgreSQL is looked up in Redis
// for keys no lease holds. Only Redis losing its contents (or a whole cluster starting on a
// database with unfinished games) leaves such keys: a node that dies leaves its keys in its
// lease's hash, claimed within a second of the lease running out. A pass that finds a free key
// looks again kFreeTwice later.
inline constexpr Millis kOrphanInterval{5000};
// A request waits this long for a node to run its game before it is answered with an error.
inline constexpr Millis kRouteTimeout{20'000};
// How long a node that nobody listened for is left alone before a request is sent to it again.
inline constexpr Millis kUnheardFor{1000};
// A request bounced this often (each time asked again a resolve later) is answered with an
// error: the nodes disagree about who runs its game for longer than a takeover takes.
inline constexpr int kMaxBounces = 40;
// A request sent to another node is answered within this (a line for its session comes back), or
// refused when that node is found dead or unheard: a node killed with requests in its socket
// left them unanswered. Longer than a node takes to be found gone (node_seconds, 5 s).
inline constexpr Millis kAnswerWithin{10'000};
// What a node published before it fell silent (it died, or left Redis) is read here within this:
// its unanswered requests are refused only then, so that an answer still on its way counts.
inline constexpr Millis kLastWords{250};
// The games a session watches on other nodes that its node keeps, to watch them again after a
// node died (ClusterNode::watch_again).
inline constexpr std::size_t kMaxWatchedPerSession = 64;

// How a session of this node is named in the name registry: the node's life (its bus
// incarnation) and the session, "LIFE.SESSION", so that a name held by a life of a node that
// has since restarted is known to be held by nobody.
struct NamedSession {
  std::uint64_t life = 0;
  SessionId session = 0;
};
inline std::string name_session(std::uint64_t life, SessionId session) {
  return std::to_string(life) + "." + std::to_string(session);
}
inline std::optional<NamedSession> parse_session(const std::string& text) {
  NamedSession out;
  const char* end = text.data() + text.size();
  auto r = std::from_chars(text.data(), end, out.life);
  if (r.ec != std::errc() || r.ptr == end || *r.ptr != '.') return std::nullopt;
  r = std::from_chars(r.ptr + 1, end, out.session);
  if (r.ec != std::errc() || r.ptr != end || out.session == 0) return std::nullopt;
  return out;
}

// The game a key names, if it names one.
inline std::optional<GameId> game_of(const std::string& key) {
  const auto k = ClusterKey::parse(key);
  if (!k || !k->is_game()) return std::nullopt;
  return k->id();
}

// What is not there to be taken over, as the player is told.
inline std::pair<ErrorCode, std::string> missing(const ClusterKey& key) {
  if (key.is_challenge())
    return {ErrorCode::NoSuchChallenge, "no challenge " + key.text() + " for you"};
  return {ErrorCode::NoSuchGame, no_game_message(key.text())};
}

inline std::string error_line(ErrorCode code, const std::string& message,
                              const protocol::RequestId& id, std::optional<std::string> game = {}) {
  return protocol::encode(
      protocol::ServerMessage{protocol::make_error(code, message, std::move(game))}, id);
}

}  // namespace cluster_node_detail

struct ClusterNode::Routed {
  SessionId session = 0;  // this node's
  std::string key;
  std::string line;  // the request; empty for an attach
  RemotePlayer player;
  Forward::Watching watching = Forward::Watching::Unchanged;
  bool watch_again = false;  // a watch sent again after a node died (ClusterNode::watch_again)
  int bounces = 0;
  std::chrono::steady_clock::time_point since = std::chrono::steady_clock::now();
  // Waits for the node that takes its key over when the node that runs it is dead or unheard:
  // an attach, or a watch sent again, which the player did not just ask for. Any other request
  // is answered `unavailable` at once then: the player sees it, and moves again once the game
  // is back.
  bool patient() const { return line.empty() || watch_again; }
};

}  // namespace amazons::server
