// Server addresses as people type them, parsed in one place for the desktop client, amazons-bot
// and amazons-loadgen:
//   host            the port defaults (7420)
//   host:port       a name or an IPv4 address
//   [v6addr]:port   an IPv6 address, in brackets (the port may be left out: [::1])
//   SCHEME://...    tcp:// (the default), tls:// (the JSON lines under TLS), ws:// and wss://
//                   (WebSocket at /ws, plain and under TLS; only amazons-loadgen speaks them)
// Spaces around the text are ignored; anything else that does not fit is refused with a sentence
// that says what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"
#include "common/transport.h"

namespace amazons::net {

inline constexpr unsigned short kDefaultPort = 7420;

struct ServerAddress {
  std::string host;  // a name, an IPv4 or an IPv6 address (without brackets)
  unsigned short port = kDefaultPort;
  Transport transport = Transport::Tcp;
  friend bool operator==(const ServerAddress&, const ServerAddress&) = default;
};

Expected<ServerAddress, std::string> parse_server_address(
    std::string_view text, unsigned short default_port = kDefaultPort);
// Several addresses of one service (the nodes of a cluster), separated by commas:
// "a:7420,b:7420" or "tls://a,tls://b". All use one transport; a scheme on the first applies to
// the ones that give none. Empty items and mixed transports are refused.
Expected<std::vector<ServerAddress>, std::string> parse_server_addresses(
    std::string_view text, unsigned short default_port = kDefaultPort);
// "host:port" or "[v6]:port", without the scheme: the key a pinned certificate is stored under.
std::string host_port(const ServerAddress& a);
// host_port() with "tls://", "ws://" or "wss://" before it when the transport is not plain TCP:
// text that parse_server_address() reads back as the same address.
std::string to_string(const ServerAddress& a);

}  // namespace amazons::net
