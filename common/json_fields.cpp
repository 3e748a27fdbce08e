#include "common/json_fields.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace amazons::json_fields {

using nlohmann::json;
using Error = Unexpected<FieldError>;
using Kind = FieldError::Kind;

namespace {

FieldError wrong(Kind kind, const std::string& path, const json& got, double low = 0,
                 double high = 0) {
  return FieldError{kind, path, low, high, got.dump(), 0};
}

}  // namespace

std::string FieldError::describe() const {
  std::ostringstream out;
  switch (kind) {
    case Kind::Number:
      out << path << ": expected a number from " << low << " to " << high << ", got " << got;
      break;
    case Kind::Integer:
      out << path << ": expected a whole number from " << static_cast<long long>(low) << " to "
          << static_cast<long long>(high) << ", got " << got;
      break;
    case Kind::Text:
      out << path << ": expected a string, got " << got;
      break;
    case Kind::Boolean:
      out << path << ": expected true or false, got " << got;
      break;
    case Kind::Unreadable:
      out << "cannot read " << path;
      break;
    case Kind::NotJson:
      out << path << ": not valid JSON, at byte " << byte;
      break;
  }
  return out.str();
}

Expected<double, FieldError> number(const json& j, const std::string& path, double low,
                                    double high) {
  if (!j.is_number()) return Error{wrong(Kind::Number, path, j, low, high)};
  const double v = j.get<double>();
  if (!std::isfinite(v) || v < low || v > high)
    return Error{wrong(Kind::Number, path, j, low, high)};
  return v;
}

Expected<long long, FieldError> integer(const json& j, const std::string& path, long long low,
                                        long long high) {
  const auto error = [&] {
    return Error{
        wrong(Kind::Integer, path, j, static_cast<double>(low), static_cast<double>(high))};
  };
  if (!j.is_number_integer()) return error();
  const long long v = j.get<long long>();
  if (v < low || v > high) return error();
  return v;
}

Expected<std::string, FieldError> text(const json& j, const std::string& path) {
  if (!j.is_string()) return Error{wrong(Kind::Text, path, j)};
  return j.get<std::string>();
}

Expected<bool, FieldError> boolean(const json& j, const std::string& path) {
  if (!j.is_boolean()) return Error{wrong(Kind::Boolean, path, j)};
  return j.get<bool>();
}

Expected<json, FieldError> read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return Error{FieldError{Kind::Unreadable, path.string(), 0, 0, {}, 0}};
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    return Error{FieldError{Kind::NotJson, path.string(), 0, 0, {}, e.byte}};
  } catch (const json::exception&) {
    return Error{FieldError{Kind::NotJson, path.string(), 0, 0, {}, 0}};
  }
}

}  // namespace amazons::json_fields
