#include "server/net/sniff.h"

#include <algorithm>

#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

#include "server/http/transport.h"
#include "server/net/streams.h"

namespace amazons::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
using asio::ip::tcp;
using boost::system::error_code;

using detail::kIsTls;
using detail::PlainStream;
using detail::TlsStream;

namespace {

// ---- sniffing the first bytes -----------------------------------------------------------------

template <class Stream>
class Sniffer : public std::enable_shared_from_this<Sniffer<Stream>> {
 public:
  Sniffer(SessionHost& server, Stream stream, beast::flat_buffer buffer, SessionId id,
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

  SessionHost& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  SessionId id_;
  std::string address_;
};

}  // namespace

void serve_connection(SessionHost& server, tcp::socket socket, SessionId id, std::string address,
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
