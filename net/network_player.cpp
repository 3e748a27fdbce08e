#include "net/network_player.h"

namespace amazons::net {

PlayerInfo NetworkPlayer::info() const { return info_; }

void NetworkPlayer::request_move(const MoveRequest&, ReplyFn reply) {
  std::lock_guard lock(mutex_);
  pending_ = std::move(reply);
}

void NetworkPlayer::cancel_request() {
  std::lock_guard lock(mutex_);
  pending_ = nullptr;
}

bool NetworkPlayer::deliver(PlayerAction action) {
  ReplyFn reply;
  {
    std::lock_guard lock(mutex_);
    reply.swap(pending_);
  }
  if (!reply) return false;
  reply(action);
  return true;
}

bool NetworkPlayer::thinking() const {
  std::lock_guard lock(mutex_);
  return static_cast<bool>(pending_);
}

void NetworkPlayer::set_online(bool online) {
  std::lock_guard lock(mutex_);
  online_ = online;
}

bool NetworkPlayer::online() const {
  std::lock_guard lock(mutex_);
  return online_;
}

}  // namespace amazons::net
