#include "common/local_game.h"

#include <chrono>
#include <condition_variable>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/position_text.h"
#include "common/zobrist.h"

namespace amazons {

// Shared by the driver and the reply function, which may outlive the game.
struct LocalGame::Slot {
  std::mutex mutex;
  std::condition_variable wake;
  bool open = true;  // guarded by mutex
  std::optional<PlayerAction> answer;
};

LocalGame::LocalGame(LocalGameOptions options, Player& white, Player& black)
    : options_(std::move(options)), players_{&white, &black} {}

void LocalGame::abort() {
  aborted_ = true;
  std::lock_guard lock(mutex_);
  if (current_) {
    std::lock_guard slot_lock(current_->mutex);
    current_->wake.notify_all();
  }
}

GameRecord LocalGame::play(GameObserver* observer) {
  using Clock = std::chrono::steady_clock;
  GameRecord record;
  record.rules = options_.rules;
  record.white = players_[0]->info();
  record.black = players_[1]->info();
  record.time_control = options_.time_control;
  record.started_at = std::chrono::floor<Millis>(std::chrono::system_clock::now());

  Position pos = options_.start ? *options_.start : Position(options_.rules);
  if (options_.start) record.start_position = to_text(*options_.start);
  ClockState clock{options_.time_control,
                   options_.clock.value_or(std::array<Millis, 2>{options_.time_control.initial,
                                                                 options_.time_control.initial})};
  std::vector<Move> history;

  for (Color c : {Color::White, Color::Black}) {
    GameStart start{options_.rules, pos, record.white, record.black, options_.time_control, c};
    players_[index_of(c)]->on_game_start(start);
    if (c == Color::White && observer) observer->on_start(start);
  }
  auto finish = [&](GameResult result, const std::string& detail) {
    record.result = result;
    record.ended_at = std::chrono::floor<Millis>(std::chrono::system_clock::now());
    for (Player* p : players_) p->on_game_end(result);
    if (observer) observer->on_end(result, detail);
    return record;
  };
  auto play_move = [&](Move m, std::optional<Millis> elapsed, std::optional<Millis> left) {
    const Color mover = pos.side_to_move();
    pos.do_move(m);
    history.push_back(m);
    record.moves.push_back({m, elapsed, left});
    for (Player* p : players_) p->on_move(m, mover);
    if (observer) observer->on_move(pos, record.moves.back(), mover);
  };

  for (Move m : options_.opening) {
    if (auto err = pos.check(m))
      return finish({std::nullopt, EndReason::Aborted},
                    "opening move " + to_string(m) + ": " + std::string(describe(*err)));
    play_move(m, std::nullopt, std::nullopt);
  }

  for (;;) {
    if (aborted_) return finish({std::nullopt, EndReason::Aborted}, "");
    const Color side = pos.side_to_move();
    if (pos.is_game_over()) return finish({~side, EndReason::NoMoves}, "");
    Player& player = *players_[index_of(side)];
    if (observer) observer->on_turn(side, clock);

    auto slot = std::make_shared<Slot>();
    {
      std::lock_guard lock(mutex_);
      current_ = slot;
    }
    const auto asked_at = Clock::now();
    std::optional<Clock::time_point> deadline;
    switch (clock.control.kind) {
      case TimeControl::Kind::Unlimited:
        break;
      case TimeControl::Kind::Fischer:
        deadline = asked_at + clock.left(side);
        break;
      case TimeControl::Kind::PerMove:
        deadline = asked_at + clock.control.per_move;
        break;
    }
    player.request_move({pos, history, clock}, [slot](PlayerAction action) {
      std::lock_guard lock(slot->mutex);
      if (!slot->open || slot->answer) return;
      slot->answer = action;
      slot->wake.notify_all();
    });

    std::optional<PlayerAction> answer;
    {
      std::unique_lock lock(slot->mutex);
      auto ready = [&] { return slot->answer.has_value() || aborted_.load(); };
      if (deadline) {
        slot->wake.wait_until(lock, *deadline, ready);
      } else {
        slot->wake.wait(lock, ready);
      }
      answer = slot->answer;
      slot->open = false;
    }
    const auto elapsed = std::chrono::duration_cast<Millis>(Clock::now() - asked_at);
    if (!answer) {
      player.cancel_request();
      if (aborted_) return finish({std::nullopt, EndReason::Aborted}, "");
      return finish({~side, EndReason::Time}, "");
    }

    std::optional<Millis> left;
    auto& remaining = clock.remaining[static_cast<std::size_t>(index_of(side))];
    if (clock.control.kind == TimeControl::Kind::Fischer) {
      if (elapsed > remaining) return finish({~side, EndReason::Time}, "");
      remaining = remaining - elapsed + clock.control.increment;
      left = remaining;
    } else if (clock.control.kind == TimeControl::Kind::PerMove &&
               elapsed > clock.control.per_move) {
      return finish({~side, EndReason::Time}, "");
    }
    if (answer->kind == PlayerAction::Kind::Resign) return finish({~side, EndReason::Resign}, "");
    if (auto err = pos.check(answer->move))
      return finish({~side, EndReason::IllegalMove}, std::string(color_name(side)) + " played " +
                                                         to_string(answer->move) + ": " +
                                                         std::string(describe(*err)));
    play_move(answer->move, elapsed, left);
  }
}

RandomPlayer::RandomPlayer(std::string name, std::uint64_t seed)
    : name_(std::move(name)), state_(seed) {}

void RandomPlayer::request_move(const MoveRequest& request, ReplyFn reply) {
  auto moves = std::make_unique<MoveList>();
  generate_moves(request.position, *moves);
  const std::uint64_t r = zobrist::splitmix64(state_);
  reply(PlayerAction::play((*moves)[static_cast<std::size_t>(r % moves->size())]));
}

}  // namespace amazons
