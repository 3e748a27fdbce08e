// Tuning by matches: plays the engine with one set of settings against itself with another and
// prints the score and the Elo difference. Settings are named key=value pairs over the defaults:
//   tune --rules botzone8 --movetime 200 --games 40 --a "" --b
//   "eval.opening.c1=0.3,sel.near_width=20"
// `tune --list` prints every key with its default.
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "ai/match.h"

using namespace amazons;
using namespace amazons::ai;

namespace {

using Setter = std::function<void(SearchSettings&, double)>;
using Getter = std::function<double(const SearchSettings&)>;

struct Key {
  Getter get;
  Setter set;
};

std::map<std::string, Key> keys() {
  std::map<std::string, Key> k;
  auto add_double = [&](const std::string& name, auto member) {
    k[name] = {[member](const SearchSettings& s) {
                 return static_cast<double>(member(const_cast<SearchSettings&>(s)));
               },
               [member](SearchSettings& s, double v) {
                 member(s) = static_cast<std::remove_reference_t<decltype(member(s))>>(v);
               }};
  };
  add_double("eval.tempo", [](SearchSettings& s) -> double& { return s.eval.tempo; });
  add_double("eval.mobility_scale",
             [](SearchSettings& s) -> double& { return s.eval.mobility_scale; });
  add_double("eval.mobility_half",
             [](SearchSettings& s) -> double& { return s.eval.mobility_half; });
  add_double("eval.middlegame_at",
             [](SearchSettings& s) -> double& { return s.eval.middlegame_at; });
  add_double("eval.endgame_at", [](SearchSettings& s) -> double& { return s.eval.endgame_at; });
  for (const char* phase : {"opening", "middlegame", "endgame"}) {
    auto pick = [phase](SearchSettings& s) -> TermWeights& {
      const std::string p = phase;
      return p == "opening"      ? s.eval.opening
             : p == "middlegame" ? s.eval.middlegame
                                 : s.eval.endgame;
    };
    const std::string base = std::string("eval.") + phase + ".";
    add_double(base + "t1",
               [pick](SearchSettings& s) -> double& { return pick(s).queen_territory; });
    add_double(base + "t2",
               [pick](SearchSettings& s) -> double& { return pick(s).king_territory; });
    add_double(base + "c1",
               [pick](SearchSettings& s) -> double& { return pick(s).queen_position; });
    add_double(base + "c2", [pick](SearchSettings& s) -> double& { return pick(s).king_position; });
    add_double(base + "mob", [pick](SearchSettings& s) -> double& { return pick(s).mobility; });
  }
  add_double("sel.root_width", [](SearchSettings& s) -> int& { return s.selectivity.root_width; });
  add_double("sel.near_width", [](SearchSettings& s) -> int& { return s.selectivity.near_width; });
  add_double("sel.far_width", [](SearchSettings& s) -> int& { return s.selectivity.far_width; });
  add_double("sel.near_steps", [](SearchSettings& s) -> int& { return s.selectivity.near_steps; });
  add_double("sel.far_steps", [](SearchSettings& s) -> int& { return s.selectivity.far_steps; });
  add_double("sel.frontier_steps",
             [](SearchSettings& s) -> int& { return s.selectivity.frontier_steps; });
  add_double("sel.reduction_from",
             [](SearchSettings& s) -> int& { return s.selectivity.reduction_from; });
  add_double("sel.scale", [](SearchSettings& s) -> double& { return s.selectivity.scale; });
  add_double("mcts.exploration", [](SearchSettings& s) -> double& { return s.mcts.exploration; });
  add_double("mcts.temperature", [](SearchSettings& s) -> double& { return s.mcts.temperature; });
  add_double("mcts.prior_weight", [](SearchSettings& s) -> double& { return s.mcts.prior_weight; });
  add_double("mcts.children", [](SearchSettings& s) -> int& { return s.mcts.children; });
  add_double("mcts.widen_base", [](SearchSettings& s) -> int& { return s.mcts.widen_base; });
  add_double("mcts.widen_per_sqrt",
             [](SearchSettings& s) -> double& { return s.mcts.widen_per_sqrt; });
  add_double("mcts.steps", [](SearchSettings& s) -> int& { return s.mcts.steps; });
  add_double("threads", [](SearchSettings& s) -> int& { return s.threads; });
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
  std::string a_text, b_text, rules = "botzone8";
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
  MatchOptions o;
  o.rules = rules == "standard" ? standard_variant() : botzone8_variant();
  o.games = games;
  o.parallel = parallel;
  o.opening_plies = openings;
  o.seed = seed;
  Match match(specs[0], specs[1], o);
  const MatchSummary s = match.run([](const GameOutcome& g, const MatchSummary& sum) {
    std::fprintf(stderr, "\rgame %d: A %d - B %d   ", g.index + 1, sum.a_wins, sum.b_wins);
  });
  std::fprintf(stderr, "\n");
  std::printf("A {%s} %d - B {%s} %d: B scores %.1f%%, Elo %+.0f (95%%: %+.0f .. %+.0f)\n",
              a_text.c_str(), s.a_wins, b_text.c_str(), s.b_wins, 100.0 * (1 - s.elo.score),
              -s.elo.elo, -s.elo.high, -s.elo.low);
  return 0;
}
