// What the cluster's Redis operations cost on this machine, beside the floor they stand on:
// the round trip of a line through a TCP echo server on loopback (the least any request to
// another process can take). Prints, for each: operations a second and round-trip percentiles.
//   cluster_bench --redis redis://127.0.0.1:PORT [--seconds S]
// scripts/cluster_bench.sh starts a throwaway Redis for it.
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/bus.h"
#include "cluster/lease.h"
#include "cluster/redis.h"

using namespace amazons;
using namespace amazons::cluster;
using Clock = std::chrono::steady_clock;

namespace {

struct Result {
  std::string name;
  double per_second = 0;
  double p50_us = 0, p99_us = 0;
  std::size_t ops_per_trip = 1;  // operations done by one timed round trip
};

// Runs `trip` back to back for `seconds`; each call is one timed round trip of `ops` operations.
Result measure(const std::string& name, double seconds, std::size_t ops,
               const std::function<bool()>& trip) {
  std::vector<double> us;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  const auto start = Clock::now();
  while (Clock::now() < end) {
    const auto t0 = Clock::now();
    if (!trip()) {
      std::fprintf(stderr, "%s: failed\n", name.c_str());
      break;
    }
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  Result r{name, static_cast<double>(us.size() * ops) / took, 0, 0, ops};
  if (!us.empty()) {
    std::sort(us.begin(), us.end());
    r.p50_us = us[us.size() / 2];
    r.p99_us = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  }
  return r;
}

// A one-connection echo server on loopback in a process of its own, as Redis is: the floor.
class EchoServer {
 public:
  EchoServer() {
    listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(listen_, 1) != 0 ||
        ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("echo: cannot listen");
    port_ = ntohs(a.sin_port);
    child_ = ::fork();
    if (child_ < 0) throw std::runtime_error("echo: cannot fork");
    if (child_ == 0) {
      const int fd = ::accept(listen_, nullptr, nullptr);
      if (fd < 0) ::_exit(1);
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      char buf[4096];
      for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
        if (::write(fd, buf, static_cast<std::size_t>(n)) != n) break;
      ::_exit(0);
    }
  }
  ~EchoServer() {
    ::close(listen_);
    int status = 0;
    ::waitpid(child_, &status, 0);  // it ends when the client closes its connection
  }
  int port() const { return port_; }

 private:
  int listen_ = -1;
  int port_ = 0;
  pid_t child_ = -1;
};

Result echo_floor(double seconds) {
  EchoServer server;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(server.port()));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
    throw std::runtime_error("echo: cannot connect");
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const std::string line = R"({"type":"move","id":7,"game":"123","move":"d1-d7/g7"})"
                           "\n";
  char buf[256];
  auto r = measure("tcp echo (floor)", seconds, 1, [&] {
    if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) return false;
    std::size_t got = 0;
    while (got < line.size()) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) return false;
      got += static_cast<std::size_t>(n);
    }
    return true;
  });
  ::close(fd);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Costs of the cluster's Redis operations against a TCP echo floor");
  std::string url;
  double seconds = 2.0;
  std::size_t batch = 100;
  app.add_option("--redis", url, "redis://host:port")->required();
  app.add_option("--seconds", seconds, "how long each measurement runs")
      ->check(CLI::Range(0.1, 60.0));
  app.add_option("--batch", batch, "lease renewals in one pipelined round trip")
      ->check(CLI::Range(1, 10000));
  CLI11_PARSE(app, argc, argv);
  const auto address = parse_redis_url(url);
  if (!address) {
    std::fprintf(stderr, "--redis: %s\n", address.error().c_str());
    return 2;
  }

  std::vector<Result> results;
  results.push_back(echo_floor(seconds));

  Redis redis(*address);
  if (auto ok = redis.connect(); !ok) {
    std::fprintf(stderr, "%s\n", ok.error().message.c_str());
    return 1;
  }
  results.push_back(
      measure("redis PING", seconds, 1, [&] { return redis.command({"PING"}).has_value(); }));

  GameLeases leases(redis, "bench-a", {Millis{5000}, Millis{500}}, "bench:");
  long game = 0;
  results.push_back(measure("lease acquire+release", seconds, 2, [&] {
    auto r = leases.acquire("g" + std::to_string(++game));
    if (!r || !std::holds_alternative<Lease>(*r)) return false;
    return leases.release(std::get<Lease>(*r)).has_value();
  }));
  Lease held = std::get<Lease>(*leases.acquire("renewed"));
  results.push_back(measure("lease renew", seconds, 1, [&] {
    auto r = leases.renew(held);
    return r && *r;
  }));

  // A node renews all its leases at once: one pipeline of EVALSHA calls.
  std::vector<std::vector<std::string>> renewals;
  {
    const std::string sha = RedisScript(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
)lua")
                                .sha();
    for (std::size_t i = 0; i < batch; ++i) {
      auto r = leases.acquire("batch" + std::to_string(i));
      if (!r || !std::holds_alternative<Lease>(*r)) {
        std::fprintf(stderr, "batch lease: failed\n");
        return 1;
      }
      const Lease& l = std::get<Lease>(*r);
      renewals.push_back(
          {"EVALSHA", sha, "1", "bench:lease:" + l.game, lease_value(l.node, l.token), "5000"});
    }
  }
  results.push_back(measure("lease renew, pipelined x" + std::to_string(batch), seconds, batch,
                            [&] { return redis.pipeline(renewals).has_value(); }));

  // Pub/sub round trip: A publishes on "ping"; B's subscriber answers on "pong" through B's
  // own connection; A's subscriber wakes the timing thread.
  {
    std::mutex mutex;
    std::condition_variable cv;
    std::uint64_t answered = 0;
    Redis redis_b(*address);
    BusPublisher pub_b(redis_b, "bench-b");
    std::mutex b_mutex;
    BusSubscriber::Options options;
    BusSubscriber sub_b(*address, options, {"bench:ping"},
                        {[&](BusMessage m) {
                           std::lock_guard lock(b_mutex);
                           (void)pub_b.publish("bench:pong", m.envelope.body);
                         },
                         {},
                         {}});
    BusSubscriber sub_a(*address, options, {"bench:pong"},
                        {[&](BusMessage) {
                           std::lock_guard lock(mutex);
                           ++answered;
                           cv.notify_one();
                         },
                         {},
                         {}});
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while ((sub_a.confirmed() < 1 || sub_b.confirmed() < 1) && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    BusPublisher pub_a(redis, "bench-a");
    const std::string body = R"({"type":"moved","game":"123","ply":12,"move":"d1-d7/g7"})";
    results.push_back(measure("pub/sub round trip (A->B->A)", seconds, 1, [&] {
      std::unique_lock lock(mutex);
      const auto before = answered;
      lock.unlock();
      if (!pub_a.publish("bench:ping", body)) return false;
      lock.lock();
      return cv.wait_for(lock, std::chrono::seconds(1), [&] { return answered > before; });
    }));
  }

  const double floor_us = results.front().p50_us;
  std::printf("%-34s %12s %10s %10s %12s\n", "operation", "ops/s", "p50 us", "p99 us",
              "p50 / floor");
  for (const auto& r : results)
    std::printf("%-34s %12.0f %10.1f %10.1f %11.1fx\n", r.name.c_str(), r.per_second, r.p50_us,
                r.p99_us, r.p50_us / floor_us);
  return 0;
}
