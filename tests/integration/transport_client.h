// A blocking test client for every door of the server's port: JSON lines over TCP or TLS, and
// one message per text frame over WebSocket (plain or TLS). Built on Asio and Beast, with a
// timeout on every call, so a test never hangs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/time_control.h"

namespace amazons::test {

enum class Wire { Tcp, Tls, Ws, Wss };
const char* to_string(Wire w);

struct WireOptions {
  std::string host = "127.0.0.1";
  std::string source;  // TCP only: the local address to connect from ("127.0.0.2"), if not empty
  std::optional<std::string> origin;  // the Origin header of a WebSocket upgrade
  std::string path = "/ws";
  Millis timeout{5000};
};

class TransportClient {
 public:
  // Connects (and for TLS shakes hands without checking the certificate: the tests check the
  // fingerprint themselves). The error says what failed, e.g. "upgrade refused: 403".
  static Expected<TransportClient, std::string> connect(Wire wire, unsigned short port,
                                                        WireOptions options = {});
  TransportClient(TransportClient&&) noexcept;
  TransportClient& operator=(TransportClient&&) noexcept;
  ~TransportClient();

  // One message: a line (the '\n' is added) or a text frame. False once the connection is gone.
  bool send(std::string_view message);
  // Raw bytes on the wire beneath TLS/WebSocket framing is not offered; for TCP, bytes as they are.
  bool send_raw(std::string_view bytes);
  // The next message, or nullopt on timeout or close (closed() tells them apart).
  std::optional<std::string> read(Millis timeout = Millis{5000});
  // Everything until the server closes the connection or the timeout (TCP and TLS: for HTTP).
  std::string read_until_closed(Millis timeout = Millis{5000});
  bool closed() const;
  // WebSocket wires: sends `count` pings one after another (stopping if the connection goes),
  // then reads until every pong came, the server closed the connection, or the timeout.
  // Returns the pongs received.
  int ping_flood(int count, Millis timeout = Millis{10000});
  // The WebSocket close code the server sent, once closed.
  std::optional<int> close_code() const;
  // The SHA-256 fingerprint of the certificate the server showed (TLS wires).
  std::string peer_fingerprint() const;

 private:
  struct Impl;
  explicit TransportClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace amazons::test
