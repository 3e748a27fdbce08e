#include "common/protocol_typescript.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/game_record.h"
#include "common/protocol_client.h"
#include "common/protocol_enums.h"
#include "common/protocol_server.h"
#include "common/variant.h"

namespace amazons::protocol {

namespace {

// A constant for TypeScript: as JSON writes the number ("2", "2.5").
std::string number(double value) { return nlohmann::json(value).dump(); }

// Who decodes a message decides what a default means: the server fills a client's missing
// field in, while the server's encoder writes every defaulted field.
enum class Direction : std::uint8_t { ToServer, ToClient };

// The TypeScript names of the enums and of the shared shapes. A type used in a message but
// missing here fails to compile (no primary definition), so nothing goes out unnamed.
template <class T>
struct TsName;
template <>
struct TsName<Color> {
  static constexpr std::string_view kName = "Color";
};
template <>
struct TsName<ColorChoice> {
  static constexpr std::string_view kName = "ColorChoice";
};
template <>
struct TsName<GameStatus> {
  static constexpr std::string_view kName = "GameStatus";
};
template <>
struct TsName<RecordFormat> {
  static constexpr std::string_view kName = "RecordFormat";
};
template <>
struct TsName<EndReason> {
  static constexpr std::string_view kName = "EndReason";
};
template <>
struct TsName<ErrorCode> {
  static constexpr std::string_view kName = "ErrorCode";
};
template <>
struct TsName<Role> {
  static constexpr std::string_view kName = "Role";
};
template <>
struct TsName<AuditEntry> {
  static constexpr std::string_view kName = "AuditEntry";
};
template <>
struct TsName<ReportInfo> {
  static constexpr std::string_view kName = "ReportInfo";
};
template <>
struct TsName<SanctionInfo> {
  static constexpr std::string_view kName = "SanctionInfo";
};
template <>
struct TsName<PlayerRef> {
  static constexpr std::string_view kName = "Player";
};
template <>
struct TsName<ClockView> {
  static constexpr std::string_view kName = "Clock";
};
template <>
struct TsName<GameSummary> {
  static constexpr std::string_view kName = "GameSummary";
};
template <>
struct TsName<ArchiveEntry> {
  static constexpr std::string_view kName = "ArchiveEntry";
};
template <>
struct TsName<LeaderboardEntry> {
  static constexpr std::string_view kName = "LeaderboardEntry";
};
template <>
struct TsName<TournamentSummary> {
  static constexpr std::string_view kName = "TournamentSummary";
};
template <>
struct TsName<TournamentStanding> {
  static constexpr std::string_view kName = "TournamentStanding";
};
template <>
struct TsName<TournamentPairing> {
  static constexpr std::string_view kName = "TournamentPairing";
};
template <>
struct TsName<RatingChange> {
  static constexpr std::string_view kName = "RatingChange";
};
template <>
struct TsName<OnlinePlayer> {
  static constexpr std::string_view kName = "OnlinePlayer";
};
template <>
struct TsName<TurnInfo> {
  static constexpr std::string_view kName = "TurnInfo";
};
template <>
struct TsName<GameResultView> {
  static constexpr std::string_view kName = "GameResult";
};

// Fields typed as raw JSON in C++ carry documents with their own definitions elsewhere
// (docs/GAME_RECORD.md); the prelude below declares their shapes.
std::string_view json_field_type(std::string_view key) {
  if (key == "variant") return "Variant";
  if (key == "record") return "GameRecordJson | string";
  return "unknown";
}

constexpr std::string_view kPrelude = R"(export type RequestId = string | number;

// null: no clock; Fischer: initial time plus an increment per move; or a fixed time per move.
// Seconds, fractions allowed.
export type TimeControl = null | { initial: number; increment: number } | { per_move: number };

// The rule variant in full (docs/GAME_RECORD.md "rules").
export interface Variant {
  name: string;
  description?: string;
  size: number;
  white: string[];
  black: string[];
  first: Color;
}

// A game record (docs/GAME_RECORD.md), as the record reply carries it for format "json".
export interface GameRecordJson {
  format: string;
  rules: Variant;
  white?: { name: string; rating?: number; bot?: boolean };
  black?: { name: string; rating?: number; bot?: boolean };
  time_control?: TimeControl;
  start?: string;
  moves: (string | { move: string; elapsed_ms?: number; clock_ms?: number })[];
  result?: null | { winner?: Color | null; reason: EndReason };
  started_at?: string;
  ended_at?: string;
}
)";

struct Emitter {
  std::string named;  // enums and shapes, in order of first use
  std::set<std::string_view> emitted;
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {
  using Inner = T;
};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {
  using Inner = T;
};

struct FieldVisitor;
template <class T>
concept Described = requires(T& t, FieldVisitor& v) {
  T::fields(t, v);
};

template <class T>
std::string ts_type(Emitter& e, std::string_view key);

template <class T>
std::string interface_body(Emitter& e, Direction dir);

struct FieldVisitor {
  Emitter& e;
  Direction dir;
  std::string& body;

  template <class T>
  void operator()(const char* key, T&) {
    add<T>(key, IsOptional<T>::value);
  }
  template <class T, class D>
  void operator()(const char* key, T&, const D&) {
    add<T>(key, IsOptional<T>::value || dir == Direction::ToServer);
  }

  template <class T>
  void add(std::string_view key, bool optional) {
    std::string type;
    if constexpr (IsOptional<T>::value)
      type = ts_type<typename IsOptional<T>::Inner>(e, key);
    else
      type = ts_type<T>(e, key);
    body += "  ";
    body += key;
    body += optional ? "?: " : ": ";
    body += type;
    body += ";\n";
  }
};

template <class E>
void emit_enum(Emitter& e) {
  const std::string_view name = TsName<E>::kName;
  if (!e.emitted.insert(name).second) return;
  // One line when it is short, else one value per line.
  std::string one_line, lines;
  for (const auto& [value, text] : EnumNames<E>::kValues) {
    one_line += (one_line.empty() ? " \"" : " | \"") + std::string(text) + '"';
    lines += "\n  | \"" + std::string(text) + '"';
  }
  const std::string head = "export type " + std::string(name) + " =";
  e.named += head + (head.size() + one_line.size() <= 100 ? one_line : lines) + ";\n\n";
}

template <class T>
void emit_shape(Emitter& e) {
  const std::string_view name = TsName<T>::kName;
  if (!e.emitted.insert(name).second) return;
  // Built before appending: the body may emit the shapes it uses.
  const std::string body = interface_body<T>(e, Direction::ToClient);
  e.named += "export interface " + std::string(name) + " {\n" + body + "}\n\n";
}

template <class T>
std::string ts_type(Emitter& e, std::string_view key) {
  if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "boolean";
  } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, std::int64_t> ||
                       std::is_same_v<T, double>) {
    return "number";
  } else if constexpr (std::is_same_v<T, nlohmann::json>) {
    return std::string(json_field_type(key));
  } else if constexpr (std::is_same_v<T, TimeControl>) {
    return "TimeControl";
  } else if constexpr (std::is_enum_v<T>) {
    emit_enum<T>(e);
    return std::string(TsName<T>::kName);
  } else if constexpr (IsVector<T>::value) {
    const std::string inner = ts_type<typename IsVector<T>::Inner>(e, key);
    return inner.find(' ') == std::string::npos ? inner + "[]" : "(" + inner + ")[]";
  } else {
    static_assert(Described<T>, "a field type the generator does not know");
    emit_shape<T>(e);
    return std::string(TsName<T>::kName);
  }
}

template <class T>
std::string interface_body(Emitter& e, Direction dir) {
  std::string body;
  T value{};
  FieldVisitor visitor{e, dir, body};
  T::fields(value, visitor);
  return body;
}

std::string pascal_case(std::string_view type) {
  std::string out;
  bool upper = true;
  for (const char c : type) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

template <class Variant>
std::string emit_messages(Emitter& e, Direction dir, std::string_view suffix,
                          std::string_view union_name) {
  std::string out;
  std::vector<std::string> names;
  const auto one = [&]<class M>(M*) {
    const std::string name = pascal_case(M::kType) + std::string(suffix);
    names.push_back(name);
    out += "export interface " + name + " {\n  type: \"" + std::string(M::kType) +
           "\";\n  id?: RequestId;\n" + interface_body<M>(e, dir) + "}\n\n";
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (one(static_cast<std::variant_alternative_t<I, Variant>*>(nullptr)), ...);
  }
  (std::make_index_sequence<std::variant_size_v<Variant>>());
  out += "export type " + std::string(union_name) + " =";
  for (const auto& n : names) out += "\n  | " + n;
  out += ";\n\n";
  return out;
}

}  // namespace

std::string typescript_declarations() {
  Emitter e;
  // Every enum up front, also those no message field uses yet (ErrorCode through Error.code).
  emit_enum<Color>(e);
  emit_enum<ColorChoice>(e);
  emit_enum<GameStatus>(e);
  emit_enum<RecordFormat>(e);
  emit_enum<EndReason>(e);
  emit_enum<ErrorCode>(e);
  emit_enum<Role>(e);
  const std::string client =
      emit_messages<ClientMessage>(e, Direction::ToServer, "Request", "ClientMessage");
  const std::string server =
      emit_messages<ServerMessage>(e, Direction::ToClient, "Message", "ServerMessage");
  std::string out;
  out +=
      "// Generated by amazons-protocol-ts from the field descriptions in common/protocol_*.h.\n"
      "// Do not edit: change the C++ messages and rebuild.\n\n";
  out += "export const PROTOCOL_VERSION = " + std::to_string(kVersion) + ";\n";
  out += "export const MAX_MESSAGE_BYTES = " + std::to_string(kMaxLineBytes) + ";\n";
  // The built-in variants, for what the page does without a server (a game against the engine
  // in the browser): the rules core's own definitions, never copied by hand.
  out += "export const BUILTIN_VARIANTS: readonly Variant[] = [\n";
  for (const RuleVariant& v : {standard_variant(), botzone8_variant()})
    out += "  " + to_json(v).dump() + ",\n";
  out += "];\n";
  // What the web client's review of a game marks, as amazons-engine analyse does.
  out += "export const ANALYSIS_SQUARES = { mistake: " + number(MoveAnnotation::kMistakeSquares) +
         ", blunder: " + number(MoveAnnotation::kBlunderSquares) +
         ", decisive: " + number(MoveAnnotation::kDecisiveSquares) +
         ", decided: " + number(MoveAnnotation::kDecidedSquares) + " } as const;\n\n";
  out += kPrelude;
  out += "\n";
  out += e.named;
  out += "// ---- client -> server ----\n\n" + client;
  out += "// ---- server -> client ----\n\n" + server;
  out +=
      "export type ClientType = ClientMessage[\"type\"];\n"
      "export type ServerType = ServerMessage[\"type\"];\n"
      "export type ServerMessageOf<T extends ServerType> = Extract<ServerMessage, { type: T }>;\n";
  return out;
}

}  // namespace amazons::protocol
