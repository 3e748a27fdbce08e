// What the nodes of a cluster say to each other over the bus (cluster/bus.h carries the bodies):
// requests of one node's sessions for a game another node runs, the lines that node sends back,
// and each node's directory. Pure: encoding and decoding only.
//
// A body is one JSON object with a type "t". Bodies come from anyone who can publish on the
// Redis, so decoding checks every field and refuses what does not fit, with the reason.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/expected.h"
#include "server/core/lobby_effects.h"

namespace amazons::server::wire {

// A session of the sending node asks about `key` (a game or challenge the receiver runs).
struct Request {
  SessionId session = 0;
  RemotePlayer player;
  std::string key;
  std::string line;  // as the client sent it
  friend bool operator==(const Request&, const Request&) = default;
};
// A player of the sending node sits in `game`, which the receiver runs.
struct AttachGame {
  SessionId session = 0;
  RemotePlayer player;
  GameId game = 0;
  friend bool operator==(const AttachGame&, const AttachGame&) = default;
};
// The sending node's session is gone.
struct Detach {
  SessionId session = 0;
  friend bool operator==(const Detach&, const Detach&) = default;
};
// Lines for the receiver's sessions, in order; then the sessions to close once they are sent.
struct Lines {
  std::vector<std::pair<SessionId, std::string>> lines;
  std::vector<SessionId> close;
  friend bool operator==(const Lines&, const Lines&) = default;
};
// A request (or, with an empty line, an attach) of the receiver's session that the sender does
// not run: the receiver asks the cluster again.
struct Bounced {
  SessionId session = 0;
  std::string key;
  std::string line;
  friend bool operator==(const Bounced&, const Bounced&) = default;
};
// The receiver's session lost its name to a login on the sending node.
struct Replaced {
  SessionId session = 0;
  friend bool operator==(const Replaced&, const Replaced&) = default;
};
// The sender lost messages of the receiver's (a gap on the bus): the receiver's sessions that
// talk to the sender start again (they are closed, and their clients resume).
struct Reset {
  friend bool operator==(const Reset&, const Reset&) = default;
};
// Nothing but its sequence number. Sent every second to each node this one has sent to in the
// last ten: pub/sub delivers at most once, and a lost message is seen only by the gap before
// the next one. Without ticks, the last message before a quiet spell (a move's lines to the
// opponent's node, who then waits for it) could be lost unseen; with them, within a second.
struct Tick {
  friend bool operator==(const Tick&, const Tick&) = default;
};
// The games the receiver's session is to move in that the sender runs, and how many
// correspondence games its player has there (Lobby::remote_turns).
struct Turns {
  SessionId session = 0;
  protocol::YourTurn turns;
  int correspondence = 0;
  friend bool operator==(const Turns&, const Turns&) = default;
};
// A moderator's decision on the sending node, for every node (on the directory channel).
struct Moderated {
  ModerationEvent event;
  friend bool operator==(const Moderated&, const Moderated&) = default;
};
// The sender's directory (on the directory channel, to every node).
struct Directory {
  PeerView view;
  friend bool operator==(const Directory&, const Directory&) = default;
};

using NodeMessage = std::variant<Request, AttachGame, Detach, Lines, Bounced, Replaced, Reset, Tick,
                                 Turns, Moderated, Directory>;

std::string encode(const NodeMessage& message);
Expected<NodeMessage, std::string> decode(std::string_view body);

}  // namespace amazons::server::wire
