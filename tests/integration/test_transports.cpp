// The server's one port, through each of its doors (the golden transcript over each is in
// test_golden.cpp): the web client's files and the health check over HTTP and
// HTTPS; the TLS certificate and its fingerprint; the TLS rules for passwords and --require-tls.
#include <doctest/doctest.h>

#include <fstream>

#include "net/discovery.h"
#include "server_process.h"
#include "tls/tls.h"

using namespace amazons;
using amazons::test::Client;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using amazons::test::TransportClient;
using amazons::test::Wire;
using amazons::test::WireOptions;
using nlohmann::json;

namespace {

WireOptions from_origin(std::string origin) {
  WireOptions o;
  o.origin = std::move(origin);
  return o;
}
WireOptions at_path(std::string path) {
  WireOptions o;
  o.path = std::move(path);
  return o;
}

// A minimal HTTP/1.1 exchange over a raw TCP client: the status line and the body.
struct HttpReply {
  int status = 0;
  std::string headers;
  std::string body;
};
HttpReply http_get(unsigned short port, const std::string& target, Wire wire = Wire::Tcp) {
  auto c = TransportClient::connect(wire, port);
  REQUIRE(c.has_value());
  const std::string request = "GET " + target +
                              " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                              "\r\nConnection: close\r\n\r\n";
  // send() adds a '\n' after the message: the request minus its last one.
  REQUIRE(c->send(request.substr(0, request.size() - 1)));
  const std::string all = c->read_until_closed();
  HttpReply r;
  const auto head_end = all.find("\r\n\r\n");
  r.headers = all.substr(0, head_end);
  if (head_end != std::string::npos) r.body = all.substr(head_end + 4);
  if (all.starts_with("HTTP/1.1 ")) r.status = std::atoi(all.c_str() + 9);
  return r;
}

}  // namespace

TEST_CASE(
    "one port: the self-signed certificate is kept beside the database and its fingerprint "
    "is the one clients see") {
  TempDir dir;
  std::string first;
  {
    ServerProcess server(dir.path());
    const auto cert = dir.path() / "test-tls-cert.pem";
    REQUIRE(std::filesystem::exists(cert));
    CHECK((std::filesystem::status(dir.path() / "test-tls-key.pem").permissions() &
           std::filesystem::perms::group_read) == std::filesystem::perms::none);
    const auto printed = tls::fingerprint_of_pem(cert);
    REQUIRE(printed.has_value());
    Client c(server.port(), Wire::Tls);
    CHECK(c.wire().peer_fingerprint() == *printed);
    first = *printed;
  }
  // A restart keeps the certificate, so pinned clients still trust it.
  ServerProcess again(dir.path());
  Client c(again.port(), Wire::Wss);
  CHECK(c.wire().peer_fingerprint() == first);
}

TEST_CASE("one port: --tls-cert and --tls-key serve the host's certificate and SIGHUP reloads it") {
  TempDir dir;
  const auto cert1 = dir.path() / "c1.pem", key1 = dir.path() / "k1.pem";
  REQUIRE(tls::write_self_signed(cert1, key1, {"localhost", "127.0.0.1"}));
  const auto cert = dir.path() / "cert.pem", key = dir.path() / "key.pem";
  std::filesystem::copy_file(cert1, cert);
  std::filesystem::copy_file(key1, key);
  ServerProcess server(dir.path(), json::object(),
                       {"--tls-cert", cert.string(), "--tls-key", key.string()});
  CHECK(Client(server.port(), Wire::Tls).wire().peer_fingerprint() ==
        *tls::fingerprint_of_pem(cert1));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "test-tls-cert.pem"));

  // A renewal: new files in place, then SIGHUP. New connections get the new certificate.
  const auto cert2 = dir.path() / "c2.pem", key2 = dir.path() / "k2.pem";
  REQUIRE(tls::write_self_signed(cert2, key2, {"localhost"}));
  std::filesystem::copy_file(cert2, cert, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(key2, key, std::filesystem::copy_options::overwrite_existing);
  server.signal(SIGHUP);
  const auto want = *tls::fingerprint_of_pem(cert2);
  std::string seen;
  for (int i = 0; i < 50 && seen != want; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = Client(server.port(), Wire::Tls).wire().peer_fingerprint();
  }
  CHECK(seen == want);

  // A broken renewal is refused and the working certificate stays.
  std::ofstream(cert) << "not a certificate";
  server.signal(SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(Client(server.port(), Wire::Tls).wire().peer_fingerprint() == want);
  Client plain(server.port());
  plain.hello("still-here");
}

TEST_CASE("one port: HTTP and HTTPS serve the web client's files and the health check") {
  TempDir dir;
  const auto web = dir.path() / "web";
  std::filesystem::create_directories(web / "assets");
  std::ofstream(web / "index.html") << "<!doctype html><title>amazons</title>";
  std::ofstream(web / "assets" / "app.js") << "console.log(1)";
  std::ofstream(web / "engine.wasm", std::ios::binary) << std::string("\0asm\1\0\0\0", 8);
  ServerProcess server(dir.path(), {{"web", {{"root", web.string()}}}});

  auto index = http_get(server.port(), "/");
  CHECK(index.status == 200);
  CHECK(index.body.find("<title>amazons</title>") != std::string::npos);
  CHECK(index.headers.find("text/html") != std::string::npos);
  CHECK(index.headers.find("Content-Security-Policy") != std::string::npos);
  CHECK(index.headers.find("'wasm-unsafe-eval'") != std::string::npos);
  // Cross-origin isolated, so the engine's WebAssembly threads get a SharedArrayBuffer.
  CHECK(index.headers.find("Cross-Origin-Opener-Policy: same-origin") != std::string::npos);
  CHECK(index.headers.find("Cross-Origin-Embedder-Policy: require-corp") != std::string::npos);
  auto wasm = http_get(server.port(), "/engine.wasm");
  CHECK(wasm.status == 200);
  CHECK(wasm.headers.find("Content-Type: application/wasm") != std::string::npos);
  CHECK(wasm.body == std::string("\0asm\1\0\0\0", 8));
  auto js = http_get(server.port(), "/assets/app.js?v=2");
  CHECK(js.status == 200);
  CHECK(js.headers.find("text/javascript") != std::string::npos);
  CHECK(http_get(server.port(), "/missing.js").status == 404);
  CHECK(http_get(server.port(), "/../server.json").status == 404);
  CHECK(http_get(server.port(), "/assets/%2e%2e/%2e%2e/server.json").status == 404);
  auto health = http_get(server.port(), "/health");
  CHECK(health.status == 200);
  CHECK(json::parse(health.body).at("status") == "ok");
  // A server of its own names no other node for the web page to move to.
  auto nodes = http_get(server.port(), "/nodes");
  CHECK(nodes.status == 200);
  CHECK(json::parse(nodes.body).at("nodes") == json::array());
  CHECK(nodes.headers.find("Access-Control-Allow-Origin: *") != std::string::npos);

  // The same over TLS.
  auto secure = http_get(server.port(), "/", Wire::Tls);
  CHECK(secure.status == 200);
  CHECK(secure.body.find("<title>amazons</title>") != std::string::npos);
  CHECK(json::parse(http_get(server.port(), "/health", Wire::Tls).body).at("tls") == true);

  // Old clients keep working on the same port.
  Client old(server.port());
  old.hello("old-client");
}

TEST_CASE(
    "one port: a WebSocket upgrade from another site's page is refused and listed origins and "
    "programs without an Origin are let in") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"web", {{"allowed_origins", {"https://play.example.org"}}}}});
  const auto port = std::to_string(server.port());
  auto foreign =
      TransportClient::connect(Wire::Ws, server.port(), from_origin("https://evil.example.com"));
  REQUIRE_FALSE(foreign.has_value());
  CHECK(foreign.error().find("403") != std::string::npos);
  auto foreign_port = TransportClient::connect(
      Wire::Ws, server.port(),
      from_origin("http://127.0.0.1:" + std::to_string(server.port() + 1)));
  CHECK_FALSE(foreign_port.has_value());

  Client same(server.port(), Wire::Ws, from_origin("http://127.0.0.1:" + port));
  same.hello("same-origin");
  Client secure_same(server.port(), Wire::Wss, from_origin("https://127.0.0.1:" + port));
  secure_same.hello("same-origin-tls");
  Client listed(server.port(), Wire::Wss, from_origin("https://play.example.org"));
  listed.hello("listed");
  Client program(server.port(), Wire::Ws);
  program.hello("program");
  CHECK_FALSE(TransportClient::connect(Wire::Ws, server.port(), at_path("/other")).has_value());
}

TEST_CASE(
    "one port: passwords need TLS from other machines and --require-tls refuses plain "
    "connections") {
  TempDir dir;
  // trust_loopback false: the test's loopback connections count as coming from elsewhere, as
  // they do behind a reverse proxy on the same machine.
  ServerProcess server(dir.path(), {{"tls", {{"trust_loopback", false}}}});
  Client plain(server.port());
  plain.send(R"({"type":"hello","protocol":1,"name":"pat","password":"secret"})");
  CHECK(plain.expect_error() == protocol::ErrorCode::TlsRequired);
  Client ws(server.port(), Wire::Ws);
  ws.send(R"({"type":"hello","protocol":1,"name":"pat","password":"secret"})");
  CHECK(ws.expect_error() == protocol::ErrorCode::TlsRequired);
  plain.hello("guest-over-plain");  // no password: fine
  Client secure(server.port(), Wire::Tls);
  secure.hello("pat", R"(,"password":"secret")");
  Client wss(server.port(), Wire::Wss);
  wss.hello("pam", R"(,"password":"secret")");

  TempDir dir2;
  ServerProcess strict(dir2.path(), {{"tls", {{"trust_loopback", false}}}}, {"--require-tls"});
  // The port learns what a connection speaks from its first bytes: the hello.
  Client refused(strict.port());
  refused.send(R"({"type":"hello","protocol":1,"name":"plain"})");
  CHECK(refused.expect_error() == protocol::ErrorCode::TlsRequired);
  CHECK(refused.closed_by_server());
  CHECK_FALSE(TransportClient::connect(Wire::Ws, strict.port()).has_value());
  auto redirect = http_get(strict.port(), "/");
  CHECK(redirect.status == 301);
  CHECK(redirect.headers.find("Location: https://127.0.0.1:" + std::to_string(strict.port()) +
                              "/") != std::string::npos);
  Client ok(strict.port(), Wire::Tls);
  ok.hello("tls-user", R"(,"password":"pw")");

  // Loopback trusted (the default): this machine's own plain connections are private.
  TempDir dir3;
  ServerProcess local(dir3.path(), json::object(), {"--require-tls"});
  Client mine(local.port());
  mine.hello("local-user", R"(,"password":"pw")");
}

namespace {
bool discovery_says_tls(const ServerProcess& server) {
  auto found = net::discover_servers(
      {.target = "127.0.0.1", .port = server.discovery_port(), .wait = Millis{500}});
  REQUIRE(found.has_value());
  REQUIRE(found->size() == 1);
  return found->front().reply.tls;
}
}  // namespace

TEST_CASE("one port: --no-tls closes TLS connections and discovery says so") {
  TempDir with;
  ServerProcess tls_server(with.path());
  CHECK(discovery_says_tls(tls_server));
  TempDir dir;
  ServerProcess server(dir.path(), json::object(), {"--no-tls"});
  CHECK_FALSE(discovery_says_tls(server));
  CHECK_FALSE(TransportClient::connect(Wire::Tls, server.port()).has_value());
  CHECK_FALSE(std::filesystem::exists(dir.path() / "test-tls-cert.pem"));
  Client plain(server.port());
  plain.hello("plain-only");
}
