#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include "net/discovery.h"

#include <algorithm>
#include <boost/asio.hpp>
#include <functional>
#include <random>

namespace amazons::net {

namespace asio = boost::asio;
using asio::ip::udp;
using boost::system::error_code;

Expected<std::vector<DiscoveredServer>, std::string> discover_servers(
    const DiscoveryOptions& options) {
  error_code ec;
  const auto target = asio::ip::make_address(options.target, ec);
  if (ec) return Unexpected("discovery target \"" + options.target + "\" is not an IP address");
  asio::io_context io;
  udp::socket socket(io);
  socket.open(target.is_v6() ? udp::v6() : udp::v4(), ec);
  if (ec) return Unexpected("cannot open a UDP socket: " + ec.message());
  if (target.is_v4() && target.to_v4() == asio::ip::address_v4::broadcast())
    socket.set_option(asio::socket_base::broadcast(true), ec);

  protocol::DiscoveryQuery query;
  query.nonce = std::to_string(std::random_device{}());
  const std::string datagram = protocol::encode(query);
  socket.send_to(asio::buffer(datagram), udp::endpoint(target, options.port), 0, ec);
  if (ec) return Unexpected("cannot send the discovery query: " + ec.message());

  std::vector<DiscoveredServer> found;
  std::array<char, protocol::kMaxDatagramBytes + 1> buffer{};
  udp::endpoint from;
  std::function<void()> receive = [&] {
    socket.async_receive_from(asio::buffer(buffer), from, [&](error_code e, std::size_t n) {
      if (e) return;
      auto reply = protocol::decode_discovery_reply(std::string_view(buffer.data(), n));
      if (reply && reply->nonce == query.nonce) {
        const std::string address = from.address().to_string();
        const bool seen = std::any_of(found.begin(), found.end(), [&](const DiscoveredServer& s) {
          return s.address == address && s.reply.port == reply->port;
        });
        if (!seen) found.push_back({address, *reply});
      }
      receive();
    });
  };
  receive();
  io.run_for(options.wait);
  socket.close(ec);
  io.restart();
  io.run();
  return found;
}

}  // namespace amazons::net
