// Helpers for tests of the client connection against a real server: an event recorder that
// tests can wait on, and a blocking request.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <vector>

#include "net/connection.h"

namespace amazons::test {

// Collects a connection's events (from its network thread) for the test thread to wait on.
class EventRecorder {
 public:
  net::Connection::EventHandler handler() {
    return [this](const net::ConnectionEvent& e) {
      std::lock_guard lock(mutex_);
      events_.push_back(e);
      changed_.notify_all();
    };
  }

  // Waits until some event from index `from` on satisfies `pred`; returns its index.
  std::optional<std::size_t> wait(const std::function<bool(const net::ConnectionEvent&)>& pred,
                                  Millis timeout = Millis{5000}, std::size_t from = 0) {
    std::unique_lock lock(mutex_);
    std::optional<std::size_t> found;
    changed_.wait_for(lock, timeout, [&] {
      for (std::size_t i = from; i < events_.size(); ++i)
        if (pred(events_[i])) {
          found = i;
          return true;
        }
      return false;
    });
    return found;
  }

  // The first message of type M from index `from` on (that also satisfies `pred`).
  template <class M>
  std::optional<M> wait_message(Millis timeout = Millis{5000}, std::size_t from = 0,
                                std::function<bool(const M&)> pred = {}) {
    std::optional<M> out;
    wait(
        [&](const net::ConnectionEvent& e) {
          const auto* m = std::get_if<net::MessageEvent>(&e);
          const M* msg = m ? std::get_if<M>(&m->message) : nullptr;
          if (!msg || (pred && !pred(*msg))) return false;
          out = *msg;
          return true;
        },
        timeout, from);
    return out;
  }

  std::optional<net::StatusEvent> wait_status(net::ConnectionStatus s,
                                              Millis timeout = Millis{5000}, std::size_t from = 0) {
    std::optional<net::StatusEvent> out;
    wait(
        [&](const net::ConnectionEvent& e) {
          const auto* st = std::get_if<net::StatusEvent>(&e);
          if (!st || st->status != s) return false;
          out = *st;
          return true;
        },
        timeout, from);
    return out;
  }

  std::optional<net::LoginEvent> wait_login(Millis timeout = Millis{5000}, std::size_t from = 0) {
    std::optional<net::LoginEvent> out;
    wait(
        [&](const net::ConnectionEvent& e) {
          const auto* l = std::get_if<net::LoginEvent>(&e);
          if (l) out = *l;
          return l != nullptr;
        },
        timeout, from);
    return out;
  }

  std::size_t size() {
    std::lock_guard lock(mutex_);
    return events_.size();
  }
  std::vector<net::ConnectionEvent> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<net::ConnectionEvent> events_;
};

// Sends a request and waits for its reply (the connection must be in NetworkThread delivery).
inline net::ServerLink::Reply call(net::Connection& c, protocol::ClientMessage m,
                                   Millis timeout = Millis{10000}) {
  auto promise = std::make_shared<std::promise<net::ServerLink::Reply>>();
  auto future = promise->get_future();
  c.send(std::move(m), [promise](net::ServerLink::Reply r) { promise->set_value(std::move(r)); });
  REQUIRE_MESSAGE(future.wait_for(timeout) == std::future_status::ready, "no reply at all");
  return future.get();
}

inline net::ConnectionOptions connection_options(unsigned short port, const std::string& name) {
  net::ConnectionOptions o;
  o.host = "127.0.0.1";
  o.port = port;
  o.name = name;
  o.connect_timeout = Millis{3000};
  o.request_timeout = Millis{3000};
  o.reconnect.initial = Millis{50};
  o.reconnect.max = Millis{400};
  o.seed = 7;
  return o;
}

// The reply as message M; fails the test if the request failed or was answered otherwise.
template <class M>
M reply_as(const net::ServerLink::Reply& r) {
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error().describe()));
  const M* m = std::get_if<M>(&*r);
  REQUIRE_MESSAGE(m != nullptr, "expected " << M::kType << ", got " << protocol::encode(*r));
  return *m;
}

}  // namespace amazons::test
