// Tuning by matches: plays the engine with one set of settings against itself with another and
// prints the score and the Elo difference. Settings are named key=value pairs over the defaults:
//   tune --rules botzone8 --movetime 200 --games 40 --a "" --b
//   "eval.small.opening.c1=0.3,sel.near_width=20"
// --records FILE keeps the games, for bench/texel to fit the evaluation to.
// `tune --list` prints every key with its default.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include "ai/tools/match.h"

#include "common/game_record.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

using Setter = std::function<void(SearchSettings&, double)>;
using Getter = std::function<double(const SearchSettings&)>;

struct Key {
  Getter get;
  Setter set;
};

// A setting reached through `field`, read and written as a double.
template <class T>
Key field(std::function<T&(SearchSettings&)> f) {
  return {[f](const SearchSettings& s) {
            SearchSettings copy = s;
            return static_cast<double>(f(copy));
          },
          [f](SearchSettings& s, double v) { f(s) = static_cast<T>(v); }};
}

std::map<std::string, Key> keys() {
  using D = std::function<double&(SearchSettings&)>;
  using I = std::function<int&(SearchSettings&)>;
  std::map<std::string, Key> k;
  k["eval.tempo"] = field(D([](SearchSettings& s) -> double& { return s.eval.tempo; }));
  k["eval.mobility_scale"] =
      field(D([](SearchSettings& s) -> double& { return s.eval.mobility_scale; }));
  k["eval.mobility_half"] =
      field(D([](SearchSettings& s) -> double& { return s.eval.mobility_half; }));
  k["eval.middlegame_at"] =
      field(D([](SearchSettings& s) -> double& { return s.eval.middlegame_at; }));
  k["eval.endgame_at"] = field(D([](SearchSettings& s) -> double& { return s.eval.endgame_at; }));
  const std::pair<const char*, PhaseWeights EvalParams::*> boards[] = {
      {"small", &EvalParams::small_board}, {"large", &EvalParams::large_board}};
  const std::pair<const char*, TermWeights PhaseWeights::*> phases[] = {
      {"opening", &PhaseWeights::opening},
      {"middlegame", &PhaseWeights::middlegame},
      {"endgame", &PhaseWeights::endgame}};
  const std::pair<const char*, double TermWeights::*> terms[] = {
      {"t1", &TermWeights::queen_territory},
      {"t2", &TermWeights::king_territory},
      {"c1", &TermWeights::queen_position},
      {"c2", &TermWeights::king_position},
      {"mob", &TermWeights::mobility}};
  // eval.small.opening.t1 (boards up to 8x8), eval.large.opening.t1 (larger boards).
  for (const auto& [board, bm] : boards)
    for (const auto& [phase, pm] : phases)
      for (const auto& [term, tm] : terms)
        k[std::string("eval.") + board + "." + phase + "." + term] =
            field(D([bm, pm, tm](SearchSettings& s) -> double& { return s.eval.*bm.*pm.*tm; }));
  const std::pair<const char*, int Selectivity::*> widths[] = {
      {"root_width", &Selectivity::root_width},
      {"near_width", &Selectivity::near_width},
      {"far_width", &Selectivity::far_width},
      {"near_steps", &Selectivity::near_steps},
      {"far_steps", &Selectivity::far_steps},
      {"frontier_steps", &Selectivity::frontier_steps},
      {"reduction_from", &Selectivity::reduction_from}};
  for (const auto& [name, m] : widths)
    k[std::string("sel.") + name] =
        field(I([m](SearchSettings& s) -> int& { return s.selectivity.*m; }));
  k["sel.scale"] = field(D([](SearchSettings& s) -> double& { return s.selectivity.scale; }));
  const std::pair<const char*, double MctsParams::*> mcts_d[] = {
      {"exploration", &MctsParams::exploration},
      {"temperature", &MctsParams::temperature},
      {"prior_weight", &MctsParams::prior_weight},
      {"widen_per_sqrt", &MctsParams::widen_per_sqrt}};
  for (const auto& [name, m] : mcts_d)
    k[std::string("mcts.") + name] =
        field(D([m](SearchSettings& s) -> double& { return s.mcts.*m; }));
  const std::pair<const char*, int MctsParams::*> mcts_i[] = {
      {"children", &MctsParams::children},
      {"widen_base", &MctsParams::widen_base},
      {"steps", &MctsParams::steps}};
  for (const auto& [name, m] : mcts_i)
    k[std::string("mcts.") + name] = field(I([m](SearchSettings& s) -> int& { return s.mcts.*m; }));
  k["threads"] = field(I([](SearchSettings& s) -> int& { return s.threads; }));
  k["kind"] = {[](const SearchSettings& s) { return s.kind == SearchKind::Mcts ? 1.0 : 0.0; },
               [](SearchSettings& s, double v) {
                 s.kind = v != 0 ? SearchKind::Mcts : SearchKind::AlphaBeta;
               }};
  return k;
}

// "k=v,k=v" over the defaults; kind=mcts and kind=alphabeta are accepted as words.
bool apply(const std::string& text, SearchSettings& s, std::string& error) {
  const auto known = keys();
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      error = "expected key=value, got '" + item + "'";
      return false;
    }
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const auto it = known.find(key);
    if (it == known.end()) {
      error = "unknown key '" + key + "' (see --list)";
      return false;
    }
    double v = 0;
    if (key == "kind") {
      v = value == "mcts" ? 1 : 0;
    } else {
      try {
        v = std::stod(value);
      } catch (const std::exception&) {
        error = "bad number '" + value + "' for " + key;
        return false;
      }
    }
    it->second.set(s, v);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tune: the engine against itself with other settings"};
  std::string a_text, b_text, rules = "botzone8", records;
  int games = 40, movetime = 200, parallel = 1, openings = 2;
  std::uint64_t seed = 1;
  bool list = false;
  app.add_option("--a", a_text, "Settings of player A over the defaults (k=v,...)");
  app.add_option("--b", b_text, "Settings of player B over the defaults (k=v,...)");
  app.add_option("--rules", rules, "standard or botzone8")->capture_default_str();
  app.add_option("-n,--games", games, "Games")->capture_default_str();
  app.add_option("--movetime", movetime, "Milliseconds a move")->capture_default_str();
  app.add_option("-j,--parallel", parallel, "Games at the same time")->capture_default_str();
  app.add_option("--openings", openings, "Random opening plies")->capture_default_str();
  app.add_option("--seed", seed, "Opening seed")->capture_default_str();
  app.add_option("--records", records,
                 "Append every game record to this file, one JSON a line (bench/texel reads them)");
  app.add_flag("--list", list, "List the keys and their defaults");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    const SearchSettings d;
    for (const auto& [name, key] : keys()) std::printf("%-28s %g\n", name.c_str(), key.get(d));
    return 0;
  }
  PlayerSpec specs[2];
  for (int i = 0; i < 2; ++i) {
    SearchSettings s;
    s.hash_mb = 32;
    std::string error;
    if (!apply(i == 0 ? a_text : b_text, s, error)) {
      std::cerr << "tune: --" << (i == 0 ? "a" : "b") << ": " << error << "\n";
      return 2;
    }
    specs[i].kind = PlayerSpec::Kind::Engine;
    specs[i].label = i == 0 ? "A" : "B";
    specs[i].level.name = specs[i].label;
    specs[i].level.movetime = Millis{movetime};
    specs[i].settings = s;
  }
  std::ofstream record_file;
  if (!records.empty()) {
    record_file.open(records, std::ios::app);
    if (!record_file) {
      std::cerr << "tune: --records: cannot write " << records << "\n";
      return 2;
    }
  }
  MatchOptions o;
  o.rules = rules == "standard" ? standard_variant() : botzone8_variant();
  o.games = games;
  o.parallel = parallel;
  o.opening_plies = openings;
  o.seed = seed;
  Match match(specs[0], specs[1], o);
  const MatchSummary s = match.run([&](const GameOutcome& g, const MatchSummary& sum) {
    if (record_file) record_file << to_json(g.record).dump() << std::endl;
    std::fprintf(stderr, "\rgame %d: A %d - B %d   ", g.index + 1, sum.a_wins, sum.b_wins);
  });
  std::fprintf(stderr, "\n");
  std::printf("A {%s} %d - B {%s} %d: B scores %.1f%%, Elo %+.0f (95%%: %+.0f .. %+.0f)\n",
              a_text.c_str(), s.a_wins, b_text.c_str(), s.b_wins, 100.0 * (1 - s.elo.score),
              -s.elo.elo, -s.elo.high, -s.elo.low);
  return 0;
}
