#include "bot/known_servers.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tls/tls.h"

namespace amazons::bot {

Expected<std::map<std::string, std::string>, std::string> load_known_servers(
    const std::filesystem::path& file) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return out;
  std::ifstream in(file);
  if (!in) return Unexpected(file.string() + ": cannot read: " + std::strerror(errno));
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string server, fingerprint, extra;
    if (!(words >> server)) continue;
    const auto fp = (words >> fingerprint) ? tls::parse_fingerprint(fingerprint) : std::nullopt;
    if (!fp || (words >> extra))
      return Unexpected(file.string() + ":" + std::to_string(number) +
                        ": expected \"host:port FINGERPRINT\"");
    out[server] = *fp;
  }
  return out;
}

std::optional<std::string> remember_server(const std::filesystem::path& file,
                                           const std::string& server,
                                           const std::string& fingerprint) {
  auto known = load_known_servers(file);
  if (!known) return known.error();
  (*known)[server] = fingerprint;
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return "cannot create " + file.parent_path().string() + ": " + ec.message();
  std::filesystem::path temporary = file;
  temporary += ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "# TLS servers amazons-bot trusts on first use: host:port SHA-256-fingerprint\n";
    for (const auto& [where, fp] : *known) out << where << ' ' << fp << '\n';
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary, ec);
      return temporary.string() + ": cannot write";
    }
  }
  std::filesystem::rename(temporary, file, ec);
  if (ec) return "cannot replace " + file.string() + ": " + ec.message();
  return std::nullopt;
}

}  // namespace amazons::bot
