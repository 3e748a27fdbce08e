// A small blocking client for the line protocol: connect, send a line, wait for a line with a
// timeout. For tests, tools and simple bots; it never blocks forever.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/expected.h"
#include "common/time_control.h"

namespace amazons::net {

class LineClient {
 public:
  // Connects to host:port (a name or an IPv4/IPv6 address). The error says what failed.
  // `source`, if not empty, is the local address to connect from (tests stand in for other
  // machines with 127.0.0.2 and the like: Linux routes all of 127/8 to loopback).
  static Expected<LineClient, std::string> connect(const std::string& host, unsigned short port,
                                                   Millis timeout = Millis{5000},
                                                   const std::string& source = {});
  LineClient(LineClient&&) noexcept;
  LineClient& operator=(LineClient&&) noexcept;
  ~LineClient();

  // Sends `line` plus '\n'. False when the connection is gone.
  bool send_line(std::string_view line);
  // Sends raw bytes as they are (for tests of framing).
  bool send_raw(std::string_view bytes);
  // The next line (without '\n'), or nullopt on timeout, end of stream or error; closed() tells
  // the last two apart from a timeout.
  std::optional<std::string> read_line(Millis timeout = Millis{5000});
  bool closed() const;
  void close();

 private:
  struct Impl;
  explicit LineClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace amazons::net
