#include "server/http/web_files.h"

#include <utility>  // before Asio, see server/net/server.h

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/rfc7230.hpp>

#include <sodium.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "server/http/transport.h"

namespace amazons::server {

namespace {

// Hex digits of the content's SHA-256 in a tag and in a hashed file's name (web/dist_names.cmake
// writes names with as many).
constexpr std::size_t kDigestHexDigits = 16;

std::string digest_of(const std::string& content) {
  std::array<unsigned char, crypto_hash_sha256_BYTES> hash{};
  crypto_hash_sha256(hash.data(), reinterpret_cast<const unsigned char*>(content.data()),
                     content.size());
  std::array<char, kDigestHexDigits + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), hash.data(), kDigestHexDigits / 2);
  return std::string(hex.data(), kDigestHexDigits);
}

// Whether a q-value ("0", "0.5", "1.000") is zero: "not acceptable".
bool is_zero_q(std::string_view q) {
  if (q.empty() || q.front() != '0') return false;
  return q.find_first_not_of("0.", 1) == std::string_view::npos;
}

std::string_view view(boost::beast::string_view s) { return {s.data(), s.size()}; }

// The compressed copies the build writes, the preferred first (brotli's are the smaller).
struct Coding {
  std::string_view name;    // in Accept-Encoding and Content-Encoding
  std::string_view suffix;  // of the copy's file name, and of its tag
};
constexpr std::array<Coding, 2> kCodings{{{"br", "br"}, {"gzip", "gz"}}};

// ASCII case-insensitive equality. Not Beast 1.74's iequals: once two strings differ in case it
// reads one byte past their ends (the transport fuzzer found it, a heap-buffer-overflow).
bool same_ignoring_case(std::string_view a, std::string_view b) {
  const auto lower = [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return lower(x) == lower(y); });
}

}  // namespace

bool accepts_encoding(std::string_view accept_encoding, std::string_view coding) {
  namespace http = boost::beast::http;
  // Beast 1.74's ext_list hands an element without parameters the previous element's ("gzip;q=0,
  // br" would refuse br), so the elements are split here and only their parameters go to Beast.
  // A comma can only be inside a quoted parameter value, which no coding's q-value needs.
  const auto trim = [](std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return std::string_view();
    return s.substr(first, s.find_last_not_of(" \t") + 1 - first);
  };
  std::optional<bool> named, any;
  std::size_t start = 0;
  while (start <= accept_encoding.size()) {
    const auto end = std::min(accept_encoding.find(',', start), accept_encoding.size());
    const auto element = accept_encoding.substr(start, end - start);
    start = end + 1;
    const auto semicolon = element.find(';');
    const auto name = trim(element.substr(0, semicolon));
    if (name.empty()) continue;
    bool acceptable = true;
    if (semicolon != std::string_view::npos) {
      const auto params = element.substr(semicolon);
      for (const auto& param : http::param_list{{params.data(), params.size()}})
        if (same_ignoring_case(view(param.first), "q")) acceptable = !is_zero_q(view(param.second));
    }
    if (same_ignoring_case(name, coding))
      named = acceptable;
    else if (name == "*")
      any = acceptable;
  }
  return named.value_or(any.value_or(false));
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  std::size_t i = 0;
  const auto skip = [&] {
    while (i < if_none_match.size() &&
           (if_none_match[i] == ' ' || if_none_match[i] == '\t' || if_none_match[i] == ','))
      ++i;
  };
  skip();
  if (if_none_match.substr(i) == "*") return true;
  while (i < if_none_match.size()) {
    if (if_none_match.substr(i, 2) == "W/") i += 2;
    if (i >= if_none_match.size() || if_none_match[i] != '"') return false;
    const auto close = if_none_match.find('"', i + 1);
    if (close == std::string_view::npos) return false;
    if (if_none_match.substr(i, close + 1 - i) == etag) return true;
    i = close + 1;
    skip();
  }
  return false;
}

WebFiles::WebFiles(std::filesystem::path root) : root_(std::move(root)) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::shared_ptr<const WebFiles::Loaded> WebFiles::load(const std::filesystem::path& file) {
  std::error_code ec;
  const auto time = std::filesystem::last_write_time(file, ec);
  if (ec) return nullptr;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) return nullptr;
  {
    std::lock_guard lock(mutex_);
    const auto it = loaded_.find(file);
    if (it != loaded_.end() && it->second->time == time && it->second->size == size)
      return it->second;
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) return nullptr;
  auto loaded = std::make_shared<Loaded>();
  loaded->time = time;
  loaded->content = std::make_shared<const std::string>(std::move(bytes).str());
  loaded->size = loaded->content->size();
  loaded->digest = digest_of(*loaded->content);
  // Kept only if the file did not change while it was read; what was read is served either
  // way, with the tag of those bytes.
  const auto time_after = std::filesystem::last_write_time(file, ec);
  if (!ec && time_after == time && loaded->size == size) {
    std::lock_guard lock(mutex_);
    loaded_[file] = loaded;
    // A rebuild that wrote this file removed its predecessors (app.OLDHASH.js): forget them, or
    // a server that outlives many builds would keep every one in memory.
    std::erase_if(loaded_, [](const auto& entry) {
      std::error_code gone;
      return !std::filesystem::is_regular_file(entry.first, gone);
    });
  }
  return loaded;
}

WebFileReply WebFiles::get(std::string_view target, std::string_view accept_encoding,
                           std::string_view if_none_match) {
  WebFileReply reply;
  const auto file = web_file(root_, target);
  if (!file) return reply;
  const auto loaded = load(*file);
  if (!loaded) {
    reply.status = 500;
    return reply;
  }
  reply.content_type = content_type(*file);
  const auto name = file->filename().string();
  reply.cache_control = name.find('.' + loaded->digest + '.') != std::string::npos
                            ? std::string(kImmutableCacheControl)
                            : std::string("no-cache");

  std::shared_ptr<const std::string> body = loaded->content;
  std::string tag = loaded->digest;
  for (const auto& coding : kCodings) {
    auto copy_path = *file;
    copy_path += '.';
    copy_path += coding.suffix;
    std::error_code ec;
    const auto copy_time = std::filesystem::last_write_time(copy_path, ec);
    if (ec || copy_time < loaded->time) continue;  // none, or older than a rebuilt file
    reply.vary_encoding = true;
    if (!reply.content_encoding.empty() || !accepts_encoding(accept_encoding, coding.name))
      continue;
    const auto copy = load(copy_path);
    if (!copy) continue;
    reply.content_encoding = coding.name;
    body = copy->content;
    tag = loaded->digest + '-' + std::string(coding.suffix);
  }
  reply.etag = '"' + tag + '"';
  if (!if_none_match.empty() && etag_matches(if_none_match, reply.etag)) {
    reply.status = 304;
    return reply;
  }
  reply.status = 200;
  reply.body = std::move(body);
  return reply;
}

}  // namespace amazons::server
