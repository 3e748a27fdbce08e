// amazons-loadgen against the real amazons-server on loopback, over every transport: a few games
// for a second each, checked from what it prints.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include "tests/test_paths.h"

#include <cstdio>
#include <regex>

#include "tests/integration/server_process.h"
#include "tls/tls.h"

using namespace amazons;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

const std::string kLoadgen = amazons::test::binary_dir() + "/bench/amazons-loadgen";

struct Run {
  int status = -1;
  std::string out;
};

Run loadgen(const std::string& args) {
  Run r;
  FILE* pipe = ::popen((kLoadgen + " --echo 20 --seconds 1 " + args + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.out += buffer;
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

long number_after(const std::string& text, const std::string& marker) {
  const auto at = text.find(marker);
  return at == std::string::npos ? -1 : std::atol(text.c_str() + at + marker.size());
}

nlohmann::json roomy_limits() {
  return {{"limits",
           {{"connections_per_address", 200},
            {"requests_per_second", 1000},
            {"requests_burst", 1000}}}};
}

}  // namespace

TEST_CASE("loadgen: plays over tcp, tls, ws and wss, and TLS runs count their handshakes") {
  TempDir dir;
  const auto cert = dir.path() / "s.crt", key = dir.path() / "s.key";
  REQUIRE(tls::write_self_signed(cert, key, {"127.0.0.1"}).has_value());
  const std::string fp = tls::fingerprint_of_pem(cert).value();
  ServerProcess server(dir.path(), roomy_limits(),
                       {"--tls-cert", cert.string(), "--tls-key", key.string()});
  const std::string port = std::to_string(server.port());
  for (const std::string transport : {"tcp", "tls", "ws", "wss"}) {
    CAPTURE(transport);
    const Run r = loadgen("--port " + port + " --games 3 --transport " + transport + " --prefix " +
                          transport);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(r.out.find("transport " + transport + ", servers 1, games 3") != std::string::npos);
    CHECK(number_after(r.out, "accepted moves: ") > 0);
    CHECK(number_after(r.out, "errors: ") == 0);
    const bool tls = transport == "tls" || transport == "wss";
    CHECK(number_after(r.out, "tls handshakes: ") == (tls ? 6 : -1));
  }
  // A pinned fingerprint that matches plays; one that does not gets no game started.
  const Run pinned = loadgen("--port " + port + " --games 1 --transport tls --prefix pin " +
                             "--tls-fingerprint " + fp);
  INFO(pinned.out);
  CHECK(number_after(pinned.out, "accepted moves: ") > 0);
}

TEST_CASE("loadgen: several addresses share the games and bad addresses are refused clearly") {
  TempDir a_dir, b_dir;
  ServerProcess a(a_dir.path(), roomy_limits()), b(b_dir.path(), roomy_limits());
  const Run r = loadgen("--server 127.0.0.1:" + std::to_string(a.port()) +
                        ",127.0.0.1:" + std::to_string(b.port()) + " --games 4 --prefix two");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("servers 2, games 4") != std::string::npos);
  CHECK(number_after(r.out, "accepted moves: ") > 0);
  CHECK(number_after(r.out, "errors: ") == 0);
  const Run ports = loadgen("--port " + std::to_string(a.port()) + " --port " +
                            std::to_string(a.port()) + " --games 2 --prefix rep");
  CHECK(ports.out.find("servers 2, games 2") != std::string::npos);

  const Run bad = loadgen("--server 127.0.0.1:1,[::1 --games 1");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("closing ']'") != std::string::npos);
  const Run none = loadgen("--games 1");
  CHECK(none.status == 2);
  CHECK(none.out.find("--port") != std::string::npos);
}

TEST_CASE(
    "loadgen: --echo-ceiling measures an echo's throughput before and after the games and gives "
    "moves as a share of it") {
  TempDir dir;
  ServerProcess server(dir.path(), roomy_limits());
  const Run r = loadgen("--port " + std::to_string(server.port()) +
                        " --games 2 --echo-ceiling 0.5 --prefix ceil");
  INFO(r.out);
  CHECK(r.status == 0);
  // Four connections, as the games use, each echoing lines for half a second, before and after
  // the games.
  CHECK(number_after(r.out, "echo ceiling: ") > 100);
  CHECK(r.out.find("lines per second over 4 connections (") != std::string::npos);
  CHECK(number_after(r.out, " connections (") > 100);
  CHECK(number_after(r.out, " before the games, ") > 100);
  CHECK(r.out.find("% apart); moves per second are ") != std::string::npos);
  CHECK(number_after(r.out, "accepted moves: ") > 0);
  // Without the option there is no ceiling in the report.
  const Run plain = loadgen("--port " + std::to_string(server.port()) + " --games 1 --prefix noc");
  CHECK(plain.out.find("echo ceiling") == std::string::npos);
}

TEST_CASE("loadgen: --sources spreads the connections over loopback addresses") {
  // Two connections an address: six connections from one address would be refused, from three
  // addresses they all play.
  TempDir dir;
  ServerProcess server(dir.path(), {{"limits",
                                     {{"connections_per_address", 2},
                                      {"requests_per_second", 1000},
                                      {"requests_burst", 1000}}}});
  const Run r =
      loadgen("--port " + std::to_string(server.port()) + " --games 3 --sources 3 --prefix src");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("connections 6, sources 3") != std::string::npos);
  CHECK(number_after(r.out, "accepted moves: ") > 0);
  CHECK(number_after(r.out, "errors: ") == 0);

  const Run remote = loadgen("--server 192.0.2.1:7420 --sources 2 --games 1");
  CHECK(remote.status == 2);
  CHECK(remote.out.find("--sources needs IPv4 loopback servers, not 192.0.2.1") !=
        std::string::npos);
}

TEST_CASE("loadgen: more games than the descriptor limit allows are refused before they start") {
  // A hard limit of 256 descriptors cannot hold the 400 connections of 200 games.
  Run r;
  FILE* pipe = ::popen(("bash -c 'ulimit -Sn 256 && ulimit -Hn 256 && exec " + kLoadgen +
                        " --port 1 --games 200' 2>&1")
                           .c_str(),
                       "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.out += buffer;
  const int status = ::pclose(pipe);
  INFO(r.out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(r.out.find("400 connections need about 464 descriptors, and this process may open 256") !=
        std::string::npos);
}
