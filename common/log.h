// Structured log lines in logfmt: `ts=... level=info event=listening port=7420`. Thread-safe.
// Shared by the server and the bots, so their logs read and parse alike.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace amazons {

class Log {
 public:
  enum class Level { Debug, Info, Warn, Error };
  explicit Log(std::FILE* out = stderr, Level min = Level::Info) : out_(out), min_(min) {}

  using Fields = std::initializer_list<std::pair<std::string_view, std::string>>;
  void write(Level level, std::string_view event, Fields fields = {});
  void info(std::string_view event, Fields fields = {}) { write(Level::Info, event, fields); }
  void warn(std::string_view event, Fields fields = {}) { write(Level::Warn, event, fields); }
  void error(std::string_view event, Fields fields = {}) { write(Level::Error, event, fields); }
  void debug(std::string_view event, Fields fields = {}) { write(Level::Debug, event, fields); }

 private:
  std::FILE* out_;
  Level min_;
  std::mutex mutex_;
};

}  // namespace amazons
