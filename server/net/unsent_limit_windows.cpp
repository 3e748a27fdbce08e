#include "server/net/unsent_limit.h"

namespace amazons::server::detail {

void limit_unsent_bytes(boost::asio::ip::tcp::socket& socket) {
  // Windows has no low-water mark for unsent bytes; a send buffer of a set size is not grown by
  // its autotuning, which bounds the same bytes.
  boost::system::error_code ignored;
  socket.set_option(boost::asio::socket_base::send_buffer_size(kMaxUnsentBytes), ignored);
}

}  // namespace amazons::server::detail
