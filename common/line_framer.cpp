#include "common/line_framer.h"

namespace amazons::protocol {

LineFramer::Status LineFramer::next(std::string& line) {
  if (failed_) return Status::TooLong;
  const std::size_t from = start_ + scanned_;
  const std::size_t newline = buffer_.find('\n', from);
  if (newline == std::string::npos) {
    scanned_ = buffer_.size() - start_;
    if (scanned_ > max_line_ + 1) {  // + 1: room for a '\r' before the '\n' still to come
      failed_ = true;
      return Status::TooLong;
    }
    // Keep the buffer from growing with consumed bytes.
    if (start_ > 0 && start_ >= buffer_.size() / 2) {
      buffer_.erase(0, start_);
      start_ = 0;
    }
    return Status::NeedMore;
  }
  std::size_t end = newline;
  if (end > start_ && buffer_[end - 1] == '\r') --end;
  if (end - start_ > max_line_) {
    failed_ = true;
    return Status::TooLong;
  }
  line.assign(buffer_, start_, end - start_);
  start_ = newline + 1;
  scanned_ = 0;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  }
  return Status::Line;
}

}  // namespace amazons::protocol
