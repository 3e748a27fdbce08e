#include "server/net/unsent_limit.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace amazons::server::detail {

void limit_unsent_bytes(boost::asio::ip::tcp::socket& socket) {
  ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_NOTSENT_LOWAT, &kMaxUnsentBytes,
               sizeof kMaxUnsentBytes);
}

}  // namespace amazons::server::detail
