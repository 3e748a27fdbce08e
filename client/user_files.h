// Where the client keeps its files, and how it writes them without ever leaving half a file.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "common/expected.h"

namespace amazons::client {

// Reads an environment variable (std::getenv by default; tests pass their own).
using EnvLookup = std::function<const char*(const char*)>;
const char* process_env(const char* name);

// $XDG_CONFIG_HOME/amazons, else $HOME/.config/amazons (relative XDG paths are ignored, as the
// XDG spec says). Fails when neither variable gives an absolute path.
Expected<std::filesystem::path, std::string> config_dir(const EnvLookup& env = process_env);
// $XDG_DATA_HOME/amazons, else $HOME/.local/share/amazons.
Expected<std::filesystem::path, std::string> data_dir(const EnvLookup& env = process_env);

// Writes `text` to a temporary file beside `file` and renames it over `file`, creating the
// directories on the way; a crash leaves either the old or the new file. Returns a sentence
// naming the file and the problem on failure.
std::optional<std::string> write_file_atomically(const std::filesystem::path& file,
                                                 const std::string& text);
// The whole file, or a sentence naming the file and the problem.
Expected<std::string, std::string> read_file(const std::filesystem::path& file);

}  // namespace amazons::client
