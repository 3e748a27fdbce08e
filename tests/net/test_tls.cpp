// The client connection over TLS against the real amazons-server on loopback: the certificate
// rules (CA, pin, unknown, changed) and a game played through TLS.
#include <utility>  // before Asio (Boost 1.74 under GCC 12)

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/asio.hpp>
#include <cstdlib>

#include <fstream>
#include <thread>

#include "net_util.h"
#include "tests/integration/server_process.h"
#include "tls/tls.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::net::ClientError;
using amazons::net::Connection;
using amazons::net::ConnectionStatus;
using amazons::test::call;
using amazons::test::connection_options;
using amazons::test::EventRecorder;
using amazons::test::Launch;
using amazons::test::reply_as;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

// A certificate for the server (made here, so that the test knows its fingerprint).
struct Certificate {
  explicit Certificate(const std::filesystem::path& dir, const std::string& stem = "server",
                       std::vector<std::string> names = {"localhost", "127.0.0.1"}) {
    cert = dir / (stem + ".crt");
    key = dir / (stem + ".key");
    REQUIRE(tls::write_self_signed(cert, key, names).has_value());
    fingerprint = tls::fingerprint_of_pem(cert).value();
  }
  std::vector<std::string> flags() const {
    return {"--tls-cert", cert.string(), "--tls-key", key.string()};
  }
  std::filesystem::path cert, key;
  std::string fingerprint;
};

net::ConnectionOptions tls_options(unsigned short port, const std::string& name,
                                   std::optional<std::string> pin) {
  auto o = connection_options(port, name);
  o.tls = true;
  o.tls_fingerprint = std::move(pin);
  return o;
}

int count_status(EventRecorder& events, ConnectionStatus s) {
  int n = 0;
  for (const auto& e : events.events())
    if (const auto* st = std::get_if<net::StatusEvent>(&e); st && st->status == s) ++n;
  return n;
}

// amazons-server run as a host runs it (not --quiet), for what it prints on stdout: its port and
// its certificate's fingerprint.
class PrintingServer {
 public:
  explicit PrintingServer(const std::filesystem::path& dir) {
    std::vector<std::string> args = {test::kServerBinary,
                                     "--port",
                                     "0",
                                     "--db",
                                     (dir / "printing.db").string(),
                                     "--bind",
                                     "127.0.0.1",
                                     "--discovery-port",
                                     "-1"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int out[2];
    REQUIRE(::pipe(out) == 0);
    const std::string log = (dir / "printing.log").string();
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, STDERR_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      ::execv(argv[0], argv.data());
      _exit(127);
    }
    ::close(out[1]);
    stdout_ = ::fdopen(out[0], "r");
    char buffer[512];
    const std::string port_marker = "listening on port ";
    const std::string fp_marker = "TLS certificate fingerprint (SHA-256): ";
    while (std::fgets(buffer, sizeof buffer, stdout_)) {
      std::string line = buffer;
      while (!line.empty() && line.back() == '\n') line.pop_back();
      if (const auto at = line.find(port_marker); at != std::string::npos)
        port_ = static_cast<unsigned short>(std::atoi(line.c_str() + at + port_marker.size()));
      if (const auto at = line.find(fp_marker); at != std::string::npos)
        fingerprint_ = line.substr(at + fp_marker.size());
      if (line.find("friends can connect to") != std::string::npos) break;
    }
    REQUIRE_MESSAGE(port_ != 0, "the server did not start");
  }
  ~PrintingServer() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    if (stdout_) std::fclose(stdout_);
  }
  PrintingServer(const PrintingServer&) = delete;
  PrintingServer& operator=(const PrintingServer&) = delete;
  unsigned short port() const { return port_; }
  const std::string& fingerprint() const { return fingerprint_; }

 private:
  pid_t pid_ = -1;
  std::FILE* stdout_ = nullptr;
  unsigned short port_ = 0;
  std::string fingerprint_;
};

}  // namespace

TEST_CASE("tls: an unknown certificate fails with its fingerprint, once, without retrying") {
  TempDir dir;
  const Certificate cert(dir.path());
  ServerProcess server(dir.path(), nlohmann::json::object(), cert.flags());
  EventRecorder events;
  Connection c(tls_options(server.port(), "newcomer", std::nullopt), events.handler());
  c.start();
  const auto closed = events.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  REQUIRE(closed->error);
  CHECK(closed->error->kind == ClientError::Kind::Certificate);
  CHECK(closed->error->certificate == ClientError::Trust::Unknown);
  CHECK(closed->error->fingerprint == cert.fingerprint);
  CHECK(closed->error->message.find(cert.fingerprint) != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(count_status(events, ConnectionStatus::Connecting) == 1);
  CHECK(count_status(events, ConnectionStatus::WaitingRetry) == 0);
  CHECK(c.status() == ConnectionStatus::Closed);
}

TEST_CASE("tls: a pinned certificate connects and two players play a game over TLS") {
  TempDir dir;
  const Certificate cert(dir.path());
  ServerProcess server(dir.path(), nlohmann::json::object(), cert.flags());
  EventRecorder ea, eb;
  auto oa = tls_options(server.port(), "alice", cert.fingerprint);
  oa.password = "secret-a";  // a password over TLS is accepted
  Connection a(oa, ea.handler());
  Connection b(tls_options(server.port(), "bob", cert.fingerprint), eb.handler());
  a.start();
  b.start();
  REQUIRE(ea.wait_login());
  REQUIRE(eb.wait_login());
  const auto game = reply_as<Created>(call(a, Create{"standard", {}, ColorChoice::White})).game;
  reply_as<Start>(call(b, Join{game, std::nullopt}));
  CHECK(reply_as<Moved>(call(a, MoveMsg{game, "d1-d7/g7"})).ply == 1);
  CHECK(reply_as<Moved>(call(b, MoveMsg{game, "d10-d8/f8"})).ply == 2);
  const auto seen =
      eb.wait_message<Moved>(Millis{3000}, 0, [](const Moved& m) { return m.ply == 1; });
  REQUIRE(seen);
  CHECK(seen->move == "d1-d7/g7");
  CHECK(a.round_trip() > Millis{0});
}

TEST_CASE("tls: a changed certificate is refused with a warning naming both fingerprints") {
  TempDir dir;
  const Certificate cert(dir.path());
  const Certificate other(dir.path(), "other");
  ServerProcess server(dir.path(), nlohmann::json::object(), cert.flags());
  EventRecorder events;
  Connection c(tls_options(server.port(), "careful", other.fingerprint), events.handler());
  c.start();
  const auto closed = events.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  REQUIRE(closed->error);
  CHECK(closed->error->kind == ClientError::Kind::Certificate);
  CHECK(closed->error->certificate == ClientError::Trust::Changed);
  CHECK(closed->error->fingerprint == cert.fingerprint);
  CHECK(closed->error->message.find("WARNING") != std::string::npos);
  CHECK(closed->error->message.find(other.fingerprint) != std::string::npos);
  CHECK(closed->error->message.find(cert.fingerprint) != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(count_status(events, ConnectionStatus::Connecting) == 1);
}

TEST_CASE(
    "tls: the server's own certificate has the fingerprint it prints, and pinned it connects") {
  TempDir dir;
  PrintingServer server(dir.path());
  const std::string printed = server.fingerprint();
  REQUIRE(tls::parse_fingerprint(printed) == printed);
  EventRecorder unknown;
  Connection first(tls_options(server.port(), "first", std::nullopt), unknown.handler());
  first.start();
  const auto closed = unknown.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  REQUIRE(closed->error);
  CHECK(closed->error->fingerprint == printed);
  EventRecorder pinned;
  Connection second(tls_options(server.port(), "second", printed), pinned.handler());
  second.start();
  CHECK(pinned.wait_login());
}

TEST_CASE("tls: the connection survives a killed server and resumes its game over TLS") {
  TempDir dir;
  const Certificate cert(dir.path());
  std::optional<ServerProcess> server;
  server.emplace(dir.path(), nlohmann::json::object(), cert.flags());
  const auto port = server->port();
  EventRecorder ea, eb;
  Connection a(tls_options(port, "anna", cert.fingerprint), ea.handler());
  Connection b(tls_options(port, "bert", cert.fingerprint), eb.handler());
  a.start();
  b.start();
  REQUIRE(ea.wait_login());
  REQUIRE(eb.wait_login());
  const auto game = reply_as<Created>(call(a, Create{"standard", {}, ColorChoice::White})).game;
  reply_as<Start>(call(b, Join{game, std::nullopt}));
  CHECK(reply_as<Moved>(call(a, MoveMsg{game, "d1-d7/g7"})).ply == 1);
  server->stop(SIGKILL);
  REQUIRE(ea.wait_status(ConnectionStatus::WaitingRetry));
  const auto from = ea.size();
  server.emplace(dir.path(), nlohmann::json::object(), cert.flags(), Launch::on_port(port));
  const auto login = ea.wait_login(Millis{8000}, from);
  REQUIRE(login);
  CHECK(login->resumed);
  const auto state = ea.wait_message<State>(Millis{5000}, from);
  REQUIRE(state);
  CHECK(state->moves.size() == 1);
}

TEST_CASE("tls: a certificate the system's CAs vouch for and that names the host needs no pin") {
  TempDir dir;
  const Certificate cert(dir.path());
  // OpenSSL's default verify paths honour SSL_CERT_FILE: the test's certificate becomes the one
  // "system CA" (its own anchor), read when the connection makes its context.
  ::setenv("SSL_CERT_FILE", cert.cert.c_str(), 1);
  ServerProcess server(dir.path(), nlohmann::json::object(), cert.flags());
  EventRecorder events;
  Connection c(tls_options(server.port(), "vouched", std::nullopt), events.handler());
  c.start();
  CHECK(events.wait_login());

  // Without the CAs (trust_system_cas off) the same certificate is unknown.
  EventRecorder off;
  auto o = tls_options(server.port(), "unvouched", std::nullopt);
  o.trust_system_cas = false;
  Connection c2(o, off.handler());
  c2.start();
  const auto closed = off.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  REQUIRE(closed->error);
  CHECK(closed->error->certificate == ClientError::Trust::Unknown);
}

TEST_CASE("tls: a CA-vouched certificate for another host name is not accepted without a pin") {
  TempDir dir;
  const Certificate cert(dir.path(), "elsewhere", {"elsewhere.example"});
  ::setenv("SSL_CERT_FILE", cert.cert.c_str(), 1);
  ServerProcess server(dir.path(), nlohmann::json::object(), cert.flags());
  EventRecorder events;
  Connection c(tls_options(server.port(), "strict", std::nullopt), events.handler());
  c.start();
  const auto closed = events.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  REQUIRE(closed->error);
  CHECK(closed->error->kind == ClientError::Kind::Certificate);
  CHECK(closed->error->certificate == ClientError::Trust::Unknown);
  CHECK(closed->error->fingerprint == cert.fingerprint);
}

TEST_CASE("tls: a plain-TCP-only port fails the handshake as a connection error and retries") {
  // A listener that accepts and answers garbage, as a port that speaks no TLS would.
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  std::thread plain([&] {
    for (int i = 0; i < 2; ++i) {
      boost::system::error_code ec;
      auto s = acceptor.accept(ec);
      if (ec) return;
      boost::asio::write(s, boost::asio::buffer(std::string("{\"type\":\"hi\"}\n")), ec);
    }
  });
  EventRecorder events;
  auto o = tls_options(acceptor.local_endpoint().port(), "confused", std::nullopt);
  o.reconnect.max_attempts = 2;
  Connection c(o, events.handler());
  c.start();
  const auto retry = events.wait_status(ConnectionStatus::WaitingRetry);
  REQUIRE(retry);
  REQUIRE(retry->error);
  CHECK(retry->error->kind == ClientError::Kind::Connect);
  CHECK(retry->error->message.find("TLS handshake") != std::string::npos);
  const auto closed = events.wait_status(ConnectionStatus::Closed);
  REQUIRE(closed);
  CHECK(closed->error->kind == ClientError::Kind::Connect);
  plain.join();
}
