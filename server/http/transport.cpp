#include "server/http/transport.h"

#include <utility>  // before Asio, see server/net/server.h

#include <boost/beast/core/detect_ssl.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>

namespace amazons::server {

FirstBytes classify_first_bytes(std::string_view bytes, bool inside_tls) {
  if (bytes.empty()) return FirstBytes::NeedMore;
  if (!inside_tls) {
    // Beast's check of the TLS record header (a handshake record holding a ClientHello), the one
    // its detect_ssl uses; Boost 1.74 keeps the function itself in beast::detail.
    const auto hello = boost::beast::detail::is_tls_client_hello(boost::asio::buffer(bytes));
    if (hello) return FirstBytes::Tls;
    if (boost::indeterminate(hello)) return FirstBytes::NeedMore;
  }
  // An HTTP/1.x request line starts with a method token; every method in use is upper case.
  const auto c = static_cast<unsigned char>(bytes.front());
  if (c >= 'A' && c <= 'Z') return FirstBytes::Http;
  return FirstBytes::Lines;
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "host:port" with the port made explicit from the scheme's default.
std::string with_port(std::string authority, std::string_view default_port) {
  // An IPv6 literal is bracketed: the port follows the ']'.
  const auto bracket = authority.rfind(']');
  const auto colon = authority.rfind(':');
  const bool has_port =
      colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
  if (!has_port) authority += ":" + std::string(default_port);
  return authority;
}

}  // namespace

bool origin_allowed(std::optional<std::string_view> origin, std::string_view host,
                    const std::vector<std::string>& allowed,
                    const std::vector<std::string>& peers) {
  if (!origin) return true;
  const std::string o = lower(*origin);
  for (const auto& a : allowed)
    if (lower(a) == o) return true;
  std::string_view default_port;
  std::string authority;
  if (o.starts_with("http://")) {
    default_port = "80";
    authority = o.substr(7);
  } else if (o.starts_with("https://")) {
    default_port = "443";
    authority = o.substr(8);
  } else {
    return false;  // "null" (a file or sandboxed page) and other schemes
  }
  if (authority.empty() || authority.find('/') != std::string::npos) return false;
  // Host carries no scheme; a browser that sends no port means the scheme's default.
  const std::string from = with_port(authority, default_port);
  if (!host.empty() && from == with_port(lower(host), default_port)) return true;
  for (const auto& peer : peers)
    if (!peer.empty() && from == with_port(lower(peer), default_port)) return true;
  return false;
}

std::string content_security_policy(const std::vector<std::string>& peers) {
  std::string connect = "'self'";
  for (const auto& peer : peers) {
    const bool plain = !peer.empty() && std::all_of(peer.begin(), peer.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
    });
    if (!plain) continue;
    for (const char* scheme : {"ws://", "wss://"}) connect += ' ' + std::string(scheme) + peer;
  }
  return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src " + connect +
         "; img-src 'self' data:; frame-ancestors 'none'";
}

std::optional<std::filesystem::path> web_file(const std::filesystem::path& root,
                                              std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, std::min(target.find('?'), target.find('#')));
  std::string relative(target.substr(1));
  if (relative.empty()) relative = "index.html";
  // The web client's files have plain names: refuse anything a path trick could hide in.
  for (unsigned char c : relative)
    if (!(std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_')) return std::nullopt;
  if (relative.find("..") != std::string::npos || relative.find("//") != std::string::npos ||
      relative.front() == '/')
    return std::nullopt;
  const auto file = root / relative;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  return file;
}

std::string_view content_type(const std::filesystem::path& file) {
  const auto ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".wasm") return "application/wasm";  // WebAssembly.instantiateStreaming needs it
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".map") return "application/json";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace amazons::server
