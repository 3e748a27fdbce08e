#include "tests/integration/transport_client.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <array>
#include <variant>

#include "tls/tls.h"

namespace amazons::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using boost::system::error_code;
using Plain = beast::tcp_stream;
using Secure = beast::ssl_stream<beast::tcp_stream>;

const char* to_string(Wire w) {
  switch (w) {
    case Wire::Tcp:
      return "tcp";
    case Wire::Tls:
      return "tls";
    case Wire::Ws:
      return "ws";
    case Wire::Wss:
      return "wss";
  }
  return "?";
}

struct TransportClient::Impl {
  asio::io_context io;
  asio::ssl::context tls_context{asio::ssl::context::tls_client};
  std::variant<std::monostate, Plain, Secure, websocket::stream<Plain>, websocket::stream<Secure>>
      stream;
  beast::flat_buffer buffer;  // WebSocket frames
  std::string lines;          // bytes of lines not yet taken (asio's dynamic_buffer refers to it)
  bool closed = false;
  std::optional<int> close_code;
  std::string fingerprint;

  // Runs the io_context until `done` or the timeout; on timeout cancels whatever is pending.
  bool run(const bool& done, Millis timeout) {
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done && std::chrono::steady_clock::now() < deadline) io.run_one_until(deadline);
    const bool finished = done;
    if (!finished) {
      std::visit(
          [](auto& s) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, std::monostate>)
              beast::get_lowest_layer(s).cancel();
          },
          stream);
      io.restart();
      io.run_for(std::chrono::milliseconds(100));  // let the cancelled handlers finish
    }
    return finished;
  }

  tcp::socket& socket() {
    return std::visit(
        [](auto& s) -> tcp::socket& {
          if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>)
            throw std::logic_error("not connected");
          else
            return beast::get_lowest_layer(s).socket();
        },
        stream);
  }
};

TransportClient::TransportClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TransportClient::TransportClient(TransportClient&&) noexcept = default;
TransportClient& TransportClient::operator=(TransportClient&&) noexcept = default;
TransportClient::~TransportClient() = default;

Expected<TransportClient, std::string> TransportClient::connect(Wire wire, unsigned short port,
                                                                WireOptions options) {
  auto impl = std::make_unique<Impl>();
  Impl& m = *impl;
  m.tls_context.set_verify_mode(asio::ssl::verify_none);
  error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (ec) return Unexpected("bad address " + options.host);
  Plain plain(m.io);
  bool done = false;
  plain.async_connect(tcp::endpoint(address, port), [&](error_code e) {
    ec = e;
    done = true;
  });
  if (!m.run(done, options.timeout) || ec)
    return Unexpected(std::string("connect: ") + (ec ? ec.message() : "timed out"));
  plain.socket().set_option(tcp::no_delay(true), ec);

  const std::string host = options.host + ":" + std::to_string(port);
  auto shake = [&](Secure& s) -> std::optional<std::string> {
    done = false;
    s.async_handshake(asio::ssl::stream_base::client, [&](error_code e) {
      ec = e;
      done = true;
    });
    if (!m.run(done, options.timeout) || ec)
      return std::string("TLS handshake: ") + (ec ? ec.message() : "timed out");
    // SSL_get_peer_certificate hands us a reference of our own.
    X509* peer = SSL_get_peer_certificate(s.native_handle());
    m.fingerprint = tls::fingerprint(peer);
    X509_free(peer);
    return std::nullopt;
  };
  auto upgrade = [&](auto& ws) -> std::optional<std::string> {
    if (options.origin)
      ws.set_option(websocket::stream_base::decorator(
          [origin = *options.origin](websocket::request_type& req) {
            req.set(beast::http::field::origin, origin);
          }));
    ws.read_message_max(1 << 20);
    websocket::response_type response;
    done = false;
    ws.async_handshake(response, host, options.path, [&](error_code e) {
      ec = e;
      done = true;
    });
    if (!m.run(done, options.timeout) || ec)
      return "upgrade refused: " + std::to_string(response.result_int()) + " " +
             (ec ? ec.message() : "timed out");
    return std::nullopt;
  };

  switch (wire) {
    case Wire::Tcp:
      m.stream.emplace<Plain>(std::move(plain));
      break;
    case Wire::Tls: {
      auto& s = m.stream.emplace<Secure>(std::move(plain), m.tls_context);
      if (auto e = shake(s)) return Unexpected(*e);
      break;
    }
    case Wire::Ws: {
      auto& s = m.stream.emplace<websocket::stream<Plain>>(std::move(plain));
      if (auto e = upgrade(s)) return Unexpected(*e);
      break;
    }
    case Wire::Wss: {
      auto& s = m.stream.emplace<websocket::stream<Secure>>(std::move(plain), m.tls_context);
      if (auto e = shake(s.next_layer())) return Unexpected(*e);
      if (auto e = upgrade(s)) return Unexpected(*e);
      break;
    }
  }
  return TransportClient(std::move(impl));
}

bool TransportClient::send(std::string_view message) {
  Impl& m = *impl_;
  if (m.closed) return false;
  bool done = false;
  error_code ec;
  auto handler = [&](error_code e, std::size_t) {
    ec = e;
    done = true;
  };
  const std::string line = std::string(message) + "\n";
  std::visit(
      [&](auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, Plain> || std::is_same_v<S, Secure>)
          asio::async_write(s, asio::buffer(line), handler);
        else if constexpr (!std::is_same_v<S, std::monostate>)
          s.async_write(asio::buffer(message), handler);
      },
      m.stream);
  if (!m.run(done, Millis{5000}) || ec) {
    m.closed = ec && ec != asio::error::operation_aborted;
    return false;
  }
  return true;
}

bool TransportClient::send_raw(std::string_view bytes) {
  Impl& m = *impl_;
  auto* plain = std::get_if<Plain>(&m.stream);
  if (!plain) throw std::logic_error("send_raw: TCP only");
  error_code ec;
  asio::write(plain->socket(), asio::buffer(bytes), ec);
  return !ec;
}

std::optional<std::string> TransportClient::read(Millis timeout) {
  Impl& m = *impl_;
  if (m.closed) return std::nullopt;
  // Lines: a whole line may already be buffered.
  auto take_line = [&]() -> std::optional<std::string> {
    const auto nl = m.lines.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string line = m.lines.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    m.lines.erase(0, nl + 1);
    return line;
  };
  std::optional<std::string> result;
  bool done = false;
  error_code ec;
  std::visit(
      [&](auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, Plain> || std::is_same_v<S, Secure>) {
          if ((result = take_line())) {
            done = true;
            return;
          }
          asio::async_read_until(s, asio::dynamic_buffer(m.lines), '\n',
                                 [&](error_code e, std::size_t) {
                                   ec = e;
                                   done = true;
                                   if (!e) result = take_line();
                                 });
        } else if constexpr (!std::is_same_v<S, std::monostate>) {
          s.async_read(m.buffer, [&](error_code e, std::size_t) {
            ec = e;
            done = true;
            if (!e) {
              result = beast::buffers_to_string(m.buffer.cdata());
              m.buffer.consume(m.buffer.size());
            } else if (e == websocket::error::closed) {
              m.close_code = s.reason().code;
            }
          });
        }
      },
      m.stream);
  if (!m.run(done, timeout)) return std::nullopt;
  if (ec) m.closed = true;
  return result;
}

int TransportClient::ping_flood(int count, Millis timeout) {
  Impl& m = *impl_;
  int pongs = 0;
  std::visit(
      [&](auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, websocket::stream<Plain>> ||
                      std::is_same_v<S, websocket::stream<Secure>>) {
          s.control_callback([&](websocket::frame_type kind, beast::string_view) {
            if (kind == websocket::frame_type::pong) ++pongs;
          });
          for (int i = 0; i < count && !m.closed; ++i) {
            bool done = false;
            error_code ec;
            s.async_ping({}, [&](error_code e) {
              ec = e;
              done = true;
            });
            if (!m.run(done, Millis{5000}) || ec) m.closed = true;
          }
          // Pongs arrive inside the read (which waits for a message): it is run a handler at a
          // time and left, cancelled, once every pong came.
          bool done = false;
          error_code ec;
          s.async_read(m.buffer, [&](error_code e, std::size_t) {
            ec = e;
            done = true;
          });
          m.io.restart();
          const auto deadline = std::chrono::steady_clock::now() + timeout;
          while (!done && pongs < count && std::chrono::steady_clock::now() < deadline)
            m.io.run_one_until(deadline);
          if (done) {
            if (ec) m.closed = true;
          } else {
            beast::get_lowest_layer(s).cancel();
            m.io.restart();
            m.io.run_for(std::chrono::milliseconds(100));
          }
          s.control_callback();
        } else {
          throw std::logic_error("ping_flood: WebSocket only");
        }
      },
      m.stream);
  return pongs;
}

std::string TransportClient::read_until_closed(Millis timeout) {
  Impl& m = *impl_;
  std::string all = std::move(m.lines);
  m.lines.clear();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!m.closed && std::chrono::steady_clock::now() < deadline) {
    std::array<char, 4096> chunk{};
    bool done = false;
    error_code ec;
    std::size_t got = 0;
    auto handler = [&](error_code e, std::size_t n) {
      ec = e;
      got = n;
      done = true;
    };
    std::visit(
        [&](auto& s) {
          using S = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<S, Plain> || std::is_same_v<S, Secure>)
            s.async_read_some(asio::buffer(chunk), handler);
          else
            throw std::logic_error("read_until_closed: TCP and TLS only");
        },
        m.stream);
    if (!m.run(done,
               std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now())))
      break;
    all.append(chunk.data(), got);
    if (ec) m.closed = true;
  }
  return all;
}

bool TransportClient::closed() const { return impl_->closed; }
std::optional<int> TransportClient::close_code() const { return impl_->close_code; }
std::string TransportClient::peer_fingerprint() const { return impl_->fingerprint; }

}  // namespace amazons::test
