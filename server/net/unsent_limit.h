// How much the kernel may hold unsent for one connection. Lines are written to the socket as soon
// as they are queued, and the kernel grows a socket's send buffer to megabytes by itself: without
// a bound there, the output of a client that does not read would pile up in the kernel instead
// of in the session's queue, which max_write_queue_kib bounds. Each platform bounds it in its own
// way, in a file CMake chooses: unsent_limit_posix.cpp (TCP_NOTSENT_LOWAT),
// unsent_limit_windows.cpp (a fixed send buffer, which stops Windows growing it).
#pragma once

#include <utility>  // before Asio, see server/net/server.h

#include <boost/asio/ip/tcp.hpp>

namespace amazons::server::detail {

constexpr int kMaxUnsentBytes = 64 * 1024;

// Best effort: a socket that refuses the option keeps the kernel's own limit.
void limit_unsent_bytes(boost::asio::ip::tcp::socket& socket);

}  // namespace amazons::server::detail
