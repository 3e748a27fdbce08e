#include "ai/protocol.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <thread>

#include "ai/board_text.h"
#include "ai/evaluate.h"
#include "common/notation.h"
#include "common/number_text.h"
#include "common/perft.h"
#include "common/position_text.h"

namespace amazons::ai {

namespace {

constexpr int kMaxPerftDepth = 6;
constexpr long long kMaxMillis = 24LL * 3600 * 1000;

std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

std::optional<long long> parse_int(const std::string& s, long long low, long long high) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < low || v > high) return std::nullopt;
  return v;
}

std::optional<double> parse_double(const std::string& s, double low, double high) {
  const auto v = double_from_text(s);
  if (!v || !std::isfinite(*v) || *v < low || *v > high) return std::nullopt;
  return v;
}

std::string score_text(Score s) {
  if (s >= kWinBound) return "win " + std::to_string(kWin - s);
  if (s <= -kWinBound) return "loss " + std::to_string(kWin + s);
  return std::to_string(s);
}

std::string format_double(double v) {
  std::ostringstream o;
  o.precision(3);
  o << std::fixed << v;
  return o.str();
}

}  // namespace

EngineProtocol::EngineProtocol(AiConfig config, std::filesystem::path rules_dir, Output out)
    : config_(std::move(config)),
      rules_dir_(std::move(rules_dir)),
      out_(std::move(out)),
      variant_(standard_variant()),
      position_(variant_),
      level_(*config_.find(config_.default_level)),
      threads_(settings_for(level_, config_).threads),
      hash_mb_(config_.hash_mb) {}

EngineProtocol::~EngineProtocol() {
  if (search_) {
    search_->stop();
    search_->wait();
  }
}

void EngineProtocol::say(std::string_view line) {
  std::lock_guard lock(out_mutex_);
  out_(line);
}

bool EngineProtocol::refuse_while_searching(std::string_view command) {
  if (!searching()) return false;
  error(std::string(command) + ": a search is running (send stop first)");
  return true;
}

bool EngineProtocol::handle(std::string_view line) {
  const auto words = split(line);
  if (words.empty() || words[0][0] == '#') return true;
  const std::string& cmd = words[0];
  if (cmd == "quit") {
    if (search_) {
      search_->stop();
      search_->wait();
    }
    pondering_ = false;
    return false;
  }
  if (cmd == "isready") {
    if (!searching_.load()) prepare_search();
    say("readyok");
  } else if (cmd == "stop") {
    cmd_stop();
  } else if (cmd == "ponderhit") {
    cmd_ponderhit();
  } else if (cmd == "id") {
    say("id name amazons-engine " AMAZONS_VERSION);
  } else if (cmd == "help") {
    cmd_help();
  } else if (cmd == "show") {
    cmd_show();
  } else if (refuse_while_searching(cmd)) {
    // answered
  } else if (cmd == "rules") {
    cmd_rules(words);
  } else if (cmd == "position") {
    cmd_position(words);
  } else if (cmd == "moves") {
    Position p = position_;
    if (apply_moves(p, words, 1)) {
      position_ = p;
      say("ok");
    }
  } else if (cmd == "newgame") {
    if (search_) search_->clear();
    say("ok");
  } else if (cmd == "level") {
    cmd_level(words);
  } else if (cmd == "limits") {
    cmd_limits(words);
  } else if (cmd == "threads" || cmd == "hash" || cmd == "multipv") {
    cmd_setting(words);
  } else if (cmd == "go") {
    cmd_go(words);
  } else if (cmd == "perft") {
    cmd_perft(words);
  } else if (cmd == "eval") {
    cmd_eval();
  } else {
    error("unknown command '" + cmd + "' (try help)");
  }
  return true;
}

void EngineProtocol::finish() {
  if (!search_) return;
  // Input has ended, so nobody can send stop: end an unbounded search now (a ponder search as
  // stop would, with its bestmove); a bounded one finishes by itself.
  if (pondering_) return cmd_stop();
  if (unbounded_) search_->stop();
  search_->wait();
}

void EngineProtocol::cmd_help() {
  static constexpr std::string_view kLines[] = {
      "commands:",
      "  id                                   engine name and version",
      "  isready                              answers readyok",
      "  rules NAME|FILE                      rule variant; the position becomes its start",
      "  position start|text BOARD SIDE [moves M...]",
      "  moves M...                           plays moves on the current position",
      "  newgame                              forgets what earlier searches learnt",
      "  level NAME                           beginner, easy, medium, hard, max, ...",
      "  limits [movetime MS] [depth N] [nodes N] [width W] [noise N] [search alphabeta|mcts]",
      "  threads N | hash MB                  search threads, table size",
      "  multipv N                            lines per depth, best first (alpha-beta)",
      "  go [ponder] [movetime MS] [wtime MS btime MS winc MS binc MS] [depth N] [nodes N]",
      "     [infinite]                        ponder: think until ponderhit or stop",
      "  ponderhit                            the expected move came: search under go's limits",
      "  stop                                 answers bestmove at once",
      "  show | eval | perft N | quit",
  };
  for (std::string_view l : kLines) say(l);
}

void EngineProtocol::cmd_show() {
  std::istringstream diagram(board_diagram(position_));
  for (std::string l; std::getline(diagram, l);) say(l);
  say("position " + to_text(position_));
}

void EngineProtocol::cmd_rules(const std::vector<std::string>& args) {
  if (args.size() != 2) return error("rules: expected one variant name or JSON file");
  auto v = resolve_variant(args[1], rules_dir_);
  if (!v) return error("rules: " + v.error());
  variant_ = *v;
  position_ = Position(variant_);
  say("ok");
}

bool EngineProtocol::apply_moves(Position& pos, const std::vector<std::string>& texts,
                                 std::size_t first) {
  for (std::size_t i = first; i < texts.size(); ++i) {
    const std::string label = "move " + std::to_string(i - first + 1) + " '" + texts[i] + "'";
    auto m = parse_move(texts[i]);
    if (!m) {
      error(label + ": " + m.error().message());
      return false;
    }
    if (auto err = pos.try_play(*m)) {
      error(label + ": " + std::string(describe(*err)));
      return false;
    }
  }
  return true;
}

void EngineProtocol::cmd_position(const std::vector<std::string>& args) {
  if (args.size() < 2) return error("position: expected start or text");
  Position p = position_;
  std::size_t next = 2;
  if (args[1] == "start") {
    p = Position(variant_);
  } else if (args[1] == "text") {
    if (args.size() < 4) return error("position text: expected the board and the side to move");
    auto parsed = parse_position(args[2] + " " + args[3]);
    if (!parsed) return error("position text: " + parsed.error().message());
    p = *parsed;
    next = 4;
  } else {
    return error("position: expected start or text, got '" + args[1] + "'");
  }
  if (next < args.size()) {
    if (args[next] != "moves")
      return error("position: expected moves after the position, got '" + args[next] + "'");
    if (!apply_moves(p, args, next + 1)) return;
  }
  position_ = p;
  say("ok");
}

void EngineProtocol::cmd_level(const std::vector<std::string>& args) {
  if (args.size() != 2) return error("level: expected one level name");
  const Level* l = config_.find(args[1]);
  if (!l) {
    std::string names;
    for (const Level& x : config_.levels) names += (names.empty() ? "" : ", ") + x.name;
    return error("level: no level named '" + args[1] + "' (known: " + names + ")");
  }
  level_ = *l;
  prepare_search();
  say("ok");
}

void EngineProtocol::cmd_limits(const std::vector<std::string>& args) {
  if (args.size() % 2 != 1 || args.size() == 1)
    return error("limits: expected pairs such as 'movetime 500 depth 4'");
  Level l = level_;
  l.name = "custom";
  for (std::size_t i = 1; i + 1 < args.size(); i += 2) {
    const std::string& key = args[i];
    const std::string& value = args[i + 1];
    if (key == "movetime") {
      auto v = parse_int(value, 0, kMaxMillis);
      if (!v)
        return error("limits: movetime must be milliseconds from 0 to " +
                     std::to_string(kMaxMillis) + " (0: none), got '" + value + "'");
      l.movetime = *v == 0 ? std::nullopt : std::optional<Millis>(Millis{*v});
    } else if (key == "depth") {
      auto v = parse_int(value, 0, 100);
      if (!v) return error("limits: depth must be 0 (none) to 100, got '" + value + "'");
      l.depth = static_cast<int>(*v);
    } else if (key == "nodes") {
      auto v = parse_int(value, 0, 1LL << 50);
      if (!v) return error("limits: nodes must be a whole number >= 0, got '" + value + "'");
      l.nodes = static_cast<std::uint64_t>(*v);
    } else if (key == "width") {
      auto v = parse_double(value, 0.01, 8.0);
      if (!v) return error("limits: width must be a number from 0.01 to 8, got '" + value + "'");
      l.width = *v;
    } else if (key == "noise") {
      auto v = parse_int(value, 0, 10000);
      if (!v) return error("limits: noise must be 0 to 10000, got '" + value + "'");
      l.noise = static_cast<int>(*v);
    } else if (key == "search") {
      const auto kind = parse_search_kind(value);
      if (!kind)
        return error("limits: search must be alphabeta, mcts or auto, got '" + value + "'");
      l.search = *kind;
    } else {
      return error("limits: unknown limit '" + key +
                   "' (expected movetime, depth, nodes, width, noise or search)");
    }
  }
  level_ = l;
  prepare_search();
  say("ok");
}

void EngineProtocol::cmd_setting(const std::vector<std::string>& args) {
  if (args.size() != 2) return error(args[0] + ": expected one number");
  if (args[0] == "threads") {
    auto v = parse_int(args[1], 1, 256);
    if (!v) return error("threads: expected 1 to 256, got '" + args[1] + "'");
    if (*v > 1 && !search_threads_available())
      return error("threads: this build of the engine has no threads; only 1 is possible");
    threads_ = static_cast<int>(*v);
  } else if (args[0] == "multipv") {
    auto v = parse_int(args[1], 1, kMaxMultiPv);
    if (!v)
      return error("multipv: expected 1 to " + std::to_string(kMaxMultiPv) + ", got '" + args[1] +
                   "'");
    multipv_ = static_cast<int>(*v);
  } else {
    auto v = parse_int(args[1], 1, 1 << 16);
    if (!v) return error("hash: expected megabytes from 1 to 65536, got '" + args[1] + "'");
    hash_mb_ = static_cast<std::size_t>(*v);
  }
  prepare_search();
  say("ok");
}

SearchSettings EngineProtocol::current_settings() const {
  SearchSettings s = settings_for(level_, config_);
  s.threads = threads_;
  s.hash_mb = hash_mb_;
  s.multipv = multipv_;
  // Only alpha-beta gives several lines, each with a score in squares of territory; whatever
  // the level plays with, analysis with more than one line searches by alpha-beta.
  if (multipv_ > 1) s.kind = SearchKind::AlphaBeta;
  return s;
}

void EngineProtocol::prepare_search() {
  const SearchSettings settings = current_settings();
  // A search object is of one kind for its life (set_settings keeps an alpha-beta search
  // alpha-beta whatever the kind it is given), so another kind takes a new one, and a new table.
  if (!search_ || search_->settings().kind != settings.kind) {
    search_ = make_search(settings);
  } else {
    search_->set_settings(settings);
  }
}

std::optional<SearchLimits> EngineProtocol::parse_go(const std::vector<std::string>& args,
                                                     bool& ponder) {
  auto fail = [this](const std::string& message) {
    error(message);
    return std::nullopt;
  };
  SearchLimits limits;
  bool any = false;
  ponder = false;
  std::optional<Millis> clock[2], inc[2];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& key = args[i];
    if (key == "infinite") {
      limits.infinite = any = true;
      continue;
    }
    if (key == "ponder") {
      if (i != 1) return fail("go: ponder must come first (go ponder LIMITS...)");
      ponder = true;
      continue;
    }
    if (i + 1 >= args.size()) return fail("go: " + key + " needs a value");
    const std::string& value = args[++i];
    const auto v = parse_int(value, 0, key == "nodes" ? (1LL << 50) : kMaxMillis);
    if (!v) return fail("go: bad value '" + value + "' for " + key);
    if (key == "movetime") {
      if (*v == 0) return fail("go: movetime must be at least 1 ms");
      limits.movetime = Millis{*v};
    } else if (key == "wtime" || key == "btime") {
      clock[key[0] == 'w' ? 0 : 1] = Millis{*v};
    } else if (key == "winc" || key == "binc") {
      inc[key[0] == 'w' ? 0 : 1] = Millis{*v};
    } else if (key == "depth") {
      if (*v < 1 || *v > 100) return fail("go: depth must be 1 to 100");
      limits.depth = static_cast<int>(*v);
    } else if (key == "nodes") {
      if (*v < 1) return fail("go: nodes must be at least 1");
      limits.nodes = static_cast<std::uint64_t>(*v);
    } else {
      return fail("go: unknown argument '" + key +
                  "' (expected ponder, movetime, wtime, btime, winc, binc, depth, nodes or "
                  "infinite)");
    }
    any = true;
  }
  const auto side = static_cast<std::size_t>(index_of(position_.side_to_move()));
  if (clock[side]) {
    limits.time_left = *clock[side];
    limits.increment = inc[side].value_or(Millis{0});
  }
  if (!any) limits = limits_for(level_, nullptr, position_.side_to_move());
  return limits;
}

SearchCallbacks EngineProtocol::callbacks(bool answer) {
  SearchCallbacks callbacks;
  // The multipv field only when several lines are asked for: with one, the line is as it always
  // was, for the parsers that expect the score right after the depth.
  callbacks.on_progress = [this, several = multipv_ > 1](const SearchProgress& p) {
    const std::string line = several ? " multipv " + std::to_string(p.multipv) : std::string();
    say("info depth " + std::to_string(p.depth) + line + " score " + score_text(p.score) +
        " nodes " + std::to_string(p.nodes) + " nps " + std::to_string(p.nps) + " time " +
        std::to_string(p.elapsed.count()) + " pv " + pv_string(p.pv));
  };
  // A ponder search never answers by itself: ponderhit or stop decide (see cmd_stop).
  if (answer)
    callbacks.on_done = [this](const SearchResult& r) {
      searching_.store(false);
      say(bestmove_line(r));
    };
  return callbacks;
}

std::string EngineProtocol::bestmove_line(const SearchResult& r) {
  return "bestmove " + (r.best.is_none() ? std::string("none") : to_string(r.best));
}

void EngineProtocol::cmd_go(const std::vector<std::string>& args) {
  bool ponder = false;
  const auto limits = parse_go(args, ponder);
  if (!limits) return;
  if (position_.is_game_over()) return say("bestmove none");
  const bool unbounded = limits->infinite && limits->depth == 0 && limits->nodes == 0 &&
                         !limits->movetime && !limits->time_left;
  if (!search_threads_available() && (ponder || unbounded)) {
    // Searching in the caller's thread, this build reads no `stop` until the search ends.
    return error(std::string("go: ") + (ponder ? "ponder" : "infinite") +
                 " needs search threads, which this build of the engine has not; give movetime, "
                 "depth or nodes");
  }
  prepare_search();
  if (ponder) {
    // Think until ponderhit or stop, whatever the limits say; they apply from the ponderhit.
    ponder_limits_ = *limits;
    pondering_ = true;
    unbounded_ = true;
    searching_.store(true);
    SearchLimits forever;
    forever.infinite = true;
    search_->start(position_, forever, callbacks(false));
    return;
  }
  unbounded_ = unbounded;
  searching_.store(true);
  search_->start(position_, *limits, callbacks(true));
}

void EngineProtocol::cmd_stop() {
  if (!search_) return;
  search_->stop();
  if (!pondering_) return;  // a normal search answers from its own thread
  const SearchResult r = search_->wait();
  pondering_ = false;
  unbounded_ = false;
  searching_.store(false);
  say(bestmove_line(r));
}

void EngineProtocol::cmd_ponderhit() {
  if (!pondering_) return error("ponderhit: not pondering (send go ponder first)");
  // The ponder search ends and the real one starts at once on the same position, with the
  // table the ponder search filled: its depths come back from the table, and the go command's
  // limits are measured from now.
  search_->stop();
  search_->wait();
  pondering_ = false;
  const SearchLimits& limits = ponder_limits_;
  unbounded_ = limits.infinite && limits.depth == 0 && limits.nodes == 0 && !limits.movetime &&
               !limits.time_left;
  search_->start(position_, limits, callbacks(true));
}

void EngineProtocol::cmd_perft(const std::vector<std::string>& args) {
  if (args.size() != 2) return error("perft: expected a depth");
  const auto depth = parse_int(args[1], 0, kMaxPerftDepth);
  if (!depth)
    return error("perft: depth must be 0 to " + std::to_string(kMaxPerftDepth) + ", got '" +
                 args[1] + "'");
  const std::uint64_t n =
      perft_parallel(position_, static_cast<int>(*depth), search_threads_available() ? 0 : 1);
  say("perft " + std::to_string(*depth) + " " + std::to_string(n));
}

void EngineProtocol::cmd_eval() {
  Evaluator eval(current_settings().eval);
  const EvalTerms t = eval.terms(position_);
  say("eval " + score_text(eval.evaluate(position_)) + " queen_territory " +
      format_double(t.queen_territory) + " king_territory " + format_double(t.king_territory) +
      " queen_position " + format_double(t.queen_position) + " king_position " +
      format_double(t.king_position) + " mobility " + format_double(t.mobility) + " phase " +
      format_double(t.phase) + " separated " + (t.separated ? "yes" : "no"));
}

}  // namespace amazons::ai
