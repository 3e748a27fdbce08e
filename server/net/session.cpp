#include "server/net/session.h"

#include <algorithm>

#include "server/net/session_host.h"

namespace amazons::server {

namespace asio = boost::asio;
using boost::system::error_code;

// ---- Session ----------------------------------------------------------------------------------

Session::Session(SessionHost& server, asio::any_io_executor executor, SessionId id,
                 std::string address, Transport transport, bool private_channel)
    : server_(server),
      timer_(std::move(executor)),
      id_(id),
      address_(std::move(address)),
      transport_(transport),
      private_channel_(private_channel),
      last_heard_(steady_now()) {}

std::shared_ptr<const std::string> Session::error_message(protocol::ErrorCode code,
                                                          std::string text) {
  return std::make_shared<const std::string>(
      protocol::encode(protocol::ServerMessage{protocol::make_error(code, std::move(text))}));
}

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

}  // namespace amazons::server
