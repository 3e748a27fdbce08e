#include "ai/tools/child_process.h"

#include <algorithm>

namespace amazons::ai {

bool ChildProcess::send_line(std::string_view line) {
  std::string data(line);
  data += '\n';
  return write_all(data);
}

ChildProcess::Read ChildProcess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const std::size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Read::Line;
    }
    if (buffer_.size() > kMaxLine) {
      buffer_.clear();
      return Read::TooLong;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Read::Timeout;
    if (read_some(buffer_, std::min(left, std::chrono::milliseconds(1000))) == Chunk::Closed)
      return Read::Closed;
  }
}

}  // namespace amazons::ai
