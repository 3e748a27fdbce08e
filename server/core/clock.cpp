#include "server/core/clock.h"

namespace amazons::server {

namespace {
Millis full_time(const TimeControl& tc) {
  switch (tc.kind) {
    case TimeControl::Kind::Fischer:
      return tc.initial;
    case TimeControl::Kind::PerMove:
      return tc.per_move;
    case TimeControl::Kind::Unlimited:
      break;
  }
  return Millis{0};
}
std::size_t at(Color c) { return static_cast<std::size_t>(index_of(c)); }
}  // namespace

GameClock::GameClock(TimeControl control) : control_(control) {
  remaining_ = {full_time(control_), full_time(control_)};
}

GameClock::GameClock(TimeControl control, std::array<Millis, 2> remaining)
    : control_(control), remaining_(remaining) {}

void GameClock::start(Color side, Millis now) {
  if (control_.kind == TimeControl::Kind::PerMove) remaining_[at(side)] = control_.per_move;
  running_ = side;
  since_ = now;
}

void GameClock::stop(Millis now) {
  if (!running_) return;
  if (timed()) remaining_[at(*running_)] -= now - since_;
  running_.reset();
}

Millis GameClock::complete_move(Millis now) {
  const Color mover = *running_;
  const Millis used = now - since_;
  auto& left = remaining_[at(mover)];
  switch (control_.kind) {
    case TimeControl::Kind::Fischer:
      left += control_.increment - used;
      break;
    case TimeControl::Kind::PerMove:
      left = control_.per_move;
      break;
    case TimeControl::Kind::Unlimited:
      break;
  }
  start(~mover, now);
  return used;
}

Millis GameClock::remaining(Color side, Millis now) const {
  Millis left = remaining_[at(side)];
  if (running_ == side && timed()) left -= now - since_;
  return left;
}

std::optional<Color> GameClock::flagged(Millis now) const {
  if (!running_ || !timed()) return std::nullopt;
  if (remaining(*running_, now) <= Millis{0}) return running_;
  return std::nullopt;
}

std::optional<Millis> GameClock::deadline() const {
  if (!running_ || !timed()) return std::nullopt;
  return since_ + remaining_[at(*running_)];
}

std::optional<protocol::ClockView> GameClock::view(Millis now) const {
  if (!timed()) return std::nullopt;
  return protocol::ClockView{std::max<Millis>(remaining(Color::White, now), Millis{0}).count(),
                             std::max<Millis>(remaining(Color::Black, now), Millis{0}).count(),
                             running_};
}

}  // namespace amazons::server
