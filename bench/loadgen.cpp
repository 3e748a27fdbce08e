// amazons-loadgen: N connections playing M concurrent games of random legal moves against a
// running amazons-server, on loopback. Prints accepted moves per second and the move round trip
// (move sent -> own "moved" received, which the server sends only after the move is committed)
// as percentiles, and, in the same run, the round trip of a plain TCP echo on loopback as the
// floor no server can beat.
//
// --transport tcp|tls|ws|wss: the JSON lines over plain TCP or TLS, or one message per WebSocket
// text frame at /ws (plain or under TLS): Boost.Beast and asio::ssl, nothing hand-written. TLS
// runs also report the handshakes per second while the connections open. Several servers
// (--server a:7420,b:7420, or --port repeated) share the games: game g plays on address g mod N,
// or with --cross-node White on g mod N and Black on the next (a cluster's players on two nodes).
// The certificate is not checked unless --tls-fingerprint is given: a measurement, not trust.
//
// --echo-ceiling SECONDS first measures the other ceiling, throughput: an Asio echo of lines in a
// process of its own (two threads, as the server's default), driven by as many connections as the
// games will use, each sending a move-sized line and waiting for it to come back, for SECONDS. It
// measures it again after the games, and the report gives moves per second as a share of the mean
// of the two echoed lines per second, with how far apart they were.
// --sources N spreads the connections over the loopback addresses 127.0.0.1 to 127.0.0.N, each
// with its own ephemeral ports (about 28,000 on Linux), for more connections than one source
// address has ports.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/protocol.h"
#include "net/address.h"
#include "tls/tls.h"

namespace asio = boost::asio;
using asio::ip::tcp;
namespace ssl = asio::ssl;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;
using namespace amazons;

namespace {

struct Options {
  std::string host = "127.0.0.1";
  std::vector<unsigned short> ports;
  std::string servers;  // "a:7420,b:7420": overrides --host/--port
  amazons::Transport transport = amazons::Transport::Tcp;
  std::optional<std::string> tls_fingerprint;
  int games = 1000;
  double seconds = 10;
  double think_ms = 0;  // mean pause before each move; 0: answer at once (saturation)
  int echo_round_trips = 2000;
  std::string prefix = "lg";
  std::string fsync_dir;            // when set: also measure fsync latency there
  double echo_ceiling_seconds = 0;  // 0: no throughput ceiling
  int sources = 1;                  // loopback source addresses 127.0.0.1 .. 127.0.0.N
  // With several servers: Black connects to the server after White's, so that every game has
  // its players on two nodes of a cluster (the node that runs it and one that hands moves on).
  bool cross_node = false;
};

// The local address connection `k` binds to: 127.0.0.(1 + k mod sources), or none with one.
std::optional<asio::ip::address> source_address(const Options& o, std::size_t k) {
  if (o.sources <= 1) return std::nullopt;
  const auto last = static_cast<unsigned>(1 + k % static_cast<std::size_t>(o.sources));
  return asio::ip::address_v4((127u << 24) | last);
}

// Opens `socket` bound to `source` (when given), ready for async_connect.
void bind_source(tcp::socket& socket, const std::optional<asio::ip::address>& source) {
  if (!source) return;
  error_code ec;
  socket.open(tcp::v4(), ec);
  if (!ec) socket.bind(tcp::endpoint(*source, 0), ec);
  if (ec)
    std::fprintf(stderr, "loadgen: bind %s: %s\n", source->to_string().c_str(),
                 ec.message().c_str());
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(std::min<double>(
      static_cast<double>(v.size()) - 1, p / 100.0 * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// ---- the floor: a plain TCP echo on loopback --------------------------------------------------

std::vector<double> echo_round_trips(int count) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const auto port = acceptor.local_endpoint().port();
  std::thread server([&] {
    tcp::socket s = acceptor.accept();
    s.set_option(tcp::no_delay(true));
    asio::streambuf buf;
    error_code ec;
    for (;;) {
      const auto n = asio::read_until(s, buf, '\n', ec);
      if (ec) return;
      std::string line(asio::buffers_begin(buf.data()),
                       asio::buffers_begin(buf.data()) + static_cast<std::ptrdiff_t>(n));
      buf.consume(n);
      asio::write(s, asio::buffer(line), ec);
      if (ec) return;
    }
  });
  tcp::socket c(io);
  c.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  c.set_option(tcp::no_delay(true));
  const std::string line = R"({"type":"move","game":"123","move":"d1-d7/g7"})"
                           "\n";
  std::vector<double> rtt;
  asio::streambuf buf;
  for (int i = 0; i < count; ++i) {
    const auto t = Clock::now();
    asio::write(c, asio::buffer(line));
    const auto n = asio::read_until(c, buf, '\n');
    buf.consume(n);
    rtt.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
  }
  c.close();
  server.join();
  return rtt;
}

// ---- the throughput ceiling: an Asio line echo in a process of its own -----------------------

// What the echo server does with one connection: reads what comes and writes it back.
class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket socket) : socket_(std::move(socket)) {}
  void read() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = shared_from_this()](error_code ec, std::size_t n) {
                              if (ec) return;
                              asio::async_write(self->socket_, asio::buffer(self->buffer_, n),
                                                [self](error_code e, std::size_t) {
                                                  if (!e) self->read();
                                                });
                            });
  }

 private:
  tcp::socket socket_;
  std::array<char, 4096> buffer_{};
};

void echo_accept(tcp::acceptor& acceptor) {
  acceptor.async_accept([&acceptor](error_code ec, tcp::socket socket) {
    if (ec) return;
    socket.set_option(tcp::no_delay(true), ec);
    std::make_shared<EchoSession>(std::move(socket))->read();
    echo_accept(acceptor);
  });
}

// The echo server's process: serves the listening socket `fd` on two threads until killed.
[[noreturn]] void run_echo_server(int fd) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::v4(), fd);
  echo_accept(acceptor);
  std::thread second([&] { io.run(); });
  io.run();
  second.join();
  std::_Exit(0);
}

// How long the server is left to close the games' connections before the echo is measured again.
constexpr auto kSettleAfterGames = std::chrono::seconds(2);
// How long White waits before it asks again for a game a node could not create just then.
constexpr auto kCreateRetry = std::chrono::milliseconds(200);

struct EchoCeiling {
  std::size_t connections = 0;
  std::size_t connected = 0;
  double lines_per_second = 0;
};

// One client connection of the ceiling: a line out, the same line back, again.
class EchoClient : public std::enable_shared_from_this<EchoClient> {
 public:
  EchoClient(asio::io_context& io, const bool& counting, std::uint64_t& count)
      : socket_(io), counting_(counting), count_(count) {}
  void start(const tcp::endpoint& ep, const std::optional<asio::ip::address>& source,
             std::size_t& connected) {
    bind_source(socket_, source);
    socket_.async_connect(ep, [self = shared_from_this(), &connected](error_code ec) {
      if (ec) return;
      ++connected;
      self->socket_.set_option(tcp::no_delay(true), ec);
      self->send();
    });
  }
  void close() {
    error_code ec;
    socket_.close(ec);
  }

 private:
  void send() {
    static const std::string kLine = R"({"type":"move","game":"123","move":"d1-d7/g7"})"
                                     "\n";
    asio::async_write(socket_, asio::buffer(kLine),
                      [self = shared_from_this()](error_code ec, std::size_t) {
                        if (!ec) self->receive();
                      });
  }
  void receive() {
    asio::async_read_until(socket_, asio::dynamic_buffer(in_), '\n',
                           [self = shared_from_this()](error_code ec, std::size_t n) {
                             if (ec) return;
                             self->in_.erase(0, n);
                             if (self->counting_) ++self->count_;
                             self->send();
                           });
  }

  tcp::socket socket_;
  std::string in_;
  const bool& counting_;
  std::uint64_t& count_;
};

// Echoed lines per second over `connections` connections for `seconds`, after half a second of
// warming up, against an echo server forked for the purpose (and killed after).
std::optional<EchoCeiling> echo_ceiling(const Options& o, std::size_t connections, double seconds) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 4096) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    std::perror("amazons-loadgen: echo server socket");
    if (fd >= 0) ::close(fd);
    return std::nullopt;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    std::perror("amazons-loadgen: fork");
    ::close(fd);
    return std::nullopt;
  }
  if (child == 0) run_echo_server(fd);
  ::close(fd);
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), ntohs(addr.sin_port));

  asio::io_context io;
  bool counting = false;
  std::uint64_t count = 0;
  EchoCeiling result;
  result.connections = connections;
  std::vector<std::shared_ptr<EchoClient>> clients;
  clients.reserve(connections);
  for (std::size_t k = 0; k < connections; ++k) {
    clients.push_back(std::make_shared<EchoClient>(io, counting, count));
    clients.back()->start(ep, source_address(o, k), result.connected);
  }
  // Counted once every connection is up (2,000 connects can take longer than the warm-up) and
  // has echoed for half a second.
  const auto connect_deadline = Clock::now() + std::chrono::seconds(10);
  while (result.connected < connections && Clock::now() < connect_deadline)
    io.run_for(std::chrono::milliseconds(20));
  io.run_for(std::chrono::milliseconds(500));
  counting = true;
  const auto from = Clock::now();
  io.run_for(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
  const double took = std::chrono::duration<double>(Clock::now() - from).count();
  counting = false;
  for (auto& c : clients) c->close();
  io.restart();
  io.poll();
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  result.lines_per_second = static_cast<double>(count) / took;
  std::fprintf(stderr, "loadgen: echo ceiling: %.0f lines per second over %zu connections\n",
               result.lines_per_second, result.connected);
  return result;
}

// ---- the other floor: one durable write on the disk that holds the database ------------------

std::vector<double> fsync_latencies(const std::string& dir, int count) {
  std::vector<double> out;
  const std::string path = dir + "/loadgen-fsync.tmp";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return out;
  const std::string page(4096, 'x');
  for (int i = 0; i < count; ++i) {
    if (::write(fd, page.data(), page.size()) != static_cast<ssize_t>(page.size())) break;
    const auto t = Clock::now();
    ::fsync(fd);
    out.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  return out;
}

// ---- the load ---------------------------------------------------------------------------------

class Loadgen;

// One player's connection. The transports differ only in how bytes and messages travel.
class Conn {
 public:
  virtual ~Conn() = default;
  virtual void start(const tcp::endpoint& ep, const std::optional<asio::ip::address>& source) = 0;
  virtual void send(std::string line) = 0;
  virtual void close() = 0;
};

struct Target {
  net::ServerAddress address;
  tcp::endpoint endpoint;
};

struct Game {
  std::shared_ptr<Conn> conn[2];
  bool welcomed[2] = {false, false};
  bool ended[2] = {false, false};
  std::string id;
  std::optional<Position> pos;
  int ply = 0;
  Clock::time_point sent_at;
  std::unique_ptr<asio::steady_timer> think;
  bool started = false;
};

class Loadgen {
 public:
  Loadgen(asio::io_context& io, Options o)
      : io_(io), opt_(std::move(o)), games_(static_cast<std::size_t>(opt_.games)), rng_(12345) {}

  void run(std::vector<Target> targets) {
    targets_ = std::move(targets);
    if (amazons::uses_tls(opt_.transport)) {
      tls_ = std::make_unique<ssl::context>(ssl::context::tls_client);
      if (opt_.tls_fingerprint) {
        tls::ClientTrust trust;
        trust.system_cas = false;
        trust.pinned = opt_.tls_fingerprint;
        tls_ = nullptr;
        pinned_ = tls::client_context(trust, targets_.front().address.host);
      } else {
        tls_->set_verify_mode(ssl::verify_none);
      }
    }
    connect_started_ = Clock::now();
    for (int g = 0; g < opt_.games; ++g) {
      auto& game = games_[static_cast<std::size_t>(g)];
      game.think = std::make_unique<asio::steady_timer>(io_);
      for (Color c : {Color::White, Color::Black}) {
        const std::size_t shift = opt_.cross_node && c == Color::Black ? 1 : 0;
        const Target& target = targets_[(static_cast<std::size_t>(g) + shift) % targets_.size()];
        game.conn[index_of(c)] = make_conn(target, g, c);
        game.conn[index_of(c)]->start(
            target.endpoint, source_address(opt_, 2 * static_cast<std::size_t>(g) + index_of(c)));
      }
    }
    begin_ = Clock::now();
    asio::steady_timer progress(io_);
    std::function<void()> every_second = [&] {
      progress.expires_after(std::chrono::seconds(1));
      progress.async_wait([&](error_code ec) {
        if (ec) return;
        const double t = std::chrono::duration<double>(Clock::now() - begin_).count();
        if (!measuring_ && started_games_ >= opt_.games) {
          measuring_ = true;
          measure_from_ = Clock::now();
          std::fprintf(stderr,
                       "loadgen: %d games started after %.1f s (%d creates asked again); "
                       "measuring for %.0f s\n",
                       opt_.games, t, create_retries_, opt_.seconds);
        }
        if (measuring_) {
          const double m = std::chrono::duration<double>(Clock::now() - measure_from_).count();
          std::fprintf(stderr, "loadgen: %.0f s: %zu moves accepted, %llu errors\n", m, rtt_.size(),
                       static_cast<unsigned long long>(errors_));
          if (m >= opt_.seconds) {
            stopping_ = true;
            measured_seconds_ = m;
            for (auto& g : games_)
              for (auto& c : g.conn) c->close();
            io_.stop();
            return;
          }
        } else if (t > 60) {
          std::fprintf(stderr, "loadgen: only %d of %d games started after 60 s; giving up\n",
                       started_games_, opt_.games);
          stopping_ = true;
          io_.stop();
          return;
        }
        every_second();
      });
    };
    every_second();
    io_.run();
  }

  void on_line(int g, Color c, const std::string& line) {
    if (stopping_) return;
    // The common case read cheaply, so the load generator leaves the CPU to the server: the
    // server writes "type" first, and a moved line's fields in a fixed order.
    if (line.starts_with(R"({"type":"moved",)")) {
      const auto ply_at = line.find(R"("ply":)");
      const auto move_at = line.find(R"("move":")");
      if (ply_at != std::string::npos && move_at != std::string::npos) {
        const int ply = std::atoi(line.c_str() + ply_at + 6);
        const auto start = move_at + 8;
        const auto end = line.find('"', start);
        return on_moved(g, c, ply, line.substr(start, end - start));
      }
    }
    auto env = protocol::decode_server(line);
    if (!env) return error(line);
    Game& game = games_[static_cast<std::size_t>(g)];
    const int me = index_of(c);
    std::visit(
        [&](const auto& m) {
          using M = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<M, protocol::Welcome>) {
            game.welcomed[me] = true;
            if (game.welcomed[0] && game.welcomed[1]) create(game);
          } else if constexpr (std::is_same_v<M, protocol::Created>) {
            game.id = m.game;
            protocol::Join j{m.game, std::nullopt};
            game.conn[1]->send(protocol::encode(protocol::ClientMessage{j}));
          } else if constexpr (std::is_same_v<M, protocol::Start>) {
            if (c == Color::White) {
              game.pos.emplace(standard_variant());
              game.ply = 0;
              game.ended[0] = game.ended[1] = false;
              if (!game.started) {
                game.started = true;
                ++started_games_;
              }
              schedule_move(game, g);
            }
          } else if constexpr (std::is_same_v<M, protocol::Moved>) {
            on_moved(g, c, m.ply, m.move);
          } else if constexpr (std::is_same_v<M, protocol::End>) {
            game.ended[me] = true;
            if (game.ended[0] && game.ended[1]) {
              ++finished_games_;
              create(game);
            }
          } else if constexpr (std::is_same_v<M, protocol::Error>) {
            // A cluster node between two blocks of game ids refuses a create for a moment
            // (`unavailable`): White asks again after a pause instead of leaving its game
            // unstarted, so thousands of games can start at once.
            if (m.code == protocol::ErrorCode::Unavailable && me == 0 &&
                (!game.pos || (game.ended[0] && game.ended[1]))) {
              ++create_retries_;
              game.think->expires_after(kCreateRetry);
              game.think->async_wait([this, g](error_code ec) {
                if (!ec) create(games_[static_cast<std::size_t>(g)]);
              });
              return;
            }
            error(line);
          }
        },
        env->message);
  }

  void on_moved(int g, Color c, int ply, const std::string& move) {
    Game& game = games_[static_cast<std::size_t>(g)];
    if (ply == game.ply + 1) {
      const auto parsed = parse_move(move);
      if (!parsed) return error(move);
      game.pos->do_move(*parsed);
      ++game.ply;
    }
    // The standard variant: white makes the odd plies.
    const Color mover = ply % 2 == 1 ? Color::White : Color::Black;
    if (c == mover) {
      if (measuring_)
        rtt_.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - game.sent_at).count());
    } else if (ply == game.ply && !game.pos->is_game_over()) {
      schedule_move(game, g);
    }
  }

  ssl::context& tls_context() { return tls_ ? *tls_ : *pinned_.context; }
  void handshake_done(Clock::time_point started) {
    handshake_ms_.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - started).count());
    last_handshake_ = Clock::now();
  }

  void hello(int g, Color c) {
    Game& game = games_[static_cast<std::size_t>(g)];
    protocol::Hello h;
    h.name = opt_.prefix + std::to_string(g) + (c == Color::White ? "w" : "b");
    h.bot = true;
    game.conn[index_of(c)]->send(protocol::encode(protocol::ClientMessage{h}));
  }
  void error(const std::string& line) {
    if (errors_++ < 5) std::fprintf(stderr, "loadgen: unexpected: %s\n", line.c_str());
  }

  // `before` and `after`: the echo ceiling measured before and after the games, when asked.
  void report(const std::vector<double>& echo, std::vector<double> fsyncs,
              const std::optional<EchoCeiling>& before, const std::optional<EchoCeiling>& after) {
    std::vector<double> rtt = rtt_;
    std::vector<double> e = echo;
    const double secs = measured_seconds_ > 0 ? measured_seconds_ : opt_.seconds;
    std::printf(
        "transport %s, servers %zu%s, games %d, connections %d, sources %d, think %.0f ms, "
        "measured %.1f s\n",
        std::string(amazons::to_string(opt_.transport)).c_str(), targets_.size(),
        opt_.cross_node && targets_.size() > 1 ? " (players of a game on two)" : "", opt_.games,
        2 * opt_.games, opt_.sources, opt_.think_ms, secs);
    std::printf("accepted moves: %zu (%.0f per second), games finished: %d, errors: %llu\n",
                rtt.size(), static_cast<double>(rtt.size()) / secs, finished_games_,
                static_cast<unsigned long long>(errors_));
    std::printf("move round trip ms: p50 %.2f  p90 %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
                percentile(rtt, 50), percentile(rtt, 90), percentile(rtt, 99),
                percentile(rtt, 99.9), percentile(rtt, 100));
    std::printf("tcp echo round trip ms (floor): p50 %.3f  p99 %.3f\n", percentile(e, 50),
                percentile(e, 99));
    if (!fsyncs.empty())
      std::printf("fsync of 4 KiB on the database disk ms: p50 %.2f  p99 %.2f  max %.2f\n",
                  percentile(fsyncs, 50), percentile(fsyncs, 99), percentile(fsyncs, 100));
    if (!handshake_ms_.empty()) {
      std::vector<double> h = handshake_ms_;
      const double span = std::chrono::duration<double>(last_handshake_ - connect_started_).count();
      std::printf(
          "tls handshakes: %zu in %.2f s while connecting (%.0f per second); connect+handshake "
          "ms: p50 %.2f  p99 %.2f\n",
          h.size(), span, span > 0 ? static_cast<double>(h.size()) / span : 0.0, percentile(h, 50),
          percentile(h, 99));
    }
    if (before && after && before->lines_per_second > 0 && after->lines_per_second > 0) {
      // The games are compared with the mean of the two: the machine's other load can change
      // between the measurements, and how far apart they are says how much.
      const double mean = (before->lines_per_second + after->lines_per_second) / 2;
      std::printf(
          "echo ceiling: %.0f lines per second over %zu connections (%.0f before the games, "
          "%.0f after, %.0f%% apart); moves per second are %.1f%% of it\n",
          mean, before->connected, before->lines_per_second, after->lines_per_second,
          100.0 * std::abs(before->lines_per_second - after->lines_per_second) / mean,
          100.0 * static_cast<double>(rtt.size()) / secs / mean);
    }
    if (percentile(e, 50) > 0)
      std::printf("ratio move/echo: p50 %.1fx  p99 %.1fx\n",
                  percentile(rtt, 50) / percentile(e, 50), percentile(rtt, 99) / percentile(e, 99));
  }

 private:
  std::shared_ptr<Conn> make_conn(const Target& target, int g, Color c);

  void create(Game& game) {
    if (stopping_) return;
    protocol::Create c;
    c.color = protocol::ColorChoice::White;
    game.conn[0]->send(protocol::encode(protocol::ClientMessage{c}));
  }

  void schedule_move(Game& game, int g) {
    if (opt_.think_ms <= 0) return send_move(game);
    const double ms = std::uniform_real_distribution<double>(0.5, 1.5)(rng_) * opt_.think_ms;
    game.think->expires_after(std::chrono::microseconds(static_cast<long long>(ms * 1000)));
    game.think->async_wait([this, g](error_code ec) {
      if (!ec && !stopping_) send_move(games_[static_cast<std::size_t>(g)]);
    });
  }

  void send_move(Game& game) {
    // A uniformly random legal move, the same one generate_moves' list would give at the same
    // index, for a fraction of the price: this process shares the cores with the server.
    const auto count = static_cast<std::size_t>(count_moves(*game.pos));
    if (count == 0) return;
    const Move m =
        nth_move(*game.pos, std::uniform_int_distribution<std::size_t>(0, count - 1)(rng_));
    protocol::MoveMsg msg{game.id, to_string(m)};
    game.sent_at = Clock::now();
    game.conn[index_of(game.pos->side_to_move())]->send(
        protocol::encode(protocol::ClientMessage{msg}));
  }

  asio::io_context& io_;
  Options opt_;
  std::vector<Target> targets_;
  std::unique_ptr<ssl::context> tls_;  // no certificate check
  tls::ClientContext pinned_;          // --tls-fingerprint
  std::vector<double> handshake_ms_;
  Clock::time_point connect_started_, last_handshake_;
  std::vector<Game> games_;
  std::mt19937_64 rng_;
  std::vector<double> rtt_;
  std::uint64_t errors_ = 0;
  int started_games_ = 0;
  int create_retries_ = 0;  // creates refused with `unavailable` and sent again
  int finished_games_ = 0;
  bool measuring_ = false;
  bool stopping_ = false;
  double measured_seconds_ = 0;
  Clock::time_point begin_, measure_from_;
};

// The JSON lines over a byte stream: a tcp::socket, or an ssl::stream over one.
template <class Stream>
class LineConn final : public Conn, public std::enable_shared_from_this<LineConn<Stream>> {
 public:
  template <class... Args>
  LineConn(Loadgen& lg, int game, Color color, Args&&... args)
      : stream_(std::forward<Args>(args)...), lg_(lg), game_(game), color_(color) {}

  void start(const tcp::endpoint& ep, const std::optional<asio::ip::address>& source) override {
    const auto started = Clock::now();
    bind_source(beast::get_lowest_layer(stream_), source);
    beast::get_lowest_layer(stream_).async_connect(
        ep, [self = this->shared_from_this(), this, started](error_code ec) {
          if (ec) return lg_.error("connect: " + ec.message());
          beast::get_lowest_layer(stream_).set_option(tcp::no_delay(true), ec);
          if constexpr (std::is_same_v<Stream, tcp::socket>) {
            begin();
          } else {
            stream_.async_handshake(ssl::stream_base::client, [self, this, started](error_code e) {
              if (e) return lg_.error("tls handshake: " + e.message());
              lg_.handshake_done(started);
              begin();
            });
          }
        });
  }
  void send(std::string line) override {
    line += '\n';
    out_.push_back(std::move(line));
    if (!writing_) write_next();
  }
  void close() override {
    error_code ec;
    beast::get_lowest_layer(stream_).close(ec);
  }

 private:
  void begin() {
    lg_.hello(game_, color_);
    read();
  }
  void write_next() {
    writing_ = true;
    asio::async_write(stream_, asio::buffer(out_.front()),
                      [self = this->shared_from_this(), this](error_code ec, std::size_t) {
                        writing_ = false;
                        if (ec) return;
                        out_.pop_front();
                        if (!out_.empty()) write_next();
                      });
  }
  void read() {
    stream_.async_read_some(asio::buffer(buf_),
                            [self = this->shared_from_this(), this](error_code ec, std::size_t n) {
                              if (ec) return;
                              framer_.append(std::string_view(buf_.data(), n));
                              std::string line;
                              while (framer_.next(line) == protocol::LineFramer::Status::Line)
                                lg_.on_line(game_, color_, line);
                              read();
                            });
  }

  Stream stream_;
  Loadgen& lg_;
  int game_;
  Color color_;
  protocol::LineFramer framer_;
  std::array<char, 8192> buf_{};
  std::deque<std::string> out_;
  bool writing_ = false;
};

// One JSON message per WebSocket text frame at /ws, over a tcp::socket or an ssl::stream.
template <class Next>
class WsConn final : public Conn, public std::enable_shared_from_this<WsConn<Next>> {
 public:
  template <class... Args>
  WsConn(Loadgen& lg, int game, Color color, std::string host, Args&&... args)
      : ws_(std::forward<Args>(args)...),
        lg_(lg),
        game_(game),
        color_(color),
        host_(std::move(host)) {}

  void start(const tcp::endpoint& ep, const std::optional<asio::ip::address>& source) override {
    const auto started = Clock::now();
    bind_source(beast::get_lowest_layer(ws_), source);
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = this->shared_from_this(), this, started](error_code ec) {
          if (ec) return lg_.error("connect: " + ec.message());
          beast::get_lowest_layer(ws_).set_option(tcp::no_delay(true), ec);
          if constexpr (std::is_same_v<Next, tcp::socket>) {
            upgrade();
          } else {
            ws_.next_layer().async_handshake(ssl::stream_base::client,
                                             [self, this, started](error_code e) {
                                               if (e)
                                                 return lg_.error("tls handshake: " + e.message());
                                               lg_.handshake_done(started);
                                               upgrade();
                                             });
          }
        });
  }
  void send(std::string line) override {
    out_.push_back(std::move(line));
    if (!writing_ && open_) write_next();
  }
  void close() override {
    error_code ec;
    beast::get_lowest_layer(ws_).close(ec);
  }

 private:
  void upgrade() {
    ws_.text(true);
    ws_.async_handshake(host_, "/ws", [self = this->shared_from_this(), this](error_code ec) {
      if (ec) return lg_.error("websocket upgrade: " + ec.message());
      open_ = true;
      lg_.hello(game_, color_);
      read();
      if (!writing_ && !out_.empty()) write_next();
    });
  }
  void write_next() {
    writing_ = true;
    ws_.async_write(asio::buffer(out_.front()),
                    [self = this->shared_from_this(), this](error_code ec, std::size_t) {
                      writing_ = false;
                      if (ec) return;
                      out_.pop_front();
                      if (!out_.empty()) write_next();
                    });
  }
  void read() {
    ws_.async_read(buffer_, [self = this->shared_from_this(), this](error_code ec, std::size_t) {
      if (ec) return;
      const std::string message = beast::buffers_to_string(buffer_.data());
      buffer_.consume(buffer_.size());
      lg_.on_line(game_, color_, message);
      read();
    });
  }

  websocket::stream<Next> ws_;
  Loadgen& lg_;
  int game_;
  Color color_;
  std::string host_;  // the Host header
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  bool writing_ = false;
  bool open_ = false;
};

std::shared_ptr<Conn> Loadgen::make_conn(const Target& target, int g, Color c) {
  const std::string host = net::host_port(target.address);
  switch (opt_.transport) {
    case amazons::Transport::Tcp:
      return std::make_shared<LineConn<tcp::socket>>(*this, g, c, io_);
    case amazons::Transport::Tls: {
      auto conn =
          std::make_shared<LineConn<ssl::stream<tcp::socket>>>(*this, g, c, io_, tls_context());
      return conn;
    }
    case amazons::Transport::WebSocket:
      return std::make_shared<WsConn<tcp::socket>>(*this, g, c, host, io_);
    case amazons::Transport::SecureWebSocket:
      return std::make_shared<WsConn<ssl::stream<tcp::socket>>>(*this, g, c, host, io_,
                                                                tls_context());
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"amazons-loadgen: plays many concurrent games against a running amazons-server"};
  Options o;
  std::string transport = "tcp";
  app.add_option("--host", o.host, "server address (loopback only for measurements)");
  app.add_option("--port", o.ports, "server port; repeat it to spread the games over several");
  app.add_option("--server", o.servers,
                 "servers HOST:PORT[,HOST:PORT...] sharing the games (instead of --host/--port)");
  app.add_option("--transport", transport, "tcp, tls (JSON lines under TLS), ws or wss (WebSocket)")
      ->check(CLI::IsMember({"tcp", "tls", "ws", "wss"}));
  std::string fingerprint;
  app.add_option("--tls-fingerprint", fingerprint,
                 "check the server's certificate against this SHA-256 fingerprint");
  app.add_option("--games", o.games, "concurrent games (two connections each)")
      ->check(CLI::Range(1, 20000));
  app.add_flag("--cross-node", o.cross_node,
               "with several servers, each game's two players on two different ones (a cluster)");
  app.add_option("--sources", o.sources,
                 "spread the connections over the source addresses 127.0.0.1 to 127.0.0.N")
      ->check(CLI::Range(1, 254));
  app.add_option("--echo-ceiling", o.echo_ceiling_seconds,
                 "first measure an Asio line echo's throughput for this many seconds")
      ->check(CLI::Range(0.0, 60.0));
  app.add_option("--seconds", o.seconds, "how long to measure once every game has started")
      ->check(CLI::Range(1.0, 600.0));
  app.add_option("--think-ms", o.think_ms, "mean pause before each move (0: saturation)")
      ->check(CLI::Range(0.0, 60000.0));
  app.add_option("--echo", o.echo_round_trips, "round trips of the TCP echo floor")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--fsync-dir", o.fsync_dir,
                 "also measure fsync latency in this directory (the database's)");
  app.add_option("--prefix", o.prefix,
                 "player name prefix (use a new one per run on the same database)");
  CLI11_PARSE(app, argc, argv);
  o.transport = net::parse_server_address(transport + "://loopback")->transport;
  if (!fingerprint.empty()) {
    o.tls_fingerprint = tls::parse_fingerprint(fingerprint);
    if (!o.tls_fingerprint) {
      std::fprintf(stderr, "amazons-loadgen: --tls-fingerprint: expected 32 bytes in hex\n");
      return 2;
    }
  }
  std::vector<std::string> texts;
  if (!o.servers.empty()) {
    for (std::size_t at = 0; at <= o.servers.size();) {
      const auto comma = std::min(o.servers.find(',', at), o.servers.size());
      texts.push_back(o.servers.substr(at, comma - at));
      at = comma + 1;
    }
  } else {
    if (o.ports.empty()) {
      std::fprintf(stderr, "amazons-loadgen: give --port (or --server HOST:PORT,...)\n");
      return 2;
    }
    for (const auto p : o.ports) texts.push_back(net::host_port({o.host, p}));
  }
  std::vector<Target> targets;
  {
    asio::io_context resolving;
    tcp::resolver resolver(resolving);
    for (const auto& text : texts) {
      auto parsed = net::parse_server_address(text);
      if (!parsed) {
        std::fprintf(stderr, "amazons-loadgen: %s\n", parsed.error().c_str());
        return 2;
      }
      error_code ec;
      const auto found = resolver.resolve(parsed->host, std::to_string(parsed->port), ec);
      if (ec || found.empty()) {
        std::fprintf(stderr, "amazons-loadgen: cannot resolve %s: %s\n", text.c_str(),
                     ec.message().c_str());
        return 2;
      }
      targets.push_back({*parsed, *found.begin()});
    }
  }

  if (o.sources > 1)
    for (const auto& t : targets)
      if (!t.endpoint.address().is_loopback() || !t.endpoint.address().is_v4()) {
        std::fprintf(stderr, "amazons-loadgen: --sources needs IPv4 loopback servers, not %s\n",
                     t.endpoint.address().to_string().c_str());
        return 2;
      }

  // Every connection is a descriptor: say so now rather than fail midway.
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
    const auto needed = static_cast<rlim_t>(2 * o.games + 64);
    if (r.rlim_cur != RLIM_INFINITY && r.rlim_cur < needed) {
      std::fprintf(stderr,
                   "amazons-loadgen: %d connections need about %llu descriptors, and this "
                   "process may open %llu (RLIMIT_NOFILE's hard limit): raise it (ulimit -Hn, "
                   "or LimitNOFILE) or play fewer games\n",
                   2 * o.games, static_cast<unsigned long long>(needed),
                   static_cast<unsigned long long>(r.rlim_cur));
      return 2;
    }
  }
  // Forks its echo server before this process has any other thread or io_context.
  const auto ceiling = [&o]() -> std::optional<EchoCeiling> {
    if (o.echo_ceiling_seconds <= 0) return std::nullopt;
    return echo_ceiling(o, 2 * static_cast<std::size_t>(o.games), o.echo_ceiling_seconds);
  };
  const auto before = ceiling();
  const auto echo = echo_round_trips(o.echo_round_trips);
  const auto fsyncs =
      o.fsync_dir.empty() ? std::vector<double>{} : fsync_latencies(o.fsync_dir, 200);
  asio::io_context io;
  Loadgen lg(io, o);
  lg.run(std::move(targets));
  // And again once the server has seen its connections close: the games' io_context is stopped
  // and this process has no other thread, so the echo server may be forked again.
  std::optional<EchoCeiling> after;
  if (before) {
    std::this_thread::sleep_for(kSettleAfterGames);
    after = ceiling();
  }
  lg.report(echo, fsyncs, before, after);
  return 0;
}
