// LAN discovery datagrams (docs/PROTOCOL.md "LAN discovery"). net/discovery.h sends the query,
// the server answers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/protocol_codec.h"

namespace amazons::protocol {

// A query sent over UDP to the discovery port, and the answer every server sends back. Both are
// single JSON objects, one per datagram, at most kMaxDatagramBytes.
inline constexpr std::size_t kMaxDatagramBytes = 1024;

struct DiscoveryQuery {
  static constexpr std::string_view kType = "discover";
  int protocol = kVersion;
  std::string nonce;  // echoed, so the client can match answers to its query
  static void fields(auto& s, auto& v) {
    v("protocol", s.protocol);
    v("nonce", s.nonce, std::string());
  }
  friend bool operator==(const DiscoveryQuery&, const DiscoveryQuery&) = default;
};

struct DiscoveryReply {
  static constexpr std::string_view kType = "server";
  std::string name;
  int port = 0;  // the TCP port of the game server
  int protocol = kVersion;
  int players = 0;
  int games = 0;
  bool password = false;  // a server password is needed
  bool tls = false;       // the port also speaks TLS (connect with tls://)
  std::string nonce;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("port", s.port);
    v("protocol", s.protocol);
    v("players", s.players, 0);
    v("games", s.games, 0);
    v("password", s.password, false);
    v("tls", s.tls, false);
    v("nonce", s.nonce, std::string());
  }
  friend bool operator==(const DiscoveryReply&, const DiscoveryReply&) = default;
};

std::string encode(const DiscoveryQuery& q);
std::string encode(const DiscoveryReply& r);
Expected<DiscoveryQuery, DecodeError> decode_discovery_query(std::string_view datagram);
Expected<DiscoveryReply, DecodeError> decode_discovery_reply(std::string_view datagram);

}  // namespace amazons::protocol
