// The remote opponent of a server game as a Player: its moves are the ones the server reports for
// its seat. The game driver (ServerGame) asks it for a move on the opponent's turn, as it asks any
// player, and answers the request with deliver() when the opponent's move arrives. It also
// carries what a view shows about the opponent: who it is, whether it is connected, whether it
// is thinking.
#pragma once

#include <mutex>

#include "common/player.h"

namespace amazons::net {

class NetworkPlayer final : public Player {
 public:
  explicit NetworkPlayer(PlayerInfo info) : info_(std::move(info)) {}

  PlayerInfo info() const override;
  // Remembers the request; the answer comes from deliver(). Never blocks.
  void request_move(const MoveRequest& request, ReplyFn reply) override;
  void cancel_request() override;

  // The opponent's move arrived: answers the pending request on the calling thread. False (and
  // nothing happens) when no request was pending.
  bool deliver(PlayerAction action);
  // A request is pending: it is the opponent's turn.
  bool thinking() const;

  void set_online(bool online);
  bool online() const;

 private:
  const PlayerInfo info_;
  mutable std::mutex mutex_;
  ReplyFn pending_;     // guarded by mutex_
  bool online_ = true;  // guarded by mutex_
};

}  // namespace amazons::net
