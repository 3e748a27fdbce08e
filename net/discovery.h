// The client side of LAN discovery: send a query datagram to a target address (a setting: the
// LAN broadcast address in the desktop client, loopback in tests) and collect the servers that
// answer within a time limit.
#pragma once

#include <string>
#include <vector>

#include "common/expected.h"
#include "common/protocol.h"
#include "common/time_control.h"

namespace amazons::net {

struct DiscoveredServer {
  std::string address;  // where the answer came from: connect here, on reply.port
  protocol::DiscoveryReply reply;
};

struct DiscoveryOptions {
  std::string target = "255.255.255.255";  // where queries go; a broadcast address on a LAN
  unsigned short port = 7421;              // the servers' discovery port
  Millis wait{1000};                       // how long to collect answers
};

// Blocks for options.wait at most. Answers that do not decode or carry another nonce are
// ignored; one server answering twice is listed once. The error says why no query could be sent.
Expected<std::vector<DiscoveredServer>, std::string> discover_servers(
    const DiscoveryOptions& options);

}  // namespace amazons::net
