// amazons-server serving: opens the database, starts the Server with its TLS certificate, tells
// the host where to reach it, and runs until SIGINT or SIGTERM (a graceful stop) or a storage
// failure; SIGHUP reloads the certificate (and, in tests, the clock's offset).
#pragma once

#include "server/net/config.h"

namespace amazons::server {

// Blocks until the server has stopped. Returns the exit status: 0 stopped with everything
// stored, 1 when it could not start or storage failed (the reason logged).
int serve(const ServerConfig& config, bool quiet);

}  // namespace amazons::server
