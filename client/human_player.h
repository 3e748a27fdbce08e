// A person at this computer. request_move hands the request to the UI through a callback; the
// UI later answers it with the move the person entered (or a resignation).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>

#include "common/player.h"

namespace amazons::client {

class HumanPlayer final : public Player {
 public:
  // Called from the game's thread, inside request_move, once the request is ready to be
  // answered: the UI should let the person enter a move for `color` and answer `request`.
  using OnRequest = std::function<void(Color color, std::uint64_t request)>;

  HumanPlayer(PlayerInfo info, OnRequest on_request);

  PlayerInfo info() const override { return info_; }
  void on_game_start(const GameStart& start) override;
  void request_move(const MoveRequest& request, ReplyFn reply) override;
  void cancel_request() override;

  // Any thread (the render thread in the client). Answers `request` if it is still the pending
  // one; returns false for a stale or cancelled request, which is then ignored.
  bool answer(std::uint64_t request, PlayerAction action);
  // The pending request, if any.
  std::optional<std::uint64_t> pending() const;

 private:
  PlayerInfo info_;
  OnRequest on_request_;
  mutable std::mutex mutex_;
  Color color_ = Color::White;
  std::uint64_t next_request_ = 1;
  std::optional<std::uint64_t> pending_;
  ReplyFn reply_;
};

}  // namespace amazons::client
