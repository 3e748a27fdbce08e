#include "server/net/streams.h"

#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "server/http/transport.h"

namespace amazons::server::detail {

namespace websocket = beast::websocket;

namespace {

// HTTP requests carry no bodies we want; headers beyond this are an attack or a mistake.
constexpr std::uint32_t kMaxHttpHeaderBytes = 8 * 1024;
constexpr std::uint64_t kMaxHttpBodyBytes = 16 * 1024;
// Requests served on one keep-alive connection before it is closed.
constexpr int kMaxRequestsPerConnection = 100;
constexpr std::string_view kWebSocketPath = "/ws";

// ---- HTTP: the web client's files, the health check, WebSocket upgrades -----------------------

template <class Stream>
class HttpExchange : public std::enable_shared_from_this<HttpExchange<Stream>> {
 public:
  HttpExchange(SessionHost& server, Stream stream, beast::flat_buffer buffer, SessionId id,
               std::string address)
      : server_(server),
        stream_(std::move(stream)),
        buffer_(std::move(buffer)),
        id_(id),
        address_(std::move(address)) {}

  void run() { read_request(); }

 private:
  void read_request() {
    parser_.emplace();
    parser_->header_limit(kMaxHttpHeaderBytes);
    parser_->body_limit(kMaxHttpBodyBytes);
    beast::get_lowest_layer(stream_).expires_after(server_.config().handshake_timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](error_code ec, std::size_t) { self->on_request(ec); });
  }

  void on_request(error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::eof ||
        ec == asio::error::connection_reset)
      return close();
    if (ec == http::error::header_limit)
      return respond_error(http::status::request_header_fields_too_large,
                           "request headers over " + std::to_string(kMaxHttpHeaderBytes) + " bytes",
                           false);
    if (ec == http::error::body_limit)
      return respond_error(http::status::payload_too_large, "request body too large", false);
    if (ec) return respond_error(http::status::bad_request, "bad request: " + ec.message(), false);

    auto request = parser_->release();
    ++requests_;
    const bool secure = kIsTls<Stream>;
    const bool local = server_.is_trusted_local(address_);
    // Where the connection came in: this server's own address and port, which a page of ours
    // has as its origin unless people reach the server by a configured public address. The
    // Host header is the client's to choose (a DNS rebinding page sets it to its own name), so
    // nothing here trusts it.
    error_code local_ec;
    const auto local_end = beast::get_lowest_layer(stream_).socket().local_endpoint(local_ec);
    std::string own;
    if (!local_ec) {
      auto a = local_end.address();
      if (a.is_v6() && a.to_v6().is_v4_mapped())
        a = asio::ip::make_address_v4(asio::ip::v4_mapped, a.to_v6());
      own = (a.is_v6() ? "[" + a.to_string() + "]" : a.to_string()) + ":" +
            std::to_string(local_end.port());
    }
    const std::string_view target(request.target().data(), request.target().size());

    if (websocket::is_upgrade(request)) {
      if (target.substr(0, target.find('?')) != kWebSocketPath)
        return respond_error(http::status::not_found, "WebSocket is at /ws", false);
      const auto origin_field = request[http::field::origin];
      std::optional<std::string_view> origin;
      if (request.find(http::field::origin) != request.end())
        origin = std::string_view(origin_field.data(), origin_field.size());
      std::vector<std::string> peers = server_.config().public_addresses;
      if (!local_ec && local_end.address().is_loopback())
        peers.push_back("localhost:" + std::to_string(local_end.port()));
      for (auto& a : server_.known_node_addresses()) peers.push_back(std::move(a));
      if (!origin_allowed(origin, own, server_.config().allowed_origins, peers)) {
        server_.log().warn("foreign_origin",
                           {{"addr", address_}, {"origin", std::string(origin.value_or(""))}});
        return respond_error(http::status::forbidden,
                             "WebSocket from another site's page: not allowed", false);
      }
      if (!secure && server_.config().require_tls && !local)
        return respond_error(http::status::forbidden, "this server requires TLS: use wss://",
                             false);
      accept_websocket(server_, std::move(stream_), std::move(request), id_, address_,
                       secure || local);
      return;  // the session owns the connection now
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      return respond_error(http::status::method_not_allowed, "only GET and HEAD", false);
    const auto& canonical = server_.config().public_addresses;
    if (!secure && server_.config().require_tls && !local && (!canonical.empty() || !own.empty())) {
      http::response<http::string_body> res{http::status::moved_permanently, request.version()};
      res.set(http::field::location,
              "https://" + (canonical.empty() ? own : canonical.front()) + std::string(target));
      return send(std::move(res), request.keep_alive());
    }
    server_.metrics().http_requests++;
    if (target == "/metrics" || target.starts_with("/metrics?")) {
      http::response<http::string_body> res{http::status::ok, request.version()};
      res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
      res.set(http::field::cache_control, "no-store");
      res.body() = server_.metrics().render();
      return send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
    }
    if (target == "/ready" || target.starts_with("/ready?")) {
      const bool ready = server_.ready();
      http::response<http::string_body> res{
          ready ? http::status::ok : http::status::service_unavailable, request.version()};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::cache_control, "no-store");
      res.body() = ready ? "{\"ready\":true}" : "{\"ready\":false}";
      return send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
    }
    if (target == "/nodes" || target.starts_with("/nodes?")) {
      // Where the web client may go when this node dies: the cluster's nodes, this one first
      // (none on a server of its own). Any page may read it: the addresses are public anyway.
      const nlohmann::json nodes = {{"nodes", server_.node_addresses()}};
      http::response<http::string_body> res{http::status::ok, request.version()};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::cache_control, "no-store");
      res.set(http::field::access_control_allow_origin, "*");
      res.body() = nodes.dump();
      return send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
    }
    if (target == "/health" || target.starts_with("/health?")) {
      http::response<http::string_body> res{http::status::ok, request.version()};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::cache_control, "no-store");
      res.body() = server_.health_json();
      return send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
    }
    const auto field = [&](http::field f) {
      const auto value = request[f];
      return std::string_view(value.data(), value.size());
    };
    const auto reply = server_.web_files().get(target, field(http::field::accept_encoding),
                                               field(http::field::if_none_match));
    if (reply.status == 404)
      return respond_error(http::status::not_found, "no such page", request.keep_alive());
    if (reply.status != 200 && reply.status != 304)
      return respond_error(http::status::internal_server_error, "cannot read the page", false);
    http::response<http::string_body> res{
        reply.status == 304 ? http::status::not_modified : http::status::ok, request.version()};
    res.set(http::field::etag, reply.etag);
    res.set(http::field::cache_control, reply.cache_control);
    if (reply.vary_encoding) res.set(http::field::vary, "Accept-Encoding");
    if (reply.status == 200) {
      res.set(http::field::content_type, std::string(reply.content_type));
      if (!reply.content_encoding.empty())
        res.set(http::field::content_encoding, reply.content_encoding);
      res.body() = *reply.body;
    }
    send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
  }

  void respond_error(http::status status, std::string text, bool keep_alive) {
    http::response<http::string_body> res{status, 11};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = std::move(text) + "\n";
    send(std::move(res), keep_alive);
  }

  void send(http::response<http::string_body> res, bool keep_alive, bool head = false) {
    keep_alive = keep_alive && requests_ < kMaxRequestsPerConnection;
    res.set(http::field::server, kServerHeader);
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Content-Security-Policy", content_security_policy(server_.node_addresses()));
    res.set("Referrer-Policy", "no-referrer");
    // Cross-origin isolation, without which a browser gives the page no SharedArrayBuffer and
    // the engine's WebAssembly build no threads. The page loads nothing from other origins.
    res.set("Cross-Origin-Opener-Policy", "same-origin");
    res.set("Cross-Origin-Embedder-Policy", "require-corp");
    res.keep_alive(keep_alive);
    res.prepare_payload();
    // A 304 has no body, and the Content-Length: 0 Beast gives it would claim the page is empty.
    if (res.result() == http::status::not_modified) res.erase(http::field::content_length);
    if (head) res.body().clear();  // Content-Length stays that of the body a GET would get
    auto shared_res = std::make_shared<http::response<http::string_body>>(std::move(res));
    beast::get_lowest_layer(stream_).expires_after(server_.config().handshake_timeout);
    http::async_write(
        stream_, *shared_res,
        [self = this->shared_from_this(), shared_res, keep_alive](error_code ec, std::size_t) {
          if (ec || !keep_alive) return self->close();
          self->read_request();
        });
  }

  void close() {
    if constexpr (kIsTls<Stream>) {
      beast::get_lowest_layer(stream_).expires_after(kLingerTime);
      stream_.async_shutdown([self = this->shared_from_this()](error_code) {
        error_code ignored;
        beast::get_lowest_layer(self->stream_).socket().close(ignored);
      });
    } else {
      error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      stream_.socket().close(ignored);
    }
    server_.on_closed(id_);
  }

  SessionHost& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  SessionId id_;
  std::string address_;
  int requests_ = 0;
};

}  // namespace

template <class Stream>
void serve_http(SessionHost& server, Stream stream, beast::flat_buffer buffer, SessionId id,
                std::string address) {
  std::make_shared<HttpExchange<Stream>>(server, std::move(stream), std::move(buffer), id,
                                         std::move(address))
      ->run();
}

template void serve_http<PlainStream>(SessionHost&, PlainStream, beast::flat_buffer, SessionId,
                                      std::string);
template void serve_http<TlsStream>(SessionHost&, TlsStream, beast::flat_buffer, SessionId,
                                    std::string);

}  // namespace amazons::server::detail
