// Server-side game clocks. Time is passed in by the caller (a monotonic millisecond count), so
// tests drive clocks without sleeping.
#pragma once

#include <array>
#include <optional>

#include "common/protocol.h"
#include "common/time_control.h"
#include "common/types.h"

namespace amazons::server {

// A point on the monotonic clock (steady_clock milliseconds) plus the wall time for records.
struct Instant {
  Millis mono{0};
  Timestamp wall{};
};

class GameClock {
 public:
  explicit GameClock(TimeControl control = {});
  // A clock that resumes with the given remaining times (after a restart).
  GameClock(TimeControl control, std::array<Millis, 2> remaining);

  const TimeControl& control() const { return control_; }
  bool timed() const { return control_.kind != TimeControl::Kind::Unlimited; }
  std::optional<Color> running() const { return running_; }

  // Starts `side`'s clock at `now`. For PerMove the side gets the full time for the move.
  void start(Color side, Millis now);
  // Stops the running clock, charging the time used so far.
  void stop(Millis now);
  // The running side completed a move at `now`: charges the time used, adds the increment (or
  // resets a per-move clock) and starts the other side. Returns the time the move took.
  // Precondition: a clock is running.
  Millis complete_move(Millis now);

  // Remaining time of `side` at `now` (negative once flagged; meaningless when untimed).
  Millis remaining(Color side, Millis now) const;
  // The running side when its time is up at `now`.
  std::optional<Color> flagged(Millis now) const;
  // When the running side's time runs out; nullopt when untimed or stopped.
  std::optional<Millis> deadline() const;

  // The clock as sent to clients; nullopt for untimed games.
  std::optional<protocol::ClockView> view(Millis now) const;

 private:
  TimeControl control_;
  std::array<Millis, 2> remaining_{};
  std::optional<Color> running_;
  Millis since_{0};
};

}  // namespace amazons::server
