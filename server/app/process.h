// What amazons-server asks of the operating system it runs on: one file per platform, chosen by
// CMake (process_posix.cpp, process_windows.cpp), so that the start-up and the signal loop in
// serve.cpp read the same everywhere.
#pragma once

#include <utility>  // before Asio, see server/net/server.h

#include <boost/asio/signal_set.hpp>

namespace amazons::server {

// Once, first thing in main. POSIX: a write to a connection the peer has closed fails with EPIPE
// instead of killing the process (SIGPIPE ignored: Asio's sockets ask for that themselves, but
// hiredis writes with write(), and a Redis that closed a connection took the node down).
// Windows: nothing.
void prepare_process();

// Before serving. POSIX: the soft limit of open descriptors raised to the hard one (thousands of
// connections need more than the usual 1024). Windows: nothing (sockets are not counted so).
void raise_file_limit();

// The signals that stop the server gracefully, added to `set`: SIGINT and SIGTERM; on Windows
// also SIGBREAK, which the C runtime raises for Ctrl-Break and for the console window's close
// (the close is then held for a few seconds, the time Windows gives, so the stop can finish).
void add_stop_signals(boost::asio::signal_set& set);

// The signals that reload the certificate (and the test clock), added to `set`: SIGHUP on POSIX;
// none on Windows, where a host restarts the server instead.
void add_reload_signals(boost::asio::signal_set& set);

// A signal's name for the log ("SIGTERM").
const char* signal_name(int signal);

}  // namespace amazons::server
