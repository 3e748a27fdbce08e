// Line framing for the JSON-lines transport: a byte stream in, whole lines out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/protocol_types.h"

namespace amazons::protocol {

// Splits a byte stream into lines. A line ends at '\n' (a '\r' before it is dropped). A line
// longer than the limit is an error: the caller refuses it and closes the connection, since it
// cannot know where the next message starts.
class LineFramer {
 public:
  enum class Status : std::uint8_t { Line, NeedMore, TooLong };

  explicit LineFramer(std::size_t max_line = kMaxLineBytes) : max_line_(max_line) {}

  void append(std::string_view bytes) { buffer_.append(bytes.data(), bytes.size()); }
  // Takes the next complete line into `line`. After TooLong the framer stays in that state.
  Status next(std::string& line);
  std::size_t buffered() const { return buffer_.size() - start_; }

 private:
  std::size_t max_line_;
  std::string buffer_;
  std::size_t start_ = 0;    // first unconsumed byte
  std::size_t scanned_ = 0;  // bytes from start_ known to hold no '\n'
  bool failed_ = false;
};

}  // namespace amazons::protocol
