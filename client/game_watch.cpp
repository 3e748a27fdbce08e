#include "client/game_watch.h"

#include <cstdint>

#include <nlohmann/json.hpp>

#include "ai/board_text.h"
#include "common/notation.h"

namespace amazons::client {

namespace {

using json = nlohmann::json;
using Result = Expected<std::string, std::string>;

std::string player_text(const json& p) {
  if (!p.is_object() || !p.contains("name") || !p["name"].is_string()) return "?";
  std::string text = p["name"].get<std::string>();
  if (p.contains("rating") && p["rating"].is_number_integer())
    text += " (" + std::to_string(p["rating"].get<int>()) + ")";
  return text;
}

std::string capitalized(std::string_view s) {
  std::string out(s);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

}  // namespace

std::string watch_move_line(std::size_t ply, Color mover, Move move) {
  return std::to_string(ply) + ". " + capitalized(color_name(mover)) + " " + to_string(move);
}

std::optional<Move> parse_watch_move(std::string_view line) {
  const auto dot = line.find(". ");
  if (dot == std::string_view::npos || dot == 0) return std::nullopt;
  for (char c : line.substr(0, dot))
    if (c < '0' || c > '9') return std::nullopt;
  std::string_view rest = line.substr(dot + 2);
  for (std::string_view side : {"White ", "Black "})
    if (rest.starts_with(side)) {
      auto m = parse_move(rest.substr(side.size()));
      if (m) return *m;
    }
  return std::nullopt;
}

Result GameWatch::on_message(const json& message) {
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string())
    return Unexpected(std::string("a message without a type"));
  const std::string type = message["type"].get<std::string>();
  if (type == "state" || type == "start") return on_state(message);
  if (type == "moved") return on_moved(message);
  if (type == "end") return on_end(message);
  return std::string();
}

Result GameWatch::on_state(const json& m) {
  // A second state (after a reconnect) must agree with what was seen; only the first sets up.
  if (position_ && m.value("type", "") == "start") return std::string();
  if (!m.contains("variant")) return Unexpected(std::string("state: no variant"));
  auto variant = variant_from_json(m["variant"]);
  if (!variant) return Unexpected("state: " + variant.error());
  std::vector<std::string> listed;
  if (m.contains("moves")) {
    if (!m["moves"].is_array()) return Unexpected(std::string("state: moves is not a list"));
    for (const json& mv : m["moves"]) {
      if (!mv.is_string()) return Unexpected(std::string("state: a move is not a string"));
      listed.push_back(mv.get<std::string>());
    }
  }
  std::string out;
  if (!position_) {
    position_.emplace(*variant);
    out = player_text(m.value("white", json())) + " (White) vs " +
          player_text(m.value("black", json())) + " (Black), " + variant->name + " " +
          std::to_string(variant->size) + "x" + std::to_string(variant->size) + "\n" +
          ai::board_diagram(*position_);
  }
  for (std::size_t i = moves_.size(); i < listed.size(); ++i) {
    auto text = play(listed[i], i + 1);
    if (!text) return text;
    out += *text;
  }
  if (m.contains("result") && m["result"].is_object()) {
    auto end = on_end(m["result"]);
    if (!end) return end;
    out += *end;
  }
  return out;
}

Result GameWatch::on_moved(const json& m) {
  if (!position_) return Unexpected(std::string("a move before the game's state"));
  if (!m.contains("move") || !m["move"].is_string() || !m.contains("ply") ||
      !m["ply"].is_number_integer() || m["ply"].get<std::int64_t>() < 1)
    return Unexpected(std::string("moved: needs move and a ply of 1 or more"));
  const auto ply = static_cast<std::size_t>(m["ply"].get<std::int64_t>());
  if (ply <= moves_.size()) return std::string();  // seen already (in a state)
  if (ply != moves_.size() + 1)
    return Unexpected("moved: ply " + std::to_string(ply) + " after ply " +
                      std::to_string(moves_.size()));
  return play(m["move"].get<std::string>(), ply);
}

Result GameWatch::play(std::string_view text, std::size_t ply) {
  auto move = parse_move(text);
  if (!move)
    return Unexpected("move " + std::to_string(ply) + " \"" + std::string(text) +
                      "\": " + move.error().message());
  const Color mover = position_->side_to_move();
  if (auto why = position_->check(*move))
    return Unexpected("move " + std::to_string(ply) + " " + std::string(text) +
                      " is illegal: " + std::string(describe(*why)));
  position_->do_move(*move);
  moves_.push_back(*move);
  return watch_move_line(ply, mover, *move) + "\n" + ai::board_diagram(*position_, *move);
}

Result GameWatch::on_end(const json& m) {
  if (result_) return std::string();
  GameResult r;
  const std::string reason = m.value("reason", "");
  auto code = end_reason_from_code(reason);
  if (!code) return Unexpected("end: unknown reason \"" + reason + "\"");
  r.reason = *code;
  if (m.contains("winner") && m["winner"].is_string()) {
    const std::string w = m["winner"].get<std::string>();
    if (w != "white" && w != "black") return Unexpected("end: unknown winner \"" + w + "\"");
    r.winner = w == "white" ? Color::White : Color::Black;
  }
  result_ = r;
  return std::string("Result: ") +
         (r.winner ? capitalized(color_name(*r.winner)) + " wins" : std::string("no winner")) +
         " (" + reason + ") after " + std::to_string(moves_.size()) + " moves\n";
}

}  // namespace amazons::client
