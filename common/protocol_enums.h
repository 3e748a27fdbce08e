// The wire names of the protocol's enums: one table per enum, read by the codec and by the
// TypeScript generator (web/), so a name exists in exactly one place.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/game_record.h"
#include "common/protocol_types.h"
#include "common/types.h"

namespace amazons::protocol {

template <class E>
struct EnumNames;

template <>
struct EnumNames<Color> {
  static constexpr std::array<std::pair<Color, std::string_view>, 2> kValues{
      {{Color::White, "white"}, {Color::Black, "black"}}};
};
template <>
struct EnumNames<ColorChoice> {
  static constexpr std::array<std::pair<ColorChoice, std::string_view>, 3> kValues{
      {{ColorChoice::White, "white"},
       {ColorChoice::Black, "black"},
       {ColorChoice::Random, "random"}}};
};
template <>
struct EnumNames<GameStatus> {
  static constexpr std::array<std::pair<GameStatus, std::string_view>, 3> kValues{
      {{GameStatus::Open, "open"},
       {GameStatus::Active, "active"},
       {GameStatus::Finished, "finished"}}};
};
template <>
struct EnumNames<RecordFormat> {
  static constexpr std::array<std::pair<RecordFormat, std::string_view>, 2> kValues{
      {{RecordFormat::Json, "json"}, {RecordFormat::Text, "text"}}};
};
template <>
struct EnumNames<EndReason> {
  static constexpr const auto& kValues = kEndReasonCodes;  // common/game_record.h
};
template <>
struct EnumNames<ErrorCode> {
  static constexpr std::array<std::pair<ErrorCode, std::string_view>, 32> kValues{{
      {ErrorCode::BadJson, "bad_json"},
      {ErrorCode::UnknownType, "unknown_type"},
      {ErrorCode::BadField, "bad_field"},
      {ErrorCode::LineTooLong, "line_too_long"},
      {ErrorCode::ProtocolVersion, "protocol_version"},
      {ErrorCode::NotLoggedIn, "not_logged_in"},
      {ErrorCode::AlreadyLoggedIn, "already_logged_in"},
      {ErrorCode::AuthFailed, "auth_failed"},
      {ErrorCode::NameTaken, "name_taken"},
      {ErrorCode::NoSuchGame, "no_such_game"},
      {ErrorCode::NoSuchPlayer, "no_such_player"},
      {ErrorCode::NoSuchChallenge, "no_such_challenge"},
      {ErrorCode::GameFull, "game_full"},
      {ErrorCode::NotAPlayer, "not_a_player"},
      {ErrorCode::NotYourTurn, "not_your_turn"},
      {ErrorCode::IllegalMove, "illegal_move"},
      {ErrorCode::GameNotActive, "game_not_active"},
      {ErrorCode::NotAllowed, "not_allowed"},
      {ErrorCode::TooLong, "too_long"},
      {ErrorCode::RateLimited, "rate_limited"},
      {ErrorCode::TooManyErrors, "too_many_errors"},
      {ErrorCode::TooManyConnections, "too_many_connections"},
      {ErrorCode::IdleTimeout, "idle_timeout"},
      {ErrorCode::Replaced, "replaced"},
      {ErrorCode::Internal, "internal"},
      {ErrorCode::TlsRequired, "tls_required"},
      {ErrorCode::Forbidden, "forbidden"},
      {ErrorCode::Banned, "banned"},
      {ErrorCode::Muted, "muted"},
      {ErrorCode::Kicked, "kicked"},
      {ErrorCode::RegistrationsClosed, "registrations_closed"},
      {ErrorCode::Unavailable, "unavailable"},
  }};
};
template <>
struct EnumNames<Role> {
  static constexpr std::array<std::pair<Role, std::string_view>, 3> kValues{
      {{Role::Player, "player"}, {Role::Moderator, "moderator"}, {Role::Admin, "admin"}}};
};

template <class E>
std::string_view enum_name(E e) {
  for (const auto& [value, name] : EnumNames<E>::kValues)
    if (value == e) return name;
  return "?";
}

template <class E>
std::optional<E> enum_from(std::string_view text) {
  for (const auto& [value, name] : EnumNames<E>::kValues)
    if (name == text) return value;
  return std::nullopt;
}

template <class E>
std::string enum_choices() {
  std::string out;
  for (const auto& [value, name] : EnumNames<E>::kValues) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace amazons::protocol
