// The web client's files as a browser fetches them from the real server (server/http/web_files.h):
// revalidation by ETag and 304, the copies compressed at build time sent when asked for, a year's
// caching for files named by their content's digest. Requests and answers go through Beast's
// HTTP parser, and compressed bodies through zlib, so the test reads them as a browser would.
#include <doctest/doctest.h>

#include <utility>  // before Asio, see server/net/server.h

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <zlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "server_process.h"

using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

namespace http = boost::beast::http;
using WebFileResponse = http::response<http::string_body>;
using RequestHeaders = std::vector<std::pair<http::field, std::string>>;

// One request on a connection of its own, its answer read by Beast's parser.
WebFileResponse fetch_web_file(unsigned short port, const std::string& target,
                               const RequestHeaders& headers = {},
                               http::verb method = http::verb::get) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::empty_body> request{method, target, 11};
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (const auto& [field, value] : headers) request.set(field, value);
  http::write(socket, request);
  boost::beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  parser.skip(method == http::verb::head);  // a HEAD answer's Content-Length has no body behind
  http::read(socket, buffer, parser);
  return parser.release();
}

template <class Key>
std::string header_of(const WebFileResponse& r, Key field) {
  const auto it = r.find(field);
  return it == r.end() ? std::string() : std::string(it->value());
}

// gzip with zlib, as `gzip -9 -n` writes it (the build's precompress step).
std::string gzip_bytes(const std::string& data) {
  z_stream z{};
  REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&z, data.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string gunzip_bytes(const std::string& data) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    char chunk[16384];
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    status = inflate(&z, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - z.avail_out);
  }
  inflateEnd(&z);
  CHECK(status == Z_STREAM_END);
  return out;
}

void write_web_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

// A web root as the build leaves it: index.html, a script and the engine's WebAssembly, each
// with its gzipped copy beside it.
struct WebRoot {
  TempDir dir;
  std::filesystem::path root = dir.path() / "web";
  std::string index = "<!doctype html><title>amazons</title><script src=\"app.js\"></script>";
  std::string script = std::string(4000, ' ') + "console.log('the web client');";
  std::string wasm = std::string("\0asm\1\0\0\0", 8) + std::string(3000, '\0');

  WebRoot() {
    std::filesystem::create_directories(root);
    for (const auto& [name, content] :
         {std::pair{"index.html", index}, {"app.js", script}, {"engine.wasm", wasm}}) {
      write_web_file(root / name, content);
      write_web_file(root / (std::string(name) + ".gz"), gzip_bytes(content));
    }
  }
};

}  // namespace

TEST_CASE("web files: index.html is revalidated by its ETag, and a repeated request gets 304") {
  WebRoot web;
  ServerProcess server(web.dir.path(), {{"web", {{"root", web.root.string()}}}});

  const auto first = fetch_web_file(server.port(), "/");
  REQUIRE(first.result() == http::status::ok);
  CHECK(first.body() == web.index);
  CHECK(header_of(first, http::field::cache_control) == "no-cache");
  const auto etag = header_of(first, http::field::etag);
  REQUIRE(etag.size() == 18);  // "16 hex digits"
  CHECK(etag.front() == '"');

  // The browser asks again with the tag it kept: 304, no body, the same tag and headers.
  const auto again = fetch_web_file(server.port(), "/", {{http::field::if_none_match, etag}});
  CHECK(again.result() == http::status::not_modified);
  CHECK(again.body().empty());
  CHECK(header_of(again, http::field::etag) == etag);
  CHECK(header_of(again, http::field::cache_control) == "no-cache");
  CHECK(header_of(again, "Cross-Origin-Embedder-Policy") == "require-corp");
  CHECK(header_of(again, http::field::content_length).empty());
  for (const auto& listed : {"W/" + etag, "\"0123456789abcdef\", " + etag, std::string("*")})
    CHECK(fetch_web_file(server.port(), "/index.html", {{http::field::if_none_match, listed}})
              .result() == http::status::not_modified);
  const auto head =
      fetch_web_file(server.port(), "/", {{http::field::if_none_match, etag}}, http::verb::head);
  CHECK(head.result() == http::status::not_modified);

  // A stale tag, or garbage, gets the page.
  for (const auto& stale : {std::string("\"0123456789abcdef\""), std::string("garbage"),
                            std::string("\""), etag.substr(0, 10)}) {
    const auto page = fetch_web_file(server.port(), "/", {{http::field::if_none_match, stale}});
    CHECK(page.result() == http::status::ok);
    CHECK(page.body() == web.index);
  }
  // HEAD: the headers a GET gets, the length of its body and no body.
  const auto head_page = fetch_web_file(server.port(), "/", {}, http::verb::head);
  CHECK(head_page.result() == http::status::ok);
  CHECK(header_of(head_page, http::field::content_length) == std::to_string(web.index.size()));
  CHECK(head_page.body().empty());

  // A new build of the page: a new tag, and the old one gets the new page.
  const std::string rebuilt = web.index + "<!-- rebuilt -->";
  write_web_file(web.root / "index.html", rebuilt);
  const auto after = fetch_web_file(server.port(), "/", {{http::field::if_none_match, etag}});
  CHECK(after.result() == http::status::ok);
  CHECK(after.body() == rebuilt);
  CHECK(header_of(after, http::field::etag) != etag);
}

TEST_CASE(
    "web files: gzip when asked and the file itself when not, and WebAssembly stays "
    "application/wasm") {
  WebRoot web;
  ServerProcess server(web.dir.path(), {{"web", {{"root", web.root.string()}}}});

  const auto plain = fetch_web_file(server.port(), "/app.js");
  REQUIRE(plain.result() == http::status::ok);
  CHECK(plain.body() == web.script);
  CHECK(header_of(plain, http::field::content_encoding).empty());
  CHECK(header_of(plain, http::field::vary) == "Accept-Encoding");

  const auto gzipped =
      fetch_web_file(server.port(), "/app.js", {{http::field::accept_encoding, "gzip, deflate"}});
  REQUIRE(gzipped.result() == http::status::ok);
  CHECK(header_of(gzipped, http::field::content_encoding) == "gzip");
  CHECK(header_of(gzipped, http::field::content_type).starts_with("text/javascript"));
  CHECK(header_of(gzipped, http::field::vary) == "Accept-Encoding");
  CHECK(gzipped.body().size() < web.script.size());
  CHECK(gunzip_bytes(gzipped.body()) == web.script);
  // Another representation, another tag; each revalidates as itself.
  const auto gzip_tag = header_of(gzipped, http::field::etag);
  CHECK(gzip_tag != header_of(plain, http::field::etag));
  CHECK(fetch_web_file(
            server.port(), "/app.js",
            {{http::field::accept_encoding, "gzip"}, {http::field::if_none_match, gzip_tag}})
            .result() == http::status::not_modified);
  CHECK(
      fetch_web_file(server.port(), "/app.js", {{http::field::if_none_match, gzip_tag}}).result() ==
      http::status::ok);

  // What a browser may say: brotli first (no .br here), any coding, or gzip refused by q=0.
  for (const auto& accepted : {"br, gzip", "*", "GZIP;q=0.5"})
    CHECK(header_of(
              fetch_web_file(server.port(), "/app.js", {{http::field::accept_encoding, accepted}}),
              http::field::content_encoding) == "gzip");
  for (const auto& refused : {"gzip;q=0", "identity", "br", "*, gzip;q=0.0"})
    CHECK(header_of(
              fetch_web_file(server.port(), "/app.js", {{http::field::accept_encoding, refused}}),
              http::field::content_encoding)
              .empty());

  // The engine's WebAssembly, gzipped: its own type, which instantiateStreaming insists on.
  const auto wasm =
      fetch_web_file(server.port(), "/engine.wasm", {{http::field::accept_encoding, "gzip"}});
  REQUIRE(wasm.result() == http::status::ok);
  CHECK(header_of(wasm, http::field::content_type) == "application/wasm");
  CHECK(header_of(wasm, http::field::content_encoding) == "gzip");
  CHECK(gunzip_bytes(wasm.body()) == web.wasm);
  const auto head = fetch_web_file(server.port(), "/engine.wasm",
                                   {{http::field::accept_encoding, "gzip"}}, http::verb::head);
  CHECK(header_of(head, http::field::content_length) == std::to_string(wasm.body().size()));

  // A file rebuilt and not yet compressed again: its copy is older, so the file itself is sent.
  const std::string rebuilt = web.script + "console.log('rebuilt');";
  write_web_file(web.root / "app.js", rebuilt);
  std::filesystem::last_write_time(
      web.root / "app.js.gz",
      std::filesystem::last_write_time(web.root / "app.js") - std::chrono::seconds(10));
  const auto fresh =
      fetch_web_file(server.port(), "/app.js", {{http::field::accept_encoding, "gzip"}});
  CHECK(header_of(fresh, http::field::content_encoding).empty());
  CHECK(fresh.body() == rebuilt);
}

TEST_CASE("web files: a file named by its content's digest is kept a year, any other revalidated") {
  WebRoot web;
  ServerProcess server(web.dir.path(), {{"web", {{"root", web.root.string()}}}});
  // The digest in a name is the one in the tag (web/dist_names.cmake names files so).
  const auto tag = header_of(fetch_web_file(server.port(), "/app.js"), http::field::etag);
  const auto digest = tag.substr(1, 16);
  write_web_file(web.root / ("app." + digest + ".js"), web.script);
  write_web_file(web.root / ("app." + digest + ".js.gz"), gzip_bytes(web.script));
  // A name that looks hashed but whose content has another digest is not trusted.
  write_web_file(web.root / "app.0123456789abcdef.js", web.script);

  const auto hashed = fetch_web_file(server.port(), "/app." + digest + ".js",
                                     {{http::field::accept_encoding, "gzip"}});
  REQUIRE(hashed.result() == http::status::ok);
  CHECK(header_of(hashed, http::field::cache_control) == "public, max-age=31536000, immutable");
  CHECK(header_of(hashed, http::field::content_encoding) == "gzip");
  CHECK(gunzip_bytes(hashed.body()) == web.script);
  CHECK(header_of(fetch_web_file(server.port(), "/app.0123456789abcdef.js"),
                  http::field::cache_control) == "no-cache");
  CHECK(header_of(fetch_web_file(server.port(), "/app.js"), http::field::cache_control) ==
        "no-cache");
  CHECK(header_of(fetch_web_file(server.port(), "/"), http::field::cache_control) == "no-cache");
  // Path tricks still name nothing.
  CHECK(fetch_web_file(server.port(), "/../server.json").result() == http::status::not_found);
  CHECK(fetch_web_file(server.port(), "/app.js.gz/..").result() == http::status::not_found);
}
