#include <doctest/doctest.h>

#include "net/address.h"

using amazons::Transport;
using amazons::net::host_port;
using amazons::net::parse_server_address;
using amazons::net::ServerAddress;

TEST_CASE("address: host:port, a default port, IPv6 in brackets, and the schemes") {
  CHECK(parse_server_address("example.org:7000").value() == ServerAddress{"example.org", 7000});
  CHECK(parse_server_address("example.org").value() == ServerAddress{"example.org", 7420});
  CHECK(parse_server_address("example.org", 9).value() == ServerAddress{"example.org", 9});
  CHECK(parse_server_address(" 10.0.0.5 ").value() == ServerAddress{"10.0.0.5", 7420});
  CHECK(parse_server_address("[::1]:7421").value() == ServerAddress{"::1", 7421});
  CHECK(parse_server_address("[::1]").value() == ServerAddress{"::1", 7420});
  CHECK(parse_server_address("tls://example.org:7000").value() ==
        ServerAddress{"example.org", 7000, Transport::Tls});
  CHECK(parse_server_address("tls://[::1]:9").value() == ServerAddress{"::1", 9, Transport::Tls});
  CHECK(parse_server_address("tcp://h:1").value() == ServerAddress{"h", 1, Transport::Tcp});
  CHECK(parse_server_address("ws://h:1/ws").value() == ServerAddress{"h", 1, Transport::WebSocket});
  CHECK(parse_server_address("wss://h/").value() ==
        ServerAddress{"h", 7420, Transport::SecureWebSocket});
}

TEST_CASE("address: printed so that it parses back, and host_port is the key without the scheme") {
  for (const char* text : {"h:1", "tls://h:1", "[::1]:7420", "tls://[::1]:7420", "ws://a.b:80"}) {
    CAPTURE(text);
    const auto a = parse_server_address(text).value();
    CHECK(to_string(a) == text);
    CHECK(parse_server_address(to_string(a)).value() == a);
  }
  CHECK(host_port(ServerAddress{"::1", 9000, Transport::Tls}) == "[::1]:9000");
  CHECK(host_port(ServerAddress{"host", 1, Transport::Tls}) == "host:1");
}

TEST_CASE("address: bad input gets an error that says what is wrong") {
  struct Bad {
    const char* text;
    const char* says;
  };
  for (const Bad& b : {Bad{"", "no server address"}, Bad{"host:", "from 1 to 65535"},
                       Bad{"host:0", "from 1 to 65535"}, Bad{"host:70000", "from 1 to 65535"},
                       Bad{"host:12ab", "from 1 to 65535"}, Bad{"host:-1", "from 1 to 65535"},
                       Bad{"::1:80", "in brackets"}, Bad{"localhost:7420:", "more than one ':'"},
                       Bad{"[::1", "closing ']'"}, Bad{"[::1]x", "':PORT' after ']'"},
                       Bad{":7420", "host is missing"}, Bad{"tls://", "host is missing"},
                       Bad{"a b:1", "character"}, Bad{"http://h:1", "unknown scheme"},
                       Bad{"tls://h:1/lobby", "no path"}, Bad{"user@h:1", "character"}}) {
    CAPTURE(b.text);
    const auto parsed = parse_server_address(b.text);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().find(b.says) != std::string::npos);
  }
}

TEST_CASE("address: the nodes of a cluster, separated by commas, share one transport") {
  using amazons::net::parse_server_addresses;
  const auto two = parse_server_addresses("a:7000, b").value();
  REQUIRE(two.size() == 2);
  CHECK(two[0] == ServerAddress{"a", 7000});
  CHECK(two[1] == ServerAddress{"b", 7420});
  // A scheme on the first applies to the ones that give none; the same scheme again is fine.
  const auto tls = parse_server_addresses("tls://a:1,b:2,tls://[::1]:3").value();
  REQUIRE(tls.size() == 3);
  CHECK(tls[1] == ServerAddress{"b", 2, Transport::Tls});
  CHECK(tls[2] == ServerAddress{"::1", 3, Transport::Tls});
  CHECK(parse_server_addresses("h:1").value() == std::vector<ServerAddress>{{"h", 1}});
  CHECK(parse_server_addresses("a,tls://b").error().find("the same transport (tcp)") !=
        std::string::npos);
  CHECK(parse_server_addresses("a,,b").error().find("an empty address after a comma") !=
        std::string::npos);
  CHECK(parse_server_addresses("a,").error().find("an empty address after a comma") !=
        std::string::npos);
  CHECK(parse_server_addresses("a,b:x").error().find("the port must be a number") !=
        std::string::npos);
  CHECK(parse_server_addresses("").error().find("no server address given") != std::string::npos);
}
