#include "formats/sgf.h"

#include <charconv>
#include <cmath>
#include <set>

#include "common/notation.h"
#include "common/position_text.h"
#include "formats/record_check.h"
#include "formats/record_start.h"

namespace amazons::formats {

namespace {

constexpr int kSgfDefaultSize = 10;
// The default start of the SGF Amazons page: the first mover (Black) on d1 g1 a4 j4.
constexpr const char* kDefaultFirst[] = {"dj", "gj", "ag", "jg"};
constexpr const char* kDefaultSecond[] = {"da", "ga", "ad", "jd"};

enum class SgfColor : std::uint8_t { B, W };
char letter(SgfColor c) { return c == SgfColor::B ? 'B' : 'W'; }
SgfColor other(SgfColor c) { return c == SgfColor::B ? SgfColor::W : SgfColor::B; }

std::string show(const SgfProperty& p, std::size_t i = 0) {
  return p.id + "[" + (i < p.values.size() ? p.values[i] : std::string()) + "]";
}

Expected<const std::string*, std::string> single(const SgfNode& node, std::string_view id) {
  const SgfProperty* p = node.find(id);
  if (!p) return static_cast<const std::string*>(nullptr);
  if (p->values.size() != 1)
    return Unexpected("line " + std::to_string(p->line) + ": " + p->id +
                      ": expected one value, got " + std::to_string(p->values.size()));
  return &p->values[0];
}

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A non-negative SGF real ("299.3") in milliseconds.
std::optional<Millis> parse_seconds(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0 || v > 1e9)
    return std::nullopt;
  return Millis(static_cast<std::int64_t>(std::llround(v * 1000)));
}

std::string seconds_text(Millis ms) {
  std::string s = std::to_string(ms.count() / 1000);
  if (const auto frac = ms.count() % 1000; frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 3 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s;
}

// Points of a setup property: single points or FF[4] rectangles "aa:cc".
Expected<std::vector<Square>, std::string> setup_points(const SgfProperty& p, int size) {
  std::vector<Square> out;
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    const std::string& v = p.values[i];
    const auto bad = [&] {
      return Unexpected("line " + std::to_string(p.line) + ": " + show(p, i) +
                        ": expected a point of the " + std::to_string(size) + "x" +
                        std::to_string(size) + " board, such as dj, or a rectangle aa:cc");
    };
    if (v.size() == 2) {
      const Square s = sgf_square(v, size);
      if (s.is_none()) return bad();
      out.push_back(s);
    } else if (v.size() == 5 && v[2] == ':') {
      const Square a = sgf_square(v.substr(0, 2), size), b = sgf_square(v.substr(3, 2), size);
      if (a.is_none() || b.is_none()) return bad();
      for (int f = std::min(a.file(), b.file()); f <= std::max(a.file(), b.file()); ++f)
        for (int r = std::min(a.rank(), b.rank()); r <= std::max(a.rank(), b.rank()); ++r)
          out.push_back(Square::at(f, r));
    } else {
      return bad();
    }
  }
  return out;
}

// Game-info properties (players, result, ...) belong to one node of the main line, usually the
// root; the first node that has the property is the one.
const SgfNode& info_node(const std::vector<SgfNode>& nodes, const std::string& id) {
  for (const auto& node : nodes)
    if (node.find(id)) return node;
  return nodes.front();
}

struct Setup {
  std::vector<Square> first, second;  // queens of the first mover and of the other side
  Bitboard arrows;
};

}  // namespace

std::string sgf_point(Square s, int size) {
  return {static_cast<char>('a' + s.file()), static_cast<char>('a' + (size - 1 - s.rank()))};
}

Square sgf_square(std::string_view point, int size) {
  if (point.size() != 2) return Square::none();
  const int file = point[0] - 'a', row = point[1] - 'a';
  if (file < 0 || file >= size || row < 0 || row >= size) return Square::none();
  return Square::at(file, size - 1 - row);
}

Expected<GameRecord, std::string> sgf_record(const std::vector<SgfNode>& nodes) {
  if (nodes.empty()) return Unexpected(std::string("the game tree has no node"));
  const SgfNode& root = nodes[0];

  // 1. The game and the board.
  auto gm = single(root, "GM");
  if (!gm) return Unexpected(gm.error());
  if (!*gm)
    return Unexpected(std::string("GM: missing (SGF then means Go); an Amazons file has GM[18]"));
  if (**gm != "18")
    return Unexpected("GM[" + **gm + "]: not an Amazons game (the Amazons are GM[18])");
  auto ff = single(root, "FF");
  if (!ff) return Unexpected(ff.error());
  if (*ff) {
    const auto v = parse_int(**ff);
    if (!v || *v < 1 || *v > 4) return Unexpected("FF[" + **ff + "]: expected 1 to 4");
  }
  int size = kSgfDefaultSize;
  auto sz = single(root, "SZ");
  if (!sz) return Unexpected(sz.error());
  if (*sz) {
    std::string_view text = **sz;
    std::optional<int> n;
    if (const auto colon = text.find(':'); colon != std::string_view::npos) {
      n = parse_int(text.substr(0, colon));
      const auto m = parse_int(text.substr(colon + 1));
      if (n && m && *n != *m) return Unexpected("SZ[" + **sz + "]: only square boards are played");
      if (!m) n.reset();
    } else {
      n = parse_int(text);
    }
    if (!n) return Unexpected("SZ[" + **sz + "]: expected a number");
    if (*n < kMinBoardSize || *n > kMaxBoardSize)
      return Unexpected("SZ[" + **sz + "]: boards of " + std::to_string(kMinBoardSize) + " to " +
                        std::to_string(kMaxBoardSize) + " squares a side are supported");
    size = *n;
  }

  // 2. Who moves first: PL, else the colour of the first move, else Black.
  std::optional<SgfColor> first;
  auto pl = single(root, "PL");
  if (!pl) return Unexpected(pl.error());
  if (*pl) {
    if (**pl == "B" || **pl == "b")
      first = SgfColor::B;
    else if (**pl == "W" || **pl == "w")
      first = SgfColor::W;
    else
      return Unexpected("PL[" + **pl + "]: expected B or W");
  }
  if (!first)
    for (const auto& node : nodes) {
      if (node.find("B")) {
        first = SgfColor::B;
        break;
      }
      if (node.find("W")) {
        first = SgfColor::W;
        break;
      }
    }
  if (!first) first = SgfColor::B;

  // 3. The setup: the default start, or the setup properties of the root node.
  for (std::size_t i = 1; i < nodes.size(); ++i)
    for (const char* id : {"AB", "AW", "AA", "AE", "PL", "SZ", "GM"})
      if (const SgfProperty* p = nodes[i].find(id))
        return Unexpected("line " + std::to_string(p->line) + ": " + p->id +
                          ": only the root node may set up the board");
  Setup setup;
  const SgfProperty* ab = root.find("AB");
  const SgfProperty* aw = root.find("AW");
  const SgfProperty* first_setup = *first == SgfColor::B ? ab : aw;
  const SgfProperty* second_setup = *first == SgfColor::B ? aw : ab;
  if (!ab && !aw) {
    if (size != kSgfDefaultSize)
      return Unexpected("SZ[" + std::to_string(size) +
                        "] without AB and AW: SGF gives a default start only for SZ[10]");
    // The default names Black's queens, and Black moves first unless PL says otherwise.
    for (const char* p : kDefaultFirst)
      (*first == SgfColor::B ? setup.first : setup.second).push_back(sgf_square(p, size));
    for (const char* p : kDefaultSecond)
      (*first == SgfColor::B ? setup.second : setup.first).push_back(sgf_square(p, size));
  } else {
    for (auto [prop, out] :
         {std::pair{first_setup, &setup.first}, std::pair{second_setup, &setup.second}}) {
      if (!prop) continue;
      auto pts = setup_points(*prop, size);
      if (!pts) return Unexpected(pts.error());
      *out = std::move(*pts);
    }
  }
  if (const SgfProperty* aa = root.find("AA")) {
    auto pts = setup_points(*aa, size);
    if (!pts) return Unexpected(pts.error());
    for (Square s : *pts) setup.arrows.set(s);
  }
  if (const SgfProperty* ae = root.find("AE")) {
    auto pts = setup_points(*ae, size);
    if (!pts) return Unexpected(pts.error());
    for (Square s : *pts) {
      setup.arrows.reset(s);
      std::erase(setup.first, s);
      std::erase(setup.second, s);
    }
  }
  std::set<int> used;
  for (const auto* list : {&setup.first, &setup.second})
    for (Square s : *list)
      if (!used.insert(s.index()).second || setup.arrows.test(s))
        return Unexpected("setup: two things on " + sgf_point(s, size) + " (" + to_string(s) + ")");

  // 4. Which of our colours is SGF's first mover: White, unless only Black makes the start
  // one of a known variant (botzone8 starts with Black).
  auto as_white = Position::make(size, setup.first, setup.second, setup.arrows, Color::White);
  if (!as_white) return Unexpected("setup: " + as_white.error());
  auto as_black = Position::make(size, setup.second, setup.first, setup.arrows, Color::Black);
  const bool black_first = as_black && is_known_start(*as_black) && !is_known_start(*as_white);
  const Position start = black_first ? *as_black : *as_white;
  const Color first_color = black_first ? Color::Black : Color::White;
  const auto ours = [&](SgfColor c) { return c == *first ? first_color : ~first_color; };

  GameRecord record;
  std::string name = "sgf";
  auto ru = single(info_node(nodes, "RU"), "RU");
  if (!ru) return Unexpected(ru.error());
  if (*ru && !(*ru)->empty() && (*ru)->size() <= 40) {
    bool known = false;
    for (const auto& v : known_variants()) known = known || v.name == **ru;
    if (!known) name = **ru;
  }
  auto where = record_start_for(start, name);
  record.rules = std::move(where.rules);
  record.start_position = std::move(where.start_position);

  // 5. Players, date, clock.
  for (SgfColor c : {SgfColor::B, SgfColor::W}) {
    PlayerInfo& info = ours(c) == Color::White ? record.white : record.black;
    const std::string tag(1, letter(c));
    auto pn = single(info_node(nodes, "P" + tag), "P" + tag);
    if (!pn) return Unexpected(pn.error());
    if (*pn) info.name = **pn;
    auto rank = single(info_node(nodes, tag + "R"), tag + "R");
    if (!rank) return Unexpected(rank.error());
    if (*rank)
      if (const auto r = parse_int(**rank); r && *r >= 0 && *r <= 100000) info.rating = *r;
  }
  auto dt = single(info_node(nodes, "DT"), "DT");
  if (!dt) return Unexpected(dt.error());
  if (*dt && (*dt)->size() >= 10)
    record.started_at = parse_timestamp((*dt)->substr(0, 10) + "T00:00:00Z");
  auto tm = single(info_node(nodes, "TM"), "TM");
  if (!tm) return Unexpected(tm.error());
  auto ot = single(info_node(nodes, "OT"), "OT");
  if (!ot) return Unexpected(ot.error());
  if (*ot)
    if (auto tc = parse_time_control(**ot)) record.time_control = *tc;
  if (*tm && record.time_control.kind == TimeControl::Kind::Unlimited) {
    const auto t = parse_seconds(**tm);
    if (!t) return Unexpected("TM[" + **tm + "]: expected the time limit in seconds");
    if (t->count() > 0) record.time_control = TimeControl::fischer(*t, Millis{0});
  }

  // 6. The moves, each checked by the rules.
  Position pos = start;
  SgfColor to_move = *first;
  for (const auto& node : nodes) {
    const SgfProperty* b = node.find("B");
    const SgfProperty* w = node.find("W");
    if (b && w) return Unexpected("line " + std::to_string(b->line) + ": a node with both B and W");
    const SgfProperty* mp = b ? b : w;
    if (!mp) continue;
    const std::string ply = "move " + std::to_string(record.moves.size() + 1);
    if (mp->values.size() != 1)
      return Unexpected(ply + " (line " + std::to_string(mp->line) + "): " + mp->id +
                        ": expected one value");
    const std::string& v = mp->values[0];
    const SgfColor mover = b ? SgfColor::B : SgfColor::W;
    const std::string head = ply + " (" + show(*mp);
    const std::string label = head + ")";
    if (mover != to_move)
      return Unexpected(label + ": " + std::string(1, letter(to_move)) + " is to move");
    if (v.empty()) return Unexpected(label + ": a pass is not a move in the Amazons");
    if (v.size() != 6)
      return Unexpected(label + ": expected three points (from, to, arrow) such as djddgd");
    Square sq[3];
    for (int i = 0; i < 3; ++i) {
      sq[i] = sgf_square(std::string_view(v).substr(static_cast<std::size_t>(2 * i), 2), size);
      if (sq[i].is_none())
        return Unexpected(label + ": " + v.substr(static_cast<std::size_t>(2 * i), 2) +
                          " is not a point of the " + std::to_string(size) + "x" +
                          std::to_string(size) + " board");
    }
    const Move m(sq[0], sq[1], sq[2]);
    if (auto err = pos.try_play(m))
      return Unexpected(head + ", " + to_string(m) + "): " + std::string(describe(*err)));
    RecordedMove rm{m, std::nullopt, std::nullopt};
    auto left = single(node, mover == SgfColor::B ? "BL" : "WL");
    if (!left) return Unexpected(left.error());
    if (*left) {
      const auto t = parse_seconds(**left);
      if (!t)
        return Unexpected(label + ": " + std::string(1, letter(mover)) + "L[" + **left +
                          "]: expected the time left in seconds");
      rm.clock_left = *t;
    }
    record.moves.push_back(rm);
    to_move = other(to_move);
  }

  // 7. The result.
  auto re = single(info_node(nodes, "RE"), "RE");
  if (!re) return Unexpected(re.error());
  if (*re && !(*re)->empty() && **re != "?") {
    const std::string& r = **re;
    if (r == "Void" || r == "void") {
      record.result = GameResult{std::nullopt, EndReason::Aborted};
    } else if (r == "0" || r == "Draw" || r == "D" || r == "Jigo") {
      return Unexpected("RE[" + r + "]: a game of the Amazons cannot be drawn");
    } else if (r.size() >= 2 && (r[0] == 'B' || r[0] == 'W') && r[1] == '+') {
      GameResult res;
      res.winner = ours(r[0] == 'B' ? SgfColor::B : SgfColor::W);
      const std::string how = r.substr(2);
      const bool digits = !how.empty() && how.find_first_not_of("0123456789.") == std::string::npos;
      if (how.empty() || digits) {
        res.reason = pos.is_game_over() ? EndReason::NoMoves : EndReason::Resign;
      } else if (how == "R" || how == "Resign") {
        res.reason = EndReason::Resign;
      } else if (how == "T" || how == "Time") {
        res.reason = EndReason::Time;
      } else if (how == "F" || how == "Forfeit") {
        res.reason = EndReason::Abandon;
      } else {
        return Unexpected("RE[" + r + "]: expected B+ or W+, then nothing, R, T, F or a score");
      }
      record.result = res;
    } else {
      return Unexpected("RE[" + r + "]: expected B+, W+ (with R, T or F), Void or ?");
    }
  }
  return checked(std::move(record));
}

Expected<GameRecord, std::string> parse_sgf(std::string_view text) {
  auto nodes = parse_sgf_main_line(text);
  if (!nodes) return Unexpected(nodes.error());
  return sgf_record(*nodes);
}

std::string to_sgf(const GameRecord& record) {
  const auto start = initial_position(record);
  const Position pos = start ? *start : Position(record.rules);
  const int size = pos.size();
  const Color first = pos.side_to_move();  // SGF calls it Black
  const auto sgf_color = [&](Color c) { return c == first ? 'B' : 'W'; };

  std::string out = "(;FF[4]GM[18]CA[UTF-8]AP[amazons-record:" AMAZONS_VERSION "]\n";
  out += "SZ[" + std::to_string(size) + "]RU[" + sgf_escape(record.rules.name) + "]";
  for (Color c : {first, ~first}) {
    const PlayerInfo& p = c == Color::White ? record.white : record.black;
    const std::string tag(1, sgf_color(c));
    if (!p.name.empty()) out += "P" + tag + "[" + sgf_escape(p.name) + "]";
    if (p.rating) out += tag + "R[" + std::to_string(*p.rating) + "]";
  }
  if (record.started_at) out += "DT[" + format_timestamp(*record.started_at).substr(0, 10) + "]";
  const TimeControl& tc = record.time_control;
  if (tc.kind == TimeControl::Kind::Fischer) out += "TM[" + seconds_text(tc.initial) + "]";
  if (tc.kind != TimeControl::Kind::Unlimited) out += "OT[" + sgf_escape(to_string(tc)) + "]";
  if (record.result) {
    const GameResult& r = *record.result;
    if (!r.winner) {
      out += "RE[Void]";
    } else {
      out += "RE[";
      out += sgf_color(*r.winner);
      out += "+";
      switch (r.reason) {
        case EndReason::NoMoves:
          break;
        case EndReason::Resign:
          out += "R";
          break;
        case EndReason::Time:
          out += "T";
          break;
        case EndReason::Abandon:
        case EndReason::IllegalMove:
        case EndReason::Aborted:
        case EndReason::Adjudicated:
          out += "F";
          break;
      }
      out += "]";
    }
  }
  out += "\n";

  // The setup, unless the game starts from SGF's default start.
  bool default_start = size == kSgfDefaultSize && pos.arrows().empty() && pos.queen_count() == 4;
  if (default_start)
    for (int i = 0; i < 4; ++i)
      default_start = default_start &&
                      pos.piece_at(sgf_square(kDefaultFirst[i], size)) == queen_of(first) &&
                      pos.piece_at(sgf_square(kDefaultSecond[i], size)) == queen_of(~first);
  if (!default_start) {
    for (Color c : {first, ~first}) {
      out += c == first ? "AB" : "AW";
      for (Square s : pos.queens(c)) out += "[" + sgf_point(s, size) + "]";
    }
    if (pos.arrows().any()) {
      out += "AA";
      for (Bitboard a = pos.arrows(); a.any();) out += "[" + sgf_point(a.pop_lowest(), size) + "]";
    }
    out += "\n";
  }

  Color mover = first;
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const RecordedMove& rm = record.moves[i];
    const Move m = rm.move;
    out += ";";
    out += sgf_color(mover);
    out += "[" + sgf_point(m.from(), size) + sgf_point(m.to(), size) + sgf_point(m.arrow(), size) +
           "]";
    if (rm.clock_left && rm.clock_left->count() >= 0) {
      out += sgf_color(mover);
      out += "L[" + seconds_text(*rm.clock_left) + "]";
    }
    if (i % 8 == 7) out += "\n";
    mover = ~mover;
  }
  out += ")\n";
  return out;
}

}  // namespace amazons::formats
