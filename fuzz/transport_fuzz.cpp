// The first-bytes dispatch of the server's one port and the checks of HTTP requests on it:
// untrusted bytes from anyone who connects. Properties: the verdict on a connection's first
// bytes never changes as more bytes arrive, and is reached within kMaxSniffBytes; an Origin and
// a Host never crash the check; no request target names a file outside the web root; an
// Accept-Encoding or If-None-Match value accepts only what it names (or "*").
#include <cctype>
#include <filesystem>
#include <fstream>

#include "fuzz/fuzz_check.h"
#include "server/http/transport.h"
#include "server/http/web_files.h"

using namespace amazons;
using amazons::server::FirstBytes;

namespace {

const std::filesystem::path& web_root() {
  static const std::filesystem::path root = [] {
    auto dir = std::filesystem::temp_directory_path() / "amazons-fuzz-web";
    std::filesystem::create_directories(dir / "assets");
    std::ofstream(dir / "index.html") << "x";
    std::ofstream(dir / "assets" / "app.js") << "x";
    return std::filesystem::canonical(dir);
  }();
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);

  for (bool inside_tls : {false, true}) {
    FirstBytes verdict = FirstBytes::NeedMore;
    for (std::size_t n = 0; n <= std::min(size, server::kMaxSniffBytes); ++n) {
      const auto now = server::classify_first_bytes(text.substr(0, n), inside_tls);
      if (verdict != FirstBytes::NeedMore) FUZZ_CHECK(now == verdict);
      verdict = now;
      if (inside_tls) FUZZ_CHECK(now != FirstBytes::Tls);
    }
    if (size >= server::kMaxSniffBytes) FUZZ_CHECK(verdict != FirstBytes::NeedMore || size == 0);
  }

  const auto split = text.find('\n');
  const std::string_view origin = text.substr(0, split);
  const std::string_view host = split == std::string_view::npos ? "" : text.substr(split + 1);
  // Any Origin against any Host answers; one that is no http(s) origin is never let in, and an
  // exactly listed origin always is.
  const auto lower_starts = [&](std::string_view prefix) {
    if (origin.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(origin[i])) != prefix[i]) return false;
    return true;
  };
  if (server::origin_allowed(origin, host, {"https://listed.example"}))
    FUZZ_CHECK(lower_starts("http://") || lower_starts("https://"));
  FUZZ_CHECK(server::origin_allowed("https://listed.example", host, {"https://listed.example"}));
  FUZZ_CHECK(!server::origin_allowed("null", host, {}));

  if (const auto file = server::web_file(web_root(), text)) {
    const auto real = std::filesystem::weakly_canonical(*file);
    const auto rel = real.lexically_relative(web_root());
    FUZZ_CHECK(!rel.empty() && *rel.begin() != "..");
    FUZZ_CHECK(std::filesystem::is_regular_file(real));
  }

  const auto lower_text = [&] {
    std::string out(text);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }();
  if (server::accepts_encoding(text, "gzip"))
    FUZZ_CHECK(lower_text.find("gzip") != std::string::npos || text.find('*') != text.npos);
  if (server::etag_matches(text, "\"0123456789abcdef\""))
    FUZZ_CHECK(text.find("\"0123456789abcdef\"") != text.npos || text.find('*') != text.npos);
  return 0;
}
