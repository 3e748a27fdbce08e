// Issue 35's attacks on the connection itself, run against the real server: a forged Host (DNS
// rebinding), a line that never ends, and TLS suites below Mozilla's intermediate configuration.
// Each got through before its fix and must keep failing to.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::play;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

// The server's raw answer to one HTTP request over plain TCP, as a rebinding page's browser
// would send it (its Host and Origin are the page's name).
std::string raw_http(unsigned short port, const std::string& request) {
  auto c = amazons::test::TransportClient::connect(amazons::test::Wire::Tcp, port);
  REQUIRE(c.has_value());
  REQUIRE(c->send_raw(request));
  return c->read_until_closed(Millis{3000});
}

std::string upgrade_from(const std::string& host, const std::string& origin) {
  return "GET /ws HTTP/1.1\r\nHost: " + host +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
         "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: " +
         origin + "\r\n\r\n";
}

std::string status_line(const std::string& response) {
  return response.substr(0, response.find("\r\n"));
}

std::string location(const std::string& response) {
  const auto at = response.find("\r\nLocation: ");
  if (at == std::string::npos) return "";
  const auto from = at + 12;
  return response.substr(from, response.find("\r\n", from) - from);
}

}  // namespace

TEST_CASE("abuse: a forged Host makes no other site's page the server's own (DNS rebinding)") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::string p = std::to_string(server.port());
  // The attack: evil.example resolves to this server; its page asks with its own name as Host.
  CHECK(status_line(raw_http(server.port(),
                             upgrade_from("evil.example:" + p, "http://evil.example:" + p))) ==
        "HTTP/1.1 403 Forbidden");
  // The server's own pages still may, by its address or (on loopback) localhost.
  CHECK(status_line(
            raw_http(server.port(), upgrade_from("127.0.0.1:" + p, "http://127.0.0.1:" + p))) ==
        "HTTP/1.1 101 Switching Protocols");
  CHECK(status_line(
            raw_http(server.port(), upgrade_from("localhost:" + p, "http://localhost:" + p))) ==
        "HTTP/1.1 101 Switching Protocols");
  // A name people reach the server by is one of web.public_addresses.
  CHECK(status_line(raw_http(server.port(),
                             upgrade_from("amazons.example.org", "https://amazons.example.org"))) ==
        "HTTP/1.1 403 Forbidden");
  TempDir named_dir;
  ServerProcess named(named_dir.path(), {{"web", {{"public_addresses", {"amazons.example.org"}}}}});
  CHECK(status_line(raw_http(named.port(),
                             upgrade_from("amazons.example.org", "https://amazons.example.org"))) ==
        "HTTP/1.1 101 Switching Protocols");
  CHECK(status_line(raw_http(named.port(), upgrade_from("evil.example", "https://evil.example"))) ==
        "HTTP/1.1 403 Forbidden");

  // --require-tls redirects to the address the connection came in on, or the first public
  // address: never to the Host the request names. (Loopback is not trusted here, so that this
  // machine's connection is redirected as another's would be.)
  const std::string get = "GET /lobby HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
  TempDir strict_dir, strict_named_dir;
  ServerProcess strict(strict_dir.path(), {{"tls", {{"trust_loopback", false}}}},
                       {"--require-tls"});
  ServerProcess strict_named(strict_named_dir.path(),
                             {{"tls", {{"trust_loopback", false}}},
                              {"web", {{"public_addresses", {"amazons.example.org"}}}}},
                             {"--require-tls"});
  const auto moved = raw_http(strict.port(), get);
  CHECK(status_line(moved) == "HTTP/1.1 301 Moved Permanently");
  CHECK(location(moved) == "https://127.0.0.1:" + std::to_string(strict.port()) + "/lobby");
  CHECK(location(raw_http(strict_named.port(), get)) == "https://amazons.example.org/lobby");

  // A config with an address that is not host[:port] does not start.
  std::ofstream(dir.path() / "bad.json") << R"({"web":{"public_addresses":["https://x.org/"]}})";
  const auto [status, output] = amazons::test::run_server(
      "--bind 192.0.2.1 --port 0 --discovery-port -1 --db " + (dir.path() / "bad.db").string() +
      " --config " + (dir.path() / "bad.json").string());
  CHECK(status != 0);
  CHECK(output.find("web.public_addresses") != std::string::npos);
}

TEST_CASE("abuse: a line that never ends, fed a byte at a time, is closed after line_timeout") {
  TempDir dir;
  constexpr int kLineTimeoutSeconds = 2;
  ServerProcess server(dir.path(), {{"limits", {{"line_timeout_seconds", kLineTimeoutSeconds}}}});
  Client c(server.port());
  c.hello("slow");
  // Every byte is a sign of life, so the idle timeout (60 s) never fires: only the line's does.
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(c.raw().send_raw(R"({"type":"list",)"));
  std::optional<Error> told;
  bool closed = false;
  while (!closed && std::chrono::steady_clock::now() - start < std::chrono::seconds(20)) {
    c.raw().send_raw(" ");
    if (const auto line = c.raw().read_line(Millis{250})) {
      if (auto env = decode_server(*line); env && std::holds_alternative<Error>(env->message))
        told = std::get<Error>(env->message);
    }
    closed = c.raw().closed();
  }
  const double after =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("closed after " << after << " s");
  REQUIRE(closed);
  CHECK(after >= kLineTimeoutSeconds - 0.1);
  CHECK(after < kLineTimeoutSeconds + 8);
  REQUIRE(told);
  CHECK(told->code == ErrorCode::IdleTimeout);
  // Lines that end are never cut, however long the connection has been typing them.
  Client d(server.port());
  d.hello("steady");
  const auto since = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - since < std::chrono::seconds(kLineTimeoutSeconds + 1)) {
    d.send(Players{});
    d.expect<PlayerList>();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

TEST_CASE("abuse: TLS 1.2 takes only ECDHE suites with AEAD (Mozilla intermediate), and TLS 1.3") {
  TempDir dir;
  ServerProcess server(dir.path());
  const auto handshake = [&](const std::string& options) {
    const auto [status, out] =
        PgServer::shell("openssl s_client -connect 127.0.0.1:" + std::to_string(server.port()) +
                        " " + options + " </dev/null 2>&1");
    CAPTURE(out);
    return status == 0 && out.find("Cipher is (NONE)") == std::string::npos &&
           out.find("New, ") != std::string::npos;
  };
  // CBC with SHA-1 and SHA-256 MACs: what TLS 1.2 took before.
  CHECK_FALSE(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES128-SHA"));
  CHECK_FALSE(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES256-SHA384"));
  CHECK_FALSE(handshake("-tls1_2 -cipher AES128-SHA"));
  CHECK(handshake("-tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256"));
  CHECK(handshake("-tls1_2 -cipher ECDHE-ECDSA-CHACHA20-POLY1305"));
  CHECK(handshake("-tls1_3"));
  CHECK_FALSE(handshake("-tls1_1"));
}

TEST_CASE("abuse: WebSocket pings beyond 10 a second close the connection, unanswered") {
  TempDir dir;
  ServerProcess server(dir.path());
  for (const auto wire : {amazons::test::Wire::Ws, amazons::test::Wire::Wss}) {
    CAPTURE(std::string(amazons::test::to_string(wire)));
    auto flood = amazons::test::TransportClient::connect(wire, server.port());
    REQUIRE(flood.has_value());
    const int pongs = flood->ping_flood(1000);
    MESSAGE(std::string(amazons::test::to_string(wire))
            << ": " << pongs << " pongs for 1000 pings");
    CHECK(pongs <= 20);  // 10 a second, and the burst may straddle two seconds
    CHECK(flood->closed());
    // A few pings are answered as ever.
    auto calm = amazons::test::TransportClient::connect(wire, server.port());
    REQUIRE(calm.has_value());
    CHECK(calm->ping_flood(5) == 5);
    CHECK_FALSE(calm->closed());
  }
}
