#include "ai/tools/match.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "ai/ai_player.h"
#include "ai/opening.h"
#include "common/local_game.h"
#include "common/zobrist.h"

namespace amazons::ai {

namespace {

using Clock = std::chrono::steady_clock;
using Error = Unexpected<std::string>;

// The 95% two-sided normal quantile.
constexpr double kZ = 1.959964;

double elo_of(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

std::optional<double> number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

// Full strength with exactly the limits given.
Expected<Level, std::string> parse_limits(std::string_view text, Level level) {
  level.name = "limits";
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return Error{"limits: expected key=value, got '" + std::string(item) + "'"};
    const std::string key(item.substr(0, eq));
    if (key == "search") {
      const std::string_view kind = item.substr(eq + 1);
      const auto parsed = parse_search_kind(kind);
      if (!parsed)
        return Error{"limits: search must be alphabeta, mcts or auto, got '" + std::string(kind) +
                     "'"};
      level.search = *parsed;
      level.name += (level.name == "limits" ? ":" : ",") + std::string(item);
      continue;
    }
    const auto v = number(item.substr(eq + 1));
    if (!v || *v < 0)
      return Error{"limits: " + key + " needs a number >= 0, got '" +
                   std::string(item.substr(eq + 1)) + "'"};
    if (key == "movetime") {
      level.movetime = *v > 0 ? std::optional<Millis>(Millis{std::llround(*v)}) : std::nullopt;
      level.clock = false;
    } else if (key == "depth") {
      level.depth = static_cast<int>(*v);
    } else if (key == "nodes") {
      level.nodes = static_cast<std::uint64_t>(*v);
    } else if (key == "width") {
      if (*v <= 0 || *v > 8) return Error{"limits: width must be more than 0 and at most 8"};
      level.width = *v;
    } else if (key == "noise") {
      level.noise = static_cast<int>(*v);
    } else {
      return Error{"limits: unknown key '" + key +
                   "' (expected movetime (ms), depth, nodes, width, noise or search)"};
    }
    level.name += (level.name == "limits" ? ":" : ",") + std::string(item);
  }
  if (!level.movetime && level.depth == 0 && level.nodes == 0)
    return Error{"limits: give movetime, depth or nodes, or the engine would think forever"};
  return level;
}

// Measures how late a player's replies come against the time it was given.
class WatchedPlayer final : public Player {
 public:
  using Limit = std::function<std::optional<Millis>(const MoveRequest&)>;
  WatchedPlayer(Player& inner, Limit limit) : inner_(inner), limit_(std::move(limit)) {}

  PlayerInfo info() const override { return inner_.info(); }
  void on_game_start(const GameStart& s) override { inner_.on_game_start(s); }
  void on_move(Move m, Color c) override { inner_.on_move(m, c); }
  void on_game_end(const GameResult& r) override { inner_.on_game_end(r); }
  void cancel_request() override { inner_.cancel_request(); }
  void request_move(const MoveRequest& request, ReplyFn reply) override {
    const std::optional<Millis> limit = limit_ ? limit_(request) : std::nullopt;
    const auto asked = Clock::now();
    inner_.request_move(request, [this, limit, asked, reply = std::move(reply)](PlayerAction a) {
      if (limit) {
        const auto late = std::chrono::duration_cast<Millis>(Clock::now() - asked) - *limit;
        std::lock_guard lock(mutex_);
        if (!overrun_ || late > *overrun_) overrun_ = late;
      }
      reply(a);
    });
  }
  std::optional<Millis> max_overrun() const {
    std::lock_guard lock(mutex_);
    return overrun_;
  }

 private:
  Player& inner_;
  Limit limit_;
  mutable std::mutex mutex_;
  std::optional<Millis> overrun_;
};

struct Seat {
  std::unique_ptr<Player> player;
  WatchedPlayer::Limit limit;
  AIPlayer* engine = nullptr;  // the player, when it is one of ours
};

Seat make_seat(const PlayerSpec& spec, const AiConfig& config, std::uint64_t seed,
               std::function<void(const EngineFailure&)> on_failure) {
  switch (spec.kind) {
    case PlayerSpec::Kind::Engine: {
      auto p = spec.settings
                   ? std::make_unique<AIPlayer>(spec.level, *spec.settings, spec.label, seed)
                   : std::make_unique<AIPlayer>(spec.level, config, spec.label, seed);
      p->set_ponder(spec.ponder);
      AIPlayer* raw = p.get();
      return {std::move(p), [raw](const MoveRequest& r) { return raw->time_limit(r); }, raw};
    }
    case PlayerSpec::Kind::External: {
      auto p = std::make_unique<ExternalEnginePlayer>(spec.external);
      p->set_failure_callback(std::move(on_failure));
      ExternalEnginePlayer* raw = p.get();
      return {std::move(p),
              [raw](const MoveRequest& r) { return std::optional<Millis>(raw->time_limit(r)); }};
    }
    case PlayerSpec::Kind::Random:
      break;
  }
  return {std::make_unique<RandomPlayer>(spec.label, seed), {}};
}

}  // namespace

Expected<PlayerSpec, std::string> parse_player_spec(std::string_view text, const AiConfig& config) {
  PlayerSpec spec;
  spec.label = std::string(text);
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  if (text == "random") {
    spec.kind = PlayerSpec::Kind::Random;
    return spec;
  }
  if (kind == "engine" || kind == "uci" || kind == "botzone") {
    if (rest.empty()) return Error{std::string(kind) + ": give the command to run after the colon"};
    spec.kind = PlayerSpec::Kind::External;
    spec.external.command = std::string(rest);
    spec.external.protocol = kind == "engine" ? ExternalProtocol::Engine
                             : kind == "uci"  ? ExternalProtocol::Uci
                                              : ExternalProtocol::Botzone;
    spec.external.name = spec.label;
    return spec;
  }
  // An external command keeps whatever it ends in (above); anything else may end in +ponder.
  constexpr std::string_view kPonder = "+ponder";
  if (text.size() > kPonder.size() && text.ends_with(kPonder)) {
    auto pondering = parse_player_spec(text.substr(0, text.size() - kPonder.size()), config);
    if (!pondering) return pondering;
    if (pondering->kind != PlayerSpec::Kind::Engine)
      return Error{"'" + std::string(text) + "': only a level or limits can ponder"};
    pondering->ponder = true;
    pondering->label += kPonder;
    return pondering;
  }
  if (kind == "limits") {
    auto level = parse_limits(rest, Level{});
    if (!level) return Error{level.error()};
    spec.level = *level;
    return spec;
  }
  const std::string_view name = kind == "level" ? rest : text;
  if (const Level* l = config.find(name)) {
    spec.level = *l;
    spec.label = std::string(name);
    return spec;
  }
  std::string names;
  for (const Level& l : config.levels) names += (names.empty() ? "" : ", ") + l.name;
  return Error{"'" + std::string(text) + "' is not a player: expected a level (" + names +
               "), limits:movetime=MS,..., engine:COMMAND, uci:COMMAND, botzone:COMMAND or random"};
}

EloEstimate elo_estimate(int wins, int losses) {
  EloEstimate e;
  const int n = wins + losses;
  if (n == 0) return e;
  const double p = static_cast<double>(wins) / n;
  const double z2 = kZ * kZ;
  const double denom = 1 + z2 / n;
  const double center = (p + z2 / (2.0 * n)) / denom;
  const double half = kZ * std::sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
  e.score = p;
  e.elo = elo_of(p);
  e.low = elo_of(center - half);
  e.high = elo_of(center + half);
  return e;
}

struct Match::Running {
  std::mutex mutex;
  std::set<LocalGame*> games;
};

Match::Match(PlayerSpec a, PlayerSpec b, MatchOptions options)
    : specs_{std::move(a), std::move(b)},
      options_(std::move(options)),
      running_(std::make_shared<Running>()) {
  options_.games = std::max(2, options_.games + options_.games % 2);
  options_.parallel = std::max(1, options_.parallel);
}

void Match::abort() {
  aborted_ = true;
  std::lock_guard lock(running_->mutex);
  for (LocalGame* g : running_->games) g->abort();
}

GameOutcome Match::play_game(int index) {
  GameOutcome out;
  out.index = index;
  out.opening = index / 2;
  out.a_is_white = index % 2 == 0;

  std::mutex failures_mutex;
  auto on_failure = [&](const EngineFailure& f) {
    std::lock_guard lock(failures_mutex);
    out.failures.push_back(std::string(code(f.kind)) + ": " + f.message);
  };
  std::uint64_t seed_state =
      options_.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(index);
  Seat seats[2];
  for (int s = 0; s < 2; ++s)
    seats[s] = make_seat(specs_[s], options_.config, zobrist::splitmix64(seed_state), on_failure);
  WatchedPlayer a(*seats[0].player, seats[0].limit), b(*seats[1].player, seats[1].limit);

  LocalGameOptions game;
  game.rules = options_.rules;
  game.time_control = options_.time_control;
  std::uint64_t opening_seed =
      options_.seed ^ (0xA5A5A5A5ULL * static_cast<std::uint64_t>(out.opening + 1));
  game.opening = random_opening(Position(options_.rules), options_.opening_plies,
                                options_.opening_choices, zobrist::splitmix64(opening_seed));
  LocalGame local(game, out.a_is_white ? static_cast<Player&>(a) : b,
                  out.a_is_white ? static_cast<Player&>(b) : a);
  {
    std::lock_guard lock(running_->mutex);
    running_->games.insert(&local);
  }
  if (aborted_) local.abort();
  out.record = local.play();
  {
    std::lock_guard lock(running_->mutex);
    running_->games.erase(&local);
  }
  out.overrun[0] = a.max_overrun();
  out.overrun[1] = b.max_overrun();
  for (int s = 0; s < 2; ++s)
    if (seats[s].engine != nullptr) out.ponder[s] = seats[s].engine->ponder_stats();
  if (out.record.result && out.record.result->winner) {
    const bool white_won = *out.record.result->winner == Color::White;
    out.winner = white_won == out.a_is_white ? 0 : 1;
  }
  return out;
}

MatchSummary Match::run(
    const std::function<void(const GameOutcome&, const MatchSummary&)>& on_game) {
  MatchSummary summary;
  summary.games.resize(static_cast<std::size_t>(options_.games));
  std::mutex mutex;
  std::atomic<int> next{0};
  auto merge = [&](int seat, std::optional<Millis> o) {
    if (o && (!summary.max_overrun[seat] || *o > *summary.max_overrun[seat]))
      summary.max_overrun[seat] = o;
  };
  auto worker = [&] {
    for (;;) {
      const int i = next.fetch_add(1);
      if (i >= options_.games || aborted_) return;
      GameOutcome g = play_game(i);
      std::lock_guard lock(mutex);
      if (g.winner == 0) {
        ++summary.a_wins;
      } else if (g.winner == 1) {
        ++summary.b_wins;
      } else {
        ++summary.unfinished;
      }
      for (int s = 0; s < 2; ++s) {
        merge(s, g.overrun[s]);
        summary.ponder[s].hits += g.ponder[s].hits;
        summary.ponder[s].misses += g.ponder[s].misses;
      }
      summary.elo = elo_estimate(summary.a_wins, summary.b_wins);
      summary.games[static_cast<std::size_t>(i)] = g;
      if (on_game) on_game(g, summary);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < options_.parallel; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (aborted_) {
    // Games never started are not part of the match.
    std::erase_if(summary.games, [](const GameOutcome& g) { return !g.record.result; });
  }
  return summary;
}

}  // namespace amazons::ai
