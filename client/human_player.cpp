#include "client/human_player.h"

namespace amazons::client {

HumanPlayer::HumanPlayer(PlayerInfo info, OnRequest on_request)
    : info_(std::move(info)), on_request_(std::move(on_request)) {}

void HumanPlayer::on_game_start(const GameStart& start) {
  std::lock_guard lock(mutex_);
  color_ = start.your_color;
}

void HumanPlayer::request_move(const MoveRequest&, ReplyFn reply) {
  std::uint64_t id;
  Color color;
  {
    std::lock_guard lock(mutex_);
    id = next_request_++;
    pending_ = id;
    reply_ = std::move(reply);
    color = color_;
  }
  // Outside the lock: the UI may answer from inside the callback.
  if (on_request_) on_request_(color, id);
}

void HumanPlayer::cancel_request() {
  std::lock_guard lock(mutex_);
  pending_.reset();
  reply_ = nullptr;
}

bool HumanPlayer::answer(std::uint64_t request, PlayerAction action) {
  ReplyFn reply;
  {
    std::lock_guard lock(mutex_);
    if (pending_ != request) return false;
    pending_.reset();
    reply = std::move(reply_);
    reply_ = nullptr;
  }
  reply(action);  // outside the lock: the driver may ask again from inside
  return true;
}

std::optional<std::uint64_t> HumanPlayer::pending() const {
  std::lock_guard lock(mutex_);
  return pending_;
}

}  // namespace amazons::client
