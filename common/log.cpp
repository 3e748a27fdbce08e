#include "common/log.h"

#include <chrono>

#include "common/game_record.h"

namespace amazons {

namespace {
// Values with spaces, quotes or '=' are quoted, so a line always splits back into its fields.
void append_value(std::string& line, std::string_view v) {
  const bool plain = !v.empty() && v.find_first_of(" \"=\\\n\t") == std::string_view::npos;
  if (plain) {
    line += v;
    return;
  }
  line += '"';
  for (const char c : v) {
    if (c == '"' || c == '\\') line += '\\';
    if (c == '\n')
      line += "\\n";
    else
      line += c;
  }
  line += '"';
}
constexpr std::string_view level_name(Log::Level l) {
  switch (l) {
    case Log::Level::Debug:
      return "debug";
    case Log::Level::Info:
      return "info";
    case Log::Level::Warn:
      return "warn";
    case Log::Level::Error:
      return "error";
  }
  return "info";
}
}  // namespace

void Log::write(Level level, std::string_view event, Fields fields) {
  if (level < min_) return;
  std::string line = "ts=";
  line += format_timestamp(
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()));
  line += " level=";
  line += level_name(level);
  line += " event=";
  append_value(line, event);
  for (const auto& [k, v] : fields) {
    line += ' ';
    line += k;
    line += '=';
    append_value(line, v);
  }
  line += '\n';
  std::lock_guard lock(mutex_);
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

}  // namespace amazons
