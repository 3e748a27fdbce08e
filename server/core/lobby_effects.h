// What one step of the lobby hands the layers around it (server/core/lobby.h): the messages to
// deliver, the writes to commit first, the jobs to run off the lobby's thread (passwords, archive
// queries) and, on a node of a cluster, what goes to the cluster (ClusterEffects). Plain data,
// so the lobby's context (lobby_context.h), the storage worker and the network layer name it
// without the Lobby.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/protocol.h"
#include "server/core/session_id.h"
#include "server/core/storage.h"

namespace amazons::server {

struct Outbound {
  SessionId to = 0;
  std::shared_ptr<const std::string> line;  // without '\n'; shared by every recipient
};

// A password to check or hash, off the game thread; its outcome goes back through
// Lobby::complete_password.
struct PasswordJob {
  SessionId session = 0;
  protocol::RequestId id;
  std::string name;
  std::string password;
  bool bot = false;
  std::optional<std::string> stored_hash;  // verify against it; when empty, hash anew
  std::string address = {};                // where it came from (its share of the threads)
};
struct PasswordOutcome {
  PasswordJob job;
  bool verified = false;                // stored_hash matched
  std::optional<std::string> new_hash;  // the fresh hash when there was none
};

// A question for the archive, answered by answer_query() from storage after every write made
// before it.
struct ArchiveQuery {
  SessionId session = 0;
  std::string player;  // who asks: private games are shown only to their players (or by invite)
  protocol::RequestId id;
  std::variant<protocol::HistoryRequest, protocol::RecordRequest, protocol::AuditRequest,
               protocol::LeaderboardRequest, protocol::TournamentsRequest>
      request;            // player filled in
  std::size_t limit = 0;  // entries in a list reply (tournaments)
};

// ---- cluster mode (docs/SCALING.md, "The lobby's shape") ----

// Session ids from here up name sessions of other nodes (remote sessions); the network layer
// numbers its own connections from 1.
inline constexpr SessionId kFirstRemoteSession = SessionId{1} << 48;
inline constexpr bool is_remote_session(SessionId s) { return s >= kFirstRemoteSession; }
// How many game ids a cluster node reserves at a time (Storage::reserve_game_ids).
inline constexpr int kGameIdBlock = 1000;

// A connection on another node of the cluster.
struct RemoteSession {
  std::string node;
  SessionId session = 0;  // that node's own id for it
  friend auto operator<=>(const RemoteSession&, const RemoteSession&) = default;
};

// A player as the node that holds their connection tells it (read at their login).
struct RemotePlayer {
  std::string name;
  bool bot = false;
  Rating rating;
  int rated_games = 0;
  // Correspondence games they play on every node, as far as their node knows (for the limit
  // LobbyConfig::max_correspondence_games, checked by whichever node takes the request).
  int correspondence = 0;
  friend bool operator==(const RemotePlayer&, const RemotePlayer&) = default;
};

// What one node tells the others of its lobby (its directory message), for `list` and `players`
// everywhere and for reaching its players.
struct PeerPlayer {
  std::string name;
  Rating rating;
  int rated_games = 0;
  bool bot = false;
  SessionId session = 0;  // on that node
  friend bool operator==(const PeerPlayer&, const PeerPlayer&) = default;
};
struct PeerView {
  std::vector<protocol::GameSummary> games;  // open and running games, public ones only
  std::vector<PeerPlayer> players;           // logged in there
  std::map<std::string, int> playing;        // name -> games in progress there, private too
  friend bool operator==(const PeerView&, const PeerView&) = default;
};

// A request about a game or challenge this node does not run, for the node that does. `key` is
// the game id ("17") or the challenge id ("c12"); `line` the request as the client sent it.
struct Forward {
  // What a request does to the session's watching of the game it names: the cluster node keeps
  // the games its sessions watch on other nodes, to watch them again on the node that takes a
  // game over when its node dies.
  enum class Watching : std::uint8_t { Unchanged, Starts, Stops };
  SessionId session = 0;
  std::string key;
  std::string line;
  RemotePlayer player;  // who asks, for the node that runs it
  Watching watching = Watching::Unchanged;
};
// A request (or, with an empty line, an attach) of another node's session for something this
// node does not run (any more): that node asks the cluster again who runs it.
struct Bounce {
  RemoteSession to;
  std::string key;
  std::string line;
};
// A player logged in here sits in a game another node runs: that node is to send them its state
// and count them online.
struct Attach {
  SessionId session = 0;
  GameId game = 0;
  RemotePlayer player;
};
// A login to decide against the shared database and the name registry (the row as stored now,
// the password, who holds the name).
struct LoginJob {
  SessionId session = 0;
  protocol::RequestId id;
  std::string name;
  std::optional<std::string> password;
  std::optional<std::string> token;
  bool bot = false;
  bool known_only = false;      // registrations are closed: a name never stored is refused
  std::string address = {};     // its address group (its share of the password threads)
  bool password_check = false;  // a password without a token: counted in that share
};
struct LoginOutcome {
  LoginJob job;                          // its password cleared
  std::optional<protocol::Error> error;  // refused
  PlayerRow row;                         // as stored (a new player: the name only)
  std::optional<std::string> new_hash;   // a new password's hash
  std::vector<GameId> games;             // the unfinished games they sit in, on any node
};
// A seek to put in the cluster's pairing queue.
struct SeekJob {
  SessionId session = 0;
  protocol::RequestId id;
  std::string name;
  std::string pool;  // what must match: rules, time control, rated
  protocol::Seek request;
};
struct SeekOutcome {
  SeekJob job;
  std::optional<std::string> error;  // the queue could not be reached
  bool paired = false;
  std::string opponent;                           // when paired: who had been waiting
  std::optional<RemoteSession> opponent_session;  // where they are connected, if anywhere
  std::optional<PlayerRow> opponent_row;
};

// The games a player of another node is to move in on this node, for that node to merge with
// the rest of theirs (Lobby::remote_turns): a client's `your_turn` always lists every node's.
struct TurnsElsewhere {
  RemoteSession to;
  protocol::YourTurn turns;
  int correspondence = 0;  // their correspondence games in progress here
};

// A moderator's decision taken on one node that every other node of the cluster applies too
// (Lobby::moderated): a sanction set or lifted, a player's connection to close, a report filed
// or resolved (resolved_by set).
struct KickOrder {
  std::string player;
  std::string reason;
  friend bool operator==(const KickOrder&, const KickOrder&) = default;
};
using ModerationEvent = std::variant<SanctionRow, SanctionRemoved, KickOrder, ReportRow>;

// A player's kept seek on a cluster is also a row of the offers table with this id (one seek per
// player, as in the pairing queue), so that another node puts it back in the queue when the node
// it waited through dies (ClusterNode's failover scan, Lobby::adopt_offer).
inline std::string cluster_seek_id(std::string_view player) { return "s:" + std::string(player); }
inline bool is_cluster_seek_id(std::string_view id) { return id.starts_with("s:"); }

// Chat line ids on a cluster name their game (line >> kChatLineGameShift), so that a report or
// removal of a line goes to the node that keeps it: the node running the game.
inline constexpr int kChatLineGameShift = 20;

// What the lobby's world beyond this process needs to hear. The lobby says it whether or not it
// is a node of a cluster: what it now runs and no longer runs (acquire, release), and what a
// moderator decided (moderation). A cluster node carries them out; one server has nobody to tell
// and drops them. The rest are only ever made by a node.
struct ClusterEffects {
  std::vector<Forward> forwards;  // requests of sessions here for things other nodes run
  std::vector<Bounce> bounces;
  std::vector<Attach> attaches;
  std::vector<LoginJob> logins;
  std::vector<SeekJob> seeks;
  std::vector<std::string> unseeks;  // players whose seek in the pairing queue to withdraw
  // Seeks made here to withdraw (expired, or their player left) unless the player has made a
  // newer one through another node since.
  std::vector<std::string> drop_seeks;
  std::vector<std::string> acquire;  // keys ("17", "c12") this node now runs: take their leases
  std::vector<std::string> release;  // keys it stopped running: give their leases back
  std::vector<std::pair<std::string, SessionId>> logouts;  // names to let go in the registry
  std::vector<TurnsElsewhere> turns;        // after the writes before them are committed
  std::vector<ModerationEvent> moderation;  // for every other node, once committed
  // What the tournaments this node directs need from the shared database (answered by
  // Lobby::tournament_reads): the rows of players to pair who are online on no node, and the
  // rows of their games that other nodes ran (taken over after a failover), for the results.
  std::vector<std::string> read_players;
  std::vector<GameId> read_games;
  bool reserve_ids = false;  // the block of game ids runs low
  bool empty() const {
    return forwards.empty() && bounces.empty() && attaches.empty() && logins.empty() &&
           seeks.empty() && unseeks.empty() && drop_seeks.empty() && acquire.empty() &&
           release.empty() && logouts.empty() && turns.empty() && moderation.empty() &&
           read_players.empty() && read_games.empty() && !reserve_ids;
  }
  void append(ClusterEffects&& other);
};

// An attempt at a secret refused for being over its address's budget (AuthBudget), for the log
// (`first`: the first of a run, the one logged) and the metrics (every one).
struct AuthBackoff {
  std::string address;
  std::string what;  // "invite", "server_password" or "password"
  bool first = false;
};

struct Effects {
  std::vector<Outbound> messages;  // in order, per recipient
  WriteBatch writes;               // commit before delivering messages
  std::vector<ArchiveQuery> queries;
  std::vector<PasswordJob> password_jobs;
  std::vector<SessionId> close;             // close once the messages before are delivered
  std::vector<protocol::ErrorCode> errors;  // the codes of the errors among `messages`
  ClusterEffects cluster;                   // for the other nodes of a cluster, if any
  std::vector<AuthBackoff> auth_backoffs;
  void append(Effects&& other);
};

// The reply to an archive query, from the storage thread.
Outbound answer_query(Storage& storage, const ArchiveQuery& query);

}  // namespace amazons::server
