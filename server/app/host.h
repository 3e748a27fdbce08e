// This machine as others reach it: its host name and its network addresses. One file per
// platform: host_posix.cpp (getifaddrs), host_windows.cpp (GetAdaptersAddresses).
#pragma once

#include <string>
#include <vector>

namespace amazons::server {

// The host name, or "" when it cannot be read.
std::string host_name();
// The addresses other machines can reach this one at (up, not loopback, not IPv6 link-local),
// IPv6 ones in brackets, for the people the host tells and the self-signed certificate's names.
std::vector<std::string> reachable_addresses();

}  // namespace amazons::server
