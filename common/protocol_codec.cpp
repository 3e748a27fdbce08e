#include "common/protocol_codec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

#include "common/protocol_discovery.h"
#include "common/protocol_enums.h"

namespace amazons::protocol {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// ---- reading ----------------------------------------------------------------------------------

// Reads one field value; on failure sets `error` to "path: problem" and leaves `out` alone.
struct Reader;

template <class T>
concept HasFields = requires(T& t, Reader& r) {
  T::fields(t, r);
};

void read_into(const json& j, std::string& out, const std::string& path, std::string& error);
void read_into(const json& j, int& out, const std::string& path, std::string& error);
void read_into(const json& j, std::int64_t& out, const std::string& path, std::string& error);
void read_into(const json& j, bool& out, const std::string& path, std::string& error);
void read_into(const json& j, double& out, const std::string& path, std::string& error);
void read_into(const json& j, json& out, const std::string& path, std::string& error);
void read_into(const json& j, TimeControl& out, const std::string& path, std::string& error);
template <class E>
requires std::is_enum_v<E>
void read_into(const json& j, E& out, const std::string& path, std::string& error);
template <class T>
void read_into(const json& j, std::vector<T>& out, const std::string& path, std::string& error);
template <class T>
void read_into(const json& j, std::optional<T>& out, const std::string& path, std::string& error);
template <HasFields T>
void read_into(const json& j, T& out, const std::string& path, std::string& error);

struct Reader {
  const json& object;
  const std::string& prefix;
  std::string& error;

  std::string path(const char* key) const { return prefix.empty() ? key : prefix + "." + key; }

  template <class T>
  void operator()(const char* key, T& value) {
    if (!error.empty()) return;
    const auto it = object.find(key);
    if (it == object.end()) {
      error = path(key) + ": missing";
      return;
    }
    read_into(*it, value, path(key), error);
  }
  template <class T>
  void operator()(const char* key, std::optional<T>& value) {
    if (!error.empty()) return;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      value.reset();
      return;
    }
    T v{};
    read_into(*it, v, path(key), error);
    if (error.empty()) value = std::move(v);
  }
  template <class T, class D>
  void operator()(const char* key, T& value, const D& fallback) {
    if (!error.empty()) return;
    const auto it = object.find(key);
    if (it == object.end()) {
      value = fallback;
      return;
    }
    read_into(*it, value, path(key), error);
  }
};

std::string type_problem(const json& j, const char* expected) {
  return std::string(": expected ") + expected + ", got " + j.type_name();
}

void read_into(const json& j, std::string& out, const std::string& path, std::string& error) {
  if (!j.is_string()) {
    error = path + type_problem(j, "a string");
    return;
  }
  out = j.get<std::string>();
}

void read_into(const json& j, std::int64_t& out, const std::string& path, std::string& error) {
  if (!j.is_number_integer()) {
    error = path + type_problem(j, "an integer");
    return;
  }
  if (j.is_number_unsigned() &&
      j.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    error = path + ": out of range";
    return;
  }
  out = j.get<std::int64_t>();
}

void read_into(const json& j, int& out, const std::string& path, std::string& error) {
  std::int64_t wide = 0;
  read_into(j, wide, path, error);
  if (!error.empty()) return;
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
    error = path + ": out of range";
    return;
  }
  out = static_cast<int>(wide);
}

void read_into(const json& j, double& out, const std::string& path, std::string& error) {
  if (!j.is_number()) {
    error = path + type_problem(j, "a number");
    return;
  }
  out = j.get<double>();
}

void read_into(const json& j, bool& out, const std::string& path, std::string& error) {
  if (!j.is_boolean()) {
    error = path + type_problem(j, "true or false");
    return;
  }
  out = j.get<bool>();
}

void read_into(const json& j, json& out, const std::string&, std::string&) { out = j; }

void read_into(const json& j, TimeControl& out, const std::string& path, std::string& error) {
  auto tc = time_control_from_json(j);
  if (!tc) {
    error = path + ": " + tc.error();
    return;
  }
  out = *tc;
}

template <class E>
requires std::is_enum_v<E>
void read_into(const json& j, E& out, const std::string& path, std::string& error) {
  if (!j.is_string()) {
    error = path + type_problem(j, "a string");
    return;
  }
  const auto v = enum_from<E>(j.get_ref<const std::string&>());
  if (!v) {
    error =
        path + ": expected one of " + enum_choices<E>() + ", got \"" + j.get<std::string>() + "\"";
    return;
  }
  out = *v;
}

template <class T>
void read_into(const json& j, std::vector<T>& out, const std::string& path, std::string& error) {
  if (!j.is_array()) {
    error = path + type_problem(j, "an array");
    return;
  }
  std::vector<T> items;
  items.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    T item{};
    read_into(j[i], item, path + "[" + std::to_string(i) + "]", error);
    if (!error.empty()) return;
    items.push_back(std::move(item));
  }
  out = std::move(items);
}

template <class T>
void read_into(const json& j, std::optional<T>& out, const std::string& path, std::string& error) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T v{};
  read_into(j, v, path, error);
  if (error.empty()) out = std::move(v);
}

template <HasFields T>
void read_into(const json& j, T& out, const std::string& path, std::string& error) {
  if (!j.is_object()) {
    error = (path.empty() ? std::string("message") : path) + type_problem(j, "an object");
    return;
  }
  T v{};
  Reader reader{j, path, error};
  T::fields(v, reader);
  if (error.empty()) out = std::move(v);
}

// ---- writing ----------------------------------------------------------------------------------

// The text is written straight from the field descriptions, as nlohmann's dump() of the object
// would write it (no spaces, invalid UTF-8 replaced): what is plain is appended as it is, and
// anything else (strings that need escaping or hold non-ASCII bytes, doubles, JSON values, time
// controls) is written by dump() itself, value by value. Building an ordered_json object first
// and dumping it took most of the time of encoding a message.
template <class J>
void append_dump(std::string& out, const J& value) {
  out += value.dump(-1, ' ', false, J::error_handler_t::replace);
}

void append_string(std::string& out, std::string_view s) {
  const bool plain = std::all_of(
      s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; });
  if (!plain) return append_dump(out, json(std::string(s)));
  out += '"';
  out += s;
  out += '"';
}

template <class I>
void append_integer(std::string& out, I v) {
  std::array<char, 24> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v).ptr;
  out.append(buffer.data(), end);
}

struct Writer;
template <class T>
concept HasWriteFields = requires(const T& t, Writer& w) {
  T::fields(t, w);
};

void write_value(std::string& out, const std::string& v) { append_string(out, v); }
void write_value(std::string& out, int v) { append_integer(out, v); }
void write_value(std::string& out, std::int64_t v) { append_integer(out, v); }
void write_value(std::string& out, bool v) { out += v ? "true" : "false"; }
void write_value(std::string& out, double v) { append_dump(out, json(v)); }
void write_value(std::string& out, const json& v) { append_dump(out, ordered_json(v)); }
void write_value(std::string& out, const TimeControl& v) {
  append_dump(out, ordered_json(to_json(v)));
}
template <class E>
requires std::is_enum_v<E>
void write_value(std::string& out, E e) { append_string(out, enum_name(e)); }
template <class T>
void write_value(std::string& out, const std::vector<T>& v);
template <class T>
void write_value(std::string& out, const std::optional<T>& v);
template <HasWriteFields T>
void write_value(std::string& out, const T& v);

// Writes the members of one object, each after a comma unless it is the first.
struct Writer {
  std::string& out;
  bool first = true;

  void key(const char* name) {
    if (!first) out += ',';
    first = false;
    append_string(out, name);
    out += ':';
  }
  template <class T>
  void operator()(const char* name, const T& value) {
    if constexpr (requires {
                    typename T::value_type;
                    value.has_value();
                  }) {
      if (!value) return;  // absent optional fields are left out
    }
    key(name);
    write_value(out, value);
  }
  template <class T, class D>
  void operator()(const char* name, const T& value, const D&) {
    key(name);
    write_value(out, value);
  }
};

template <class T>
void write_value(std::string& out, const std::vector<T>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    write_value(out, v[i]);
  }
  out += ']';
}
template <class T>
void write_value(std::string& out, const std::optional<T>& v) {
  if (v)
    write_value(out, *v);
  else
    out += "null";
}
template <HasWriteFields T>
void write_value(std::string& out, const T& v) {
  out += '{';
  Writer writer{out};
  T::fields(v, writer);
  out += '}';
}

// "type" and "id" come first; no message has fields of those names.
template <class Message>
std::string encode_message(const Message& message, const RequestId& id) {
  std::string out;
  out.reserve(128);
  out += '{';
  Writer writer{out};
  writer.key("type");
  append_string(out, Message::kType);
  if (id) {
    writer.key("id");
    append_dump(out, ordered_json(*id));
  }
  Message::fields(message, writer);
  out += '}';
  return out;
}

// ---- decoding ---------------------------------------------------------------------------------

// nlohmann's parser is iterative, but deep nesting still costs memory and time for nothing: no
// message nests deeper than a few levels.
constexpr int kMaxDepth = 32;

bool nesting_too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

Expected<json, DecodeError> parse_object(std::string_view line) {
  if (line.size() > kMaxLineBytes)
    return Unexpected(DecodeError{ErrorCode::LineTooLong,
                                  "line longer than " + std::to_string(kMaxLineBytes) + " bytes",
                                  std::nullopt});
  if (nesting_too_deep(line))
    return Unexpected(DecodeError{ErrorCode::BadJson,
                                  "nested deeper than " + std::to_string(kMaxDepth) + " levels",
                                  std::nullopt});
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {
    return Unexpected(DecodeError{ErrorCode::BadJson, e.what(), std::nullopt});
  }
  if (!j.is_object())
    return Unexpected(DecodeError{ErrorCode::BadJson,
                                  std::string("expected a JSON object, got ") + j.type_name(),
                                  std::nullopt});
  return j;
}

Expected<RequestId, DecodeError> read_id(const json& j) {
  const auto it = j.find("id");
  if (it == j.end() || it->is_null()) return RequestId{};
  if (it->is_number_integer()) return RequestId{*it};
  if (it->is_string() && it->get_ref<const std::string&>().size() <= 128) return RequestId{*it};
  return Unexpected(DecodeError{ErrorCode::BadField,
                                "id: expected a string of at most 128 bytes or an integer",
                                std::nullopt});
}

template <class Variant, class Envelope>
Expected<Envelope, DecodeError> decode_envelope(std::string_view line) {
  auto parsed = parse_object(line);
  if (!parsed) return Unexpected(parsed.error());
  const json& j = *parsed;
  auto id = read_id(j);
  if (!id) return Unexpected(id.error());
  const auto type_it = j.find("type");
  if (type_it == j.end()) return Unexpected(DecodeError{ErrorCode::BadField, "type: missing", *id});
  if (!type_it->is_string())
    return Unexpected(DecodeError{ErrorCode::BadField,
                                  std::string("type") + type_problem(*type_it, "a string"), *id});
  const auto& type = type_it->get_ref<const std::string&>();

  std::optional<Variant> message;
  std::string error;
  const auto try_one = [&]<class M>(M*) {
    if (message || M::kType != type) return;
    M m{};
    read_into(j, m, std::string(), error);
    message = std::move(m);
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (try_one(static_cast<std::variant_alternative_t<I, Variant>*>(nullptr)), ...);
  }
  (std::make_index_sequence<std::variant_size_v<Variant>>());

  if (!message)
    return Unexpected(
        DecodeError{ErrorCode::UnknownType, "unknown message type \"" + type + "\"", *id});
  if (!error.empty()) return Unexpected(DecodeError{ErrorCode::BadField, error, *id});
  return Envelope{*id, std::move(*message)};
}

template <class M>
Expected<M, DecodeError> decode_single(std::string_view text) {
  auto parsed = parse_object(text);
  if (!parsed) return Unexpected(parsed.error());
  const auto type_it = parsed->find("type");
  if (type_it == parsed->end() || !type_it->is_string() ||
      type_it->get_ref<const std::string&>() != M::kType)
    return Unexpected(DecodeError{ErrorCode::UnknownType,
                                  "expected a message of type \"" + std::string(M::kType) + "\"",
                                  std::nullopt});
  M m{};
  std::string error;
  read_into(*parsed, m, std::string(), error);
  if (!error.empty()) return Unexpected(DecodeError{ErrorCode::BadField, error, std::nullopt});
  return m;
}

}  // namespace

std::string_view code(ErrorCode e) { return enum_name(e); }
std::optional<ErrorCode> error_code_from(std::string_view text) {
  return enum_from<ErrorCode>(text);
}
std::string_view to_string(ColorChoice c) { return enum_name(c); }
std::string_view to_string(GameStatus s) { return enum_name(s); }
std::string_view to_string(RecordFormat f) { return enum_name(f); }

Expected<ClientEnvelope, DecodeError> decode_client(std::string_view line) {
  return decode_envelope<ClientMessage, ClientEnvelope>(line);
}
Expected<ServerEnvelope, DecodeError> decode_server(std::string_view line) {
  return decode_envelope<ServerMessage, ServerEnvelope>(line);
}

std::string encode(const ClientMessage& message, const RequestId& id) {
  return std::visit([&](const auto& m) { return encode_message(m, id); }, message);
}
std::string encode(const ServerMessage& message, const RequestId& id) {
  return std::visit([&](const auto& m) { return encode_message(m, id); }, message);
}

std::string_view type_of(const ClientMessage& message) {
  return std::visit([](const auto& m) { return std::decay_t<decltype(m)>::kType; }, message);
}
std::string_view type_of(const ServerMessage& message) {
  return std::visit([](const auto& m) { return std::decay_t<decltype(m)>::kType; }, message);
}

Error make_error(ErrorCode code, std::string message, std::optional<std::string> game) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.game = std::move(game);
  return e;
}

std::string encode_error(const DecodeError& error) {
  return encode(ServerMessage{make_error(error.code, error.message)}, error.id);
}

std::string encode(const DiscoveryQuery& q) { return encode_message(q, std::nullopt); }
std::string encode(const DiscoveryReply& r) { return encode_message(r, std::nullopt); }
Expected<DiscoveryQuery, DecodeError> decode_discovery_query(std::string_view datagram) {
  if (datagram.size() > kMaxDatagramBytes)
    return Unexpected(DecodeError{ErrorCode::LineTooLong, "datagram too long", std::nullopt});
  return decode_single<DiscoveryQuery>(datagram);
}
Expected<DiscoveryReply, DecodeError> decode_discovery_reply(std::string_view datagram) {
  if (datagram.size() > kMaxDatagramBytes)
    return Unexpected(DecodeError{ErrorCode::LineTooLong, "datagram too long", std::nullopt});
  return decode_single<DiscoveryReply>(datagram);
}

}  // namespace amazons::protocol
