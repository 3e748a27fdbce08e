#include "ai/levels.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/shipped_files.h"

namespace amazons::ai {

namespace {

using nlohmann::json;

constexpr double kMaxMoveSeconds = 24 * 3600.0;
constexpr double kMaxWidth = 8.0;
constexpr int kMaxNoise = 10000;
constexpr int kMaxThreads = 256;
constexpr std::size_t kMaxHashMb = 1 << 16;

Level level(std::string name, std::string description, double seconds, int depth, double width,
            int noise, bool clock = false, SearchKind search = SearchKind::AlphaBeta) {
  Level l;
  l.name = std::move(name);
  l.description = std::move(description);
  l.movetime = Millis{static_cast<Millis::rep>(std::llround(seconds * 1000))};
  l.depth = depth;
  l.width = width;
  l.noise = noise;
  l.clock = clock;
  l.search = search;
  return l;
}

using Error = Unexpected<std::string>;

Expected<double, std::string> number(const json& j, const std::string& path, double low,
                                     double high, bool low_inclusive = true) {
  if (!j.is_number()) return Error{path + ": expected a number, got " + j.type_name()};
  const double v = j.get<double>();
  if (!std::isfinite(v) || v > high || v < low || (!low_inclusive && v == low)) {
    std::ostringstream msg;
    msg << path << ": must be " << (low_inclusive ? "at least " : "more than ") << low
        << " and at most " << high << ", got " << j.dump();
    return Error{msg.str()};
  }
  return v;
}

Expected<long long, std::string> integer(const json& j, const std::string& path, long long low,
                                         long long high) {
  if (!j.is_number_integer()) return Error{path + ": expected a whole number, got " + j.dump()};
  const long long v = j.get<long long>();
  if (v < low || v > high)
    return Error{path + ": must be between " + std::to_string(low) + " and " +
                 std::to_string(high) + ", got " + std::to_string(v)};
  return v;
}

Expected<Level, std::string> level_from_json(const std::string& name, const json& j,
                                             const std::string& path) {
  if (!j.is_object()) return Error{path + ": expected an object, got " + j.type_name()};
  Level l;
  l.name = name;
  for (const auto& [key, value] : j.items()) {
    const std::string at = path + "." + key;
    if (key == "description") {
      if (!value.is_string()) return Error{at + ": expected a string, got " + value.type_name()};
      l.description = value.get<std::string>();
    } else if (key == "movetime") {
      auto v = number(value, at, 0, kMaxMoveSeconds, false);
      if (!v) return Error{v.error()};
      l.movetime = Millis{std::max<Millis::rep>(1, std::llround(*v * 1000))};
    } else if (key == "clock") {
      if (!value.is_boolean()) return Error{at + ": expected true or false, got " + value.dump()};
      l.clock = value.get<bool>();
    } else if (key == "depth") {
      auto v = integer(value, at, 1, 100);
      if (!v) return Error{v.error()};
      l.depth = static_cast<int>(*v);
    } else if (key == "nodes") {
      auto v = integer(value, at, 1, 1LL << 50);
      if (!v) return Error{v.error()};
      l.nodes = static_cast<std::uint64_t>(*v);
    } else if (key == "width") {
      auto v = number(value, at, 0, kMaxWidth, false);
      if (!v) return Error{v.error()};
      l.width = *v;
    } else if (key == "noise") {
      auto v = integer(value, at, 0, kMaxNoise);
      if (!v) return Error{v.error()};
      l.noise = static_cast<int>(*v);
    } else if (key == "search") {
      const auto kind =
          value.is_string() ? parse_search_kind(value.get<std::string>()) : std::nullopt;
      if (!kind)
        return Error{at + ": expected \"alphabeta\", \"mcts\" or \"auto\", got " + value.dump()};
      l.search = *kind;
    } else {
      return Error{at +
                   ": unknown key (expected description, movetime, clock, depth, nodes, "
                   "width, noise or search)"};
    }
  }
  if (!l.movetime && !l.clock && l.depth == 0 && l.nodes == 0)
    return Error{path + ": needs a limit: movetime, clock, depth or nodes"};
  return l;
}

}  // namespace

std::filesystem::path default_config_dir() { return shipped_config_dir(AMAZONS_CONFIG_DIR); }

const Level* AiConfig::find(std::string_view name) const {
  for (const Level& l : levels)
    if (l.name == name) return &l;
  return nullptr;
}

AiConfig builtin_ai_config() {
  AiConfig c;
  c.levels = {
      level("beginner", "Plays at once and makes plenty of mistakes: for your first games.", 0.05,
            1, 0.5, 600),
      level("easy", "Looks one move ahead and sometimes misjudges a position.", 0.1, 2, 0.5, 150),
      level("medium", "Looks three moves ahead, quickly: a fair fight for a club player.", 0.1, 3,
            0.6, 0),
      // The full-strength levels search by the board (docs/ENGINE.md, "Which one, and why").
      level("hard", "One second of full-strength search per move.", 1.0, 0, 1.0, 0, false,
            SearchKind::Auto),
      level("max", "Uses the game clock as a tournament program would (5 s a move without one).",
            5.0, 0, 1.0, 0, true, SearchKind::Auto),
  };
  c.default_level = "medium";
  c.threads = 0;
  c.hash_mb = 64;
  return c;
}

Expected<AiConfig, std::string> ai_config_from_json(const json& j) {
  if (!j.is_object()) return Error{std::string("expected an object, got ") + j.type_name()};
  AiConfig c;
  c.levels.clear();
  bool have_levels = false;
  for (const auto& [key, value] : j.items()) {
    if (key == "description") {
      if (!value.is_string())
        return Error{"description: expected a string, got " + std::string(value.type_name())};
    } else if (key == "default_level") {
      if (!value.is_string())
        return Error{"default_level: expected a level name, got " + value.dump()};
      c.default_level = value.get<std::string>();
    } else if (key == "threads") {
      auto v = integer(value, "threads", 0, kMaxThreads);
      if (!v) return Error{v.error()};
      c.threads = static_cast<int>(*v);
    } else if (key == "hash_mb") {
      auto v = integer(value, "hash_mb", 1, static_cast<long long>(kMaxHashMb));
      if (!v) return Error{v.error()};
      c.hash_mb = static_cast<std::size_t>(*v);
    } else if (key == "levels") {
      if (!value.is_object())
        return Error{"levels: expected an object of levels by name, got " +
                     std::string(value.type_name())};
      have_levels = true;
      for (std::string_view name : kStandardLevels) {
        if (!value.contains(name))
          return Error{"levels: missing the standard level \"" + std::string(name) + "\""};
        auto l = level_from_json(std::string(name), value.at(std::string(name)),
                                 "levels." + std::string(name));
        if (!l) return Error{l.error()};
        c.levels.push_back(*l);
      }
      for (const auto& [name, lj] : value.items()) {
        if (std::find(std::begin(kStandardLevels), std::end(kStandardLevels), name) !=
            std::end(kStandardLevels))
          continue;
        if (name.empty() || name.find_first_of(" \t\r\n") != std::string::npos)
          return Error{"levels: a level name must be one word, got \"" + name + "\""};
        auto l = level_from_json(name, lj, "levels." + name);
        if (!l) return Error{l.error()};
        c.levels.push_back(*l);
      }
    } else {
      return Error{key +
                   ": unknown key (expected description, default_level, threads, hash_mb "
                   "or levels)"};
    }
  }
  if (!have_levels) return Error{std::string("levels: missing")};
  if (!c.find(c.default_level))
    return Error{"default_level: no level named \"" + c.default_level + "\""};
  return c;
}

Expected<AiConfig, std::string> parse_ai_config(std::string_view json_text) {
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::exception& e) {
    // Also out_of_range: a number too large for a double (1e999) is not a parse_error.
    return Error{std::string("not valid JSON: ") + e.what()};
  }
  return ai_config_from_json(j);
}

Expected<AiConfig, std::string> load_ai_config(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  auto c = parse_ai_config(text.str());
  if (!c) return Error{path.string() + ": " + c.error()};
  return c;
}

json to_json(const AiConfig& config) {
  json levels = json::object();
  for (const Level& l : config.levels) {
    json lj = json::object();
    if (!l.description.empty()) lj["description"] = l.description;
    if (l.movetime) lj["movetime"] = static_cast<double>(l.movetime->count()) / 1000.0;
    if (l.clock) lj["clock"] = true;
    if (l.depth != 0) lj["depth"] = l.depth;
    if (l.nodes != 0) lj["nodes"] = l.nodes;
    if (l.width != 1.0) lj["width"] = l.width;
    if (l.noise != 0) lj["noise"] = l.noise;
    if (l.search != SearchKind::AlphaBeta) lj["search"] = std::string(to_string(l.search));
    levels[l.name] = lj;
  }
  return {{"default_level", config.default_level},
          {"threads", config.threads},
          {"hash_mb", config.hash_mb},
          {"levels", levels}};
}

SearchSettings settings_for(const Level& level, const AiConfig& config) {
  SearchSettings s;
  s.threads = config.threads > 0
                  ? config.threads
                  : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  s.hash_mb = config.hash_mb;
  s.selectivity.scale = level.width;
  s.eval.noise = level.noise;
  s.kind = level.search;
  return s;
}

SearchLimits limits_for(const Level& level, const ClockState* clock, Color side) {
  SearchLimits l;
  l.depth = level.depth;
  l.nodes = level.nodes;
  const bool timed = clock != nullptr && clock->control.kind != TimeControl::Kind::Unlimited;
  if (level.movetime && !(level.clock && timed)) l.movetime = level.movetime;
  if (timed) {
    if (clock->control.kind == TimeControl::Kind::Fischer) {
      l.time_left = clock->left(side);
      l.increment = clock->control.increment;
    } else {
      l.movetime =
          l.movetime ? std::min(*l.movetime, clock->control.per_move) : clock->control.per_move;
    }
  }
  return l;
}

}  // namespace amazons::ai
