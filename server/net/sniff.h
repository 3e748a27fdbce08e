// What a freshly accepted socket becomes: its first bytes say whether it speaks TLS (unwrapped and
// sniffed again), HTTP (files, health, WebSocket upgrades) or the JSON-lines protocol.
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio/ip/tcp.hpp>

#include <string>

#include "server/core/session_id.h"

namespace amazons::server {

class SessionHost;

// Takes over a freshly accepted socket: sniffs it and ends up as a Session registered with
// `server`, an HTTP exchange, or a closed socket. `refused`: the address has too many
// connections; it is told so in its own protocol and closed. Calls server.on_closed(id) exactly
// once unless the connection became a Session (which then does).
void serve_connection(SessionHost& server, boost::asio::ip::tcp::socket socket, SessionId id,
                      std::string address, bool refused);

}  // namespace amazons::server
