// How a connection carries the protocol: JSON lines or WebSocket frames, each plain or under TLS.
// One enum for both ends: the clients' addresses (net/address.h: tcp://, tls://, ws://, wss://)
// and the server's connections (server/http/transport.h: logs, metrics and the TLS rules).
#pragma once

#include <cstdint>
#include <string_view>

namespace amazons {

enum class Transport : std::uint8_t {
  Tcp,              // JSON lines over plain TCP
  Tls,              // JSON lines under TLS
  WebSocket,        // one JSON message per text frame, plain HTTP upgrade at /ws
  SecureWebSocket,  // the same under TLS
};

// "tcp", "tls", "ws", "wss": an address's scheme, and the name in logs and metrics.
constexpr std::string_view to_string(Transport t) {
  switch (t) {
    case Transport::Tcp:
      return "tcp";
    case Transport::Tls:
      return "tls";
    case Transport::WebSocket:
      return "ws";
    case Transport::SecureWebSocket:
      return "wss";
  }
  return "tcp";
}

// Is this transport encrypted (TLS underneath)?
constexpr bool uses_tls(Transport t) {
  return t == Transport::Tls || t == Transport::SecureWebSocket;
}

}  // namespace amazons
