#include "client/game_view_model.h"

#include <algorithm>

namespace amazons::client {

Millis low_time_threshold(const TimeControl& tc) {
  const Millis base = tc.kind == TimeControl::Kind::PerMove ? tc.per_move : tc.initial;
  return std::min<Millis>(std::chrono::seconds(20), base / 4);
}

GameViewModel::GameViewModel(const GameStart& start, std::array<bool, 2> human)
    : rules_(start.rules),
      position_(start.start),
      players_{start.white, start.black},
      human_(human),
      clock_{start.time_control, {start.time_control.initial, start.time_control.initial}} {}

void GameViewModel::on_turn(Color, const ClockState& clock, SteadyTime at) {
  clock_ = clock;
  turn_started_ = at;
}

void GameViewModel::on_move(const Position& after, const RecordedMove& m, Color mover, SteadyTime) {
  position_ = after;
  moves_.push_back(m.move);
  if (m.clock_left) clock_.remaining[idx(mover)] = *m.clock_left;
  turn_started_.reset();  // the next clock starts with the next turn
}

void GameViewModel::on_end(const GameResult& result, const std::string& detail, SteadyTime at) {
  if (turn_started_ && clock_.control.kind == TimeControl::Kind::Fischer) {
    auto& left = clock_.remaining[idx(to_move())];
    left -= std::chrono::duration_cast<Millis>(at - *turn_started_);
  }
  if (result.reason == EndReason::Time && result.winner)
    clock_.remaining[idx(~*result.winner)] = Millis{0};
  turn_started_.reset();
  result_ = result;
  detail_ = detail;
}

std::optional<Move> GameViewModel::last_move() const {
  if (moves_.empty()) return std::nullopt;
  return moves_.back();
}

Millis GameViewModel::clock(Color c, SteadyTime now) const {
  const bool running_for_c = running() && turn_started_ && to_move() == c;
  const Millis spent =
      running_for_c ? std::chrono::duration_cast<Millis>(now - *turn_started_) : Millis{0};
  switch (clock_.control.kind) {
    case TimeControl::Kind::Unlimited:
      return Millis{0};
    case TimeControl::Kind::Fischer:
      return std::max(Millis{0}, clock_.left(c) - spent);
    case TimeControl::Kind::PerMove:
      if (!running() && result_ && result_->reason == EndReason::Time && result_->winner &&
          c == ~*result_->winner)
        return Millis{0};
      return std::max(Millis{0}, clock_.control.per_move - spent);
  }
  return Millis{0};
}

bool GameViewModel::low_time(Color c, SteadyTime now) const {
  return has_clock() && clock(c, now) < low_time_threshold(clock_.control);
}

std::string GameViewModel::status() const {
  if (result_) return result_title();
  if (thinking(to_move())) return side_name(to_move()) + " is thinking...";
  return side_name(to_move()) + " to move";
}

std::string GameViewModel::result_title() const {
  return result_ ? client::result_title(*result_) : std::string();
}

std::string GameViewModel::result_reason() const {
  return result_ ? client::result_reason(*result_, detail_) : std::string();
}

std::vector<GameAction> GameViewModel::actions() const {
  std::vector<GameAction> out;
  if (running()) {
    if (human_to_move()) out.push_back(GameAction::Resign);
    if (moves_.size() < 2) out.push_back(GameAction::Abort);
    out.push_back(GameAction::Leave);
  } else {
    out.push_back(GameAction::Rematch);
    if (!moves_.empty()) out.push_back(GameAction::Replay);
    out.push_back(GameAction::Leave);
  }
  return out;
}

}  // namespace amazons::client
