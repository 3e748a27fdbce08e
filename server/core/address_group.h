// What a peer's address counts against in every per-address limit.
#pragma once

#include <string>
#include <string_view>

namespace amazons::server {

// What a peer's address counts against in every per-address limit (connections, guesses, password
// checks, kept offers, reports): an IPv4 address is itself; an IPv6 address is its /64, since a
// host is given a whole /64 and may take any address in it (issue 35: budgets keyed by the full
// address let one host rotate through 2^64 of them). Text that is no address is its own key.
std::string address_group(std::string_view address);

}  // namespace amazons::server
