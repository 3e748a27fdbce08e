// Server addresses as people type them, parsed in one place for the desktop client, amazons-bot
// and amazons-loadgen:
//   host            the port defaults (7420)
//   host:port       a name or an IPv4 address
//   [v6addr]:port   an IPv6 address, in brackets (the port may be left out: [::1])
//   SCHEME://...    tcp:// (the default), tls:// (the JSON lines under TLS), ws:// and wss://
//                   (WebSocket at /ws, plain and under TLS; only amazons-loadgen speaks them)
// Spaces around the text are ignored; anything else that does not fit is refused with a code (for
// a client to say in its words) and a sentence that says what is wrong.
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

// Why a text is not a server address: a code that a client says in its own words, the text as
// written, and what the code is about where it has something (the scheme, the path, the
// transport).
struct AddressError {
  enum class Code : std::uint8_t {
    Empty,            // nothing given
    UnknownScheme,    // detail: the scheme ("http")
    HasPath,          // detail: the path ("/lobby")
    UnclosedBracket,  // "[::1" without its ']'
    ExpectedPort,     // something other than ":PORT" after ']'
    BracketsNeeded,   // an IPv6 address without brackets
    ExtraColon,       // "localhost:7420:": two ':' in what cannot be an IPv6 address
    NoHost,           // ":7420", "tls://"
    BadHost,          // a character no host name has (space, '/', '@', ...)
    BadPort,          // not a number from 1 to 65535
    EmptyItem,        // an empty address after a comma
    MixedTransports,  // detail: the first address's transport ("tcp")
  };
  Code code = Code::Empty;
  std::string text;
  std::string detail;
  friend bool operator==(const AddressError&, const AddressError&) = default;
};
// "unknown_scheme": the code as the clients' catalogues name it (online.address.CODE).
std::string_view code_name(AddressError::Code code);
// The English sentence: 'server "http://h": unknown scheme "http://" (tcp://, tls://, ws:// or
// wss://)'.
std::string describe(const AddressError& e);

Expected<ServerAddress, AddressError> read_server_address(
    std::string_view text, unsigned short default_port = kDefaultPort);
// Several addresses of one service (the nodes of a cluster), separated by commas:
// "a:7420,b:7420" or "tls://a,tls://b". All use one transport; a scheme on the first applies to
// the ones that give none. Empty items and mixed transports are refused.
Expected<std::vector<ServerAddress>, AddressError> read_server_addresses(
    std::string_view text, unsigned short default_port = kDefaultPort);

// The same with the error as describe() says it.
Expected<ServerAddress, std::string> parse_server_address(
    std::string_view text, unsigned short default_port = kDefaultPort);
Expected<std::vector<ServerAddress>, std::string> parse_server_addresses(
    std::string_view text, unsigned short default_port = kDefaultPort);
// "host:port" or "[v6]:port", without the scheme: the key a pinned certificate is stored under.
std::string host_port(const ServerAddress& a);
// host_port() with "tls://", "ws://" or "wss://" before it when the transport is not plain TCP:
// text that parse_server_address() reads back as the same address.
std::string to_string(const ServerAddress& a);

}  // namespace amazons::net
