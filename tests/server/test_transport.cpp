#include <doctest/doctest.h>

#include <fstream>

#include "server/http/transport.h"
#include "server/http/web_files.h"
#include "tests/server/lobby_harness.h"
#include "tls/tls.h"

using namespace amazons;
using namespace amazons::server;

TEST_CASE("transport: the first bytes tell TLS, HTTP and lines apart") {
  const std::string hello("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11);
  CHECK(classify_first_bytes("", false) == FirstBytes::NeedMore);
  CHECK(classify_first_bytes(hello.substr(0, 1), false) == FirstBytes::NeedMore);
  CHECK(classify_first_bytes(hello.substr(0, 5), false) == FirstBytes::NeedMore);
  CHECK(classify_first_bytes(hello, false) == FirstBytes::Tls);
  CHECK(classify_first_bytes(hello, true) == FirstBytes::Lines);  // no TLS inside TLS
  CHECK(classify_first_bytes("GET / HTTP/1.1\r\n", false) == FirstBytes::Http);
  CHECK(classify_first_bytes("G", true) == FirstBytes::Http);
  CHECK(classify_first_bytes("{\"type\":\"hello\"}", false) == FirstBytes::Lines);
  CHECK(classify_first_bytes(" {", false) == FirstBytes::Lines);
  CHECK(classify_first_bytes("get / http/1.1", false) == FirstBytes::Lines);
  // A record that only starts like a ClientHello is not TLS.
  CHECK(classify_first_bytes(std::string("\x16\x03\x01\x00\x05xyz", 8), false) ==
        FirstBytes::Lines);
}

TEST_CASE("transport: a WebSocket Origin must be our own address or listed") {
  const std::vector<std::string> none;
  CHECK(origin_allowed(std::nullopt, "example.org:7420", none));
  CHECK(origin_allowed("https://example.org:7420", "example.org:7420", none));
  CHECK(origin_allowed("HTTPS://Example.org:7420", "example.ORG:7420", none));
  CHECK(origin_allowed("https://example.org", "example.org:443", none));
  CHECK(origin_allowed("http://example.org", "example.org", none));
  CHECK(origin_allowed("http://[::1]:7420", "[::1]:7420", none));
  CHECK_FALSE(origin_allowed("https://example.org:7421", "example.org:7420", none));
  CHECK_FALSE(origin_allowed("https://evil.org:7420", "example.org:7420", none));
  CHECK_FALSE(origin_allowed("https://example.org.evil.org", "example.org", none));
  CHECK_FALSE(origin_allowed("null", "example.org:7420", none));
  CHECK_FALSE(origin_allowed("file://", "example.org", none));
  CHECK_FALSE(origin_allowed("https://example.org/path", "example.org", none));
  CHECK_FALSE(origin_allowed("https://example.org:7420", "", none));
  CHECK(
      origin_allowed("https://play.example.net", "example.org:7420", {"https://play.example.net"}));
}

TEST_CASE("transport: the page may connect to its own origin and to the cluster's nodes only") {
  CHECK(content_security_policy({}) ==
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src "
        "'self' data:; frame-ancestors 'none'");
  const std::string two = content_security_policy({"b.example.org:7420", "[::1]:7421"});
  CHECK(two ==
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' "
        "ws://b.example.org:7420 wss://b.example.org:7420 "
        "ws://[::1]:7421 wss://[::1]:7421; img-src 'self' data:; frame-ancestors 'none'");
  // What another node put in Redis cannot add a directive or a source of its own.
  const std::string bad = content_security_policy({"x; script-src *", "a b", "", "evil/path"});
  CHECK(bad == content_security_policy({}));
}

TEST_CASE("transport: a page from another node of the cluster may open a WebSocket") {
  const std::vector<std::string> none;
  const std::vector<std::string> peers = {"b.example.org:7420", "C.example.org:443"};
  CHECK(origin_allowed("http://b.example.org:7420", "a.example.org:7420", none, peers));
  CHECK(origin_allowed("https://b.example.org:7420", "a.example.org:7420", none, peers));
  CHECK(origin_allowed("https://c.example.org", "a.example.org:7420", none, peers));
  CHECK_FALSE(origin_allowed("http://c.example.org", "a.example.org:7420", none, peers));
  CHECK_FALSE(origin_allowed("http://b.example.org:7421", "a.example.org:7420", none, peers));
  CHECK_FALSE(origin_allowed("http://evil.org:7420", "a.example.org:7420", none, peers));
  CHECK_FALSE(origin_allowed("http://b.example.org:7420", "a.example.org:7420", none, none));
  CHECK_FALSE(origin_allowed("http://b.example.org:7420", "a.example.org:7420", none, {""}));
}

TEST_CASE("transport: request targets name files under the web root only") {
  test::TempDir dir;
  const auto root = dir.path() / "web";
  std::filesystem::create_directories(root / "assets");
  std::ofstream(root / "index.html") << "x";
  std::ofstream(root / "assets" / "app.js") << "x";
  std::ofstream(dir.path() / "secret.txt") << "x";
  CHECK(web_file(root, "/") == root / "index.html");
  CHECK(web_file(root, "/?x=1") == root / "index.html");
  CHECK(web_file(root, "/assets/app.js#frag") == root / "assets" / "app.js");
  CHECK_FALSE(web_file(root, "/assets").has_value());  // a directory
  CHECK_FALSE(web_file(root, "/../secret.txt").has_value());
  CHECK_FALSE(web_file(root, "/assets/../../secret.txt").has_value());
  CHECK_FALSE(web_file(root, "/%2e%2e/secret.txt").has_value());
  CHECK_FALSE(web_file(root, "//etc/passwd").has_value());
  CHECK_FALSE(web_file(root, "index.html").has_value());
  CHECK_FALSE(web_file(root, "").has_value());
  CHECK(content_type(root / "index.html").starts_with("text/html"));
  CHECK(content_type(root / "a.js").starts_with("text/javascript"));
  CHECK(content_type(root / "amazons-engine-core.wasm") == "application/wasm");
  CHECK(content_type(root / "a.bin") == "application/octet-stream");
}

TEST_CASE("web files: Accept-Encoding by name, by *, and refused with q=0") {
  CHECK(accepts_encoding("gzip, deflate, br", "gzip"));
  CHECK(accepts_encoding("gzip, deflate, br", "br"));
  CHECK(accepts_encoding("GZip;q=0.8", "gzip"));
  CHECK(accepts_encoding("*", "br"));
  CHECK(accepts_encoding("br;q=0, *", "gzip"));
  CHECK(accepts_encoding("gzip;q=0, br", "br"));  // one coding's q-value is not the next one's
  CHECK(accepts_encoding(" gzip ; q=1 ", "gzip"));
  CHECK_FALSE(accepts_encoding("", "gzip"));
  CHECK_FALSE(accepts_encoding("identity", "gzip"));
  CHECK_FALSE(accepts_encoding("gzip;q=0", "gzip"));
  CHECK_FALSE(accepts_encoding("gzip;q=0.000", "gzip"));
  CHECK_FALSE(accepts_encoding("*, gzip;q=0", "gzip"));
  CHECK_FALSE(accepts_encoding("*;q=0", "br"));
  CHECK_FALSE(accepts_encoding("xgzip, gzipx", "gzip"));
  CHECK_FALSE(accepts_encoding(",,;;==\"", "gzip"));
}

TEST_CASE("web files: If-None-Match names a tag, weakly compared, or is *") {
  const std::string tag = "\"0123456789abcdef\"";
  CHECK(etag_matches(tag, tag));
  CHECK(etag_matches("W/" + tag, tag));
  CHECK(etag_matches("\"x\", " + tag, tag));
  CHECK(etag_matches("\"x\",W/" + tag + " ", tag));
  CHECK(etag_matches("\"a,b\", " + tag, tag));  // a comma inside a tag is part of it
  CHECK(etag_matches("*", tag));
  CHECK(etag_matches(" *", tag));
  CHECK_FALSE(etag_matches("", tag));
  CHECK_FALSE(etag_matches("\"0123456789abcdef-gz\"", tag));
  CHECK_FALSE(etag_matches("0123456789abcdef", tag));  // unquoted: malformed
  CHECK_FALSE(etag_matches("\"0123456789abcdef", tag));
  CHECK_FALSE(etag_matches("*, " + tag + "x", "\"y\""));
  CHECK_FALSE(etag_matches("garbage, " + tag, tag));  // malformed before it: nothing is trusted
}

TEST_CASE("tls: a self-signed certificate, its fingerprint, and the server context") {
  test::TempDir dir;
  const auto cert = dir.path() / "c.pem", key = dir.path() / "k.pem";
  REQUIRE(tls::write_self_signed(cert, key, {"localhost", "127.0.0.1", "::1"}));
  CHECK_FALSE(tls::write_self_signed(cert, key, {"localhost"}));  // never overwrites
  const auto fp = tls::fingerprint_of_pem(cert);
  REQUIRE(fp.has_value());
  CHECK(fp->size() == 32 * 3 - 1);
  CHECK(tls::parse_fingerprint(*fp) == *fp);
  std::string bare;
  for (char c : *fp)
    if (c != ':') bare += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(tls::parse_fingerprint(bare) == *fp);
  CHECK_FALSE(tls::parse_fingerprint(bare.substr(2)).has_value());
  CHECK_FALSE(tls::parse_fingerprint("zz" + bare.substr(2)).has_value());
  CHECK(tls::server_context(cert, key).has_value());

  const auto cert2 = dir.path() / "c2.pem", key2 = dir.path() / "k2.pem";
  REQUIRE(tls::write_self_signed(cert2, key2, {"localhost"}));
  CHECK(*tls::fingerprint_of_pem(cert2) != *fp);
  const auto mixed = tls::server_context(cert, key2);
  REQUIRE_FALSE(mixed.has_value());
  CHECK(mixed.error().find("k2.pem") != std::string::npos);  // names the file and the reason
  CHECK_FALSE(tls::fingerprint_of_pem(dir.path() / "missing.pem").has_value());
  std::ofstream(dir.path() / "junk.pem") << "junk";
  CHECK_FALSE(tls::fingerprint_of_pem(dir.path() / "junk.pem").has_value());
}

TEST_CASE("tls: the client's trust rule: CA, pin, unknown, changed") {
  tls::PeerCertificate seen{"AA:BB", false};
  CHECK(tls::trust_failure({true, std::nullopt}, seen) == tls::TrustFailure::Unknown);
  CHECK(tls::trust_failure({true, "AA:BB"}, seen) == std::nullopt);
  CHECK(tls::trust_failure({true, "CC:DD"}, seen) == tls::TrustFailure::Changed);
  seen.ca_verified = true;
  CHECK(tls::trust_failure({true, "CC:DD"}, seen) == std::nullopt);
}
