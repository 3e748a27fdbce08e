// The client's settings, kept as JSON in the user's config directory (settings.json).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace amazons::client {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};
std::string to_hex(Rgb c);                            // "#e8d5b0"
std::optional<Rgb> parse_hex(std::string_view text);  // "#e8d5b0" or "#E8D5B0"

// Named pairs of square colours the settings screen offers; the file may hold any colours.
struct BoardTheme {
  std::string_view name;
  Rgb light;
  Rgb dark;
};
const std::vector<BoardTheme>& board_themes();

inline constexpr std::size_t kMaxNameLength = 24;

struct Settings {
  std::string name = "Player";
  std::string last_server;  // "host:port" (or "tls://host:port") of the last server joined
  // TLS certificates the person confirmed for servers no CA vouches for: "host:port" ->
  // SHA-256 fingerprint "AB:CD:...". A server showing another one is refused.
  std::map<std::string, std::string> pinned_servers;
  // Where "find servers on the LAN" sends its query: a broadcast address on a LAN (loopback in
  // tests), and the servers' discovery port.
  std::string discovery_target = "255.255.255.255";
  int discovery_port = 7421;
  Rgb light_squares = board_themes().front().light;
  Rgb dark_squares = board_themes().front().dark;
  bool sound = true;
  bool coordinates = true;
  bool territory_view = false;
  std::string last_variant = "standard";  // what the new-game screen offers first
  std::string last_time_control = "none";
  std::string last_level;  // the engine level last played; empty: the config's default
  // The language spoken (a catalogue's tag, "zh-CN"); empty: the system's (catalogue.h).
  std::string language;
  friend bool operator==(const Settings&, const Settings&) = default;
};

// A player name is 1..kMaxNameLength printable characters, not only spaces; returns why not.
std::optional<std::string> check_name(std::string_view name);
// The same as a code for a client to say in its words: "empty", "too_long", "control",
// "only_spaces" (online.name_problem.CODE).
std::optional<std::string_view> name_problem(std::string_view name);

nlohmann::json to_json(const Settings& s);

struct LoadedSettings {
  Settings settings;
  // Sentences for the user about what could not be used; empty when all was well.
  std::vector<std::string> problems;
};
// Every field that is missing or bad keeps its default; each bad one is named in problems.
// Unknown keys are ignored (a newer client may have written them).
LoadedSettings settings_from_json(const nlohmann::json& j);
// A missing file gives the defaults without a problem. A file that is not valid JSON gives the
// defaults and is moved aside to settings.json.bad so that saving later destroys nothing.
LoadedSettings load_settings(const std::filesystem::path& file);
// Returns a sentence on failure.
std::optional<std::string> save_settings(const std::filesystem::path& file, const Settings& s);

}  // namespace amazons::client
