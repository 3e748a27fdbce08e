#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include "net/line_client.h"

#include <boost/asio.hpp>

#include "common/protocol.h"

namespace amazons::net {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

struct LineClient::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  protocol::LineFramer framer{protocol::kMaxLineBytes * 4};
  std::array<char, 16 * 1024> buffer{};
  bool closed = false;
};

LineClient::LineClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineClient::LineClient(LineClient&&) noexcept = default;
LineClient& LineClient::operator=(LineClient&&) noexcept = default;
LineClient::~LineClient() = default;

Expected<LineClient, std::string> LineClient::connect(const std::string& host, unsigned short port,
                                                      Millis timeout, const std::string& source) {
  auto impl = std::make_unique<Impl>();
  error_code ec;
  tcp::resolver resolver(impl->io);
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) return Unexpected("cannot resolve " + host + ": " + ec.message());
  bool done = false;
  if (!source.empty()) {
    const auto from = asio::ip::make_address(source, ec);
    if (ec) return Unexpected("source: \"" + source + "\" is not an IP address");
    const tcp::endpoint local(from, 0);
    impl->socket.open(local.protocol(), ec);
    if (!ec) impl->socket.bind(local, ec);
    if (ec) return Unexpected("cannot connect from " + source + ": " + ec.message());
    const tcp::endpoint to = *endpoints.begin();
    impl->socket.async_connect(to, [&](error_code e) {
      ec = e;
      done = true;
    });
  } else {
    asio::async_connect(impl->socket, endpoints, [&](error_code e, const tcp::endpoint&) {
      ec = e;
      done = true;
    });
  }
  impl->io.run_for(timeout);
  if (!done) {
    impl->socket.close(ec);
    impl->io.restart();
    impl->io.run();
    return Unexpected("connecting to " + host + ":" + std::to_string(port) + " timed out");
  }
  impl->io.restart();
  if (ec)
    return Unexpected("cannot connect to " + host + ":" + std::to_string(port) + ": " +
                      ec.message());
  impl->socket.set_option(tcp::no_delay(true), ec);
  return LineClient(std::move(impl));
}

bool LineClient::send_line(std::string_view line) {
  std::string data(line);
  data += '\n';
  return send_raw(data);
}

bool LineClient::send_raw(std::string_view bytes) {
  if (impl_->closed) return false;
  error_code ec;
  asio::write(impl_->socket, asio::buffer(bytes.data(), bytes.size()), ec);
  if (ec) impl_->closed = true;
  return !ec;
}

std::optional<std::string> LineClient::read_line(Millis timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string line;
  for (;;) {
    if (impl_->framer.next(line) == protocol::LineFramer::Status::Line) return line;
    if (impl_->closed) return std::nullopt;
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return std::nullopt;
    bool done = false;
    error_code ec;
    std::size_t n = 0;
    impl_->socket.async_read_some(asio::buffer(impl_->buffer), [&](error_code e, std::size_t got) {
      ec = e;
      n = got;
      done = true;
    });
    impl_->io.run_for(left);
    if (!done) {
      impl_->socket.cancel(ec);
      impl_->io.restart();
      impl_->io.run();  // completes the cancelled read
      impl_->io.restart();
      if (n > 0) impl_->framer.append(std::string_view(impl_->buffer.data(), n));
      continue;
    }
    impl_->io.restart();
    if (ec) {
      impl_->closed = true;
      continue;
    }
    impl_->framer.append(std::string_view(impl_->buffer.data(), n));
  }
}

bool LineClient::closed() const { return impl_->closed; }

void LineClient::close() {
  error_code ec;
  impl_->socket.close(ec);
  impl_->closed = true;
}

}  // namespace amazons::net
