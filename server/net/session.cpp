#include "server/net/session.h"

#include <algorithm>

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

#include "server/net/server.h"
#include "server/net/streams.h"

namespace amazons::server {

namespace detail {

std::shared_ptr<const std::string> error_message(protocol::ErrorCode code, std::string text) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::make_error(code, std::move(text))}));
}

}  // namespace detail

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;
using boost::system::error_code;

using detail::error_message;
using detail::kIsTls;
using detail::kLingerTime;
using detail::PlainStream;
using detail::TlsStream;

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
  const auto check = std::min({server_.config().idle_ping, server_.config().idle_timeout,
                               server_.config().line_timeout}) /
                     2;
  timer_.expires_after(std::max(check, Millis{10}));
  timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (ec || self->closed_) return;
    self->on_idle_check();
    self->arm_idle_timer();
  });
}

void Session::on_idle_check() {
  if (closing_) return;
  const Millis now = steady_now();
  const Millis silent = now - last_heard_;
  if (line_started_ && now - *line_started_ >= server_.config().line_timeout) {
    server_.log().warn("line_timeout", {{"session", std::to_string(id_)}, {"addr", address_}});
    refuse_and_close(protocol::ErrorCode::IdleTimeout, "a line left unfinished: closing");
  } else if (silent >= server_.config().idle_timeout) {
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
    detail::serve_http(server_, std::move(stream_), std::move(buffer_), id_, address_);
  }

  void start_lines() {
    const bool secure = kIsTls<Stream>;
    const bool local = server_.is_trusted_local(address_);
    auto session = detail::make_line_session(server_, std::move(stream_), id_, address_,
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
    detail::make_line_session(server, PlainStream(std::move(socket)), id, std::move(address), false,
                              std::string_view())
        ->refuse(protocol::ErrorCode::TooManyConnections, "too many connections from your address");
    return;
  }
  std::make_shared<Sniffer<PlainStream>>(server, PlainStream(std::move(socket)),
                                         beast::flat_buffer(), id, std::move(address))
      ->run();
}

}  // namespace amazons::server
