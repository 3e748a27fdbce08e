#include "server/node/cluster_wire.h"

#include <nlohmann/json.hpp>

#include "common/protocol.h"
#include "server/core/auth.h"

namespace amazons::server::wire {

using nlohmann::json;

namespace {

// A field of the wrong shape: decode() turns it into its reason.
struct Malformed {
  std::string why;
};

const json& field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) throw Malformed{std::string("missing \"") + name + "\""};
  return *it;
}
std::string text(const json& j, const char* name) {
  const json& f = field(j, name);
  if (!f.is_string()) throw Malformed{std::string("\"") + name + "\" is not a string"};
  return f.get<std::string>();
}
std::int64_t integer(const json& j, const char* name) {
  const json& f = field(j, name);
  if (!f.is_number_integer()) throw Malformed{std::string("\"") + name + "\" is not an integer"};
  return f.get<std::int64_t>();
}
double real(const json& j, const char* name) {
  const json& f = field(j, name);
  if (!f.is_number()) throw Malformed{std::string("\"") + name + "\" is not a number"};
  return f.get<double>();
}
bool boolean(const json& j, const char* name) {
  const json& f = field(j, name);
  if (!f.is_boolean()) throw Malformed{std::string("\"") + name + "\" is not a boolean"};
  return f.get<bool>();
}
const json& array(const json& j, const char* name) {
  const json& f = field(j, name);
  if (!f.is_array()) throw Malformed{std::string("\"") + name + "\" is not an array"};
  return f;
}
SessionId session(const json& j, const char* name = "s") {
  const std::int64_t s = integer(j, name);
  if (s <= 0 || is_remote_session(static_cast<SessionId>(s)))
    throw Malformed{std::string("\"") + name + "\" is not a session"};
  return static_cast<SessionId>(s);
}

json player_json(const RemotePlayer& p) {
  return {{"name", p.name},           {"bot", p.bot},
          {"r", p.rating.rating},     {"d", p.rating.deviation},
          {"v", p.rating.volatility}, {"g", p.rated_games},
          {"c", p.correspondence}};
}
int count(const json& j, const char* name) {
  const std::int64_t n = integer(j, name);
  if (n < 0 || n > 1'000'000) throw Malformed{std::string("\"") + name + "\" is not a count"};
  return static_cast<int>(n);
}
RemotePlayer player_of(const json& j) {
  if (!j.is_object()) throw Malformed{"a player is not an object"};
  RemotePlayer p{text(j, "name"), boolean(j, "bot"),
                 Rating{real(j, "r"), real(j, "d"), real(j, "v")},
                 static_cast<int>(integer(j, "g"))};
  if (auto problem = name_problem(p.name)) throw Malformed{"player: " + *problem};
  if (j.contains("c")) p.correspondence = count(j, "c");  // absent from older nodes
  return p;
}

json encode_json(const Request& m) {
  return {
      {"t", "req"}, {"s", m.session}, {"p", player_json(m.player)}, {"k", m.key}, {"l", m.line}};
}
json encode_json(const AttachGame& m) {
  return {{"t", "attach"}, {"s", m.session}, {"p", player_json(m.player)}, {"g", m.game}};
}
json encode_json(const Detach& m) { return {{"t", "detach"}, {"s", m.session}}; }
json encode_json(const Lines& m) {
  json lines = json::array();
  for (const auto& [s, line] : m.lines) lines.push_back(json::array({s, line}));
  return {{"t", "lines"}, {"m", std::move(lines)}, {"c", m.close}};
}
json encode_json(const Bounced& m) {
  return {{"t", "bounce"}, {"s", m.session}, {"k", m.key}, {"l", m.line}};
}
json encode_json(const Replaced& m) { return {{"t", "replaced"}, {"s", m.session}}; }
json encode_json(const Reset&) { return {{"t", "reset"}}; }
json encode_json(const Tick&) { return {{"t", "tick"}}; }
json encode_json(const Turns& m) {
  // As the protocol writes it: the clients' own, fuzzed decoder reads it back.
  return {{"t", "turns"},
          {"s", m.session},
          {"y", protocol::encode(protocol::ServerMessage{m.turns})},
          {"c", m.correspondence}};
}
json optional_text(const std::optional<std::string>& t) { return t ? json(*t) : json(nullptr); }
std::optional<std::string> optional_text(const json& j, const char* name) {
  if (field(j, name).is_null()) return std::nullopt;
  return text(j, name);
}
std::optional<Timestamp> optional_time(const json& j, const char* name) {
  if (field(j, name).is_null()) return std::nullopt;
  return Timestamp{Millis{integer(j, name)}};
}
json time_json(const std::optional<Timestamp>& t) {
  return t ? json(t->time_since_epoch().count()) : json(nullptr);
}
json encode_json(const Moderated& m) {
  return std::visit(
      [](const auto& e) -> json {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, SanctionRow>)
          return {{"t", "sanction"},
                  {"kind", sanction_name(e.kind)},
                  {"target", e.target},
                  {"reason", e.reason},
                  {"by", e.by},
                  {"at", e.created_at.time_since_epoch().count()},
                  {"until", time_json(e.expires_at)}};
        else if constexpr (std::is_same_v<E, SanctionRemoved>)
          return {{"t", "lift"}, {"kind", sanction_name(e.kind)}, {"target", e.target}};
        else if constexpr (std::is_same_v<E, KickOrder>)
          return {{"t", "kick"}, {"player", e.player}, {"reason", e.reason}};
        else
          return {{"t", "report"},
                  {"id", e.id},
                  {"at", e.at.time_since_epoch().count()},
                  {"reporter", e.reporter},
                  {"player", e.player},
                  {"line", e.line ? json(*e.line) : json(nullptr)},
                  {"text", optional_text(e.text)},
                  {"game", optional_text(e.game)},
                  {"reason", e.reason},
                  {"resolved_by", optional_text(e.resolved_by)},
                  {"resolved_at", time_json(e.resolved_at)},
                  {"note", e.note}};
      },
      m.event);
}
SanctionKind kind_of(const json& j) {
  const auto k = sanction_from(text(j, "kind"));
  if (!k) throw Malformed{"\"kind\" is not a sanction"};
  return *k;
}
json encode_json(const Directory& m) {
  json players = json::array();
  for (const PeerPlayer& p : m.view.players)
    players.push_back({{"name", p.name},
                       {"bot", p.bot},
                       {"r", p.rating.rating},
                       {"d", p.rating.deviation},
                       {"v", p.rating.volatility},
                       {"g", p.rated_games},
                       {"s", p.session}});
  // The games as the protocol writes a `games` message: the clients' own, fuzzed decoder reads
  // them back.
  return {{"t", "dir"},
          {"games", protocol::encode(protocol::ServerMessage{protocol::Games{m.view.games}})},
          {"players", std::move(players)},
          {"playing", m.view.playing}};
}

NodeMessage decode_json(const json& j) {
  const std::string t = text(j, "t");
  if (t == "req") return Request{session(j), player_of(field(j, "p")), text(j, "k"), text(j, "l")};
  if (t == "attach") {
    const std::int64_t game = integer(j, "g");
    if (game <= 0) throw Malformed{"\"g\" is not a game"};
    return AttachGame{session(j), player_of(field(j, "p")), game};
  }
  if (t == "detach") return Detach{session(j)};
  if (t == "replaced") return Replaced{session(j)};
  if (t == "reset") return Reset{};
  if (t == "tick") return Tick{};
  if (t == "bounce") return Bounced{session(j), text(j, "k"), text(j, "l")};
  if (t == "turns") {
    const auto turns = protocol::decode_server(text(j, "y"));
    if (!turns) throw Malformed{"turns: " + turns.error().message};
    const auto* list = std::get_if<protocol::YourTurn>(&turns->message);
    if (!list) throw Malformed{"turns: not a your_turn message"};
    return Turns{session(j), *list, count(j, "c")};
  }
  if (t == "lines") {
    Lines out;
    for (const json& e : array(j, "m")) {
      if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_string())
        throw Malformed{"a line is not [session, text]"};
      const json pair = json::object({{"s", e[0]}});
      out.lines.emplace_back(session(pair), e[1].get<std::string>());
    }
    for (const json& c : array(j, "c")) {
      const json pair = json::object({{"s", c}});
      out.close.push_back(session(pair));
    }
    return out;
  }
  if (t == "sanction")
    return Moderated{SanctionRow{kind_of(j), text(j, "target"), text(j, "reason"), text(j, "by"),
                                 Timestamp{Millis{integer(j, "at")}}, optional_time(j, "until")}};
  if (t == "lift") return Moderated{SanctionRemoved{kind_of(j), text(j, "target")}};
  if (t == "kick") return Moderated{KickOrder{text(j, "player"), text(j, "reason")}};
  if (t == "report") {
    ReportRow r;
    r.id = integer(j, "id");
    if (r.id <= 0) throw Malformed{"\"id\" is not a report"};
    r.at = Timestamp{Millis{integer(j, "at")}};
    r.reporter = text(j, "reporter");
    r.player = text(j, "player");
    if (!field(j, "line").is_null()) r.line = integer(j, "line");
    r.text = optional_text(j, "text");
    r.game = optional_text(j, "game");
    r.reason = text(j, "reason");
    r.resolved_by = optional_text(j, "resolved_by");
    r.resolved_at = optional_time(j, "resolved_at");
    r.note = text(j, "note");
    return Moderated{std::move(r)};
  }
  if (t == "dir") {
    Directory d;
    const auto games = protocol::decode_server(text(j, "games"));
    if (!games) throw Malformed{"games: " + games.error().message};
    const auto* list = std::get_if<protocol::Games>(&games->message);
    if (!list) throw Malformed{"games: not a games message"};
    d.view.games = list->games;
    for (const json& p : array(j, "players")) {
      const RemotePlayer who = player_of(p);
      d.view.players.push_back({who.name, who.rating, who.rated_games, who.bot, session(p)});
    }
    const json& playing = field(j, "playing");
    if (!playing.is_object()) throw Malformed{"\"playing\" is not an object"};
    for (const auto& [name, n] : playing.items()) {
      if (!n.is_number_integer() || n.get<std::int64_t>() < 0 || n.get<std::int64_t>() > 1'000'000)
        throw Malformed{"playing: not a count"};
      d.view.playing[name] = n.get<int>();
    }
    return d;
  }
  throw Malformed{"unknown type \"" + t + "\""};
}

}  // namespace

std::string encode(const NodeMessage& message) {
  return std::visit([](const auto& m) { return encode_json(m).dump(); }, message);
}

Expected<NodeMessage, std::string> decode(std::string_view body) {
  try {
    const json j = json::parse(body, nullptr, true, false);
    if (!j.is_object()) return Unexpected(std::string("not a JSON object"));
    return decode_json(j);
  } catch (const Malformed& m) {
    return Unexpected(m.why);
  } catch (const json::exception& e) {
    return Unexpected(std::string("bad JSON: ") + e.what());
  }
}

}  // namespace amazons::server::wire
