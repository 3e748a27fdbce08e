// Reading settings out of JSON with errors that name the field and what was wrong with it, e.g.
// `max_games: expected a whole number from 1 to 64, got "two"`. For config files. The error is a
// value (FieldError) that a program says in its person's language; describe() is its English.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "common/expected.h"

namespace amazons::json_fields {

// What is wrong with one field, or with the file.
struct FieldError {
  enum class Kind : std::uint8_t {
    Number,      // not a number from low to high
    Integer,     // not a whole number from low to high
    Text,        // not a string
    Boolean,     // not true or false
    Unreadable,  // the file cannot be read (path is the file)
    NotJson,     // the file is not JSON (path is the file, byte where the parser stopped)
  };
  Kind kind = Kind::Text;
  std::string path;  // the field's path ("accept.min_seconds"), or the file
  double low = 0, high = 0;
  std::string got;               // the value as JSON text
  std::size_t byte = 0;          // NotJson
  std::string describe() const;  // in English, as in the example above
};

Expected<double, FieldError> number(const nlohmann::json& j, const std::string& path, double low,
                                    double high);
Expected<long long, FieldError> integer(const nlohmann::json& j, const std::string& path,
                                        long long low, long long high);
Expected<std::string, FieldError> text(const nlohmann::json& j, const std::string& path);
Expected<bool, FieldError> boolean(const nlohmann::json& j, const std::string& path);

// Reads and parses a whole file; the error names the file.
Expected<nlohmann::json, FieldError> read_file(const std::filesystem::path& path);

}  // namespace amazons::json_fields
