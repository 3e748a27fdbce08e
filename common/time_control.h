// How much thinking time each side gets.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"

namespace amazons {

using Millis = std::chrono::milliseconds;

struct TimeControl {
  enum class Kind : std::uint8_t {
    Unlimited,  // no clock (correspondence)
    Fischer,    // initial time, plus increment after each own move
    PerMove,    // a fixed time for every move, nothing carried over
  };
  Kind kind = Kind::Unlimited;
  Millis initial{0};
  Millis increment{0};
  Millis per_move{0};

  static TimeControl unlimited() { return {}; }
  static TimeControl fischer(Millis initial, Millis increment) {
    return {Kind::Fischer, initial, increment, Millis{0}};
  }
  static TimeControl fixed_per_move(Millis t) { return {Kind::PerMove, Millis{0}, Millis{0}, t}; }
  // A game played over days (correspondence): a move may take a day or more. For such games a
  // disconnect means nothing, only the clock decides (the server keeps no claim grace).
  bool correspondence() const;
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// The shortest thinking time that makes a time control correspondence: a move may take a day.
inline constexpr Millis kCorrespondenceTime{24LL * 3600 * 1000};

// The clocks a server plays (docs/PROTOCOL.md "Shared shapes"). A first move has at least
// kMinFirstMove: Fischer's initial time (the increment is added only after a move, so it does not
// count) or the time per move. Shorter clocks flag at once, so whoever joins a rated one loses.
// And no first move has more than kMaxFirstMove, the longest correspondence control offered:
// initial plus increment, or the time per move. No clock (unlimited) is always playable.
inline constexpr Millis kMinFirstMove{1000};
inline constexpr Millis kMaxFirstMove{30LL * 24 * 3600 * 1000};
// Why the server does not play `tc` ("initial: ..."), or nothing when it does.
Expected<void, std::string> check_playable(const TimeControl& tc);

// JSON: null (unlimited), {"initial": s, "increment": s} or {"per_move": s}; seconds, fractions
// allowed down to the millisecond. Limits: 0 < initial, per_move <= 30 days; 0 <= increment.
// These are the limits of the format (records keep the short clocks of engine matches); what a
// server plays is check_playable's.
nlohmann::json to_json(const TimeControl& tc);
Expected<TimeControl, std::string> time_control_from_json(const nlohmann::json& j);

// Text: "none", "300+5" (seconds), "30/move"; any number may end in "d" (days) or "h" (hours):
// "1d/move", "3d+1d". Whole days are written with "d".
std::string to_string(const TimeControl& tc);
Expected<TimeControl, std::string> parse_time_control(std::string_view text);

}  // namespace amazons
