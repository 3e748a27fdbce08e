// Reading settings out of JSON with errors that name the field and what was wrong with it, e.g.
// `max_games: expected a whole number from 1 to 64, got "two"`. For config files.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "common/expected.h"

namespace amazons::json_fields {

Expected<double, std::string> number(const nlohmann::json& j, const std::string& path, double low,
                                     double high);
Expected<long long, std::string> integer(const nlohmann::json& j, const std::string& path,
                                         long long low, long long high);
Expected<std::string, std::string> text(const nlohmann::json& j, const std::string& path);
Expected<bool, std::string> boolean(const nlohmann::json& j, const std::string& path);

// Reads and parses a whole file; the error names the file.
Expected<nlohmann::json, std::string> read_file(const std::filesystem::path& path);

}  // namespace amazons::json_fields
