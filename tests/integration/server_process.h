// Runs the real amazons-server executable as a child process on an ephemeral loopback port with
// a real SQLite file, and talks to it with real TCP clients.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/test_paths.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/protocol.h"
#include "net/line_client.h"
#include "tests/integration/transport_client.h"
#include "tests/server/lobby_harness.h"
#include "tests/text_checks.h"

namespace amazons::test {

inline const std::string kServerBinary = amazons::test::binary_dir() + "/server/amazons-server";

// How to run the server process, for tests that watch it closely.
struct Launch {
  std::vector<std::string> wrapper;   // a program to run it under, e.g. {"valgrind", ...}
  std::filesystem::path stderr_file;  // where its stderr goes (default: the test's)
  std::vector<std::pair<std::string, std::string>> environment;  // set for the server only
  unsigned short port = 0;  // 0 picks a free one; a restart can ask for the port the last run had
  std::string db;           // the --db value (default: test.db in the directory)
  bool quiet = true;        // --quiet: warnings and errors only in its log

  static Launch on_port(unsigned short p) {
    Launch l;
    l.port = p;
    return l;
  }
};

class ServerProcess {
 public:
  // Starts the server with `extra` flags and a config file holding `config` (merged over
  // test-friendly defaults). The database lives in `db` (kept across restarts by the caller).
  ServerProcess(const std::filesystem::path& dir, nlohmann::json config = nlohmann::json::object(),
                std::vector<std::string> extra = {}, Launch launch = {}) {
    nlohmann::json base = {{"password_hashing", "minimal"},
                           {"discovery_port", 0},
                           {"bind", "127.0.0.1"},
                           {"threads", 2}};
    base.update(config);
    const auto config_path = dir / "server.json";
    std::ofstream(config_path) << base.dump();
    std::vector<std::string> args = {kServerBinary,
                                     "--port",
                                     std::to_string(launch.port),
                                     "--db",
                                     launch.db.empty() ? (dir / "test.db").string() : launch.db,
                                     "--config",
                                     config_path.string()};
    if (launch.quiet) args.push_back("--quiet");
    for (auto& e : extra) args.push_back(e);
    args.insert(args.begin(), launch.wrapper.begin(), launch.wrapper.end());
    int out[2];
    REQUIRE(pipe(out) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      if (!launch.stderr_file.empty()) {
        const int err = ::open(launch.stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (err >= 0) dup2(err, STDERR_FILENO);
      }
      for (const auto& [key, value] : launch.environment) setenv(key.c_str(), value.c_str(), 1);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp(argv[0], argv.data());
      _exit(127);
    }
    close(out[1]);
    stdout_ = fdopen(out[0], "r");
    // The first line says where the server listens.
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, stdout_)) {
      const std::string line = buffer;
      port_ = number_after(line, "listening on port ");
      discovery_port_ = number_after(line, "discovery on UDP port ");
      if (port_ != 0) break;
    }
    if (port_ == 0 && !launch.stderr_file.empty()) {
      // What the server said before it stopped is in its log, not the test's output.
      std::ifstream log(launch.stderr_file);
      std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      if (said.size() > 2000) said = said.substr(said.size() - 2000);
      FAIL("the server did not start; its log " << launch.stderr_file << " ends:\n" << said);
    }
    REQUIRE_MESSAGE(port_ != 0, "the server did not start");
  }
  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (stdout_) std::fclose(stdout_);
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  unsigned short port() const { return port_; }
  unsigned short discovery_port() const { return discovery_port_; }
  pid_t pid() const { return pid_; }

  // Sends a signal without waiting (SIGSTOP and SIGCONT freeze and thaw the server).
  void signal(int sig) { kill(pid_, sig); }

  // SIGSTOP, then waits until every thread of the server is stopped. kill() only queues the
  // stop: it takes effect when the thread that takes the signal next runs, and meanwhile the
  // server's other threads go on serving (seen on a loaded machine: a request answered after
  // the "stop"). False if the threads are not all stopped within `within`.
  bool freeze(Millis within = Millis{5000}) {
    kill(pid_, SIGSTOP);
    const auto deadline = std::chrono::steady_clock::now() + within;
    const std::filesystem::path tasks = "/proc/" + std::to_string(pid_) + "/task";
    while (std::chrono::steady_clock::now() < deadline) {
      bool all = true;
      std::error_code ec;
      for (const auto& t : std::filesystem::directory_iterator(tasks, ec)) {
        std::ifstream stat(t.path() / "stat");
        std::string line;
        std::getline(stat, line);
        // "PID (comm) STATE ...": the state follows the last ')'.
        const auto close = line.rfind(')');
        if (close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'T')
          all = false;
      }
      if (!ec && all) return true;
      std::this_thread::sleep_for(Millis{2});
    }
    return false;
  }

  // Waits for the server to exit by itself: its exit status (-1 if killed by a signal), or
  // nullopt if it still runs after `within`.
  std::optional<int> wait_exit(Millis within) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }

  // Sends the signal and waits for the exit status (-1 if killed by a signal).
  int stop(int sig = SIGTERM) {
    kill(pid_, sig);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  static unsigned short number_after(const std::string& line, const std::string& marker) {
    const auto at = line.find(marker);
    return at == std::string::npos
               ? 0
               : static_cast<unsigned short>(std::atoi(line.c_str() + at + marker.size()));
  }

  pid_t pid_ = -1;
  std::FILE* stdout_ = nullptr;
  unsigned short port_ = 0;
  unsigned short discovery_port_ = 0;
};

// A connected test client that speaks JSON messages.
class Client {
 public:
  explicit Client(unsigned short port) {
    auto c = net::LineClient::connect("127.0.0.1", port);
    REQUIRE_MESSAGE(c.has_value(), (c ? "" : c.error()));
    conn_.emplace(std::move(*c));
  }
  // The same client over another door of the port: TLS, WebSocket or both.
  Client(unsigned short port, Wire wire, WireOptions options = {}) {
    if (wire == Wire::Tcp) {
      auto c = net::LineClient::connect(options.host, port, Millis{5000}, options.source);
      REQUIRE_MESSAGE(c.has_value(), (c ? "" : c.error()));
      conn_.emplace(std::move(*c));
      return;
    }
    auto c = TransportClient::connect(wire, port, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? "" : c.error()));
    wire_.emplace(std::move(*c));
  }
  void send(const std::string& line) {
    CHECK((conn_ ? conn_->send_line(line) : wire_->send(line)));
  }
  void send(const protocol::ClientMessage& m, protocol::RequestId id = std::nullopt) {
    send(protocol::encode(m, id));
  }
  // The next message, skipping pings (answered) unless asked not to.
  protocol::ServerEnvelope next(Millis timeout = Millis{5000}) {
    for (;;) {
      auto line = conn_ ? conn_->read_line(timeout) : wire_->read(timeout);
      REQUIRE_MESSAGE(line.has_value(), "no line from the server");
      auto env = protocol::decode_server(*line);
      REQUIRE_MESSAGE(env.has_value(), *line);
      if (std::holds_alternative<protocol::Ping>(env->message) && answer_pings_) {
        send(protocol::Pong{});
        continue;
      }
      return std::move(*env);
    }
  }
  template <class M>
  M expect(Millis timeout = Millis{5000}) {
    auto env = next(timeout);
    const auto* m = std::get_if<M>(&env.message);
    REQUIRE_MESSAGE(m != nullptr,
                    "expected " << M::kType << ", got " << protocol::encode(env.message));
    return *m;
  }
  protocol::ErrorCode expect_error() { return expect<protocol::Error>().code; }
  // True when the server closed the connection (within the timeout).
  bool closed_by_server(Millis timeout = Millis{3000}) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto line = conn_ ? conn_->read_line(Millis{200}) : wire_->read(Millis{200});
      if (!line && (conn_ ? conn_->closed() : wire_->closed())) return true;
    }
    return false;
  }
  std::string hello(const std::string& name, const std::string& extra = "") {
    send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"" + name + "\"" + extra + "}");
    return expect<protocol::Welcome>().token;
  }
  // A TCP client from another loopback address (127.0.0.2 ...): another address to the server.
  static Client from(const std::string& source, unsigned short port) {
    WireOptions o;
    o.source = source;
    return Client(port, Wire::Tcp, o);
  }
  net::LineClient& raw() { return *conn_; }   // TCP clients only
  TransportClient& wire() { return *wire_; }  // the other wires only
  void answer_pings(bool on) { answer_pings_ = on; }

 private:
  std::optional<net::LineClient> conn_;
  std::optional<TransportClient> wire_;
  bool answer_pings_ = true;
};

// Runs amazons-server with these arguments; returns the exit status and stdout + stderr.
inline std::pair<int, std::string> run_server(const std::string& args) {
  return PgServer::shell(std::string(kServerBinary) + " " + args + " 2>&1");
}

// `mover` plays `move`, ply `ply` of `game`; both players see it acknowledged as that ply.
inline void play(Client& mover, Client& other, const std::string& game, const std::string& move,
                 int ply) {
  mover.send(protocol::MoveMsg{game, move});
  CHECK(mover.expect<protocol::Moved>().ply == ply);
  const auto seen = other.expect<protocol::Moved>();
  CHECK(seen.ply == ply);
  CHECK(seen.move == move);
}

}  // namespace amazons::test
