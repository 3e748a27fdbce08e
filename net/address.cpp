#include "net/address.h"

#include <charconv>
#include <optional>

namespace amazons::net {

Expected<ServerAddress, std::string> parse_server_address(std::string_view text,
                                                          unsigned short default_port) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return Unexpected(std::string("no server address given"));
  const std::string shown = "server \"" + std::string(text) + "\": ";
  ServerAddress out;
  out.port = default_port;
  if (const auto scheme_end = text.find("://"); scheme_end != std::string_view::npos) {
    const std::string_view scheme = text.substr(0, scheme_end);
    if (scheme == "tcp")
      out.transport = Transport::Tcp;
    else if (scheme == "tls")
      out.transport = Transport::Tls;
    else if (scheme == "ws")
      out.transport = Transport::WebSocket;
    else if (scheme == "wss")
      out.transport = Transport::SecureWebSocket;
    else
      return Unexpected(shown + "unknown scheme \"" + std::string(scheme) +
                        "://\" (tcp://, tls://, ws:// or wss://)");
    text.remove_prefix(scheme_end + 3);
    // ws://host:port/ws and a trailing '/' are what people paste from a browser.
    if (const auto slash = text.find('/'); slash != std::string_view::npos) {
      const auto path = text.substr(slash);
      if (path != "/" && path != "/ws")
        return Unexpected(shown + "a server address has no path (\"" + std::string(path) + "\")");
      text = text.substr(0, slash);
    }
  }
  std::string_view host = text;
  std::optional<std::string_view> port_text;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos)
      return Unexpected(shown + "an IPv6 address needs its closing ']'");
    host = text.substr(1, close - 1);
    const auto rest = text.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      return Unexpected(shown + "expected ':PORT' after ']'");
    if (!rest.empty()) port_text = rest.substr(1);
  } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    if (text.find(':', colon + 1) != std::string_view::npos)
      return Unexpected(shown + "write an IPv6 address in brackets, as [::1]:7420");
    host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
  }
  if (host.empty()) return Unexpected(shown + "the host is missing");
  for (const char c : host)
    if (static_cast<unsigned char>(c) <= ' ' || c == '/' || c == '@' || c == '[' || c == ']' ||
        static_cast<unsigned char>(c) == 0x7f)
      return Unexpected(shown + "the host name has a character that no host name has");
  if (port_text) {
    unsigned port = 0;
    const char* end = port_text->data() + port_text->size();
    const auto [stop, ec] = std::from_chars(port_text->data(), end, port);
    if (port_text->empty() || ec != std::errc() || stop != end || port == 0 || port > 65535)
      return Unexpected(shown + "the port must be a number from 1 to 65535");
    out.port = static_cast<unsigned short>(port);
  }
  out.host = std::string(host);
  return out;
}

Expected<std::vector<ServerAddress>, std::string> parse_server_addresses(
    std::string_view text, unsigned short default_port) {
  std::vector<ServerAddress> out;
  std::string_view rest = text;
  for (;;) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const bool own_scheme = item.find("://") != std::string_view::npos;
    if (!out.empty() && item.empty())
      return Unexpected("servers \"" + std::string(text) + "\": an empty address after a comma");
    auto a = parse_server_address(item, default_port);
    if (!a) return Unexpected(a.error());
    if (!out.empty() && !own_scheme) a->transport = out.front().transport;
    if (!out.empty() && a->transport != out.front().transport)
      return Unexpected("servers \"" + std::string(text) +
                        "\": every address must use the same transport (" +
                        std::string(to_string(out.front().transport)) + ")");
    out.push_back(std::move(*a));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::string host_port(const ServerAddress& a) {
  const bool v6 = a.host.find(':') != std::string::npos;
  return (v6 ? "[" + a.host + "]" : a.host) + ":" + std::to_string(a.port);
}

std::string to_string(const ServerAddress& a) {
  if (a.transport == Transport::Tcp) return host_port(a);
  return std::string(to_string(a.transport)) + "://" + host_port(a);
}

}  // namespace amazons::net
