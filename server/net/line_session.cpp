#include "server/net/streams.h"

#include <array>
#include <vector>

#include "common/protocol.h"
#include "server/net/unsent_limit.h"

namespace amazons::server::detail {

namespace {

// Lines gathered into one write while earlier ones are in flight.
constexpr std::size_t kMaxLinesPerWrite = 64;
constexpr std::size_t kReadChunk = 16 * 1024;

// ---- JSON lines over a byte stream (plain or TLS) ---------------------------------------------

template <class Stream>
class LineSession final : public Session {
 public:
  LineSession(SessionHost& server, Stream stream, SessionId id, std::string address,
              bool private_channel, std::string_view already_read)
      : Session(server, stream.get_executor(), id, std::move(address),
                kIsTls<Stream> ? Transport::Tls : Transport::Tcp, private_channel),
        stream_(std::move(stream)) {
    beast::get_lowest_layer(stream_).expires_never();
    auto& socket = beast::get_lowest_layer(stream_).socket();
    limit_unsent_bytes(socket);
    if constexpr (!kIsTls<Stream>) {
      // write() tries the socket at once and must not block when it is full.
      error_code ignored;
      socket.non_blocking(true, ignored);
    }
    framer_.append(already_read);
  }

 private:
  void read() override {
    // What came with the sniffed bytes is framed before anything new is read.
    if (!take_lines()) return;
    transport().async_read_some(asio::buffer(buffer_),
                                [self = shared()](error_code ec, std::size_t n) {
                                  if (ec || self->closed()) return self->finish(false);
                                  self->framer_.append(std::string_view(self->buffer_.data(), n));
                                  self->heard();
                                  self->read();
                                });
  }

  // Hands every complete line to the server; false once the connection is closing.
  bool take_lines() {
    std::string line;
    bool ended = false;
    for (;;) {
      const auto status = framer_.next(line);
      if (status == protocol::LineFramer::Status::NeedMore) {
        line_progress(ended, framer_.buffered() > 0);
        break;
      }
      if (status == protocol::LineFramer::Status::TooLong) {
        server_.log().warn("line_too_long",
                           {{"session", std::to_string(id())}, {"addr", address()}});
        refuse_and_close(protocol::ErrorCode::LineTooLong,
                         "line longer than " + std::to_string(protocol::kMaxLineBytes) +
                             " bytes: closing the connection");
        return false;
      }
      on_message(line);
      ended = true;
    }
    return !closing();
  }

  std::size_t max_messages_per_write() const override { return kMaxLinesPerWrite; }

  void write(std::size_t count) override {
    buffers_.clear();
    static constexpr char kNewline = '\n';
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count; ++i) {
      buffers_.push_back(asio::buffer(*queue_[i]));
      buffers_.push_back(asio::buffer(&kNewline, 1));
      bytes += queue_[i]->size() + 1;
    }
    if constexpr (!kIsTls<Stream>) {
      // The lines nearly always fit in the socket's buffer: written here, at once, they cost one
      // sendmsg and no completion handler (async_write would write them at once too, and then
      // post its completion through the scheduler and the strand). What does not fit is written
      // by async_write when the peer has read.
      error_code ec;
      const std::size_t n = stream_.socket().write_some(buffers_, ec);
      if (ec && ec != asio::error::would_block && ec != asio::error::try_again)
        return on_written(ec);
      if (!ec && n == bytes) return on_written({});
      skip_written(ec ? 0 : n);
    }
    asio::async_write(transport(), buffers_,
                      [self = shared()](error_code ec, std::size_t) { self->on_written(ec); });
  }

  // Drops the first n bytes of buffers_ (written already).
  void skip_written(std::size_t n) {
    auto it = buffers_.begin();
    while (it != buffers_.end() && n >= it->size()) n -= (it++)->size();
    buffers_.erase(buffers_.begin(), it);
    if (n > 0) buffers_.front() += n;
  }

  // What lines travel over: the socket itself for plain TCP (Beast's tcp_stream adds timeouts,
  // and this session keeps its own idle timer), the TLS stream otherwise.
  auto& transport() {
    if constexpr (kIsTls<Stream>)
      return stream_;
    else
      return stream_.socket();
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
    transport().async_read_some(asio::buffer(buffer_),
                                [self = shared()](error_code ec, std::size_t) {
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

}  // namespace

template <class Stream>
std::shared_ptr<Session> make_line_session(SessionHost& server, Stream stream, SessionId id,
                                           std::string address, bool private_channel,
                                           std::string_view already_read) {
  return std::make_shared<LineSession<Stream>>(server, std::move(stream), id, std::move(address),
                                               private_channel, already_read);
}

template std::shared_ptr<Session> make_line_session<PlainStream>(SessionHost&, PlainStream,
                                                                 SessionId, std::string, bool,
                                                                 std::string_view);
template std::shared_ptr<Session> make_line_session<TlsStream>(SessionHost&, TlsStream, SessionId,
                                                               std::string, bool, std::string_view);

}  // namespace amazons::server::detail
