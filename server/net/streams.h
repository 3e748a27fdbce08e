#pragma once

// The server's transports, a source file each (line_session.cpp, ws_session.cpp,
// http.cpp; session.cpp sniffs and holds the common Session). Beast's templates over two
// stream types made the one file they shared take 3 to 4 minutes to compile, the longest step of
// every build; apart, they compile side by side. Private to the server's network layer.

#include "server/net/session.h"
#include "server/net/session_host.h"

#include <boost/beast/core.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

namespace amazons::server::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using boost::system::error_code;

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;

template <class Stream>
inline constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

inline constexpr const char* kServerHeader = "amazons-server";

// A session of JSON lines over the stream, not yet attached: the caller attaches it to the server
// or refuses it. `already_read` (what sniffing read) is framed before anything new is read.
// Defined for PlainStream and TlsStream.
template <class Stream>
std::shared_ptr<Session> make_line_session(SessionHost& server, Stream stream, SessionId id,
                                           std::string address, bool private_channel,
                                           std::string_view already_read);

// Completes the WebSocket upgrade that `request` asks for; the session attaches itself to the
// server once the handshake is done. Defined for PlainStream and TlsStream.
template <class Stream>
void accept_websocket(SessionHost& server, Stream stream, HttpRequest request, SessionId id,
                      std::string address, bool private_channel);

// Serves HTTP requests on the connection (the web client's files, /health, /ready, /metrics)
// until it closes or upgrades to a WebSocket. `buffer` holds what was read already.
// Defined for PlainStream and TlsStream.
template <class Stream>
void serve_http(SessionHost& server, Stream stream, boost::beast::flat_buffer buffer, SessionId id,
                std::string address);

}  // namespace amazons::server::detail
