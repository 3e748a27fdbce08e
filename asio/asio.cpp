// The one unit that compiles Asio's, its TLS streams' and Beast's function bodies
// (asio/CMakeLists.txt).
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
