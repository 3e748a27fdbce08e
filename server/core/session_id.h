// A connection's id in this server process: the network layer names its sessions with it and the
// lobby its players' connections (ids of other nodes' sessions are in the remote range, lobby.h's
// kFirstRemoteSession).
#pragma once

#include <cstdint>

namespace amazons::server {

using SessionId = std::uint64_t;

}  // namespace amazons::server
