#include "common/number_text.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <system_error>

namespace amazons {

std::optional<double> double_from_text(std::string_view text) {
#if defined(__cpp_lib_to_chars)
  const char* const last = text.data() + text.size();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), last, value);
  if (ec != std::errc() || end != last) return std::nullopt;
  return value;
#else
  return double_from_text_strtod(text);
#endif
}

std::optional<double> double_from_text_strtod(std::string_view text) {
  // strtod takes what from_chars does not: leading space, a '+' and hexadecimal.
  if (text.empty() || text.front() == '+' || std::isspace(static_cast<unsigned char>(text.front())))
    return std::nullopt;
  if (text.find_first_of("xX") != std::string_view::npos) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno == ERANGE) return std::nullopt;
  return value;
}

}  // namespace amazons
