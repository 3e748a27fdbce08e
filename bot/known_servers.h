// The certificates amazons-bot met on TLS servers that no CA vouches for, trusted on first use
// (as ssh's known_hosts): a text file of "host:port FINGERPRINT" lines ('#' starts a comment).
// The first fingerprint seen for a server is written here; a later, different one is refused.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "common/expected.h"

namespace amazons::bot {

// host:port -> "AB:CD:...". A missing file is an empty map; a bad line is an error naming the
// file and the line.
Expected<std::map<std::string, std::string>, std::string> load_known_servers(
    const std::filesystem::path& file);

// Adds (or replaces) the fingerprint of `server`, writing a new file beside the old one and
// renaming it over (creating the directories). Returns a sentence on failure.
std::optional<std::string> remember_server(const std::filesystem::path& file,
                                           const std::string& server,
                                           const std::string& fingerprint);

}  // namespace amazons::bot
