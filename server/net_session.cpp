#include "server/net_session.h"

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <array>
#include <fstream>
#include <sstream>

#include "server/net_server.h"

namespace amazons::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using boost::system::error_code;
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

namespace {

// Lines gathered into one write while earlier ones are in flight.
constexpr std::size_t kMaxLinesPerWrite = 64;
constexpr std::size_t kReadChunk = 16 * 1024;
// How long a closing connection may take to read the rest of what its peer sent, so the last
// error line is not lost to a reset.
constexpr auto kLingerTime = std::chrono::seconds(1);
// HTTP requests carry no bodies we want; headers beyond this are an attack or a mistake.
constexpr std::uint32_t kMaxHttpHeaderBytes = 8 * 1024;
constexpr std::uint64_t kMaxHttpBodyBytes = 16 * 1024;
// Requests served on one keep-alive connection before it is closed.
constexpr int kMaxRequestsPerConnection = 100;
constexpr std::string_view kWebSocketPath = "/ws";
constexpr const char* kServerHeader = "amazons-server";

std::shared_ptr<const std::string> error_message(protocol::ErrorCode code, std::string text) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::make_error(code, std::move(text))}));
}

template <class Stream>
constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

}  // namespace

// ---- Session ----------------------------------------------------------------------------------

Session::Session(Server& server, asio::any_io_executor executor, SessionId id, std::string address,
                 Transport transport, bool private_channel)
    : server_(server),
      timer_(std::move(executor)),
      id_(id),
      address_(std::move(address)),
      transport_(transport),
      private_channel_(private_channel),
      last_heard_(steady_now()) {}

Millis Session::steady_now() {
  return std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now().time_since_epoch());
}

void Session::start() {
  asio::dispatch(timer_.get_executor(), [self = shared_from_this()] {
    self->read();
    self->arm_idle_timer();
  });
}

void Session::deliver(std::shared_ptr<const std::string> message) {
  asio::post(timer_.get_executor(),
             [self = shared_from_this(), m = std::move(message)] { self->enqueue(m); });
}

void Session::close_after_flush() {
  asio::post(timer_.get_executor(), [self = shared_from_this()] {
    self->closing_ = true;
    if (!self->writing_) self->finish(true);
  });
}

void Session::refuse(protocol::ErrorCode code, std::string message) {
  asio::post(timer_.get_executor(), [self = shared_from_this(), code, m = std::move(message)] {
    self->refuse_and_close(code, m);
  });
}

void Session::close_now() {
  asio::post(timer_.get_executor(), [self = shared_from_this()] { self->finish(false); });
}

void Session::on_message(std::string_view text) {
  heard();
  if (!closing_) server_.on_line(id_, protocol::decode_client(text));
}

void Session::refuse_and_close(protocol::ErrorCode code, const std::string& message) {
  enqueue(error_message(code, message));
  closing_ = true;
  if (!writing_) finish(true);
}

void Session::enqueue(const std::shared_ptr<const std::string>& message) {
  if (closed_) return;
  queued_bytes_ += message->size() + 1;
  if (queued_bytes_ > server_.config().max_write_queue_bytes) {
    server_.log().warn("slow_reader", {{"session", std::to_string(id_)},
                                       {"addr", address_},
                                       {"transport", std::string(to_string(transport_))},
                                       {"queued_bytes", std::to_string(queued_bytes_)}});
    return finish(false);
  }
  queue_.push_back(message);
  if (!writing_) write_next();
}

void Session::write_next() {
  writing_ = true;
  in_flight_ = std::min(queue_.size(), max_messages_per_write());
  write(in_flight_);
}

void Session::on_written(error_code ec) {
  writing_ = false;
  if (ec || closed_) return finish(false);
  for (std::size_t i = 0; i < in_flight_; ++i) {
    queued_bytes_ -= queue_.front()->size() + 1;
    queue_.pop_front();
  }
  if (!queue_.empty()) return write_next();
  if (closing_) finish(true);
}

void Session::arm_idle_timer() {
  const auto check = std::min(server_.config().idle_ping, server_.config().idle_timeout) / 2;
  timer_.expires_after(std::max(check, Millis{10}));
  timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (ec || self->closed_) return;
    self->on_idle_check();
    self->arm_idle_timer();
  });
}

void Session::on_idle_check() {
  if (closing_) return;
  const Millis silent = steady_now() - last_heard_;
  if (silent >= server_.config().idle_timeout) {
    refuse_and_close(protocol::ErrorCode::IdleTimeout, "no answer to ping: closing");
  } else if (silent >= server_.config().idle_ping && !ping_sent_) {
    ping_sent_ = true;
    enqueue(std::make_shared<const std::string>(
        protocol::encode(protocol::ServerMessage{protocol::Ping{}})));
  }
}

void Session::finish(bool graceful) {
  if (closed_) return;
  closed_ = true;
  closing_ = true;
  timer_.cancel();
  server_.on_closed(id_);
  if (!graceful) return close_transport();
  timer_.expires_after(kLingerTime);
  timer_.async_wait([self = shared_from_this()](error_code) { self->close_transport(); });
  shutdown();
}

namespace {

// ---- JSON lines over a byte stream (plain or TLS) ---------------------------------------------

template <class Stream>
class LineSession final : public Session {
 public:
  LineSession(Server& server, Stream stream, SessionId id, std::string address,
              bool private_channel, std::string_view already_read)
      : Session(server, stream.get_executor(), id, std::move(address),
                kIsTls<Stream> ? Transport::Tls : Transport::Tcp, private_channel),
        stream_(std::move(stream)) {
    beast::get_lowest_layer(stream_).expires_never();
    framer_.append(already_read);
  }

 private:
  void read() override {
    // What came with the sniffed bytes is framed before anything new is read.
    if (!take_lines()) return;
    stream_.async_read_some(asio::buffer(buffer_), [self = shared()](error_code ec, std::size_t n) {
      if (ec || self->closed()) return self->finish(false);
      self->framer_.append(std::string_view(self->buffer_.data(), n));
      self->heard();
      self->read();
    });
  }

  // Hands every complete line to the server; false once the connection is closing.
  bool take_lines() {
    std::string line;
    for (;;) {
      const auto status = framer_.next(line);
      if (status == protocol::LineFramer::Status::NeedMore) break;
      if (status == protocol::LineFramer::Status::TooLong) {
        server_.log().warn("line_too_long",
                           {{"session", std::to_string(id())}, {"addr", address()}});
        refuse_and_close(protocol::ErrorCode::LineTooLong,
                         "line longer than " + std::to_string(protocol::kMaxLineBytes) +
                             " bytes: closing the connection");
        return false;
      }
      on_message(line);
    }
    return !closing();
  }

  std::size_t max_messages_per_write() const override { return kMaxLinesPerWrite; }

  void write(std::size_t count) override {
    buffers_.clear();
    static constexpr char kNewline = '\n';
    for (std::size_t i = 0; i < count; ++i) {
      buffers_.push_back(asio::buffer(*queue_[i]));
      buffers_.push_back(asio::buffer(&kNewline, 1));
    }
    asio::async_write(stream_, buffers_,
                      [self = shared()](error_code ec, std::size_t) { self->on_written(ec); });
  }

  void shutdown() override {
    if constexpr (kIsTls<Stream>) {
      stream_.async_shutdown([self = shared()](error_code) { self->close_transport(); });
    } else {
      error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      drain();
    }
  }

  // Reads what the peer still sends until it closes, so our last line is not lost to a reset.
  void drain() {
    stream_.async_read_some(asio::buffer(buffer_), [self = shared()](error_code ec, std::size_t) {
      if (ec) return self->close_transport();
      self->drain();
    });
  }

  void close_transport() override {
    timer_.cancel();
    error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

  std::shared_ptr<LineSession> shared() {
    return std::static_pointer_cast<LineSession>(shared_from_this());
  }

  Stream stream_;
  std::array<char, kReadChunk> buffer_{};
  protocol::LineFramer framer_;
  std::vector<asio::const_buffer> buffers_;
};

// ---- one JSON message per WebSocket text frame ------------------------------------------------

template <class Stream>
class WsSession final : public Session {
 public:
  WsSession(Server& server, Stream stream, SessionId id, std::string address, bool private_channel)
      : Session(server, stream.get_executor(), id, std::move(address),
                kIsTls<Stream> ? Transport::SecureWebSocket : Transport::WebSocket,
                private_channel),
        ws_(std::move(stream)) {}

  // Completes the upgrade; the server registers the session once it is done.
  void accept(http::request<http::string_body> request) {
    beast::get_lowest_layer(ws_).expires_never();
    // The handshake has its own timeout; afterwards our pings and idle timeout apply, as on TCP.
    websocket::stream_base::timeout t;
    t.handshake_timeout = server_.config().handshake_timeout;
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, kServerHeader); }));
    ws_.read_message_max(protocol::kMaxLineBytes);
    ws_.text(true);
    ws_.async_accept(request, [self = shared()](error_code ec) {
      if (ec) {
        self->server_.log().debug("ws_handshake_failed",
                                  {{"addr", self->address()}, {"why", ec.message()}});
        self->server_.on_closed(self->id());
        return;
      }
      self->server_.attach(self);
    });
  }

 private:
  void read() override {
    ws_.async_read(buffer_, [self = shared()](error_code ec, std::size_t) {
      if (ec == websocket::error::message_too_big) {
        // Beast has already sent the close frame (1009, message too big).
        self->server_.log().warn(
            "frame_too_big", {{"session", std::to_string(self->id())}, {"addr", self->address()}});
        return self->finish(false);
      }
      if (ec || self->closed()) return self->finish(false);
      if (!self->ws_.got_text()) {
        self->heard();
        self->deliver(error_message(protocol::ErrorCode::BadJson,
                                    "binary frame: send each message as a text frame"));
      } else {
        const auto data = self->buffer_.cdata();
        self->on_message(std::string_view(static_cast<const char*>(data.data()), data.size()));
      }
      self->buffer_.consume(self->buffer_.size());
      if (!self->closing()) self->read();
    });
  }

  std::size_t max_messages_per_write() const override { return 1; }

  void write(std::size_t) override {
    ws_.async_write(asio::buffer(*queue_.front()),
                    [self = shared()](error_code ec, std::size_t) { self->on_written(ec); });
  }

  void shutdown() override {
    ws_.async_close(websocket::close_code::normal,
                    [self = shared()](error_code) { self->close_transport(); });
  }

  void close_transport() override {
    timer_.cancel();
    error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  std::shared_ptr<WsSession> shared() {
    return std::static_pointer_cast<WsSession>(shared_from_this());
  }

  websocket::stream<Stream> ws_;
  beast::flat_buffer buffer_;
};

// ---- HTTP: the web client's files, the health check, WebSocket upgrades -----------------------

template <class Stream>
class HttpExchange : public std::enable_shared_from_this<HttpExchange<Stream>> {
 public:
  HttpExchange(Server& server, Stream stream, beast::flat_buffer buffer, SessionId id,
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
    const auto host = std::string(request[http::field::host]);
    const std::string_view target(request.target().data(), request.target().size());

    if (websocket::is_upgrade(request)) {
      if (target.substr(0, target.find('?')) != kWebSocketPath)
        return respond_error(http::status::not_found, "WebSocket is at /ws", false);
      const auto origin_field = request[http::field::origin];
      std::optional<std::string_view> origin;
      if (request.find(http::field::origin) != request.end())
        origin = std::string_view(origin_field.data(), origin_field.size());
      if (!origin_allowed(origin, host, server_.config().allowed_origins)) {
        server_.log().warn("foreign_origin",
                           {{"addr", address_}, {"origin", std::string(origin.value_or(""))}});
        return respond_error(http::status::forbidden,
                             "WebSocket from another site's page: not allowed", false);
      }
      if (!secure && server_.config().require_tls && !local)
        return respond_error(http::status::forbidden, "this server requires TLS: use wss://",
                             false);
      auto ws = std::make_shared<WsSession<Stream>>(server_, std::move(stream_), id_, address_,
                                                    secure || local);
      ws->accept(std::move(request));
      return;  // the session owns the connection now
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head)
      return respond_error(http::status::method_not_allowed, "only GET and HEAD", false);
    if (!secure && server_.config().require_tls && !local && !host.empty()) {
      http::response<http::string_body> res{http::status::moved_permanently, request.version()};
      res.set(http::field::location, "https://" + host + std::string(target));
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
    if (target == "/health" || target.starts_with("/health?")) {
      http::response<http::string_body> res{http::status::ok, request.version()};
      res.set(http::field::content_type, "application/json");
      res.set(http::field::cache_control, "no-store");
      res.body() = server_.health_json();
      return send(std::move(res), request.keep_alive(), request.method() == http::verb::head);
    }
    const auto file = web_file(server_.config().web_root, target);
    if (!file) return respond_error(http::status::not_found, "no such page", request.keep_alive());
    std::ifstream in(*file, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in)
      return respond_error(http::status::internal_server_error, "cannot read the page", false);
    http::response<http::string_body> res{http::status::ok, request.version()};
    res.set(http::field::content_type, std::string(content_type(*file)));
    // The page is small and changes with each release: always revalidate.
    res.set(http::field::cache_control, "no-cache");
    res.body() = std::move(body).str();
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
    res.set("Content-Security-Policy",
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
    res.set("Referrer-Policy", "no-referrer");
    res.keep_alive(keep_alive);
    res.prepare_payload();
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

  Server& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  SessionId id_;
  std::string address_;
  int requests_ = 0;
};

// ---- sniffing the first bytes -----------------------------------------------------------------

template <class Stream>
class Sniffer : public std::enable_shared_from_this<Sniffer<Stream>> {
 public:
  Sniffer(Server& server, Stream stream, beast::flat_buffer buffer, SessionId id,
          std::string address)
      : server_(server),
        stream_(std::move(stream)),
        buffer_(std::move(buffer)),
        id_(id),
        address_(std::move(address)) {}

  void run() {
    // A connection that says nothing is idle whatever it would have spoken.
    beast::get_lowest_layer(stream_).expires_after(
        std::min(server_.config().handshake_timeout, server_.config().idle_timeout));
    decide();
  }

 private:
  std::string_view bytes() const {
    const auto data = buffer_.cdata();
    return {static_cast<const char*>(data.data()), data.size()};
  }

  void decide() {
    switch (classify_first_bytes(bytes(), kIsTls<Stream>)) {
      case FirstBytes::NeedMore:
        return read_more();
      case FirstBytes::Tls:
        return start_tls();
      case FirstBytes::Http:
        return start_http();
      case FirstBytes::Lines:
        return start_lines();
    }
  }

  void read_more() {
    if (buffer_.size() >= kMaxSniffBytes) return start_lines();
    stream_.async_read_some(buffer_.prepare(kMaxSniffBytes - buffer_.size()),
                            [self = this->shared_from_this()](error_code ec, std::size_t n) {
                              if (ec) return self->give_up(ec);
                              self->buffer_.commit(n);
                              self->decide();
                            });
  }

  void give_up(error_code ec) {
    if (ec != asio::error::eof && ec != asio::error::operation_aborted)
      server_.log().debug("sniff_failed", {{"addr", address_}, {"why", ec.message()}});
    error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
    server_.on_closed(id_);
  }

  void start_tls() {
    if constexpr (kIsTls<Stream>) {
      start_lines();
    } else {
      auto* context = server_.tls_context();
      if (context == nullptr) {
        server_.log().debug("tls_off", {{"addr", address_}});
        return give_up({});
      }
      auto tls = std::make_shared<TlsStream>(std::move(stream_), *context);
      tls->async_handshake(
          asio::ssl::stream_base::server, buffer_.data(),
          [self = this->shared_from_this(), tls](error_code ec, std::size_t used) {
            if (ec) {
              self->server_.log().debug("tls_handshake_failed",
                                        {{"addr", self->address_}, {"why", ec.message()}});
              error_code ignored;
              beast::get_lowest_layer(*tls).socket().close(ignored);
              self->server_.count_tls_failure();
              return self->server_.on_closed(self->id_);
            }
            self->buffer_.consume(used);
            // What follows the handshake is sniffed again, as plaintext.
            std::make_shared<Sniffer<TlsStream>>(self->server_, std::move(*tls),
                                                 beast::flat_buffer(), self->id_, self->address_)
                ->run();
          });
    }
  }

  void start_http() {
    std::make_shared<HttpExchange<Stream>>(server_, std::move(stream_), std::move(buffer_), id_,
                                           address_)
        ->run();
  }

  void start_lines() {
    const bool secure = kIsTls<Stream>;
    const bool local = server_.is_trusted_local(address_);
    auto session = std::make_shared<LineSession<Stream>>(server_, std::move(stream_), id_, address_,
                                                         secure || local, bytes());
    if (!secure && server_.config().require_tls && !local) {
      session->refuse(protocol::ErrorCode::TlsRequired,
                      "this server requires TLS: connect with tls://host:port");
      return;
    }
    server_.attach(session);
  }

  Server& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  SessionId id_;
  std::string address_;
};

}  // namespace

void serve_connection(Server& server, tcp::socket socket, SessionId id, std::string address,
                      bool refused) {
  // Refused at once, in the protocol most clients speak, without waiting to hear which: a storm
  // of connections from one address must cost as little as possible.
  if (refused) {
    std::make_shared<LineSession<PlainStream>>(server, PlainStream(std::move(socket)), id,
                                               std::move(address), false, std::string_view())
        ->refuse(protocol::ErrorCode::TooManyConnections, "too many connections from your address");
    return;
  }
  std::make_shared<Sniffer<PlainStream>>(server, PlainStream(std::move(socket)),
                                         beast::flat_buffer(), id, std::move(address))
      ->run();
}

}  // namespace amazons::server
