#include "server/core/address_group.h"

// inet_pton and inet_ntop: POSIX's headers, or Winsock's (ws2_32, linked by CMake on Windows).
#ifdef _WIN32
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#endif

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace amazons::server {

std::string address_group(std::string_view address) {
  const std::string text(address);
  in6_addr v6{};
  if (text.find(':') == std::string::npos || inet_pton(AF_INET6, text.c_str(), &v6) != 1)
    return text;
  // The /64: the first four groups, written as inet_ntop writes the prefix with zeros after it.
  std::fill(std::begin(v6.s6_addr) + 8, std::end(v6.s6_addr), std::uint8_t{0});
  char prefix[INET6_ADDRSTRLEN] = {};
  if (!inet_ntop(AF_INET6, &v6, prefix, sizeof prefix)) return text;
  return std::string(prefix) + "/64";
}

}  // namespace amazons::server
