#include "server/core/tournament.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

namespace amazons::server {

namespace {

// Limits on settings, so a bad request cannot make a tournament that never ends or never fits.
constexpr std::size_t kMaxNameLength = 80;
constexpr Millis kMaxArenaDuration{7LL * 24 * 3600 * 1000};  // a week
constexpr int kMaxSwissRounds = 30;
constexpr int kMaxPlayers = 1000;
// The Swiss pairing tries at most this many orderings of a score group's bottom half, and the
// backtracking fallback visits at most this many nodes: a round is paired in milliseconds
// even for a few hundred players, and gives up (ending the tournament) rather than hang.
constexpr int kMaxGroupOrderings = 40'320;  // 8!
constexpr long kMaxBacktrackNodes = 200'000;

// Arena points as lichess.org gives them; "on fire" after this many wins in a row.
constexpr int kArenaWin = 2;
constexpr int kArenaDraw = 1;
constexpr int kStreakForFire = 2;

constexpr std::pair<TournamentKind, std::string_view> kKindNames[] = {
    {TournamentKind::Arena, "arena"},
    {TournamentKind::RoundRobin, "round_robin"},
    {TournamentKind::Swiss, "swiss"}};
constexpr std::pair<TournamentStatus, std::string_view> kStatusNames[] = {
    {TournamentStatus::Created, "created"},
    {TournamentStatus::Running, "running"},
    {TournamentStatus::Finished, "finished"}};
constexpr std::pair<Pairing::State, std::string_view> kStateNames[] = {
    {Pairing::State::Pending, "pending"},   {Pairing::State::Playing, "playing"},
    {Pairing::State::Finished, "finished"}, {Pairing::State::Bye, "bye"},
    {Pairing::State::Forfeit, "forfeit"},   {Pairing::State::Void, "void"}};
constexpr std::pair<TournamentResult, std::string_view> kResultNames[] = {
    {TournamentResult::WhiteWins, "white"},
    {TournamentResult::BlackWins, "black"},
    {TournamentResult::Draw, "draw"}};

template <class E, std::size_t N>
std::string name_of(const std::pair<E, std::string_view> (&table)[N], E e) {
  for (const auto& [v, n] : table)
    if (v == e) return std::string(n);
  return "?";
}
template <class E, std::size_t N>
std::optional<E> value_of(const std::pair<E, std::string_view> (&table)[N], std::string_view s) {
  for (const auto& [v, n] : table)
    if (n == s) return v;
  return std::nullopt;
}

bool is_game(Pairing::State s) {
  return s == Pairing::State::Pending || s == Pairing::State::Playing ||
         s == Pairing::State::Finished || s == Pairing::State::Void;
}

// What each player has done so far, from the pairings in order (a player plays one game at a
// time, so the order pairings were made is the order of each player's games).
struct Record {
  double points = 0;
  int games = 0, wins = 0, losses = 0, draws = 0;
  int streak = 0;  // arena: wins in a row
  int whites = 0, blacks = 0;
  std::optional<Color> last_colour;
  std::string last_opponent;
  bool had_bye = false;
  std::set<std::string> met;
  // (opponent, points scored against them) for every counted game, for the tie-breaks.
  std::vector<std::pair<std::string, double>> results;
};

std::map<std::string, Record> records(TournamentKind kind, const std::vector<Pairing>& pairings) {
  std::map<std::string, Record> r;
  const bool arena = kind == TournamentKind::Arena;
  auto score = [&](Record& me, const std::string& opponent, double share) {
    ++me.games;
    if (share == 1) {
      ++me.wins;
      me.points += arena ? (me.streak >= kStreakForFire ? 2 * kArenaWin : kArenaWin) : 1;
      ++me.streak;
    } else if (share == 0) {
      ++me.losses;
      me.streak = 0;
    } else {
      ++me.draws;
      me.points += arena ? (me.streak >= kStreakForFire ? 2 * kArenaDraw : kArenaDraw) : 0.5;
      me.streak = 0;
    }
    me.results.emplace_back(opponent, share);
  };
  for (const Pairing& p : pairings) {
    Record& w = r[p.white];
    if (p.black.empty()) {
      if (p.state == Pairing::State::Bye && kind == TournamentKind::Swiss) {
        w.points += 1;
        w.had_bye = true;
      }
      continue;
    }
    Record& b = r[p.black];
    w.met.insert(p.black);
    b.met.insert(p.white);
    if (is_game(p.state)) {
      ++w.whites;
      ++b.blacks;
      w.last_colour = Color::White;
      b.last_colour = Color::Black;
      w.last_opponent = p.black;
      b.last_opponent = p.white;
    }
    if ((p.state == Pairing::State::Finished || p.state == Pairing::State::Forfeit) && p.result) {
      const double white_share = *p.result == TournamentResult::WhiteWins   ? 1
                                 : *p.result == TournamentResult::BlackWins ? 0
                                                                            : 0.5;
      score(w, p.black, white_share);
      score(b, p.white, 1 - white_share);
    }
  }
  return r;
}

// Who gets white between two players about to meet, `a` ranked above `b`: the one with more
// whites than blacks gets black; if level, whoever had white last gets black; else `a` white.
bool a_gets_white(const Record& a, const Record& b) {
  const int da = a.whites - a.blacks, db = b.whites - b.blacks;
  if (da != db) return da < db;
  if (a.last_colour != b.last_colour) {
    if (a.last_colour == Color::White) return false;
    if (b.last_colour == Color::White) return true;
  }
  return true;
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

bool met(std::map<std::string, Record>& rec, const std::string& a, const std::string& b) {
  return rec[a].met.count(b) != 0;
}

// S1[i] against S2[i], trying the orderings of S2 in turn until none repeats a pairing.
std::optional<Pairs> pair_halves(std::map<std::string, Record>& rec,
                                 const std::vector<std::string>& g) {
  const std::size_t k = g.size() / 2;
  std::vector<std::size_t> s2(k);
  std::iota(s2.begin(), s2.end(), k);
  int tries = 0;
  do {
    bool ok = true;
    for (std::size_t i = 0; i < k && ok; ++i) ok = !met(rec, g[i], g[s2[i]]);
    if (ok) {
      Pairs out;
      for (std::size_t i = 0; i < k; ++i) out.emplace_back(g[i], g[s2[i]]);
      return out;
    }
  } while (++tries < kMaxGroupOrderings && std::next_permutation(s2.begin(), s2.end()));
  return std::nullopt;
}

bool backtrack(std::map<std::string, Record>& rec, std::vector<std::string>& left, Pairs& out,
               long& budget) {
  if (left.empty()) return true;
  if (--budget < 0) return false;
  const std::string p = left.front();
  for (std::size_t j = 1; j < left.size(); ++j) {
    if (met(rec, p, left[j])) continue;
    std::vector<std::string> rest;
    for (std::size_t i = 1; i < left.size(); ++i)
      if (i != j) rest.push_back(left[i]);
    out.emplace_back(p, left[j]);
    if (backtrack(rec, rest, out, budget)) return true;
    out.pop_back();
  }
  return false;
}

// The Dutch-style pairing of `ranked` (even size, best first) described in tournament.h.
std::optional<Pairs> swiss_pairs(std::map<std::string, Record>& rec,
                                 const std::vector<std::string>& ranked) {
  std::vector<std::vector<std::string>> groups;
  for (const auto& name : ranked) {
    if (groups.empty() || rec[groups.back().front()].points != rec[name].points)
      groups.emplace_back();
    groups.back().push_back(name);
  }
  Pairs out;
  std::vector<std::string> carry;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    std::vector<std::string> g = carry;
    g.insert(g.end(), groups[gi].begin(), groups[gi].end());
    carry.clear();
    const bool last = gi + 1 == groups.size();
    while (!g.empty()) {
      if (g.size() % 2 == 1) {
        carry.insert(carry.begin(), g.back());
        g.pop_back();
        continue;
      }
      if (auto p = pair_halves(rec, g)) {
        out.insert(out.end(), p->begin(), p->end());
        break;
      }
      if (last) {
        std::vector<std::string> left = ranked;
        Pairs all;
        long budget = kMaxBacktrackNodes;
        if (backtrack(rec, left, all, budget)) return all;
        return std::nullopt;
      }
      carry.insert(carry.begin(), g.back());
      g.pop_back();
    }
  }
  if (!carry.empty()) return std::nullopt;  // cannot happen with an even count
  return out;
}

}  // namespace

std::string to_string(TournamentKind k) { return name_of(kKindNames, k); }
std::optional<TournamentKind> parse_tournament_kind(std::string_view s) {
  return value_of(kKindNames, s);
}
std::string to_string(TournamentStatus s) { return name_of(kStatusNames, s); }
std::string to_string(Pairing::State s) { return name_of(kStateNames, s); }
std::string to_string(TournamentResult r) { return name_of(kResultNames, r); }
std::optional<TournamentStatus> parse_tournament_status(std::string_view s) {
  return value_of(kStatusNames, s);
}

Expected<void, std::string> check(const TournamentSettings& s) {
  if (s.name.empty() || s.name.size() > kMaxNameLength)
    return Unexpected(std::string("name: 1 to 80 characters"));
  if (s.variant.empty()) return Unexpected(std::string("variant: missing"));
  if (s.start_at < Millis{0}) return Unexpected(std::string("start_at: before 1970"));
  if (s.kind == TournamentKind::Arena &&
      (s.duration <= Millis{0} || s.duration > kMaxArenaDuration))
    return Unexpected(std::string("duration: an arena runs for more than 0 s and at most 7 days"));
  if (s.kind == TournamentKind::Swiss && (s.rounds < 1 || s.rounds > kMaxSwissRounds))
    return Unexpected(std::string("rounds: a Swiss tournament has 1 to 30 rounds"));
  if (s.max_players < 0 || s.max_players == 1 || s.max_players > kMaxPlayers)
    return Unexpected(std::string("max_players: 0 (no limit) or 2 to 1000"));
  return {};
}

Tournament::Tournament(TournamentId id, TournamentSettings settings)
    : id_(id), settings_(std::move(settings)) {}

std::optional<Millis> Tournament::ends_at() const {
  if (settings_.kind != TournamentKind::Arena) return std::nullopt;
  return settings_.start_at + settings_.duration;
}

TournamentPlayer* Tournament::find(const std::string& name) {
  for (auto& p : players_)
    if (p.name == name) return &p;
  return nullptr;
}

bool Tournament::busy(const std::string& name) const {
  for (const auto& p : pairings_)
    if ((p.state == Pairing::State::Pending || p.state == Pairing::State::Playing) &&
        (p.white == name || p.black == name))
      return true;
  return false;
}

Expected<void, std::string> Tournament::join(const std::string& name, double rating, bool bot) {
  if (status_ == TournamentStatus::Finished)
    return Unexpected(std::string("the tournament is over"));
  if (status_ == TournamentStatus::Running && settings_.kind != TournamentKind::Arena)
    return Unexpected(std::string("the tournament has started"));
  if (bot && !settings_.bots_allowed)
    return Unexpected(std::string("bots may not play in this tournament"));
  if (auto* p = find(name)) {
    if (!p->withdrawn) return Unexpected(std::string("already in the tournament"));
    p->withdrawn = false;
    p->rating = rating;
    return {};
  }
  const auto active = std::count_if(players_.begin(), players_.end(),
                                    [](const TournamentPlayer& p) { return !p.withdrawn; });
  if (settings_.max_players > 0 && active >= settings_.max_players)
    return Unexpected(std::string("the tournament is full"));
  players_.push_back({name, rating, bot, false});
  return {};
}

Expected<void, std::string> Tournament::withdraw(const std::string& name) {
  auto* p = find(name);
  if (!p || p->withdrawn) return Unexpected(std::string("not in the tournament"));
  if (status_ == TournamentStatus::Finished)
    return Unexpected(std::string("the tournament is over"));
  if (status_ == TournamentStatus::Created) {
    players_.erase(players_.begin() + (p - players_.data()));
    return {};
  }
  p->withdrawn = true;
  // A game not yet begun is forfeited (the lobby starts pending games at once, so this is
  // rare: a withdrawal between the pairing and the game).
  for (auto& q : pairings_) {
    if (q.state != Pairing::State::Pending || (q.white != name && q.black != name)) continue;
    if (q.black.empty()) continue;
    q.state = Pairing::State::Forfeit;
    q.result = q.white == name ? TournamentResult::BlackWins : TournamentResult::WhiteWins;
  }
  return {};
}

std::optional<int> Tournament::pairing_of_game(std::int64_t game) const {
  for (std::size_t i = 0; i < pairings_.size(); ++i)
    if (pairings_[i].game == game && is_game(pairings_[i].state)) return static_cast<int>(i);
  return std::nullopt;
}

void Tournament::game_started(int pairing, std::int64_t game) {
  Pairing& p = pairings_.at(static_cast<std::size_t>(pairing));
  if (p.state != Pairing::State::Pending) return;
  p.state = Pairing::State::Playing;
  p.game = game;
}

int Tournament::add_pairing(int round, std::string white, std::string black) {
  Pairing p;
  p.round = round;
  p.white = std::move(white);
  p.black = std::move(black);
  if (p.black.empty()) p.state = Pairing::State::Bye;
  pairings_.push_back(std::move(p));
  return static_cast<int>(pairings_.size() - 1);
}

bool Tournament::round_done() const {
  for (const auto& p : pairings_)
    if (p.round == round_ &&
        (p.state == Pairing::State::Pending || p.state == Pairing::State::Playing))
      return false;
  return true;
}

void Tournament::start() {
  if (players_.size() < 2) {
    status_ = TournamentStatus::Finished;
    return;
  }
  status_ = TournamentStatus::Running;
  if (settings_.kind == TournamentKind::RoundRobin) {
    std::vector<TournamentPlayer> seats = players_;
    std::stable_sort(seats.begin(), seats.end(), [](const auto& a, const auto& b) {
      return a.rating != b.rating ? a.rating > b.rating : a.name < b.name;
    });
    for (const auto& s : seats) berger_.push_back(s.name);
    if (berger_.size() % 2 == 1) berger_.emplace_back();
  }
}

void Tournament::finish() {
  status_ = TournamentStatus::Finished;
  for (auto& p : pairings_)
    if (p.state == Pairing::State::Pending || p.state == Pairing::State::Playing)
      p.state = Pairing::State::Void;
}

std::vector<int> Tournament::tick(Millis now) {
  if (status_ == TournamentStatus::Created && now >= settings_.start_at) start();
  if (status_ != TournamentStatus::Running) return {};
  if (settings_.kind == TournamentKind::Arena) {
    if (now >= *ends_at()) {
      finish();
      return {};
    }
    return pair_arena();
  }
  if (round_ == 0 || round_done()) return next_round();
  return {};
}

std::vector<int> Tournament::record_result(int pairing, TournamentResult result, Millis now) {
  if (pairing < 0 || static_cast<std::size_t>(pairing) >= pairings_.size()) return {};
  Pairing& p = pairings_[static_cast<std::size_t>(pairing)];
  if (p.state != Pairing::State::Pending && p.state != Pairing::State::Playing) return {};
  if (settings_.kind == TournamentKind::Arena && now >= *ends_at()) {
    finish();
    return {};
  }
  p.state = Pairing::State::Finished;
  p.result = result;
  return tick(now);
}

std::vector<int> Tournament::pair_arena() {
  auto rec = records(settings_.kind, pairings_);
  std::vector<const TournamentPlayer*> free;
  for (const auto& p : players_)
    if (!p.withdrawn && !busy(p.name)) free.push_back(&p);
  std::stable_sort(free.begin(), free.end(), [&](const auto* a, const auto* b) {
    const double pa = rec[a->name].points, pb = rec[b->name].points;
    if (pa != pb) return pa > pb;
    if (a->rating != b->rating) return a->rating > b->rating;
    return a->name < b->name;
  });
  std::vector<bool> used(free.size(), false);
  Pairs pairs;
  for (std::size_t i = 0; i < free.size(); ++i) {
    if (used[i]) continue;
    for (std::size_t j = i + 1; j < free.size(); ++j) {
      if (used[j]) continue;
      const auto& a = free[i]->name;
      const auto& b = free[j]->name;
      if (rec[a].last_opponent == b || rec[b].last_opponent == a) continue;
      used[i] = used[j] = true;
      pairs.emplace_back(a, b);
      break;
    }
  }
  const bool anyone_playing =
      !pairs.empty() ||
      std::any_of(players_.begin(), players_.end(), [&](const auto& p) { return busy(p.name); });
  if (!anyone_playing) {
    // Nobody will come free: the rematch is better than waiting for ever.
    std::size_t i = 0;
    while (true) {
      while (i < free.size() && used[i]) ++i;
      std::size_t j = i + 1;
      while (j < free.size() && used[j]) ++j;
      if (j >= free.size()) break;
      used[i] = used[j] = true;
      pairs.emplace_back(free[i]->name, free[j]->name);
    }
  }
  std::vector<int> out;
  for (const auto& [a, b] : pairs) {
    const bool white = a_gets_white(rec[a], rec[b]);
    out.push_back(add_pairing(0, white ? a : b, white ? b : a));
  }
  return out;
}

std::vector<int> Tournament::next_round() {
  std::vector<int> out;
  // A round-robin round made only of rests and forfeits is over as soon as it is made.
  while (status_ == TournamentStatus::Running && out.empty() && round_done()) {
    out = settings_.kind == TournamentKind::RoundRobin ? round_robin_round() : swiss_round();
  }
  return out;
}

std::vector<int> Tournament::round_robin_round() {
  const int n = static_cast<int>(berger_.size());
  const int m = n - 1;
  if (round_ >= m) {
    finish();
    return {};
  }
  const int r = ++round_;
  const int target = (r + 1) % m;
  auto seat = [&](int number) { return berger_[static_cast<std::size_t>(number - 1)]; };
  std::vector<std::pair<int, int>> tables;  // (white number, black number)
  for (int a = 1; a <= m; ++a)
    if ((2 * a) % m == target) tables.push_back(r % 2 == 1 ? std::pair{a, n} : std::pair{n, a});
  for (int a = 1; a <= m; ++a)
    for (int b = a + 1; b <= m; ++b)
      if ((a + b) % m == target)
        tables.push_back((a + b) % 2 == 1 ? std::pair{a, b} : std::pair{b, a});
  std::vector<int> out;
  for (const auto& [w, b] : tables) {
    std::string white = seat(w), black = seat(b);
    if (white.empty() || black.empty()) {  // the empty seat: the other rests
      add_pairing(r, white.empty() ? black : white, "");
      continue;
    }
    const bool w_out = find(white)->withdrawn, b_out = find(black)->withdrawn;
    const int i = add_pairing(r, white, black);
    if (w_out || b_out) {
      Pairing& p = pairings_[static_cast<std::size_t>(i)];
      if (w_out && b_out) {
        p.state = Pairing::State::Void;
      } else {
        p.state = Pairing::State::Forfeit;
        p.result = w_out ? TournamentResult::BlackWins : TournamentResult::WhiteWins;
      }
      continue;
    }
    out.push_back(i);
  }
  return out;
}

std::vector<int> Tournament::swiss_round() {
  if (round_ >= settings_.rounds) {
    finish();
    return {};
  }
  auto rec = records(settings_.kind, pairings_);
  std::vector<const TournamentPlayer*> active;
  for (const auto& p : players_)
    if (!p.withdrawn) active.push_back(&p);
  if (active.size() < 2) {
    finish();
    return {};
  }
  std::stable_sort(active.begin(), active.end(), [&](const auto* a, const auto* b) {
    const double pa = rec[a->name].points, pb = rec[b->name].points;
    if (pa != pb) return pa > pb;
    if (a->rating != b->rating) return a->rating > b->rating;
    return a->name < b->name;
  });
  std::vector<std::string> ranked;
  for (const auto* p : active) ranked.push_back(p->name);
  std::string bye;
  if (ranked.size() % 2 == 1) {
    auto it = std::find_if(ranked.rbegin(), ranked.rend(),
                           [&](const std::string& n) { return !rec[n].had_bye; });
    bye = it == ranked.rend() ? ranked.back() : *it;
    ranked.erase(std::find(ranked.begin(), ranked.end(), bye));
  }
  const auto pairs = swiss_pairs(rec, ranked);
  if (!pairs) {
    finish();
    return {};
  }
  const int r = ++round_;
  std::vector<int> out;
  for (const auto& [a, b] : *pairs) {
    const bool white = a_gets_white(rec[a], rec[b]);
    out.push_back(add_pairing(r, white ? a : b, white ? b : a));
  }
  if (!bye.empty()) add_pairing(r, bye, "");
  return out;
}

std::vector<Standing> Tournament::standings() const {
  auto rec = records(settings_.kind, pairings_);
  std::vector<Standing> out;
  for (const auto& p : players_) {
    const Record& r = rec[p.name];
    Standing s;
    s.name = p.name;
    s.points = r.points;
    s.games = r.games;
    s.wins = r.wins;
    s.losses = r.losses;
    s.draws = r.draws;
    s.on_fire = settings_.kind == TournamentKind::Arena && r.streak >= kStreakForFire;
    s.withdrawn = p.withdrawn;
    s.rating = p.rating;
    switch (settings_.kind) {
      case TournamentKind::Arena:
        s.tiebreak = r.wins;
        break;
      case TournamentKind::RoundRobin:
        for (const auto& [opp, share] : r.results) s.tiebreak += share * rec[opp].points;
        break;
      case TournamentKind::Swiss:
        for (const auto& [opp, share] : r.results) s.tiebreak += rec[opp].points;
        break;
    }
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.tiebreak != b.tiebreak) return a.tiebreak > b.tiebreak;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.name < b.name;
  });
  // The direct encounter decides between exactly two players level on points and tie-break.
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    auto level = [&](std::size_t x, std::size_t y) {
      return out[x].points == out[y].points && out[x].tiebreak == out[y].tiebreak;
    };
    if (!level(i, i + 1)) continue;
    if ((i > 0 && level(i - 1, i)) || (i + 2 < out.size() && level(i + 1, i + 2))) continue;
    double net = 0;  // the lower-placed player's score minus the upper's, over their games
    for (const auto& [opp, share] : rec[out[i + 1].name].results)
      if (opp == out[i].name) net += share - (1 - share);
    if (net > 0) std::swap(out[i], out[i + 1]);
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i + 1);
  return out;
}

nlohmann::json Tournament::to_json() const {
  using nlohmann::json;
  json settings = {{"name", settings_.name},
                   {"kind", to_string(settings_.kind)},
                   {"variant", settings_.variant},
                   {"time_control", amazons::to_json(settings_.time_control)},
                   {"rated", settings_.rated},
                   {"start_at", settings_.start_at.count()},
                   {"duration", settings_.duration.count()},
                   {"rounds", settings_.rounds},
                   {"max_players", settings_.max_players},
                   {"bots_allowed", settings_.bots_allowed}};
  json players = json::array();
  for (const auto& p : players_)
    players.push_back(
        {{"name", p.name}, {"rating", p.rating}, {"bot", p.bot}, {"withdrawn", p.withdrawn}});
  json pairings = json::array();
  for (const auto& p : pairings_) {
    json j = {{"round", p.round},
              {"white", p.white},
              {"black", p.black},
              {"state", name_of(kStateNames, p.state)},
              {"game", p.game}};
    j["result"] = p.result ? json(name_of(kResultNames, *p.result)) : json(nullptr);
    pairings.push_back(std::move(j));
  }
  return {{"id", id_},           {"settings", settings}, {"status", to_string(status_)},
          {"round", round_},     {"players", players},   {"berger", berger_},
          {"pairings", pairings}};
}

Expected<Tournament, std::string> Tournament::from_json(const nlohmann::json& j) {
  try {
    const auto& s = j.at("settings");
    TournamentSettings settings;
    settings.name = s.at("name").get<std::string>();
    const auto kind = parse_tournament_kind(s.at("kind").get<std::string>());
    if (!kind) return Unexpected(std::string("settings.kind: unknown"));
    settings.kind = *kind;
    settings.variant = s.at("variant").get<std::string>();
    auto tc = time_control_from_json(s.at("time_control"));
    if (!tc) return Unexpected("settings.time_control: " + tc.error());
    settings.time_control = *tc;
    settings.rated = s.at("rated").get<bool>();
    settings.start_at = Millis{s.at("start_at").get<std::int64_t>()};
    settings.duration = Millis{s.at("duration").get<std::int64_t>()};
    settings.rounds = s.at("rounds").get<int>();
    settings.max_players = s.at("max_players").get<int>();
    settings.bots_allowed = s.at("bots_allowed").get<bool>();
    if (auto ok = check(settings); !ok) return Unexpected("settings." + ok.error());
    Tournament t(j.at("id").get<TournamentId>(), settings);
    const auto status = parse_tournament_status(j.at("status").get<std::string>());
    if (!status) return Unexpected(std::string("status: unknown"));
    t.status_ = *status;
    t.round_ = j.at("round").get<int>();
    std::set<std::string> names;
    for (const auto& p : j.at("players")) {
      TournamentPlayer tp{p.at("name").get<std::string>(), p.at("rating").get<double>(),
                          p.at("bot").get<bool>(), p.at("withdrawn").get<bool>()};
      if (tp.name.empty() || !names.insert(tp.name).second)
        return Unexpected(std::string("players: an empty or repeated name"));
      t.players_.push_back(std::move(tp));
    }
    t.berger_ = j.at("berger").get<std::vector<std::string>>();
    for (const auto& n : t.berger_)
      if (!n.empty() && !names.count(n)) return Unexpected("berger: unknown player " + n);
    if (t.status_ != TournamentStatus::Created && settings.kind == TournamentKind::RoundRobin &&
        (t.berger_.size() < 2 || t.berger_.size() % 2 != 0))
      return Unexpected(std::string("berger: not an even seating"));
    for (const auto& p : j.at("pairings")) {
      Pairing q;
      q.round = p.at("round").get<int>();
      q.white = p.at("white").get<std::string>();
      q.black = p.at("black").get<std::string>();
      const auto state = value_of(kStateNames, p.at("state").get<std::string>());
      if (!state) return Unexpected(std::string("pairings: unknown state"));
      q.state = *state;
      q.game = p.at("game").get<std::int64_t>();
      if (!p.at("result").is_null()) {
        const auto r = value_of(kResultNames, p.at("result").get<std::string>());
        if (!r) return Unexpected(std::string("pairings: unknown result"));
        q.result = *r;
      }
      if (!names.count(q.white) || (!q.black.empty() && !names.count(q.black)) ||
          q.white == q.black)
        return Unexpected(std::string("pairings: unknown players"));
      t.pairings_.push_back(std::move(q));
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    return Unexpected(std::string("tournament state: ") + e.what());
  }
}

}  // namespace amazons::server
