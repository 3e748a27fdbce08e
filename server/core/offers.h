// The offers that wait for an answer: seeks in this server's pairing list, challenges, and on a
// cluster the seeks made through this node that wait in the shared pairing queue (cluster/). An
// open game is a room and stays with the rooms.
//
// This object owns them and the rules about them alone: numbering kept seeks, which go with
// their player's connection and which are kept, which have expired, and how many one address
// keeps. The lobby's handlers (lobby_offers.cpp) answer the requests, write the rows, release
// the keys and tell the players about what it hands back.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/protocol.h"
#include "server/core/lobby_effects.h"
#include "server/core/storage.h"

namespace amazons::server {

struct SeekEntry {
  std::string player;
  std::string rules;
  TimeControl time;
  bool rated = false;
  std::string id;                       // the offer id ("s3") of a kept seek
  std::optional<Timestamp> kept_until;  // kept across disconnects until then
  std::string address = {};             // where it came from (empty: unknown or restored)
};

struct ChallengeEntry {
  std::string from;
  std::string to;
  protocol::ChallengeSend request;
  std::optional<Timestamp> kept_until;
  std::optional<RemoteSession> told;  // cluster mode: the connection elsewhere that has it
  std::string address = {};           // where it came from (empty: unknown or restored)
};

// A seek made through this node that waits in the cluster's pairing queue.
struct QueuedSeek {
  std::string pool;                     // what must match
  std::optional<Timestamp> kept_until;  // kept across disconnects until then
};

class Offers {
 public:
  using Challenge = std::pair<std::string, ChallengeEntry>;  // its id ("c12") and itself

  // ---- seeks in this server's list
  const std::vector<SeekEntry>& seeks() const { return seeks_; }
  template <class Pred>
  bool any_seek(Pred pred) const {
    return std::any_of(seeks_.begin(), seeks_.end(), pred);
  }
  // The first seek `pred` accepts, taken out of the list.
  template <class Pred>
  std::optional<SeekEntry> take_seek(Pred pred) {
    const auto it = std::find_if(seeks_.begin(), seeks_.end(), pred);
    if (it == seeks_.end()) return std::nullopt;
    SeekEntry seek = std::move(*it);
    seeks_.erase(it);
    return seek;
  }
  std::optional<SeekEntry> take_seek_of(const std::string& player) {
    return take_seek([&](const SeekEntry& e) { return e.player == player; });
  }
  // The offer id of a new kept seek: "s1", "s2", ..., past every seek read back.
  std::string new_seek_id() { return "s" + std::to_string(next_seek_++); }
  void add_seek(SeekEntry seek) { seeks_.push_back(std::move(seek)); }
  // A kept seek read back from storage, numbered `number`.
  void restore_seek(SeekEntry seek, std::uint64_t number);

  // ---- challenges, by id
  const std::map<std::string, ChallengeEntry>& challenges() const { return challenges_; }
  const ChallengeEntry* challenge(const std::string& id) const;
  bool has_challenge(const std::string& id) const { return challenges_.contains(id); }
  ChallengeEntry& add_challenge(const std::string& id, ChallengeEntry challenge);
  std::optional<ChallengeEntry> take_challenge(const std::string& id);
  // `id` has been sent to the connection `where` on another node.
  void told(const std::string& id, const RemoteSession& where);

  // ---- a node's seeks in the shared pairing queue, by player
  const QueuedSeek* queued_seek(const std::string& player) const;
  void queue_seek(const std::string& player, QueuedSeek seek) {
    queued_seeks_[player] = std::move(seek);
  }
  bool forget_queued_seek(const std::string& player) { return queued_seeks_.erase(player) > 0; }

  // ---- what ends with a connection or with time
  // `player` left: their seeks and challenges that are not kept end with the connection (a kept
  // one stays while they are away). Hands back the challenges taken out: the other side is to
  // hear of it.
  std::vector<Challenge> player_left(const std::string& player);
  // The kept offers whose time is up at `now`, taken out.
  struct Expired {
    std::vector<SeekEntry> seeks;
    std::vector<std::pair<std::string, QueuedSeek>> queued_seeks;
    std::vector<Challenge> challenges;
  };
  Expired expire(Timestamp now);

  // ---- counts
  // The seeks and challenges kept from `address`, for its cap: every one, and those to
  // `challenged` (if given). `except_seek_of`: that player's seek is not counted (a new one
  // replaces it).
  struct Kept {
    std::size_t offers = 0;
    std::size_t to_challenged = 0;
  };
  Kept kept_from(const std::string& address, const std::optional<std::string>& challenged,
                 const std::optional<std::string>& except_seek_of) const;
  // Whether `name` has a seek here or a challenge from or to them.
  bool involve(const std::string& name) const;

 private:
  std::vector<SeekEntry> seeks_;
  std::uint64_t next_seek_ = 1;
  std::map<std::string, ChallengeEntry> challenges_;
  std::map<std::string, QueuedSeek> queued_seeks_;
};

}  // namespace amazons::server
