#include "server/app/host.h"

#include <utility>  // before Asio, see server/net/server.h

#include <winsock2.h>
// After winsock2.h, which the IP helper's headers need first.
#include <iphlpapi.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/host_name.hpp>
#include <cstring>
#include <string>
#include <vector>

namespace amazons::server {

std::string host_name() {
  boost::system::error_code ec;
  auto name = boost::asio::ip::host_name(ec);
  return ec ? std::string() : name;
}

std::vector<std::string> reachable_addresses() {
  std::vector<std::string> out;
  // The adapters' list, asked for again with the size Windows says it needs (it may grow
  // between the two calls).
  ULONG size = 16 * 1024;
  std::vector<unsigned char> buffer;
  ULONG status = ERROR_BUFFER_OVERFLOW;
  for (int attempt = 0; attempt < 3 && status == ERROR_BUFFER_OVERFLOW; ++attempt) {
    buffer.resize(size);
    status = GetAdaptersAddresses(
        AF_UNSPEC, GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER,
        nullptr, reinterpret_cast<IP_ADAPTER_ADDRESSES*>(buffer.data()), &size);
  }
  if (status != NO_ERROR) return out;
  for (auto* a = reinterpret_cast<IP_ADAPTER_ADDRESSES*>(buffer.data()); a; a = a->Next) {
    if (a->OperStatus != IfOperStatusUp || a->IfType == IF_TYPE_SOFTWARE_LOOPBACK) continue;
    for (auto* u = a->FirstUnicastAddress; u; u = u->Next) {
      const sockaddr* sa = u->Address.lpSockaddr;
      if (sa->sa_family == AF_INET) {
        const auto* a4 = reinterpret_cast<const sockaddr_in*>(sa);
        boost::asio::ip::address_v4::bytes_type bytes;
        std::memcpy(bytes.data(), &a4->sin_addr, bytes.size());
        out.push_back(boost::asio::ip::address_v4(bytes).to_string());
      } else if (sa->sa_family == AF_INET6) {
        const auto* a6 = reinterpret_cast<const sockaddr_in6*>(sa);
        boost::asio::ip::address_v6::bytes_type bytes;
        std::memcpy(bytes.data(), &a6->sin6_addr, bytes.size());
        const boost::asio::ip::address_v6 v6(bytes);
        if (v6.is_link_local()) continue;
        out.push_back("[" + v6.to_string() + "]");
      }
    }
  }
  return out;
}

}  // namespace amazons::server
