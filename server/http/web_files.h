// The web client's files as the server answers for them: which representation a request gets
// (the file, or its copy compressed at build time, web/precompress.cmake), its entity tag, how
// long a browser may keep it, and 304 Not Modified for a browser that has it already. No sockets:
// server/net/http.cpp sends what this decides, and tests drive it directly.
//
// - ETag: a strong tag from the SHA-256 of the file's content ("<16 hex digits>"), with "-gz" or
//   "-br" appended for the compressed copies, which are other representations of the same file.
// - Cache-Control: a file whose name carries those same 16 hex digits (app.<digest>.js, named so
//   by web/dist_names.cmake) can never change under its name: browsers keep it a year without
//   asking. Anything else (index.html, the engine's files) is "no-cache": asked for every time,
//   and answered 304 when the tag still matches.
// - Content-Encoding: FILE.br or FILE.gz beside FILE, when the request accepts it (br first) and
//   the copy is not older than the file (a rebuild that has not compressed yet sends the file).
//   The Content-Type stays the file's own (application/wasm for FILE.wasm.gz).
//
// The contents and their digests are kept in memory after the first request and read again when
// a file's size or modification time changes, so a rebuild of the files under a running server
// is served at once and a tag always belongs to the bytes sent with it. Files that are gone are
// forgotten whenever a file is read.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace amazons::server {

struct WebFileReply {
  // 200, 304 (nothing to send but the headers below), 404 (no such file) or 500 (unreadable)
  int status = 404;
  std::string_view content_type;
  std::string content_encoding;  // "gzip", "br", or empty: the file as it is
  std::string etag;              // with its quotes
  std::string cache_control;
  bool vary_encoding = false;  // a compressed copy exists: caches must key on Accept-Encoding
  std::shared_ptr<const std::string> body;  // for 200 only
};

// How long a browser may keep a file whose name holds its content's digest: a year, the most
// that RFC 9111 caches are expected to honour.
inline constexpr std::string_view kImmutableCacheControl = "public, max-age=31536000, immutable";

class WebFiles {
 public:
  explicit WebFiles(std::filesystem::path root);

  // The answer to GET `target` (the request target: path and query) with these request headers
  // (empty when absent). Thread-safe; blocks on the file system the first time a file is asked
  // for and after it changes.
  WebFileReply get(std::string_view target, std::string_view accept_encoding,
                   std::string_view if_none_match);

 private:
  struct Loaded {
    std::filesystem::file_time_type time;
    std::uintmax_t size = 0;
    std::shared_ptr<const std::string> content;
    std::string digest;  // 16 hex digits of the SHA-256 of content
  };
  // The file's content as it is now: from memory, or read (and kept) when it changed. Null when
  // it cannot be read.
  std::shared_ptr<const Loaded> load(const std::filesystem::path& file);

  std::filesystem::path root_;
  std::mutex mutex_;
  std::map<std::filesystem::path, std::shared_ptr<const Loaded>> loaded_;
};

// Whether an Accept-Encoding header value accepts `coding` ("gzip", "br"): named, or covered by
// "*", with a q-value above zero.
bool accepts_encoding(std::string_view accept_encoding, std::string_view coding);

// Whether an If-None-Match header value names `etag` (with its quotes), by the weak comparison
// RFC 9110 asks for (W/"x" matches "x"), or is "*". A malformed value matches nothing.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace amazons::server
