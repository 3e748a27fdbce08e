#include "cluster/redis.h"

#include <openssl/evp.h>

#include <charconv>
#include <memory>

namespace amazons::cluster {

namespace {

std::string sha1_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha1(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

}  // namespace

std::string RedisAddress::text() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

Expected<RedisAddress, std::string> parse_redis_url(std::string_view url) {
  constexpr std::string_view kScheme = "redis://";
  if (url.substr(0, kScheme.size()) != kScheme)
    return Unexpected(std::string("a Redis address starts with redis:// (redis://host:port)"));
  std::string_view rest = url.substr(kScheme.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find('@') != std::string_view::npos)
    return Unexpected(std::string("passwords in the Redis address are not supported"));
  if (rest.find('/') != std::string_view::npos)
    return Unexpected(std::string("database numbers in the Redis address are not supported"));
  RedisAddress a;
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos)
      return Unexpected(std::string("an IPv6 host needs its closing ]"));
    a.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Unexpected(std::string("expected :port after the host"));
      port = rest.substr(1);
    }
  } else {
    const auto colon = rest.rfind(':');
    a.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
  }
  if (a.host.empty()) return Unexpected(std::string("no host in the Redis address"));
  const bool bracketed = url.substr(kScheme.size(), 1) == "[";
  if (!bracketed && a.host.find(':') != std::string::npos)
    return Unexpected(std::string("write an IPv6 host in brackets: redis://[::1]:6379"));
  // Brackets hold an IPv6 address (text() writes them back only around one), and a zone id
  // ("%eth0") comes after the address.
  if (bracketed && (a.host.find(':') == std::string::npos || a.host.front() == '%'))
    return Unexpected("host: \"[" + a.host + "]\": brackets are for IPv6 addresses only");
  for (const char c : a.host) {
    const bool name_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    const bool v6_char = bracketed && (c == ':' || c == '%');
    if (!name_char && !v6_char)
      return Unexpected("host: \"" + a.host + "\" is not a host name or an IP address");
  }
  if (!port.empty() || rest.find(':') != std::string_view::npos) {
    int p = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc() || end != port.data() + port.size() || p < 1 || p > 65535)
      return Unexpected("port: \"" + std::string(port) + "\" is not a port number (1-65535)");
    a.port = p;
  }
  return a;
}

RedisScript::RedisScript(std::string source)
    : source_(std::move(source)), sha_(sha1_hex(source_)) {}

const RedisScript& delete_if_equal() {
  static const RedisScript script(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
)lua");
  return script;
}

namespace {
bool is_noscript(const RedisError& e) {
  return e.kind == RedisErrorKind::Server && e.message.find("NOSCRIPT") != std::string::npos;
}
}  // namespace

std::vector<std::string> RedisScript::command(std::span<const std::string> keys,
                                              std::span<const std::string> args) const {
  std::vector<std::string> cmd;
  cmd.reserve(3 + keys.size() + args.size());
  cmd.push_back("EVALSHA");
  cmd.push_back(sha_);
  cmd.push_back(std::to_string(keys.size()));
  cmd.insert(cmd.end(), keys.begin(), keys.end());
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

Expected<void, RedisError> RedisScript::load(Redis& redis) const {
  auto loaded = redis.command({"SCRIPT", "LOAD", source_});
  if (!loaded) return Unexpected(loaded.error());
  if (loaded->str != sha_)
    return Unexpected(RedisError{
        RedisErrorKind::Protocol,
        "redis " + redis.address().text() + ": SCRIPT LOAD returned another SHA-1 than ours"});
  return {};
}

Expected<RedisReply, RedisError> RedisScript::run(Redis& redis, std::span<const std::string> keys,
                                                  std::span<const std::string> args) const {
  const auto cmd = command(keys, args);
  auto r = redis.command(cmd);
  if (r || !is_noscript(r.error())) return r;
  // Redis forgot the script (it restarted): load it and run it again, once.
  if (auto loaded = load(redis); !loaded) return Unexpected(loaded.error());
  return redis.command(cmd);
}

Expected<std::vector<RedisReply>, RedisError> RedisScript::run_many(
    Redis& redis, std::span<const Call> calls) const {
  std::vector<std::vector<std::string>> commands;
  commands.reserve(calls.size());
  for (const Call& c : calls) commands.push_back(command(c.keys, c.args));
  auto replies = redis.pipeline(commands);
  if (replies || !is_noscript(replies.error())) return replies;
  if (auto loaded = load(redis); !loaded) return Unexpected(loaded.error());
  return redis.pipeline(commands);
}

std::string describe(const RedisReply& reply) {
  switch (reply.type) {
    case RedisReply::Type::Nil:
      return "nil";
    case RedisReply::Type::Integer:
      return "(integer) " + std::to_string(reply.integer);
    case RedisReply::Type::String:
    case RedisReply::Type::Status:
      return "\"" + reply.str + "\"";
    case RedisReply::Type::Array: {
      std::string out = "[";
      for (std::size_t i = 0; i < reply.elements.size(); ++i)
        out += (i ? ", " : "") + describe(reply.elements[i]);
      return out + "]";
    }
  }
  return "?";
}

}  // namespace amazons::cluster
