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

// ---- decoding flat objects without a DOM --------------------------------------------------------

// Most lines are flat objects of plain strings and small integers (a move is
// {"type":"move","game":"17","move":"d1-d7/g7"}). Those are read here without building
// nlohmann's DOM, which took most of the time of decoding one. Only what is read exactly as
// nlohmann reads it is accepted: strings of printable ASCII without escapes, integers written
// plainly with at most 18 digits, true, false, null, JSON whitespace, every key once. Anything
// else, and every line that would be refused, goes the DOM's way, so that errors and values
// are the same whichever way a line went.
struct FlatValue {
  enum class Kind { String, Integer, True, False, Null };
  Kind kind = Kind::Null;
  std::string_view text;  // a string's characters, without the quotes
  std::int64_t number = 0;
};
struct FlatMember {
  std::string_view key;
  FlatValue value;
};
constexpr std::size_t kMaxFlatMembers = 12;

class FlatObject {
 public:
  // Empty when the line is not a flat object of the kinds above.
  static std::optional<FlatObject> parse(std::string_view line) {
    FlatObject o;
    Scanner s{line};
    if (!s.take('{')) return std::nullopt;
    if (s.peek() == '}') return std::nullopt;  // no type: the DOM's way says so
    for (;;) {
      if (o.count_ == kMaxFlatMembers) return std::nullopt;
      FlatMember& m = o.members_[o.count_];
      if (!s.string(m.key) || !s.take(':') || !s.value(m.value)) return std::nullopt;
      if (o.find(m.key) != nullptr) return std::nullopt;  // a repeated key: the last one wins there
      ++o.count_;
      if (s.take(',')) continue;
      if (!s.take('}')) return std::nullopt;
      break;
    }
    s.skip_space();
    if (!s.at_end()) return std::nullopt;
    return o;
  }

  const FlatValue* find(std::string_view key) const {
    for (std::size_t i = 0; i < count_; ++i)
      if (members_[i].key == key) return &members_[i].value;
    return nullptr;
  }

 private:
  struct Scanner {
    std::string_view text;
    std::size_t at = 0;

    bool at_end() const { return at == text.size(); }
    void skip_space() {
      while (at < text.size() &&
             (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r'))
        ++at;
    }
    char peek() {
      skip_space();
      return at < text.size() ? text[at] : '\0';
    }
    bool take(char c) {
      if (peek() != c) return false;
      ++at;
      return true;
    }
    bool string(std::string_view& out) {
      if (!take('"')) return false;
      const std::size_t from = at;
      while (at < text.size() && text[at] != '"') {
        const char c = text[at];
        if (c < 0x20 || c >= 0x7F || c == '\\') return false;
        ++at;
      }
      if (at == text.size()) return false;
      out = text.substr(from, at - from);
      ++at;
      return true;
    }
    bool literal(std::string_view word) {
      if (text.substr(at, word.size()) != word) return false;
      at += word.size();
      return true;
    }
    bool value(FlatValue& v) {
      const char c = peek();
      if (c == '"') {
        v.kind = FlatValue::Kind::String;
        return string(v.text);
      }
      if (c == 't') {
        v.kind = FlatValue::Kind::True;
        return literal("true");
      }
      if (c == 'f') {
        v.kind = FlatValue::Kind::False;
        return literal("false");
      }
      if (c == 'n') {
        v.kind = FlatValue::Kind::Null;
        return literal("null");
      }
      return integer(v);
    }
    bool integer(FlatValue& v) {
      const std::size_t from = at;
      const bool negative = at < text.size() && text[at] == '-';
      if (negative) ++at;
      const std::size_t digits_from = at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
      const std::size_t digits = at - digits_from;
      if (digits == 0 || digits > 18) return false;
      if (text[digits_from] == '0' && (digits > 1 || negative)) return false;  // 01, -0
      if (at < text.size() && (text[at] == '.' || text[at] == 'e' || text[at] == 'E')) return false;
      std::from_chars(text.data() + from, text.data() + at, v.number);
      v.kind = FlatValue::Kind::Integer;
      return true;
    }
  };

  std::array<FlatMember, kMaxFlatMembers> members_{};
  std::size_t count_ = 0;
};

// Reads a message's fields from a flat object as Reader reads them from the DOM; `ok` turns
// false at anything Reader would refuse or that a flat object cannot hold, and the line then
// goes the DOM's way.
struct FlatReader {
  const FlatObject& object;
  bool ok = true;

  bool read(const FlatValue& v, std::string& out) {
    if (v.kind != FlatValue::Kind::String) return false;
    out.assign(v.text);
    return true;
  }
  bool read(const FlatValue& v, std::int64_t& out) {
    if (v.kind != FlatValue::Kind::Integer) return false;
    out = v.number;
    return true;
  }
  bool read(const FlatValue& v, int& out) {
    if (v.kind != FlatValue::Kind::Integer || v.number < std::numeric_limits<int>::min() ||
        v.number > std::numeric_limits<int>::max())
      return false;
    out = static_cast<int>(v.number);
    return true;
  }
  bool read(const FlatValue& v, bool& out) {
    if (v.kind != FlatValue::Kind::True && v.kind != FlatValue::Kind::False) return false;
    out = v.kind == FlatValue::Kind::True;
    return true;
  }
  template <class E>
  requires std::is_enum_v<E>
  bool read(const FlatValue& v, E& out) {
    if (v.kind != FlatValue::Kind::String) return false;
    const auto e = enum_from<E>(v.text);
    if (!e) return false;
    out = *e;
    return true;
  }
  template <class T>
  bool read(const FlatValue& v, std::optional<T>& out) {
    if (v.kind == FlatValue::Kind::Null) {
      out.reset();
      return true;
    }
    T value{};
    if (!read(v, value)) return false;
    out = std::move(value);
    return true;
  }
  // Doubles, JSON values, time controls, arrays and objects: the DOM's way.
  template <class T>
  bool read(const FlatValue&, T&) {
    return false;
  }

  template <class T>
  void operator()(const char* key, T& value) {
    if (!ok) return;
    const FlatValue* v = object.find(key);
    ok = v != nullptr && read(*v, value);
  }
  template <class T>
  void operator()(const char* key, std::optional<T>& value) {
    if (!ok) return;
    const FlatValue* v = object.find(key);
    if (v == nullptr || v->kind == FlatValue::Kind::Null) {
      value.reset();
      return;
    }
    T read_value{};
    ok = read(*v, read_value);
    if (ok) value = std::move(read_value);
  }
  template <class T, class D>
  void operator()(const char* key, T& value, const D& fallback) {
    if (!ok) return;
    const FlatValue* v = object.find(key);
    if (v == nullptr) {
      value = fallback;
      return;
    }
    ok = read(*v, value);
  }
};

// The envelope of a flat line, or nothing when it must go the DOM's way.
template <class Variant, class Envelope>
std::optional<Envelope> decode_flat(std::string_view line) {
  if (line.size() > kMaxLineBytes) return std::nullopt;
  const auto object = FlatObject::parse(line);
  if (!object) return std::nullopt;
  RequestId id;
  if (const FlatValue* v = object->find("id")) {
    if (v->kind == FlatValue::Kind::Integer) {
      // As nlohmann's parser types it: unsigned when not negative.
      id = v->number < 0 ? json(v->number) : json(static_cast<std::uint64_t>(v->number));
    } else if (v->kind == FlatValue::Kind::String && v->text.size() <= 128) {
      id = json(std::string(v->text));
    } else if (v->kind != FlatValue::Kind::Null) {
      return std::nullopt;
    }
  }
  const FlatValue* type = object->find("type");
  if (type == nullptr || type->kind != FlatValue::Kind::String) return std::nullopt;
  std::optional<Envelope> out;
  const auto try_one = [&]<class M>(M*) {
    if (out || M::kType != type->text) return;
    M m{};
    FlatReader reader{*object};
    M::fields(m, reader);
    if (reader.ok) out = Envelope{std::move(id), std::move(m)};
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (try_one(static_cast<std::variant_alternative_t<I, Variant>*>(nullptr)), ...);
  }
  (std::make_index_sequence<std::variant_size_v<Variant>>());
  return out;
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
  if (auto flat = decode_flat<ClientMessage, ClientEnvelope>(line)) return std::move(*flat);
  return decode_envelope<ClientMessage, ClientEnvelope>(line);
}
Expected<ServerEnvelope, DecodeError> decode_server(std::string_view line) {
  if (auto flat = decode_flat<ServerMessage, ServerEnvelope>(line)) return std::move(*flat);
  return decode_envelope<ServerMessage, ServerEnvelope>(line);
}

namespace detail {
Expected<ClientEnvelope, DecodeError> decode_client_through_dom(std::string_view line) {
  return decode_envelope<ClientMessage, ClientEnvelope>(line);
}
Expected<ServerEnvelope, DecodeError> decode_server_through_dom(std::string_view line) {
  return decode_envelope<ServerMessage, ServerEnvelope>(line);
}
}  // namespace detail

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
