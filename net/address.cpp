#include "net/address.h"

#include <charconv>
#include <optional>

namespace amazons::net {

std::string_view code_name(AddressError::Code code) {
  using C = AddressError::Code;
  switch (code) {
    case C::Empty:
      return "empty";
    case C::UnknownScheme:
      return "unknown_scheme";
    case C::HasPath:
      return "has_path";
    case C::UnclosedBracket:
      return "unclosed_bracket";
    case C::ExpectedPort:
      return "expected_port";
    case C::BracketsNeeded:
      return "brackets_needed";
    case C::ExtraColon:
      return "extra_colon";
    case C::NoHost:
      return "no_host";
    case C::BadHost:
      return "bad_host";
    case C::BadPort:
      return "bad_port";
    case C::EmptyItem:
      return "empty_item";
    case C::MixedTransports:
      return "mixed_transports";
  }
  return "unknown";
}

std::string describe(const AddressError& e) {
  using C = AddressError::Code;
  const std::string shown = "server \"" + e.text + "\": ";
  switch (e.code) {
    case C::Empty:
      return "no server address given";
    case C::UnknownScheme:
      return shown + "unknown scheme \"" + e.detail + "://\" (tcp://, tls://, ws:// or wss://)";
    case C::HasPath:
      return shown + "a server address has no path (\"" + e.detail + "\")";
    case C::UnclosedBracket:
      return shown + "an IPv6 address needs its closing ']'";
    case C::ExpectedPort:
      return shown + "expected ':PORT' after ']'";
    case C::BracketsNeeded:
      return shown + "write an IPv6 address in brackets, as [::1]:7420";
    case C::ExtraColon:
      return shown + "more than one ':' (write HOST:PORT, as example.org:7420)";
    case C::NoHost:
      return shown + "the host is missing";
    case C::BadHost:
      return shown + "the host name has a character that no host name has";
    case C::BadPort:
      return shown + "the port must be a number from 1 to 65535";
    case C::EmptyItem:
      return "servers \"" + e.text + "\": an empty address after a comma";
    case C::MixedTransports:
      return "servers \"" + e.text + "\": every address must use the same transport (" + e.detail +
             ")";
  }
  return shown + "not a server address";
}

Expected<ServerAddress, AddressError> read_server_address(std::string_view text,
                                                          unsigned short default_port) {
  using C = AddressError::Code;
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  const std::string written(text);
  auto refuse = [&](C code, std::string_view detail = {}) {
    return Unexpected(AddressError{code, written, std::string(detail)});
  };
  if (text.empty()) return refuse(C::Empty);
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
      return refuse(C::UnknownScheme, scheme);
    text.remove_prefix(scheme_end + 3);
    // ws://host:port/ws and a trailing '/' are what people paste from a browser.
    if (const auto slash = text.find('/'); slash != std::string_view::npos) {
      const auto path = text.substr(slash);
      if (path != "/" && path != "/ws") return refuse(C::HasPath, path);
      text = text.substr(0, slash);
    }
  }
  std::string_view host = text;
  std::optional<std::string_view> port_text;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return refuse(C::UnclosedBracket);
    host = text.substr(1, close - 1);
    const auto rest = text.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return refuse(C::ExpectedPort);
    if (!rest.empty()) port_text = rest.substr(1);
  } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    // Two colons: an IPv6 address (hex digits, colons, a dotted IPv4 tail) that needs its
    // brackets, or a HOST:PORT with something left over, which the bracket advice would mislead.
    if (text.find(':', colon + 1) != std::string_view::npos)
      return refuse(text.find_first_not_of("0123456789abcdefABCDEF:.") == std::string_view::npos
                        ? C::BracketsNeeded
                        : C::ExtraColon);
    host = text.substr(0, colon);
    port_text = text.substr(colon + 1);
  }
  if (host.empty()) return refuse(C::NoHost);
  for (const char c : host)
    if (static_cast<unsigned char>(c) <= ' ' || c == '/' || c == '@' || c == '[' || c == ']' ||
        static_cast<unsigned char>(c) == 0x7f)
      return refuse(C::BadHost);
  if (port_text) {
    unsigned port = 0;
    const char* end = port_text->data() + port_text->size();
    const auto [stop, ec] = std::from_chars(port_text->data(), end, port);
    if (port_text->empty() || ec != std::errc() || stop != end || port == 0 || port > 65535)
      return refuse(C::BadPort);
    out.port = static_cast<unsigned short>(port);
  }
  out.host = std::string(host);
  return out;
}

Expected<std::vector<ServerAddress>, AddressError> read_server_addresses(
    std::string_view text, unsigned short default_port) {
  using C = AddressError::Code;
  std::vector<ServerAddress> out;
  std::string_view rest = text;
  for (;;) {
    const auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    const bool own_scheme = item.find("://") != std::string_view::npos;
    if (!out.empty() && item.empty())
      return Unexpected(AddressError{C::EmptyItem, std::string(text), {}});
    auto a = read_server_address(item, default_port);
    if (!a) return Unexpected(a.error());
    if (!out.empty() && !own_scheme) a->transport = out.front().transport;
    if (!out.empty() && a->transport != out.front().transport)
      return Unexpected(AddressError{C::MixedTransports, std::string(text),
                                     std::string(to_string(out.front().transport))});
    out.push_back(std::move(*a));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

Expected<ServerAddress, std::string> parse_server_address(std::string_view text,
                                                          unsigned short default_port) {
  auto a = read_server_address(text, default_port);
  if (!a) return Unexpected(describe(a.error()));
  return std::move(*a);
}

Expected<std::vector<ServerAddress>, std::string> parse_server_addresses(
    std::string_view text, unsigned short default_port) {
  auto a = read_server_addresses(text, default_port);
  if (!a) return Unexpected(describe(a.error()));
  return std::move(*a);
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
