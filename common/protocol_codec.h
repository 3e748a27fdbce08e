// Encoding and decoding of protocol messages: one JSON object per message, with stable error
// codes and errors that name the field path. Pure: no sockets. The server, the client
// connection library, the bots, the tests and the load generator all speak through it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/expected.h"
#include "common/protocol_client.h"
#include "common/protocol_server.h"

namespace amazons::protocol {

// The request id: a string or an integer chosen by the client, echoed in the direct reply.
using RequestId = std::optional<nlohmann::json>;

struct ClientEnvelope {
  RequestId id;
  ClientMessage message;
};
struct ServerEnvelope {
  RequestId id;
  ServerMessage message;
};

// Why a line could not be decoded. `id` is the request id when it could be read, so the error
// reply can still echo it.
struct DecodeError {
  ErrorCode code = ErrorCode::BadJson;
  std::string message;
  RequestId id;
};

Expected<ClientEnvelope, DecodeError> decode_client(std::string_view line);
Expected<ServerEnvelope, DecodeError> decode_server(std::string_view line);

namespace detail {
// The same, always through nlohmann's DOM: what decode_client and decode_server answer for every
// line, which the tests check line by line (flat lines are read without the DOM).
Expected<ClientEnvelope, DecodeError> decode_client_through_dom(std::string_view line);
Expected<ServerEnvelope, DecodeError> decode_server_through_dom(std::string_view line);
}  // namespace detail

// One line of JSON without the trailing '\n'.
std::string encode(const ClientMessage& message, const RequestId& id = std::nullopt);
std::string encode(const ServerMessage& message, const RequestId& id = std::nullopt);

std::string_view type_of(const ClientMessage& message);
std::string_view type_of(const ServerMessage& message);

// The error reply for a decode failure, with the request id echoed when there was one.
std::string encode_error(const DecodeError& error);
Error make_error(ErrorCode code, std::string message, std::optional<std::string> game = {});

}  // namespace amazons::protocol
