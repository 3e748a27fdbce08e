#include "common/time_control.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "common/number_text.h"

namespace amazons {

namespace {

constexpr double kMaxSeconds = 30.0 * 24 * 3600;

Expected<Millis, std::string> seconds_field(const nlohmann::json& j, const char* key,
                                            bool allow_zero) {
  const auto& v = j.at(key);
  if (!v.is_number())
    return Unexpected(std::string(key) + ": expected a number of seconds, got " + v.type_name());
  const double s = v.get<double>();
  if (!std::isfinite(s) || s < 0 || (!allow_zero && s == 0) || s > kMaxSeconds)
    return Unexpected(std::string(key) + ": must be " +
                      (allow_zero ? "at least 0" : "more than 0") +
                      " and at most 30 days of seconds");
  return Millis{static_cast<long long>(std::llround(s * 1000))};
}

constexpr long long kDayMs = 24LL * 3600 * 1000;
constexpr long long kHourMs = 3600LL * 1000;

std::string seconds_text(Millis m) {
  if (m.count() >= kDayMs && m.count() % kDayMs == 0)
    return std::to_string(m.count() / kDayMs) + "d";
  if (m.count() % 1000 == 0) return std::to_string(m.count() / 1000);
  std::string s = std::to_string(static_cast<double>(m.count()) / 1000.0);
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

double seconds_value(Millis m) { return static_cast<double>(m.count()) / 1000.0; }

Expected<Millis, std::string> parse_seconds(std::string_view text, bool allow_zero) {
  double v = 0;
  std::string_view number = text;
  double unit = 1.0;
  if (number.ends_with('d') || number.ends_with('h')) {
    unit = static_cast<double>(number.back() == 'd' ? kDayMs : kHourMs) / 1000.0;
    number.remove_suffix(1);
  }
  const auto read = double_from_text(number);
  if (read) v = *read * unit;
  if (!read || !std::isfinite(v) || v < 0 || (!allow_zero && v == 0) || v > kMaxSeconds)
    return Unexpected(
        std::string(text).insert(0, 1, '"').append("\" is not a valid number of seconds"));
  return Millis{static_cast<long long>(std::llround(v * 1000))};
}

}  // namespace

bool TimeControl::correspondence() const {
  switch (kind) {
    case Kind::Fischer:
      return initial >= kCorrespondenceTime;
    case Kind::PerMove:
      return per_move >= kCorrespondenceTime;
    case Kind::Unlimited:
      break;
  }
  return false;
}

Expected<void, std::string> check_playable(const TimeControl& tc) {
  switch (tc.kind) {
    case TimeControl::Kind::Fischer:
      if (tc.initial < kMinFirstMove)
        return Unexpected(
            "initial: must be at least 1 second (the first move has only the "
            "initial time), got " +
            seconds_text(tc.initial) + " s");
      if (tc.initial + tc.increment > kMaxFirstMove)
        return Unexpected(std::string("initial plus increment: must be at most 30 days"));
      break;
    case TimeControl::Kind::PerMove:
      if (tc.per_move < kMinFirstMove)
        return Unexpected("per_move: must be at least 1 second, got " + seconds_text(tc.per_move) +
                          " s");
      if (tc.per_move > kMaxFirstMove)
        return Unexpected(std::string("per_move: must be at most 30 days"));
      break;
    case TimeControl::Kind::Unlimited:
      break;
  }
  return {};
}

nlohmann::json to_json(const TimeControl& tc) {
  switch (tc.kind) {
    case TimeControl::Kind::Unlimited:
      return nullptr;
    case TimeControl::Kind::Fischer:
      return {{"initial", seconds_value(tc.initial)}, {"increment", seconds_value(tc.increment)}};
    case TimeControl::Kind::PerMove:
      return {{"per_move", seconds_value(tc.per_move)}};
  }
  return nullptr;
}

Expected<TimeControl, std::string> time_control_from_json(const nlohmann::json& j) {
  if (j.is_null()) return TimeControl::unlimited();
  if (!j.is_object())
    return Unexpected(std::string("expected an object or null, got ") + j.type_name());
  for (const auto& [key, value] : j.items())
    if (key != "initial" && key != "increment" && key != "per_move")
      return Unexpected(key + ": unknown key (expected initial and increment, or per_move)");
  if (j.contains("per_move")) {
    if (j.contains("initial") || j.contains("increment"))
      return Unexpected(std::string("per_move: cannot be combined with initial or increment"));
    auto t = seconds_field(j, "per_move", false);
    if (!t) return Unexpected(t.error());
    return TimeControl::fixed_per_move(*t);
  }
  if (!j.contains("initial")) return Unexpected(std::string("initial: missing"));
  auto initial = seconds_field(j, "initial", false);
  if (!initial) return Unexpected(initial.error());
  Millis increment{0};
  if (j.contains("increment")) {
    auto inc = seconds_field(j, "increment", true);
    if (!inc) return Unexpected(inc.error());
    increment = *inc;
  }
  return TimeControl::fischer(*initial, increment);
}

std::string to_string(const TimeControl& tc) {
  switch (tc.kind) {
    case TimeControl::Kind::Unlimited:
      return "none";
    case TimeControl::Kind::Fischer:
      return seconds_text(tc.initial) + "+" + seconds_text(tc.increment);
    case TimeControl::Kind::PerMove:
      return seconds_text(tc.per_move) + "/move";
  }
  return "none";
}

Expected<TimeControl, std::string> parse_time_control(std::string_view text) {
  if (text == "none" || text == "-") return TimeControl::unlimited();
  if (text.ends_with("/move")) {
    auto t = parse_seconds(text.substr(0, text.size() - 5), false);
    if (!t) return Unexpected("time control: " + t.error());
    return TimeControl::fixed_per_move(*t);
  }
  const auto plus = text.find('+');
  if (plus == std::string_view::npos)
    return Unexpected(
        "time control: expected \"none\", \"INITIAL+INCREMENT\" or \"SECONDS/move\" (numbers may "
        "end in d or h), got \"" +
        std::string(text) + "\"");
  auto initial = parse_seconds(text.substr(0, plus), false);
  if (!initial) return Unexpected("time control: " + initial.error());
  auto increment = parse_seconds(text.substr(plus + 1), true);
  if (!increment) return Unexpected("time control: " + increment.error());
  return TimeControl::fischer(*initial, *increment);
}

}  // namespace amazons
