#include "server/net/streams.h"

#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

namespace amazons::server::detail {

namespace websocket = beast::websocket;

namespace {

// A browser pings rarely if ever (keep-alives are a few a minute); a flood of pings costs a pong
// each, written by Beast before the session sees a message.
constexpr int kMaxPingsPerSecond = 10;

// ---- one JSON message per WebSocket text frame ------------------------------------------------

template <class Stream>
class WsSession final : public Session {
 public:
  WsSession(SessionHost& server, Stream stream, SessionId id, std::string address,
            bool private_channel)
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
    // Beast answers every ping itself: past the cap, the connection is closed before its pong.
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
      if (kind == websocket::frame_type::ping) on_ping();
    });
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

  // Runs inside the read that got the ping, on the session's strand.
  void on_ping() {
    const Millis now = steady_now();
    if (now - ping_window_ >= Millis{1000}) {
      ping_window_ = now;
      pings_in_window_ = 0;
    }
    if (++pings_in_window_ <= kMaxPingsPerSecond || closed()) return;
    server_.log().warn("ping_flood", {{"session", std::to_string(id())}, {"addr", address()}});
    // Closing the socket fails the pong and then the read, which ends the session.
    close_transport();
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
  Millis ping_window_{0};
  int pings_in_window_ = 0;
};

}  // namespace

template <class Stream>
void accept_websocket(SessionHost& server, Stream stream, HttpRequest request, SessionId id,
                      std::string address, bool private_channel) {
  std::make_shared<WsSession<Stream>>(server, std::move(stream), id, std::move(address),
                                      private_channel)
      ->accept(std::move(request));
}

template void accept_websocket<PlainStream>(SessionHost&, PlainStream, HttpRequest, SessionId,
                                            std::string, bool);
template void accept_websocket<TlsStream>(SessionHost&, TlsStream, HttpRequest, SessionId,
                                          std::string, bool);

}  // namespace amazons::server::detail
