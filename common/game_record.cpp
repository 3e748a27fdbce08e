#include "common/game_record.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/notation.h"
#include "common/number_text.h"
#include "common/position_text.h"

namespace amazons {

using nlohmann::json;

std::string_view code(EndReason r) {
  for (const auto& [reason, text] : kEndReasonCodes)
    if (reason == r) return text;
  return "unknown";
}

std::optional<EndReason> end_reason_from_code(std::string_view c) {
  for (const auto& [reason, text] : kEndReasonCodes)
    if (text == c) return reason;
  return std::nullopt;
}

std::string_view code(MoveMark m) {
  switch (m) {
    case MoveMark::None:
      return "";
    case MoveMark::Mistake:
      return "mistake";
    case MoveMark::Blunder:
      return "blunder";
  }
  return "";
}

std::optional<MoveMark> move_mark_from_code(std::string_view c) {
  for (MoveMark m : {MoveMark::None, MoveMark::Mistake, MoveMark::Blunder})
    if (code(m) == c) return m;
  return std::nullopt;
}

// ---- timestamps ------------------------------------------------------------------------------

std::string format_timestamp(Timestamp t) {
  using namespace std::chrono;
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss hms{t - day};
  char buf[40];
  const int ms = static_cast<int>(hms.subseconds().count());
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  std::string out = buf;
  if (ms != 0) {
    std::snprintf(buf, sizeof buf, ".%03d", ms);
    out += buf;
  }
  return out + "Z";
}

std::optional<Timestamp> parse_timestamp(std::string_view s) {
  using namespace std::chrono;
  auto number = [&](std::size_t pos, std::size_t len, int& out) {
    if (pos + len > s.size()) return false;
    for (std::size_t i = pos; i < pos + len; ++i)
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return std::from_chars(s.data() + pos, s.data() + pos + len, out).ec == std::errc();
  };
  int y, mo, d, h, mi, sec, ms = 0;
  if (!number(0, 4, y) || s.size() < 20 || s[4] != '-' || !number(5, 2, mo) || s[7] != '-' ||
      !number(8, 2, d) || s[10] != 'T' || !number(11, 2, h) || s[13] != ':' || !number(14, 2, mi) ||
      s[16] != ':' || !number(17, 2, sec))
    return std::nullopt;
  std::size_t pos = 19;
  if (s[pos] == '.') {
    if (!number(pos + 1, 3, ms)) return std::nullopt;
    pos += 4;
  }
  if (pos + 1 != s.size() || s[pos] != 'Z') return std::nullopt;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)},
                           day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  return Timestamp{sys_days{ymd}} + hours{h} + minutes{mi} + seconds{sec} + milliseconds{ms};
}

// ---- replay ----------------------------------------------------------------------------------

Expected<Position, std::string> initial_position(const GameRecord& record) {
  if (!record.start_position) return Position(record.rules);
  auto pos = parse_position(*record.start_position);
  if (!pos) return Unexpected("start: " + pos.error().message());
  if (pos->size() != record.rules.size)
    return Unexpected("start: the position is " + std::to_string(pos->size()) + "x" +
                      std::to_string(pos->size()) + " but the rules say " +
                      std::to_string(record.rules.size));
  return std::move(*pos);
}

Expected<Position, std::string> replay(const GameRecord& record) {
  auto pos = initial_position(record);
  if (!pos) return pos;
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const Move m = record.moves[i].move;
    if (auto err = pos->try_play(m))
      return Unexpected("move " + std::to_string(i + 1) + " (" + to_string(m) +
                        "): " + std::string(describe(*err)));
  }
  return pos;
}

namespace {

// The result must agree with the final position where the rules decide it.
std::optional<std::string> check_result(const GameResult& r, const Position& final_pos) {
  if (r.reason == EndReason::Aborted) {
    if (r.winner) return "result: an aborted game has no winner";
    return std::nullopt;
  }
  if (!r.winner) return "result: a winner is required unless the game was aborted";
  if (r.reason == EndReason::NoMoves) {
    if (!final_pos.is_game_over())
      return "result: the reason is no_moves but the side to move can still move";
    if (*r.winner != ~final_pos.side_to_move())
      return "result: the side to move has no moves, so the winner is " +
             std::string(color_name(~final_pos.side_to_move()));
  }
  return std::nullopt;
}

// An annotation's best move must be a legal move of the position it was found in.
std::optional<std::string> check_annotations(const GameRecord& r) {
  auto pos = initial_position(r);
  if (!pos) return pos.error();
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const auto& a = r.moves[i].annotation;
    if (a && a->best)
      if (auto err = pos->check(*a->best))
        return "move " + std::to_string(i + 1) + ": the analysis's best move " +
               to_string(*a->best) + " is not legal: " + std::string(describe(*err));
    pos->do_move(r.moves[i].move);
  }
  return std::nullopt;
}

// Annotation scores are kept to hundredths of a square, what the text form writes, so that
// both forms read back the same; and within a sane range.
constexpr double kMaxAnnotationSquares = 10000;
std::optional<double> annotation_squares(double v) {
  if (!std::isfinite(v) || std::abs(v) > kMaxAnnotationSquares) return std::nullopt;
  return std::round(v * 100) / 100;
}

json annotation_json(const MoveAnnotation& a) {
  json j = {{"before", a.before}, {"after", a.after}};
  if (a.best) j["best"] = to_string(*a.best);
  if (a.mark != MoveMark::None) j["mark"] = code(a.mark);
  return j;
}

Expected<MoveAnnotation, std::string> annotation_from_json(const json& j,
                                                           const std::string& field) {
  if (!j.is_object()) return Unexpected(field + ": expected an object with before and after");
  MoveAnnotation a;
  for (const auto& [key, value] : j.items()) {
    if (key == "before" || key == "after") {
      const auto v = value.is_number() ? annotation_squares(value.get<double>()) : std::nullopt;
      if (!v)
        return Unexpected(field + "." + key + ": expected a number of squares, at most 10000");
      (key == "before" ? a.before : a.after) = *v;
    } else if (key == "best") {
      if (!value.is_string()) return Unexpected(field + ".best: expected a move");
      auto m = parse_move(value.get<std::string>());
      if (!m) return Unexpected(field + ".best: " + m.error().message());
      a.best = *m;
    } else if (key == "mark") {
      auto mark = value.is_string() ? move_mark_from_code(value.get<std::string>()) : std::nullopt;
      if (!mark || *mark == MoveMark::None)
        return Unexpected(field + ".mark: expected \"mistake\" or \"blunder\"");
      a.mark = *mark;
    } else {
      return Unexpected(field + "." + key + ": unknown key");
    }
  }
  if (!j.contains("before") || !j.contains("after"))
    return Unexpected(field + ": before and after are required");
  return a;
}

json player_json(const PlayerInfo& p) {
  json j = {{"name", p.name}};
  if (p.bot) j["bot"] = true;
  if (p.rating) j["rating"] = *p.rating;
  return j;
}

Expected<PlayerInfo, std::string> player_from_json(const json& j, const std::string& field) {
  if (!j.is_object()) return Unexpected(field + ": expected an object with a name");
  PlayerInfo p;
  for (const auto& [key, value] : j.items()) {
    if (key == "name") {
      if (!value.is_string()) return Unexpected(field + ".name: expected a string");
      p.name = value.get<std::string>();
    } else if (key == "bot") {
      if (!value.is_boolean()) return Unexpected(field + ".bot: expected true or false");
      p.bot = value.get<bool>();
    } else if (key == "rating") {
      if (!value.is_number_integer()) return Unexpected(field + ".rating: expected an integer");
      p.rating = value.get<int>();
    } else {
      return Unexpected(field + "." + key + ": unknown key");
    }
  }
  return p;
}

Expected<Millis, std::string> millis_from_json(const json& j, const std::string& field) {
  if (!j.is_number_integer() || j.get<long long>() < 0)
    return Unexpected(field + ": expected a whole number of milliseconds, at least 0");
  return Millis{j.get<long long>()};
}

}  // namespace

// ---- JSON ------------------------------------------------------------------------------------

json to_json(const GameRecord& r) {
  json j;
  j["format"] = "amazons-game/1";
  j["rules"] = to_json(r.rules);
  j["white"] = player_json(r.white);
  j["black"] = player_json(r.black);
  j["time_control"] = to_json(r.time_control);
  if (r.start_position) j["start"] = *r.start_position;
  json moves = json::array();
  for (const RecordedMove& m : r.moves) {
    if (!m.elapsed && !m.clock_left && !m.annotation) {
      moves.push_back(to_string(m.move));
      continue;
    }
    json mj = {{"move", to_string(m.move)}};
    if (m.elapsed) mj["elapsed_ms"] = m.elapsed->count();
    if (m.clock_left) mj["clock_ms"] = m.clock_left->count();
    if (m.annotation) mj["analysis"] = annotation_json(*m.annotation);
    moves.push_back(std::move(mj));
  }
  j["moves"] = std::move(moves);
  if (r.result) {
    j["result"] = {
        {"winner", r.result->winner ? json(color_name(*r.result->winner)) : json(nullptr)},
        {"reason", code(r.result->reason)}};
  } else {
    j["result"] = nullptr;
  }
  if (r.started_at) j["started_at"] = format_timestamp(*r.started_at);
  if (r.ended_at) j["ended_at"] = format_timestamp(*r.ended_at);
  return j;
}

Expected<GameRecord, std::string> record_from_json(const json& j) {
  if (!j.is_object())
    return Unexpected(std::string("expected a JSON object, got ") + j.type_name());
  static const std::set<std::string> kKeys = {"format",       "rules",   "white", "black",
                                              "time_control", "start",   "moves", "result",
                                              "started_at",   "ended_at"};
  for (const auto& [key, value] : j.items())
    if (!kKeys.count(key)) return Unexpected(key + ": unknown key");
  if (j.contains("format") && j["format"] != "amazons-game/1")
    return Unexpected(std::string("format: expected \"amazons-game/1\""));
  GameRecord r;
  if (!j.contains("rules")) return Unexpected(std::string("rules: missing"));
  auto rules = variant_from_json(j["rules"]);
  if (!rules) return Unexpected("rules." + rules.error());
  r.rules = std::move(*rules);
  for (const char* side : {"white", "black"}) {
    if (!j.contains(side)) return Unexpected(std::string(side) + ": missing");
    auto p = player_from_json(j[side], side);
    if (!p) return Unexpected(p.error());
    (std::string_view(side) == "white" ? r.white : r.black) = std::move(*p);
  }
  if (j.contains("time_control")) {
    auto tc = time_control_from_json(j["time_control"]);
    if (!tc) return Unexpected("time_control." + tc.error());
    r.time_control = *tc;
  }
  if (j.contains("start")) {
    if (!j["start"].is_string()) return Unexpected(std::string("start: expected a position text"));
    r.start_position = j["start"].get<std::string>();
  }
  if (j.contains("moves")) {
    const json& moves = j["moves"];
    if (!moves.is_array()) return Unexpected(std::string("moves: expected an array"));
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::string where = "moves[" + std::to_string(i) + "]";
      const json& mj = moves[i];
      RecordedMove rm;
      const json* text = &mj;
      if (mj.is_object()) {
        for (const auto& [key, value] : mj.items())
          if (key != "move" && key != "elapsed_ms" && key != "clock_ms" && key != "analysis")
            return Unexpected(where + "." + key + ": unknown key");
        if (!mj.contains("move")) return Unexpected(where + ".move: missing");
        text = &mj["move"];
        if (mj.contains("elapsed_ms")) {
          auto e = millis_from_json(mj["elapsed_ms"], where + ".elapsed_ms");
          if (!e) return Unexpected(e.error());
          rm.elapsed = *e;
        }
        if (mj.contains("clock_ms")) {
          auto c = millis_from_json(mj["clock_ms"], where + ".clock_ms");
          if (!c) return Unexpected(c.error());
          rm.clock_left = *c;
        }
        if (mj.contains("analysis")) {
          auto a = annotation_from_json(mj["analysis"], where + ".analysis");
          if (!a) return Unexpected(a.error());
          rm.annotation = *a;
        }
      }
      if (!text->is_string()) return Unexpected(where + ": expected a move such as \"d1-d7/g7\"");
      auto m = parse_move(text->get<std::string>());
      if (!m) return Unexpected(where + ": " + m.error().message());
      rm.move = *m;
      r.moves.push_back(rm);
    }
  }
  if (j.contains("result") && !j["result"].is_null()) {
    const json& res = j["result"];
    if (!res.is_object() || !res.contains("reason") || !res["reason"].is_string())
      return Unexpected(std::string("result: expected {\"winner\": ..., \"reason\": ...}"));
    GameResult gr;
    auto reason = end_reason_from_code(res["reason"].get<std::string>());
    if (!reason)
      return Unexpected("result.reason: unknown reason \"" + res["reason"].get<std::string>() +
                        "\"");
    gr.reason = *reason;
    if (res.contains("winner") && !res["winner"].is_null()) {
      if (res["winner"] == "white") {
        gr.winner = Color::White;
      } else if (res["winner"] == "black") {
        gr.winner = Color::Black;
      } else {
        return Unexpected(std::string("result.winner: expected \"white\", \"black\" or null"));
      }
    }
    r.result = gr;
  }
  for (const char* key : {"started_at", "ended_at"}) {
    if (!j.contains(key)) continue;
    std::optional<Timestamp> t;
    if (j[key].is_string()) t = parse_timestamp(j[key].get<std::string>());
    if (!t)
      return Unexpected(std::string(key) +
                        ": expected a UTC time such as \"2026-11-29T14:25:19Z\"");
    (std::string_view(key) == "started_at" ? r.started_at : r.ended_at) = t;
  }
  auto final_pos = replay(r);
  if (!final_pos) return Unexpected(final_pos.error());
  if (r.result)
    if (auto problem = check_result(*r.result, *final_pos)) return Unexpected(*problem);
  if (auto problem = check_annotations(r)) return Unexpected(*problem);
  return r;
}

Expected<GameRecord, std::string> parse_record_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return Unexpected("not valid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  } catch (const json::exception& e) {
    // A number too large for a double (1e999) is an out_of_range error, not a parse_error.
    return Unexpected(std::string("not valid JSON: ") + e.what());
  }
  return record_from_json(j);
}

// ---- text ------------------------------------------------------------------------------------

namespace {

// Line breaks are escaped: a tag is one line, and reading must give back the same value.
std::string quote(std::string_view v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string squares_text(const std::vector<Square>& squares) {
  std::string out;
  for (Square s : squares) {
    if (!out.empty()) out += ' ';
    out += to_string(s);
  }
  return out;
}

// Reads `[Name "value"]`; returns false with a problem description on bad syntax.
bool read_tag(std::string_view line, std::string& name, std::string& value, std::string& problem) {
  std::size_t i = 1;
  while (i < line.size() && std::isalnum(static_cast<unsigned char>(line[i]))) ++i;
  name = std::string(line.substr(1, i - 1));
  if (name.empty()) return problem = "expected a tag name after '['", false;
  if (i >= line.size() || line[i] != ' ' || i + 1 >= line.size() || line[i + 1] != '"')
    return problem = "expected a space and a quoted value after the tag name", false;
  value.clear();
  for (i += 2; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] != '\\' || i + 1 >= line.size()) {
      value += line[i];
      continue;
    }
    const char escaped = line[++i];
    value += escaped == 'n' ? '\n' : escaped == 'r' ? '\r' : escaped;
  }
  if (i + 2 != line.size() || line[i + 1] != ']')
    return problem = "expected the value to end with '\"]'", false;
  return true;
}

std::string signed_squares(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", v);
  return buf;
}

std::string annotation_text(const MoveAnnotation& a) {
  std::string out = "before " + signed_squares(a.before) + " after " + signed_squares(a.after);
  if (a.best) out += " best " + to_string(*a.best);
  if (a.mark != MoveMark::None) out += " " + std::string(code(a.mark));
  return out;
}

constexpr std::string_view kAnnotationStart = "before ";

// The inside of an annotation comment, as annotation_text writes it.
Expected<MoveAnnotation, std::string> parse_annotation_text(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  auto number = [](const std::string& t) -> std::optional<double> {
    const auto v =
        double_from_text(std::string_view(t).substr(t.size() > 1 && t[0] == '+' ? 1 : 0));
    if (!v) return std::nullopt;
    return annotation_squares(*v);
  };
  MoveAnnotation a;
  if (w.size() < 4 || w[0] != "before" || w[2] != "after")
    return Unexpected(std::string("expected {before SQUARES after SQUARES [best MOVE] [mark]}"));
  const auto before = number(w[1]), after = number(w[3]);
  if (!before || !after)
    return Unexpected(
        std::string("before and after must be numbers of squares (at most 10000), such as +1.25"));
  a.before = *before;
  a.after = *after;
  std::size_t i = 4;
  if (i < w.size() && w[i] == "best") {
    if (i + 1 >= w.size()) return Unexpected(std::string("best needs a move"));
    auto m = parse_move(w[i + 1]);
    if (!m) return Unexpected("best move \"" + w[i + 1] + "\" " + m.error().message());
    a.best = *m;
    i += 2;
  }
  if (i < w.size()) {
    const auto mark = move_mark_from_code(w[i]);
    if (!mark || *mark == MoveMark::None)
      return Unexpected("expected mistake or blunder, found \"" + w[i] + "\"");
    a.mark = *mark;
    ++i;
  }
  if (i != w.size()) return Unexpected("unexpected \"" + w[i] + "\" at the end");
  return a;
}

}  // namespace

std::string to_text(const GameRecord& r) {
  std::ostringstream out;
  out << "[Rules " << quote(r.rules.name) << "]\n";
  if (!r.rules.description.empty())
    out << "[RulesDescription " << quote(r.rules.description) << "]\n";
  out << "[Board " << quote(std::to_string(r.rules.size)) << "]\n";
  out << "[WhiteQueens " << quote(squares_text(r.rules.white_queens)) << "]\n";
  out << "[BlackQueens " << quote(squares_text(r.rules.black_queens)) << "]\n";
  out << "[First " << quote(color_name(r.rules.first_to_move)) << "]\n";
  for (Color c : {Color::White, Color::Black}) {
    const PlayerInfo& p = c == Color::White ? r.white : r.black;
    const std::string tag = c == Color::White ? "White" : "Black";
    out << "[" << tag << " " << quote(p.name) << "]\n";
    if (p.bot) out << "[" << tag << "Bot \"yes\"]\n";
    if (p.rating) out << "[" << tag << "Rating " << quote(std::to_string(*p.rating)) << "]\n";
  }
  out << "[TimeControl " << quote(to_string(r.time_control)) << "]\n";
  if (r.start_position) out << "[Start " << quote(*r.start_position) << "]\n";
  if (r.started_at) out << "[Started " << quote(format_timestamp(*r.started_at)) << "]\n";
  if (r.ended_at) out << "[Ended " << quote(format_timestamp(*r.ended_at)) << "]\n";
  if (r.result) {
    out << "[Result " << quote(r.result->winner ? color_name(*r.result->winner) : "none") << "]\n";
    out << "[Reason " << quote(code(r.result->reason)) << "]\n";
  }
  out << "\n";
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    if (i % 2 == 0) out << (i == 0 ? "" : "\n") << (i / 2 + 1) << ".";
    out << " " << to_string(r.moves[i].move);
    if (r.moves[i].annotation) out << " {" << annotation_text(*r.moves[i].annotation) << "}";
  }
  if (!r.moves.empty()) out << "\n";
  return out.str();
}

Expected<GameRecord, std::string> parse_record_text(std::string_view text) {
  std::map<std::string, std::string> tags;
  GameRecord r;
  std::size_t line_no = 0, expected_number = 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = "line " + std::to_string(line_no);
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (!r.moves.empty()) return Unexpected(where + ": a tag after the moves");
      std::string name, value, problem;
      if (!read_tag(line, name, value, problem)) return Unexpected(where + ": " + problem);
      if (!tags.emplace(name, value).second)
        return Unexpected(where + ": tag " + name + " given twice");
      continue;
    }
    bool first_token = true;
    bool annotated = false;  // the last move read on this line has its annotation
    for (std::size_t i = 0; i < line.size();) {
      if (line[i] == ' ' || line[i] == '\t') {
        ++i;
        continue;
      }
      if (line[i] == '{') {
        const std::size_t close = line.find('}', i);
        if (close == std::string_view::npos)
          return Unexpected(where + ": a comment without its closing '}'");
        const std::string_view comment = line.substr(i + 1, close - i - 1);
        i = close + 1;
        // Other comments are free text for people; an annotation is read back.
        if (!comment.starts_with(kAnnotationStart)) continue;
        if (first_token || annotated || r.moves.empty())
          return Unexpected(where + ": an annotation must follow the move it is about");
        auto a = parse_annotation_text(comment);
        if (!a) return Unexpected(where + ": annotation: " + a.error());
        r.moves.back().annotation = *a;
        annotated = true;
        continue;
      }
      std::size_t token_end = i;
      while (token_end < line.size() && line[token_end] != ' ' && line[token_end] != '\t' &&
             line[token_end] != '{')
        ++token_end;
      const std::string token(line.substr(i, token_end - i));
      i = token_end;
      if (first_token) {
        first_token = false;
        const std::string number = std::to_string(expected_number) + ".";
        if (token != number)
          return Unexpected(where + ": expected the move number \"" + number + "\", found \"" +
                            token + "\"");
        ++expected_number;
        continue;
      }
      auto m = parse_move(token);
      if (!m) return Unexpected(where + ": move \"" + token + "\" " + m.error().message());
      r.moves.push_back({*m, std::nullopt, std::nullopt});
      annotated = false;
    }
  }

  auto take = [&](const std::string& name) -> std::optional<std::string> {
    auto it = tags.find(name);
    if (it == tags.end()) return std::nullopt;
    std::string v = it->second;
    tags.erase(it);
    return v;
  };
  // Rules: the tags hold the whole variant, so the record does not depend on config files.
  nlohmann::json variant;
  variant["name"] = take("Rules").value_or("");
  if (auto description = take("RulesDescription")) variant["description"] = *description;
  const std::string board = take("Board").value_or("");
  int size = 0;
  if (std::from_chars(board.data(), board.data() + board.size(), size).ec != std::errc())
    return Unexpected(std::string("tag Board: expected the board size, such as \"10\""));
  variant["size"] = size;
  for (const auto& [tag, key] :
       {std::pair{"WhiteQueens", "white"}, std::pair{"BlackQueens", "black"}}) {
    std::istringstream squares(take(tag).value_or(""));
    variant[key] = nlohmann::json::array();
    for (std::string s; squares >> s;) variant[key].push_back(s);
  }
  variant["first"] = take("First").value_or("");
  auto rules = variant_from_json(variant);
  if (!rules) return Unexpected("rules tags: " + rules.error());
  r.rules = *rules;
  r.white.name = take("White").value_or("");
  r.black.name = take("Black").value_or("");
  for (auto [tag, player] : {std::pair{"White", &r.white}, std::pair{"Black", &r.black}}) {
    if (auto bot = take(std::string(tag) + "Bot")) {
      if (*bot != "yes" && *bot != "no")
        return Unexpected("tag " + std::string(tag) + "Bot: expected yes or no");
      player->bot = *bot == "yes";
    }
    if (auto rating = take(std::string(tag) + "Rating")) {
      int v = 0;
      auto [ptr, ec] = std::from_chars(rating->data(), rating->data() + rating->size(), v);
      if (ec != std::errc() || ptr != rating->data() + rating->size())
        return Unexpected("tag " + std::string(tag) + "Rating: expected a whole number");
      player->rating = v;
    }
  }
  if (auto tc = take("TimeControl")) {
    auto parsed = parse_time_control(*tc);
    if (!parsed) return Unexpected("tag TimeControl: " + parsed.error());
    r.time_control = *parsed;
  }
  r.start_position = take("Start");
  for (auto [tag, field] : {std::pair{"Started", &r.started_at}, std::pair{"Ended", &r.ended_at}}) {
    if (auto t = take(tag)) {
      *field = parse_timestamp(*t);
      if (!*field)
        return Unexpected("tag " + std::string(tag) +
                          ": expected a UTC time such as \"2026-11-29T14:25:19Z\"");
    }
  }
  auto winner = take("Result");
  auto reason = take("Reason");
  if (winner.has_value() != reason.has_value())
    return Unexpected(std::string("tags Result and Reason: give both or neither"));
  if (winner) {
    GameResult gr;
    auto rc = end_reason_from_code(*reason);
    if (!rc) return Unexpected("tag Reason: unknown reason \"" + *reason + "\"");
    gr.reason = *rc;
    if (*winner == "white") {
      gr.winner = Color::White;
    } else if (*winner == "black") {
      gr.winner = Color::Black;
    } else if (*winner != "none") {
      return Unexpected(std::string("tag Result: expected white, black or none"));
    }
    r.result = gr;
  }
  if (!tags.empty()) return Unexpected("tag " + tags.begin()->first + ": unknown tag");
  auto final_pos = replay(r);
  if (!final_pos) return Unexpected(final_pos.error());
  if (r.result)
    if (auto problem = check_result(*r.result, *final_pos)) return Unexpected(*problem);
  if (auto problem = check_annotations(r)) return Unexpected(*problem);
  return r;
}

}  // namespace amazons
