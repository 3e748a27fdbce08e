#include "client/settings.h"

#include <cctype>
#include <cstdio>
#include <optional>

#include <nlohmann/json.hpp>

#include "client/user_files.h"
#include "tls/tls.h"

namespace amazons::client {

using nlohmann::json;

std::string to_hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::optional<Rgb> parse_hex(std::string_view t) {
  if (t.size() != 7 || t[0] != '#') return std::nullopt;
  auto nibble = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    return -1;
  };
  std::uint8_t v[3];
  for (std::size_t i = 0; i < 3; ++i) {
    const int hi = nibble(t[1 + 2 * i]), lo = nibble(t[2 + 2 * i]);
    if (hi < 0 || lo < 0) return std::nullopt;
    v[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return Rgb{v[0], v[1], v[2]};
}

const std::vector<BoardTheme>& board_themes() {
  static const std::vector<BoardTheme> themes = {
      {"Walnut", {0xe9, 0xd6, 0xb4}, {0xb0, 0x83, 0x5a}},
      {"Slate", {0xd9, 0xe0, 0xe8}, {0x7d, 0x8f, 0xa6}},
      {"Moss", {0xe4, 0xe8, 0xd0}, {0x86, 0x9e, 0x6a}},
      {"Sand", {0xf2, 0xe6, 0xcf}, {0xc9, 0xa8, 0x7c}},
  };
  return themes;
}

std::optional<std::string_view> name_problem(std::string_view name) {
  if (name.empty()) return "empty";
  if (name.size() > kMaxNameLength) return "too_long";
  bool visible = false;
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 || u == 0x7f) return "control";
    if (u != ' ') visible = true;
  }
  if (!visible) return "only_spaces";
  return std::nullopt;
}

std::optional<std::string> check_name(std::string_view name) {
  const auto problem = name_problem(name);
  if (!problem) return std::nullopt;
  if (*problem == "empty") return "a name must not be empty";
  if (*problem == "too_long")
    return "a name has at most " + std::to_string(kMaxNameLength) + " characters";
  if (*problem == "control") return "a name must not contain control characters";
  return "a name must not be only spaces";
}

json to_json(const Settings& s) {
  return {{"name", s.name},
          {"last_server", s.last_server},
          {"pinned_servers", s.pinned_servers},
          {"discovery_target", s.discovery_target},
          {"discovery_port", s.discovery_port},
          {"light_squares", to_hex(s.light_squares)},
          {"dark_squares", to_hex(s.dark_squares)},
          {"sound", s.sound},
          {"coordinates", s.coordinates},
          {"territory_view", s.territory_view},
          {"last_variant", s.last_variant},
          {"last_time_control", s.last_time_control},
          {"last_level", s.last_level},
          {"language", s.language}};
}

LoadedSettings settings_from_json(const json& j) {
  LoadedSettings out;
  if (!j.is_object()) {
    out.problems.push_back("the settings are not a JSON object; using the defaults");
    return out;
  }
  Settings& s = out.settings;
  auto bad = [&](const std::string& key, const std::string& why) {
    out.problems.push_back("setting \"" + key + "\" " + why + "; using the default");
  };
  auto text = [&](const char* key, std::string& field, bool is_name) {
    if (!j.contains(key)) return;
    if (!j[key].is_string()) return bad(key, "is not a string");
    std::string v = j[key].get<std::string>();
    if (is_name)
      if (auto why = check_name(v)) return bad(key, "is not usable: " + *why);
    field = std::move(v);
  };
  auto colour = [&](const char* key, Rgb& field) {
    if (!j.contains(key)) return;
    std::optional<Rgb> c;
    if (j[key].is_string()) c = parse_hex(j[key].get<std::string>());
    if (!c) return bad(key, "is not a colour such as \"#e8d5b0\"");
    field = *c;
  };
  auto flag = [&](const char* key, bool& field) {
    if (!j.contains(key)) return;
    if (!j[key].is_boolean()) return bad(key, "is not true or false");
    field = j[key].get<bool>();
  };
  text("name", s.name, true);
  text("last_server", s.last_server, false);
  text("discovery_target", s.discovery_target, false);
  text("language", s.language, false);
  if (j.contains("pinned_servers")) {
    const json& pins = j["pinned_servers"];
    if (!pins.is_object()) {
      bad("pinned_servers", "is not an object of \"host:port\": \"fingerprint\"");
    } else {
      for (const auto& [server, fp] : pins.items()) {
        auto parsed = fp.is_string() ? tls::parse_fingerprint(fp.get<std::string>()) : std::nullopt;
        if (!parsed)
          out.problems.push_back("setting \"pinned_servers\": the fingerprint of " + server +
                                 " is not 32 bytes in hex; that server is not pinned");
        else
          s.pinned_servers[server] = *parsed;
      }
    }
  }
  if (j.contains("discovery_port")) {
    if (!j["discovery_port"].is_number_integer() || j["discovery_port"].get<long long>() < 1 ||
        j["discovery_port"].get<long long>() > 65535)
      bad("discovery_port", "is not a port number (1-65535)");
    else
      s.discovery_port = j["discovery_port"].get<int>();
  }
  colour("light_squares", s.light_squares);
  colour("dark_squares", s.dark_squares);
  flag("sound", s.sound);
  flag("coordinates", s.coordinates);
  flag("territory_view", s.territory_view);
  text("last_variant", s.last_variant, false);
  text("last_time_control", s.last_time_control, false);
  text("last_level", s.last_level, false);
  return out;
}

LoadedSettings load_settings(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return {};
  auto text = read_file(file);
  if (!text) return {Settings{}, {text.error() + "; using the default settings"}};
  json j;
  std::optional<std::string> where;
  try {
    j = json::parse(*text);
  } catch (const json::parse_error& e) {
    where = "at byte " + std::to_string(e.byte);
  } catch (const json::exception& e) {
    where = e.what();  // out_of_range: a number too large for a double (1e999)
  }
  if (where) {
    std::filesystem::path aside = file;
    aside += ".bad";
    std::filesystem::rename(file, aside, ec);
    std::string problem =
        file.string() + " is not valid JSON (" + *where + "); using the default settings";
    problem += ec ? " (and it could not be moved aside: " + ec.message() + ")"
                  : "; the file was kept as " + aside.string();
    return {Settings{}, {problem}};
  }
  LoadedSettings loaded = settings_from_json(j);
  for (std::string& p : loaded.problems) p = file.string() + ": " + p;
  return loaded;
}

std::optional<std::string> save_settings(const std::filesystem::path& file, const Settings& s) {
  return write_file_atomically(file, to_json(s).dump(2) + "\n");
}

}  // namespace amazons::client
