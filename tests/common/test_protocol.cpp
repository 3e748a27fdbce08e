#include <doctest/doctest.h>

#include <random>
#include <string>

#include "common/protocol.h"
#include "common/protocol_enums.h"

using namespace amazons;
using namespace amazons::protocol;

namespace {

ClientEnvelope client_ok(std::string_view line) {
  auto r = decode_client(line);
  INFO(line);
  REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
  return *r;
}

DecodeError client_err(std::string_view line) {
  auto r = decode_client(line);
  INFO(line);
  REQUIRE_FALSE(r.has_value());
  return r.error();
}

// The reference for encoding: an ordered_json object built from the field descriptions and
// dumped, which is how the codec wrote every message before it wrote the text directly.
struct JsonWriter;
template <class T>
concept HasJsonFields = requires(const T& t, JsonWriter& w) {
  T::fields(t, w);
};
nlohmann::ordered_json json_value(const std::string& v) { return v; }
nlohmann::ordered_json json_value(int v) { return v; }
nlohmann::ordered_json json_value(std::int64_t v) { return v; }
nlohmann::ordered_json json_value(bool v) { return v; }
nlohmann::ordered_json json_value(double v) { return v; }
nlohmann::ordered_json json_value(const nlohmann::json& v) { return nlohmann::ordered_json(v); }
nlohmann::ordered_json json_value(const TimeControl& v) {
  return nlohmann::ordered_json(to_json(v));
}
template <class E>
requires std::is_enum_v<E> nlohmann::ordered_json json_value(E e) {
  return std::string(enum_name(e));
}
template <class T>
nlohmann::ordered_json json_value(const std::vector<T>& v);
template <class T>
nlohmann::ordered_json json_value(const std::optional<T>& v);
template <HasJsonFields T>
nlohmann::ordered_json json_value(const T& v);
struct JsonWriter {
  nlohmann::ordered_json& object;
  template <class T>
  void operator()(const char* key, const T& value) {
    if constexpr (requires {
                    typename T::value_type;
                    value.has_value();
                  }) {
      if (!value) return;
    }
    object[key] = json_value(value);
  }
  template <class T, class D>
  void operator()(const char* key, const T& value, const D&) {
    object[key] = json_value(value);
  }
};
template <class T>
nlohmann::ordered_json json_value(const std::vector<T>& v) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& item : v) out.push_back(json_value(item));
  return out;
}
template <class T>
nlohmann::ordered_json json_value(const std::optional<T>& v) {
  return v ? json_value(*v) : nlohmann::ordered_json(nullptr);
}
template <HasJsonFields T>
nlohmann::ordered_json json_value(const T& v) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  JsonWriter writer{out};
  T::fields(v, writer);
  return out;
}
template <class Variant>
std::string encode_through_json(const Variant& message, const RequestId& id) {
  return std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        out["type"] = std::string(M::kType);
        if (id) out["id"] = nlohmann::ordered_json(*id);
        JsonWriter writer{out};
        M::fields(m, writer);
        return out.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
      },
      message);
}

// Every alternative of a message variant, default-constructed.
template <class Variant>
std::vector<Variant> every_alternative() {
  std::vector<Variant> out;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (out.emplace_back(std::in_place_index<I>), ...);
  }
  (std::make_index_sequence<std::variant_size_v<Variant>>());
  return out;
}

}  // namespace

TEST_CASE("protocol: hello decodes with required and optional fields") {
  const auto env = client_ok(R"({"type":"hello","protocol":1,"name":"alice","id":7})");
  REQUIRE(env.id.has_value());
  CHECK(*env.id == 7);
  const auto& h = std::get<Hello>(env.message);
  CHECK(h.protocol == 1);
  CHECK(h.name == "alice");
  CHECK_FALSE(h.password.has_value());
  CHECK_FALSE(h.bot);

  const auto full = client_ok(
      R"({"type":"hello","protocol":1,"name":"bob","password":"pw","token":"t","bot":true})");
  const auto& hb = std::get<Hello>(full.message);
  CHECK(*hb.password == "pw");
  CHECK(*hb.token == "t");
  CHECK(hb.bot);
}

TEST_CASE("protocol: create reads time controls, colours and defaults") {
  const auto env = client_ok(
      R"({"type":"create","rules":"standard","time":{"initial":300,"increment":5},"color":"white"})");
  const auto& c = std::get<Create>(env.message);
  CHECK(c.rules == "standard");
  CHECK(c.time == TimeControl::fischer(Millis{300000}, Millis{5000}));
  CHECK(c.color == ColorChoice::White);
  CHECK_FALSE(c.rated);
  CHECK_FALSE(c.is_private);

  const auto bare = std::get<Create>(client_ok(R"({"type":"create"})").message);
  CHECK(bare.rules == "standard");
  CHECK(bare.time == TimeControl::unlimited());
  CHECK(bare.color == ColorChoice::Random);

  const auto per_move = std::get<Create>(
      client_ok(R"({"type":"create","time":{"per_move":30},"private":true})").message);
  CHECK(per_move.time == TimeControl::fixed_per_move(Millis{30000}));
  CHECK(per_move.is_private);
}

TEST_CASE("protocol: every decode error has its code and names the field") {
  CHECK(client_err("not json").code == ErrorCode::BadJson);
  CHECK(client_err("[1,2]").code == ErrorCode::BadJson);
  CHECK(client_err("").code == ErrorCode::BadJson);
  CHECK(client_err(R"({"type":"fly"})").code == ErrorCode::UnknownType);
  CHECK(client_err(R"({"name":"x"})").code == ErrorCode::BadField);
  CHECK(client_err(R"({"type":3})").code == ErrorCode::BadField);

  const auto missing = client_err(R"({"type":"join","id":"r1"})");
  CHECK(missing.code == ErrorCode::BadField);
  CHECK(missing.message == "game: missing");
  REQUIRE(missing.id.has_value());
  CHECK(*missing.id == "r1");

  const auto wrong = client_err(R"({"type":"hello","protocol":"1","name":"a"})");
  CHECK(wrong.code == ErrorCode::BadField);
  CHECK(wrong.message == "protocol: expected an integer, got string");

  const auto color = client_err(R"({"type":"create","color":"green"})");
  CHECK(color.message == R"(color: expected one of white, black, random, got "green")");

  const auto time = client_err(R"({"type":"create","time":{"initial":-1}})");
  CHECK(time.code == ErrorCode::BadField);
  CHECK(time.message.starts_with("time: initial"));

  const auto big = client_err(R"({"type":"history","limit":99999999999})");
  CHECK(big.message == "limit: out of range");

  const auto bad_id = client_err(R"({"type":"list","id":[1]})");
  CHECK(bad_id.code == ErrorCode::BadField);

  CHECK(client_err(std::string(40, '[') + std::string(40, ']')).code == ErrorCode::BadJson);
  CHECK(client_err("{\"type\":\"chat\",\"game\":\"1\",\"text\":\"\xff\"}").code ==
        ErrorCode::BadJson);
}

TEST_CASE("protocol: an error reply echoes the request id") {
  const auto e = client_err(R"({"type":"nope","id":"abc"})");
  const auto line = encode_error(e);
  CHECK(
      line ==
      R"({"type":"error","id":"abc","code":"unknown_type","message":"unknown message type \"nope\""})");
}

TEST_CASE("protocol: every client message survives encode then decode") {
  std::vector<ClientMessage> all;
  all.emplace_back(Hello{1, "al", "pw", "tok", "srv", true});
  all.emplace_back(Ping{});
  all.emplace_back(Pong{});
  all.emplace_back(Create{"botzone8", TimeControl::fischer(Millis{60000}, Millis{500}),
                          ColorChoice::Black, true, true});
  all.emplace_back(List{});
  all.emplace_back(Join{"12", "inv"});
  all.emplace_back(Watch{"12", std::nullopt});
  Leave leave;
  leave.game = "4";
  all.emplace_back(leave);
  all.emplace_back(MoveMsg{"4", "d1-d7/g7"});
  Resign resign;
  resign.game = "5";
  all.emplace_back(resign);
  all.emplace_back(ChatSend{"5", "gl hf \xc3\xa9"});
  all.emplace_back(Seek{"standard", TimeControl::fixed_per_move(Millis{10000}), true});
  all.emplace_back(Unseek{});
  all.emplace_back(ChallengeSend{"bob", "standard", TimeControl{}, ColorChoice::White, false});
  all.emplace_back(Accept{"c1"});
  all.emplace_back(Decline{"c1"});
  all.emplace_back(Players{});
  all.emplace_back(HistoryRequest{"bob", 5});
  all.emplace_back(RecordRequest{"9", RecordFormat::Text});
  all.emplace_back(LeaderboardRequest{3});
  all.emplace_back(Turns{});
  Create kept{"standard", TimeControl::fixed_per_move(Millis{86'400'000}), ColorChoice::White};
  kept.lifetime = 3 * 86'400;
  all.emplace_back(kept);
  Seek kept_seek{"standard", TimeControl::fixed_per_move(Millis{86'400'000}), false};
  kept_seek.lifetime = 60;
  all.emplace_back(kept_seek);
  ChallengeSend kept_challenge{"bob", "standard", {}, ColorChoice::White, false};
  kept_challenge.lifetime = 600;
  all.emplace_back(kept_challenge);
  for (const auto& m : all) {
    const auto line = encode(m, nlohmann::json("x"));
    const auto back = client_ok(line);
    CHECK(back.message == m);
    CHECK(*back.id == "x");
    CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("protocol: server messages encode with type first and decode back") {
  Moved moved{"3", 1, "d1-d7/g7", ClockView{299000, 300000, Color::Black}};
  const auto line = encode(ServerMessage{moved});
  CHECK(
      line ==
      R"({"type":"moved","game":"3","ply":1,"move":"d1-d7/g7","clock":{"white":299000,"black":300000,"running":"black"}})");
  auto back = decode_server(line);
  REQUIRE(back.has_value());
  CHECK(std::get<Moved>(back->message) == moved);

  End end{"3", std::nullopt, EndReason::Aborted, std::nullopt, std::nullopt};
  CHECK(encode(ServerMessage{end}) == R"({"type":"end","game":"3","reason":"aborted"})");

  State st;
  st.game = "8";
  st.rules = "standard";
  st.variant = to_json(standard_variant());
  st.white = PlayerRef{"a", 1500, false};
  st.moves = {"d1-d7/g7"};
  st.to_move = Color::Black;
  st.offline = {Color::White};
  auto st_back = decode_server(encode(ServerMessage{st}));
  REQUIRE(st_back.has_value());
  CHECK(std::get<State>(st_back->message) == st);

  YourTurn turns;
  turns.games.push_back({"17", "bob", "standard", TimeControl::fixed_per_move(Millis{86'400'000}),
                         3, 86'391'000, "2026-12-02T14:00:00.000Z"});
  turns.games.push_back({"18", "carol", "standard", {}, 0, std::nullopt, std::nullopt});
  const auto turns_line = encode(ServerMessage{turns});
  CHECK(
      turns_line ==
      R"({"type":"your_turn","games":[{"game":"17","opponent":"bob","rules":"standard","time":{"per_move":86400.0},"plies":3,"left_ms":86391000,"deadline":"2026-12-02T14:00:00.000Z"},{"game":"18","opponent":"carol","rules":"standard","time":null,"plies":0}]})");
  auto turns_back = decode_server(turns_line);
  REQUIRE(turns_back.has_value());
  CHECK(std::get<YourTurn>(turns_back->message) == turns);
  CHECK_FALSE(decode_client(R"({"type":"create","lifetime":"a week"})").has_value());
}

TEST_CASE("protocol: messages are written byte for byte as dumping a JSON object wrote them") {
  // Strings that are written as they are, and strings that need nlohmann's escaping (quotes,
  // backslashes, control characters, UTF-8, invalid UTF-8 replaced).
  const std::vector<std::string> texts = {"",
                                          "d1-d7/g7",
                                          "alice_42",
                                          "a \"quoted\" word",
                                          "back\\slash",
                                          "tab\there",
                                          "line\nbreak",
                                          std::string("nul\0byte", 8),
                                          "\x01\x1f\x7f",
                                          "gl hf \xc3\xa9",
                                          "\xe2\x82\xac",
                                          "bad \xff\xfe utf-8",
                                          "cut \xc3"};
  const std::vector<RequestId> ids = {
      std::nullopt,        nlohmann::json(7),
      nlohmann::json(-3),  nlohmann::json(std::uint64_t{18'000'000'000'000'000'000u}),
      nlohmann::json("x"), nlohmann::json("q\"uote")};
  std::vector<ClientMessage> client = every_alternative<ClientMessage>();
  std::vector<ServerMessage> server = every_alternative<ServerMessage>();
  for (const auto& t : texts) {
    client.emplace_back(MoveMsg{t, t});
    client.emplace_back(ChatSend{t, t});
    client.emplace_back(Hello{1, t, t, std::nullopt, t, true});
    client.emplace_back(Create{t, TimeControl::fischer(Millis{60000}, Millis{500}),
                               ColorChoice::Black, true, true});
    server.emplace_back(Moved{t, 3, t, ClockView{299000, 300000, Color::Black}});
    server.emplace_back(make_error(ErrorCode::BadField, t, t));
    State st;
    st.game = t;
    st.variant = to_json(standard_variant());
    st.white = PlayerRef{t, 1500, false};
    st.moves = {t, "d1-d7/g7"};
    st.to_move = Color::Black;
    st.offline = {Color::White};
    server.emplace_back(st);
  }
  YourTurn turns;
  turns.games.push_back({"17", "bob", "standard", TimeControl::fixed_per_move(Millis{86'400'000}),
                         3, 86'391'000, "2026-12-02T14:00:00.000Z"});
  turns.games.push_back({"18", "carol", "standard", {}, 0, std::nullopt, std::nullopt});
  server.emplace_back(turns);
  TournamentInfo info;
  TournamentStanding standing;
  standing.name = "al";
  standing.points = 2.5;
  standing.tiebreak = 0.1;
  info.standings.push_back(standing);
  server.emplace_back(info);
  for (const auto& id : ids) {
    for (const auto& m : client) CHECK(encode(m, id) == encode_through_json(m, id));
    for (const auto& m : server) CHECK(encode(m, id) == encode_through_json(m, id));
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string t(static_cast<std::size_t>(rng() % 12), ' ');
    for (char& c : t) c = static_cast<char>(rng() % 256);
    const ServerMessage m{make_error(ErrorCode::BadField, t, t)};
    CHECK(encode(m) == encode_through_json(m, std::nullopt));
  }
}

namespace {

template <class Envelope>
void check_same_decoding(const Expected<Envelope, DecodeError>& fast,
                         const Expected<Envelope, DecodeError>& dom, const std::string& line) {
  INFO(line);
  REQUIRE(fast.has_value() == dom.has_value());
  const RequestId& a = fast ? fast->id : fast.error().id;
  const RequestId& b = dom ? dom->id : dom.error().id;
  REQUIRE(a.has_value() == b.has_value());
  if (a) {
    CHECK(*a == *b);
    CHECK(a->type() == b->type());  // 5 is an unsigned number for nlohmann's parser
  }
  if (fast) {
    CHECK(fast->message == dom->message);
  } else {
    CHECK(fast.error().code == dom.error().code);
    CHECK(fast.error().message == dom.error().message);
  }
}

}  // namespace

TEST_CASE("protocol: flat lines decode exactly as through nlohmann's DOM") {
  std::vector<std::string> lines = {
      R"({"type":"move","game":"17","move":"d1-d7/g7"})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":3})",
      R"({"type":"move","id":-3,"game":"17","move":"d1-d7/g7"})",
      R"({"type":"move","id":"r1","game":"17","move":"d1-d7/g7"})",
      R"(  { "type" : "move" ,"game":"17",	"move":"d1-d7/g7" }  )",
      "{\"type\":\"move\",\r\n\"game\":\"17\",\"move\":\"d1-d7/g7\"}\n",
      R"({"type":"move","game":"17","move":"d1-d7/g7","game":"18"})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","extra":[1,{"a":2}]})",
      R"({"type":"move","game":17,"move":"d1-d7/g7"})",
      R"({"type":"move","game":"17"})",
      R"({"type":"move","game":"1\u0037","move":"d1-d7/g7"})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":01})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":-0})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":1.0})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":1e3})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":123456789012345678})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":1234567890123456789})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":123456789012345678901234})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":true})",
      R"({"type":"move","game":"17","move":"d1-d7/g7","id":null})",
      R"({"type":"move","game":"17","move":"d1-d7/g7"} x)",
      R"({"type":"move","game":"17","move":"d1-d7/g7",})",
      R"({"type":"mo\"ve","game":"17"})",
      R"({"type":null})",
      R"({"type":"nope"})",
      R"({})",
      R"([])",
      R"({"type":"hello","protocol":1,"name":"al","bot":true})",
      R"({"type":"hello","protocol":1,"name":"al","bot":null})",
      R"({"type":"hello","protocol":2147483648,"name":"al"})",
      R"({"type":"hello","protocol":-2147483648,"name":"al"})",
      R"({"type":"hello","protocol":1,"name":"\u00e9"})",
      "{\"type\":\"hello\",\"protocol\":1,\"name\":\"\xc3\xa9\"}",
      "{\"type\":\"hello\",\"protocol\":1,\"name\":\"\xff\"}",
      "\xef\xbb\xbf{\"type\":\"ping\"}",
      R"({"type":"create","color":"blak"})",
      R"({"type":"create","rated":1})",
      R"({"type":"history","player":"bob","limit":5})",
      R"({"type":"record","game":"9","format":"text"})",
      R"({"type":"moved","game":"3","ply":1,"move":"d1-d7/g7"})",
      R"({"type":"moved","game":"3","ply":1,"move":"d1-d7/g7","clock":{"white":1,"black":2}})",
      R"({"type":"error","code":"bad_field","message":"m","game":null})",
      R"({"type":"tournament","tournament":5})",
  };
  for (const auto& m : every_alternative<ClientMessage>()) lines.push_back(encode(m, 4));
  for (const auto& m : every_alternative<ServerMessage>()) lines.push_back(encode(m, "x"));
  lines.push_back(encode(ClientMessage{ChatSend{"5", "gl hf"}}));
  lines.push_back(encode(ClientMessage{Join{"12", "inv"}}));
  lines.push_back(encode(ClientMessage{HistoryRequest{"bob", 5}}));
  // Every line cut short, and bytes changed at random into what JSON is made of.
  const std::string alphabet = "{}[]\":,\\ \t0123456789-+.eEtrufalsn\x01\x7f\xc3";
  std::mt19937 rng(11);
  const std::size_t samples = lines.size();
  for (std::size_t i = 0; i < samples; ++i) {
    for (std::size_t cut = 0; cut < lines[i].size(); cut += 3)
      lines.push_back(lines[i].substr(0, cut));
    for (int k = 0; k < 200; ++k) {
      std::string t = lines[i];
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !t.empty(); ++e) {
        const std::size_t at = rng() % t.size();
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            t[at] = c;
            break;
          case 1:
            t.insert(at, 1, c);
            break;
          default:
            t.erase(at, 1);
        }
      }
      lines.push_back(t);
    }
  }
  for (const auto& line : lines) {
    check_same_decoding(decode_client(line), detail::decode_client_through_dom(line), line);
    check_same_decoding(decode_server(line), detail::decode_server_through_dom(line), line);
  }
}

TEST_CASE("protocol: discovery datagrams round-trip and refuse junk") {
  DiscoveryReply r{"lan party", 7420, 1, 3, 1, true, true, "n1"};
  auto back = decode_discovery_reply(encode(r));
  REQUIRE(back.has_value());
  CHECK(*back == r);
  CHECK_FALSE(decode_discovery_query(R"({"type":"server"})").has_value());
  CHECK_FALSE(decode_discovery_query(std::string(2000, ' ')).has_value());
  auto q = decode_discovery_query(R"({"type":"discover","protocol":1})");
  REQUIRE(q.has_value());
  CHECK(q->nonce.empty());
}

TEST_CASE("framing: lines split across reads, CR LF, and several lines in one read") {
  LineFramer f;
  std::string line;
  f.append("{\"a\":");
  CHECK(f.next(line) == LineFramer::Status::NeedMore);
  f.append("1}\r\n{\"b\":2}\n{\"c\"");
  REQUIRE(f.next(line) == LineFramer::Status::Line);
  CHECK(line == "{\"a\":1}");
  REQUIRE(f.next(line) == LineFramer::Status::Line);
  CHECK(line == "{\"b\":2}");
  CHECK(f.next(line) == LineFramer::Status::NeedMore);
  f.append(":3}\n\n");
  REQUIRE(f.next(line) == LineFramer::Status::Line);
  CHECK(line == "{\"c\":3}");
  REQUIRE(f.next(line) == LineFramer::Status::Line);
  CHECK(line.empty());
  CHECK(f.buffered() == 0);
}

TEST_CASE("framing: a line over the limit is refused, one at the limit is not") {
  LineFramer f(10);
  std::string line;
  f.append(std::string(10, 'x') + "\r\n");
  REQUIRE(f.next(line) == LineFramer::Status::Line);
  CHECK(line.size() == 10);

  f.append(std::string(11, 'y'));
  CHECK(f.next(line) == LineFramer::Status::NeedMore);  // could still be 10 bytes + '\r'
  f.append("z");
  CHECK(f.next(line) == LineFramer::Status::TooLong);
  f.append("\n");
  CHECK(f.next(line) == LineFramer::Status::TooLong);  // stays failed

  LineFramer g(10);
  g.append(std::string(11, 'q') + "\n");
  CHECK(g.next(line) == LineFramer::Status::TooLong);
}

TEST_CASE("framing: the default limit is 64 KiB") {
  LineFramer f;
  std::string line;
  f.append(std::string(kMaxLineBytes, 'a') + "\n");
  CHECK(f.next(line) == LineFramer::Status::Line);
  f.append(std::string(kMaxLineBytes + 2, 'a'));
  CHECK(f.next(line) == LineFramer::Status::TooLong);
}

TEST_CASE("protocol: error codes have stable names") {
  CHECK(code(ErrorCode::BadJson) == "bad_json");
  CHECK(code(ErrorCode::NotYourTurn) == "not_your_turn");
  CHECK(code(ErrorCode::IllegalMove) == "illegal_move");
  CHECK(error_code_from("game_full") == ErrorCode::GameFull);
  CHECK_FALSE(error_code_from("nonsense").has_value());
}
