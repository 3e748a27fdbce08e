#include "common/json_fields.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace amazons::json_fields {

using nlohmann::json;
using Error = Unexpected<std::string>;

Expected<double, std::string> number(const json& j, const std::string& path, double low,
                                     double high) {
  std::ostringstream range;
  range << "a number from " << low << " to " << high;
  if (!j.is_number()) return Error{path + ": expected " + range.str() + ", got " + j.dump()};
  const double v = j.get<double>();
  if (!std::isfinite(v) || v < low || v > high)
    return Error{path + ": expected " + range.str() + ", got " + j.dump()};
  return v;
}

Expected<long long, std::string> integer(const json& j, const std::string& path, long long low,
                                         long long high) {
  const std::string range =
      "a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  if (!j.is_number_integer()) return Error{path + ": expected " + range + ", got " + j.dump()};
  const long long v = j.get<long long>();
  if (v < low || v > high) return Error{path + ": expected " + range + ", got " + j.dump()};
  return v;
}

Expected<std::string, std::string> text(const json& j, const std::string& path) {
  if (!j.is_string()) return Error{path + ": expected a string, got " + j.dump()};
  return j.get<std::string>();
}

Expected<bool, std::string> boolean(const json& j, const std::string& path) {
  if (!j.is_boolean()) return Error{path + ": expected true or false, got " + j.dump()};
  return j.get<bool>();
}

Expected<json, std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return Error{"cannot read " + path.string()};
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    return Error{path.string() + ": not valid JSON: " + e.what()};
  }
}

}  // namespace amazons::json_fields
