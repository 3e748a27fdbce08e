// What a connection asks of the server it belongs to. The sessions and the transports
// (session.cpp, sniff.cpp, line_session.cpp, ws_session.cpp, http.cpp) know the server only
// through this interface, which Server implements: they neither include server.h nor need its
// friendship, and the Server is the one that knows them.
//
// Threads: every function may be called from any thread (each connection runs on its own strand).
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>
#include <vector>

#include "common/expected.h"
#include "common/log.h"
#include "common/protocol.h"
#include "server/core/session_id.h"
#include "server/http/web_files.h"
#include "server/net/config.h"
#include "server/net/metrics.h"

namespace amazons::server {

class Session;

class SessionHost {
 public:
  virtual const ServerConfig& config() const = 0;
  virtual Log& log() = 0;
  // A connection that speaks the protocol: registered with the lobby, then started.
  virtual void attach(std::shared_ptr<Session> session) = 0;
  virtual void on_line(SessionId id,
                       Expected<protocol::ClientEnvelope, protocol::DecodeError> request) = 0;
  // Every accepted connection ends here exactly once.
  virtual void on_closed(SessionId id) = 0;
  // Whether connections from this address count as private (loopback, unless the host said
  // otherwise: behind a reverse proxy on this machine every connection comes from loopback).
  virtual bool is_trusted_local(const std::string& address) const = 0;
  // The context for new TLS handshakes, or null when TLS is off. Lives as long as the server.
  virtual boost::asio::ssl::context* tls_context() = 0;
  virtual void count_tls_failure() = 0;
  virtual std::string health_json() const = 0;
  // GET /ready: whether this server should be sent players now.
  virtual bool ready() const = 0;
  // Where clients reach the cluster's nodes, this one first (GET /nodes); empty on a server of its
  // own (ClusterNode::addresses).
  virtual std::vector<std::string> node_addresses() const = 0;
  // Every node address seen since this node started, also of nodes since gone: pages they
  // served may open a WebSocket here (ClusterNode::known_addresses). Empty on a server of its own.
  virtual std::vector<std::string> known_node_addresses() const = 0;
  virtual ServerMetrics& metrics() = 0;
  // The web client's files (config().web_root).
  virtual WebFiles& web_files() = 0;

 protected:
  ~SessionHost() = default;
};

}  // namespace amazons::server
