// The pure part of serving several protocols on one port: which protocol a connection speaks,
// told from its first bytes; whether a WebSocket upgrade's Origin may talk to us; which file of
// the web client a request path names. No sockets, so tests and the fuzzer drive it directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/transport.h"

namespace amazons::server {

// What the first bytes of a connection (or of the plaintext inside TLS) say it speaks.
enum class FirstBytes : std::uint8_t {
  NeedMore,  // not enough bytes to tell yet
  Tls,       // a TLS ClientHello record
  Http,      // an HTTP request line (a method in upper-case letters): files, health, WebSocket
  Lines,     // anything else: the JSON-lines protocol (which answers garbage with bad_json)
};
// Decides from the bytes received so far. `inside_tls`: the bytes are the plaintext of a TLS
// connection, where a second handshake makes no sense (it is then taken as lines).
FirstBytes classify_first_bytes(std::string_view bytes, bool inside_tls);
// At most this many bytes are ever needed to decide; a peer that sends fewer and then goes
// quiet is closed by the handshake timeout.
inline constexpr std::size_t kMaxSniffBytes = 16;

// Whether a browser page from `origin` (the Origin header: "https://host:port") may open a
// WebSocket on a server reached as `host` ("host:port" or "host": the server's own address, never
// a request's Host header, which a DNS-rebinding page sets to its own name). Same origin
// (the Origin's authority equals `host`, the default port filled in from the Origin's scheme) or
// one of `allowed` (exact origins, e.g. "https://amazons.example.org"). No Origin header (a
// program, not a browser page) is allowed: the browser is the one that enforces same-origin.
// `peers` are the addresses ("host:port") of the nodes of this node's cluster: a page one of them
// served counts as our own, because the web client moves to another node when the one that
// served it dies (docs/SCALING.md, "Clients").
bool origin_allowed(std::optional<std::string_view> origin, std::string_view host,
                    const std::vector<std::string>& allowed,
                    const std::vector<std::string>& peers = {});

// The Content-Security-Policy of every HTTP answer: the page's own origin only (its scripts may
// compile WebAssembly: the engine, ai/wasm/), and on a node of
// a cluster also WebSockets to the other nodes at `peers` ("host:port"), where the web client
// goes when its own node dies. An address with any character outside
// letters, digits and ".-:[]" is left out (they come from other nodes through Redis).
std::string content_security_policy(const std::vector<std::string>& peers);

// The file under `root` that a request target names ("/" is index.html; a query or fragment is
// ignored), or nullopt when the target is malformed, leaves the root ("..", percent-encoded
// tricks, absolute paths) or names something that is not a regular file.
std::optional<std::filesystem::path> web_file(const std::filesystem::path& root,
                                              std::string_view target);
// The Content-Type for a file by its extension ("application/octet-stream" when unknown).
std::string_view content_type(const std::filesystem::path& file);

}  // namespace amazons::server
