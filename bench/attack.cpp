// amazons-attack: hostile clients against a running amazons-server on loopback, for a bounded
// time, while amazons-loadgen plays legitimate games alongside (scripts/abusetest.sh runs both
// and prints the legitimate games' move latency before and during the attack).
//
// Every attempt is checked against what docs/PROTOCOL.md promises, and counted: floods are
// rate limited and then closed, over-long lines and garbage are refused and closed, silent
// connections are pinged and closed, readers that never read are cut off, connections beyond
// the per-address allowance are refused, moves and resignations in other people's games and
// moves by spectators are refused, and forged tokens are refused. The attack sockets are bound
// to their own loopback addresses (--source, and --storm-source for the storm, which fills its
// address's allowance) so the per-address limit applies to them alone.
// Exits 1 if any answer was not the promised one.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/protocol.h"

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;
using namespace amazons;
using namespace amazons::protocol;

namespace {

struct Options {
  std::string host = "127.0.0.1";
  std::string source = "127.0.0.2";
  std::string storm_source = "127.0.0.3";  // the storm fills its address's allowance: apart
  unsigned short port = 7420;
  double seconds = 20;
  int storm = 1000;     // connections opened at once, every few seconds
  int half_open = 20;   // silent connections kept open
  int concurrency = 4;  // parallel copies of each other kind of attack
};

// The tally of one kind of attack.
struct Tally {
  long attempts = 0;
  long as_promised = 0;
  std::vector<std::string> surprises;
  void surprise(std::string what) {
    if (surprises.size() < 5) surprises.push_back(std::move(what));
  }
};

// One hostile connection: optionally sends `opening` at once, then hands every line (and the
// end of the connection) to its owner. Gives up after `limit`.
class Probe : public std::enable_shared_from_this<Probe> {
 public:
  using OnLine = std::function<void(Probe&, const ServerEnvelope&)>;
  using OnEnd = std::function<void(Probe&, bool closed_by_server)>;

  Probe(asio::io_context& io, OnLine on_line, OnEnd on_end)
      : socket_(io), timer_(io), on_line_(std::move(on_line)), on_end_(std::move(on_end)) {}

  void start(const tcp::endpoint& server, const asio::ip::address& source, std::string opening,
             Clock::duration limit) {
    error_code ec;
    socket_.open(server.protocol(), ec);
    if (!ec) socket_.bind(tcp::endpoint(source, 0), ec);
    if (ec) return end(false);
    timer_.expires_after(limit);
    timer_.async_wait([self = shared_from_this()](error_code e) {
      if (!e) self->end(false);
    });
    socket_.async_connect(
        server, [self = shared_from_this(), opening = std::move(opening)](error_code e) mutable {
          if (e) return self->end(false);
          if (!opening.empty()) self->send(std::move(opening));
          self->read();
        });
  }
  void send(std::string bytes) {
    auto data = std::make_shared<std::string>(std::move(bytes));
    // A write fails only once the server has closed the connection (it resets what it did not
    // read): for a client that does not read, that is how the closing shows.
    asio::async_write(socket_, asio::buffer(*data),
                      [self = shared_from_this(), data](error_code ec, std::size_t) {
                        if (ec && ec != asio::error::operation_aborted) self->end(true);
                      });
  }
  void stop_reading() { reading_ = false; }
  bool ended() const { return ended_; }
  void end(bool closed_by_server) {
    if (ended_) return;
    ended_ = true;
    timer_.cancel();
    error_code ec;
    socket_.close(ec);
    on_end_(*this, closed_by_server);
  }
  std::map<std::string, int> seen;  // message type or error code -> count

 private:
  void read() {
    if (!reading_) return;
    socket_.async_read_some(
        asio::buffer(buffer_), [self = shared_from_this()](error_code ec, std::size_t n) {
          if (self->ended_) return;
          if (ec) return self->end(true);
          self->framer_.append(std::string_view(self->buffer_.data(), n));
          std::string line;
          while (!self->ended_ && self->framer_.next(line) == LineFramer::Status::Line) {
            auto env = decode_server(line);
            if (!env) continue;
            const auto* err = std::get_if<Error>(&env->message);
            ++self->seen[err ? std::string(code(err->code)) : std::string(type_of(env->message))];
            self->on_line_(*self, *env);
          }
          self->read();
        });
  }

  tcp::socket socket_;
  asio::steady_timer timer_;
  OnLine on_line_;
  OnEnd on_end_;
  LineFramer framer_{kMaxLineBytes * 4};
  std::array<char, 16 * 1024> buffer_{};
  bool ended_ = false;
  bool reading_ = true;
};

std::string line_of(const ClientMessage& m) { return encode(m) + "\n"; }

std::string describe(const std::map<std::string, int>& seen) {
  std::string out;
  for (const auto& [k, n] : seen) out += k + "x" + std::to_string(n) + " ";
  return out.empty() ? "nothing" : out;
}

class Attack {
 public:
  Attack(asio::io_context& io, Options o)
      : io_(io),
        opt_(std::move(o)),
        server_(*tcp::resolver(io).resolve(opt_.host, std::to_string(opt_.port)).begin()),
        source_(asio::ip::make_address(opt_.source)),
        storm_source_(asio::ip::make_address(opt_.storm_source)),
        rng_(99),
        until_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(opt_.seconds))) {}

  void run() {
    for (int i = 0; i < opt_.concurrency; ++i) {
      flood();
      long_line();
      garbage();
      non_reader();
      intruder(i);
    }
    for (int i = 0; i < opt_.half_open; ++i) half_open(i);
    storm();
    // Attempts still under way when the time is up get a moment to finish, then are dropped
    // without a verdict.
    asio::steady_timer end(io_, until_ + std::chrono::seconds(3));
    end.async_wait([this](error_code) { io_.stop(); });
    io_.run();
  }

  int report() const {
    std::printf("%-22s %9s %12s  %s\n", "attack", "attempts", "as promised", "surprises");
    bool ok = true;
    for (const auto& [name, t] : tallies_) {
      std::printf("%-22s %9ld %12ld  %zu\n", name.c_str(), t.attempts, t.as_promised,
                  t.surprises.size());
      for (const auto& s : t.surprises) std::printf("    %s\n", s.c_str());
      ok = ok && t.surprises.empty() && t.attempts > 0;
    }
    std::printf("connections refused in the storms: %ld\n", storm_refused_);
    return ok ? 0 : 1;
  }

 private:
  bool running() const { return Clock::now() < until_; }

  void probe(std::string opening, Clock::duration limit, Probe::OnLine on_line, Probe::OnEnd on_end,
             bool storm = false) {
    auto p = std::make_shared<Probe>(io_, std::move(on_line), std::move(on_end));
    p->start(server_, storm ? storm_source_ : source_, std::move(opening), limit);
  }
  // Runs `again` a moment later while the attack lasts.
  void repeat(std::function<void()> again, Clock::duration after = std::chrono::milliseconds(20)) {
    if (!running()) return;
    auto t = std::make_shared<asio::steady_timer>(io_, after);
    t->async_wait([t, again = std::move(again)](error_code) { again(); });
  }

  // A thousand requests at once: the burst is served, then rate_limited, then too_many_errors
  // and the connection is closed.
  void flood() {
    Tally& t = tallies_["flood"];
    ++t.attempts;
    std::string burst;
    for (int i = 0; i < 1000; ++i)
      burst += R"({"type":"ping"})"
               "\n";
    probe(
        burst, std::chrono::seconds(10), [](Probe&, const ServerEnvelope&) {},
        [this, &t](Probe& p, bool closed) {
          if (closed && p.seen["rate_limited"] > 0 && p.seen["too_many_errors"] > 0)
            ++t.as_promised;
          else
            t.surprise("flood: " + describe(p.seen));
          repeat([this] { flood(); });
        });
  }

  // No newline in 70 KB: line_too_long, then closed.
  void long_line() {
    Tally& t = tallies_["over-long line"];
    ++t.attempts;
    probe(
        std::string(kMaxLineBytes + 6000, 'a'), std::chrono::seconds(10),
        [](Probe&, const ServerEnvelope&) {},
        [this, &t](Probe& p, bool closed) {
          if (closed && p.seen["line_too_long"] == 1)
            ++t.as_promised;
          else
            t.surprise("long line: " + describe(p.seen));
          repeat([this] { long_line(); });
        });
  }

  // Random bytes: bad_json for each line, then too_many_errors and closed.
  void garbage() {
    Tally& t = tallies_["binary garbage"];
    ++t.attempts;
    std::string bytes(8 * 1024, '\0');
    for (char& ch : bytes) ch = static_cast<char>(rng_() % 256);
    for (int i = 0; i < 40; ++i) bytes[rng_() % bytes.size()] = '\n';
    probe(
        bytes + "\n", std::chrono::seconds(10), [](Probe&, const ServerEnvelope&) {},
        [this, &t](Probe& p, bool closed) {
          if (closed && p.seen["bad_json"] > 0 && p.seen["too_many_errors"] > 0)
            ++t.as_promised;
          else
            t.surprise("garbage: " + describe(p.seen));
          repeat([this] { garbage(); });
        });
  }

  // Logs in, then asks for the game list over and over, within the request rate, and never
  // reads the answers: the server must cut it off (about 1 MiB waiting) rather than hold them.
  void non_reader() {
    Tally& t = tallies_["never reads"];
    ++t.attempts;
    const std::string name = "nr" + std::to_string(next_name_++);
    auto pump = std::make_shared<asio::steady_timer>(io_);
    auto welcomed = std::make_shared<bool>(false);
    probe(
        line_of(Hello{1, name, std::nullopt, std::nullopt, std::nullopt, false}),
        std::chrono::seconds(60),
        [this, pump, welcomed](Probe& p, const ServerEnvelope& env) {
          if (*welcomed || !std::holds_alternative<Welcome>(env.message)) return;
          *welcomed = true;
          p.stop_reading();
          send_lists(p.shared_from_this(), pump);
        },
        [this, &t, pump, welcomed](Probe& p, bool closed) {
          pump->cancel();
          if (closed && *welcomed)
            ++t.as_promised;
          else
            t.surprise("never reads: " + describe(p.seen));
          repeat([this] { non_reader(); }, std::chrono::milliseconds(50));
        });
  }
  // Ten requests every quarter second: under the limit of 50 a second.
  void send_lists(std::shared_ptr<Probe> p, std::shared_ptr<asio::steady_timer> pump) {
    if (p->ended()) return;
    std::string lines;
    for (int i = 0; i < 10; ++i) lines += line_of(List{});
    p->send(lines);
    pump->expires_after(std::chrono::milliseconds(250));
    pump->async_wait([this, p, pump](error_code ec) {
      if (!ec) send_lists(p, pump);
    });
  }

  // Connects and says nothing (or half a line): pinged, then closed for silence. Reopened.
  void half_open(int i) {
    Tally& t = tallies_["half-open"];
    probe(
        i % 2 ? R"({"type":"hello",)" : "", std::chrono::hours(1),
        [](Probe&, const ServerEnvelope&) {},
        [this, &t, i](Probe& p, bool closed) {
          ++t.attempts;
          if (closed && p.seen["idle_timeout"] == 1)
            ++t.as_promised;
          else if (closed && p.seen["too_many_connections"] == 1)
            ++t.as_promised;  // a storm had taken the allowance
          else
            t.surprise("half-open: " + describe(p.seen));
          repeat([this, i] { half_open(i); }, std::chrono::milliseconds(100));
        });
  }

  // Many connections from one address at once: beyond the allowance each is told
  // too_many_connections and closed; the rest are let in (and closed by us).
  void storm() {
    Tally& t = tallies_["connection storm"];
    auto refused = std::make_shared<int>(0);
    auto pending = std::make_shared<int>(opt_.storm);
    for (int i = 0; i < opt_.storm; ++i) {
      ++t.attempts;
      probe(
          "", std::chrono::milliseconds(1500),
          [](Probe& p, const ServerEnvelope& env) {
            if (const auto* e = std::get_if<Error>(&env.message);
                e && e->code == ErrorCode::TooManyConnections)
              p.end(true);
          },
          [this, &t, refused, pending](Probe& p, bool) {
            // Let in (no line within the time) or refused as promised; nothing else.
            if (p.seen.empty() || (p.seen.size() == 1 && p.seen["too_many_connections"] == 1))
              ++t.as_promised;
            else
              t.surprise("storm: " + describe(p.seen));
            if (p.seen.contains("too_many_connections")) ++*refused;
            if (--*pending == 0) {
              storm_refused_ += *refused;
              repeat([this] { storm(); }, std::chrono::seconds(2));
            }
          },
          true);
    }
  }

  // Logs in, finds games in progress, and tries to move, resign, abort and claim in them, then
  // watches one and tries to move as a spectator, then logs in as one of its players with a
  // forged token. Every one of those is refused.
  void intruder(int i) {
    Tally& t = tallies_["other people's games"];
    Tally& forged = tallies_["forged token"];
    const std::string name = "intruder" + std::to_string(i) + "x" + std::to_string(next_name_++);
    auto step = std::make_shared<int>(0);
    auto victim = std::make_shared<std::string>();
    probe(
        line_of(Hello{1, name, std::nullopt, std::nullopt, std::nullopt, false}),
        std::chrono::seconds(20),
        [this, &t, step, victim](Probe& p, const ServerEnvelope& env) {
          if (std::holds_alternative<Welcome>(env.message)) {
            p.send(line_of(List{}));
          } else if (const auto* g = std::get_if<Games>(&env.message)) {
            std::string out;
            for (const auto& s : g->games) {
              if (s.status != GameStatus::Active) continue;
              for (const ClientMessage& m :
                   {ClientMessage{MoveMsg{s.game, "d1-d7/g7"}}, ClientMessage{Resign{{s.game}}},
                    ClientMessage{Abort{{s.game}}}, ClientMessage{Claim{{s.game}}}}) {
                out += line_of(m);
                ++t.attempts;
                ++*step;
              }
              if (victim->empty() && s.white) {
                *victim = s.white->name;
                out += line_of(Watch{s.game, std::nullopt});
                out += line_of(MoveMsg{s.game, "a7-b7/c7"});
                ++t.attempts;
                ++*step;
              }
              if (*step >= 12) break;
            }
            if (*step == 0) return p.end(false);  // no game to attack yet
            p.send(out);
          } else if (const auto* e = std::get_if<Error>(&env.message)) {
            if (e->code == ErrorCode::NotAPlayer)
              ++t.as_promised;
            else
              t.surprise("intruder: " + std::string(code(e->code)) + " " + e->message);
            if (--*step == 0) p.end(false);
          }
        },
        [this, &forged, i, victim](Probe&, bool) {
          if (!victim->empty()) forge(forged, *victim);
          repeat([this, i] { intruder(i); }, std::chrono::milliseconds(200));
        });
  }

  void forge(Tally& t, const std::string& victim) {
    ++t.attempts;
    std::string token(32, '0');
    for (char& ch : token) ch = "0123456789abcdef"[rng_() % 16];
    probe(
        line_of(Hello{1, victim, std::nullopt, token, std::nullopt, true}),
        std::chrono::seconds(10),
        [&t](Probe& p, const ServerEnvelope& env) {
          const auto* e = std::get_if<Error>(&env.message);
          if (e && e->code == ErrorCode::AuthFailed)
            ++t.as_promised;
          else
            t.surprise("forged token: " + encode(env.message));
          p.end(false);
        },
        [](Probe&, bool) {});
  }

  asio::io_context& io_;
  Options opt_;
  tcp::endpoint server_;
  asio::ip::address source_;
  asio::ip::address storm_source_;
  std::mt19937_64 rng_;
  Clock::time_point until_;
  std::map<std::string, Tally> tallies_;
  long storm_refused_ = 0;
  long next_name_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"amazons-attack: hostile clients against a running amazons-server (loopback)"};
  Options o;
  app.add_option("--host", o.host, "server address (loopback only)");
  app.add_option("--port", o.port, "server port")->required();
  app.add_option("--source", o.source, "loopback address the attack connects from");
  app.add_option("--storm-source", o.storm_source, "loopback address the connection storm uses");
  app.add_option("--seconds", o.seconds, "how long to attack")->check(CLI::Range(1.0, 600.0));
  app.add_option("--storm", o.storm, "connections opened at once in each storm")
      ->check(CLI::Range(1, 20000));
  app.add_option("--half-open", o.half_open, "silent connections held open")
      ->check(CLI::Range(0, 1000));
  app.add_option("--concurrency", o.concurrency, "parallel copies of each other attack")
      ->check(CLI::Range(1, 64));
  CLI11_PARSE(app, argc, argv);
  boost::system::error_code ec;
  const auto source = boost::asio::ip::make_address(o.source, ec);
  const auto host = boost::asio::ip::make_address(o.host, ec);
  const auto storm_source = boost::asio::ip::make_address(o.storm_source, ec);
  if (ec || !source.is_loopback() || !host.is_loopback() || !storm_source.is_loopback()) {
    std::fprintf(stderr, "amazons-attack: every address must be a loopback address\n");
    return 2;
  }
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
  asio::io_context io;
  Attack attack(io, o);
  attack.run();
  return attack.report();
}
