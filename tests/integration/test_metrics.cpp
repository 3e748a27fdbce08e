// GET /metrics (Prometheus text format) and GET /ready on a real server's port: the page is
// parsed as Prometheus would parse it, and every figure is checked against what the test did.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using amazons::test::TransportClient;
using amazons::test::Wire;

namespace {

std::string get(unsigned short port, const std::string& target, int* status = nullptr) {
  auto c = TransportClient::connect(Wire::Tcp, port);
  REQUIRE(c.has_value());
  const std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  REQUIRE(c->send_raw(request));
  const std::string all = c->read_until_closed();
  if (status) *status = all.starts_with("HTTP/1.1 ") ? std::atoi(all.c_str() + 9) : 0;
  const auto body = all.find("\r\n\r\n");
  REQUIRE(body != std::string::npos);
  if (target == "/metrics")
    CHECK(all.substr(0, body).find("Content-Type: text/plain; version=0.0.4") != std::string::npos);
  return all.substr(body + 4);
}

// The samples of a text exposition page, by their full name with labels. Checks the format on
// the way: every sample belongs to a family announced by # HELP and # TYPE, values are numbers,
// histogram buckets are cumulative and end in +Inf equal to _count.
std::map<std::string, double> parse(const std::string& page) {
  std::map<std::string, double> samples;
  std::map<std::string, std::string> types;
  std::set<std::string> helped;
  std::istringstream in(page);
  std::string line;
  while (std::getline(in, line)) {
    REQUIRE(!line.empty());
    if (line.starts_with("# HELP ")) {
      helped.insert(line.substr(7, line.find(' ', 7) - 7));
      continue;
    }
    if (line.starts_with("# TYPE ")) {
      std::istringstream t(line.substr(7));
      std::string name, type;
      t >> name >> type;
      CHECK((type == "counter" || type == "gauge" || type == "histogram"));
      types[name] = type;
      continue;
    }
    const auto space = line.rfind(' ');
    REQUIRE(space != std::string::npos);
    const std::string name = line.substr(0, space);
    std::size_t used = 0;
    const double value = std::stod(line.substr(space + 1), &used);
    CHECK(used == line.size() - space - 1);
    std::string family = name.substr(0, name.find('{'));
    for (const char* suffix : {"_bucket", "_sum", "_count"})
      if (family.ends_with(suffix) && !types.contains(family))
        family = family.substr(0, family.size() - std::string_view(suffix).size());
    CHECK_MESSAGE(types.contains(family), name);
    CHECK_MESSAGE(helped.contains(family), name);
    CHECK_MESSAGE(!samples.contains(name), "twice: " << name);
    samples[name] = value;
  }
  for (const auto& [family, type] : types) {
    if (type != "histogram") continue;
    double last = 0;
    for (const auto& [name, value] : samples)
      if (name.starts_with(family + "_bucket{le=\"") && !name.ends_with("\"+Inf\"}")) {
        // std::map orders the bounds as text, not numbers: check against the +Inf one only.
        CHECK(value <= samples[family + "_bucket{le=\"+Inf\"}"]);
        last = std::max(last, value);
      }
    CHECK(samples[family + "_bucket{le=\"+Inf\"}"] == samples[family + "_count"]);
    CHECK(last <= samples[family + "_count"]);
  }
  return samples;
}

std::map<std::string, double> scrape(unsigned short port) { return parse(get(port, "/metrics")); }

}  // namespace

TEST_CASE("metrics: /metrics counts connections, games, moves, errors and latencies, and /ready") {
  TempDir dir;
  ServerProcess server(dir.path());
  auto m = scrape(server.port());
  CHECK(m.at("amazons_moves_committed_total") == 0);
  CHECK(m.at("amazons_connections{transport=\"tcp\"}") == 0);
  CHECK(m.at("amazons_ready") == 1);
  CHECK(m.at("amazons_storage_up") == 1);
  const double http_before = m.at("amazons_http_requests_total");

  Client alice(server.port());
  Client bob(server.port(), Wire::Ws);
  alice.hello("alice");
  bob.hello("bob");
  alice.send(R"({"type":"create","rules":"standard","color":"white","time":null})");
  const auto game = alice.expect<Created>().game;
  // The game counts are refreshed once a second.
  for (int i = 0; i < 40 && scrape(server.port()).at("amazons_games{state=\"open\"}") != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(scrape(server.port()).at("amazons_games{state=\"open\"}") == 1);

  bob.send(Join{game, std::nullopt});
  bob.expect<Start>();
  alice.expect<Start>();
  const char* moves[] = {"d1-d7/g7", "a7-b7/c7", "g1-g2/g3", "d10-e9/e8"};
  for (int i = 0; i < 4; ++i) {
    Client& mover = i % 2 == 0 ? alice : bob;
    Client& other = i % 2 == 0 ? bob : alice;
    mover.send(MoveMsg{game, moves[i]});
    mover.expect<Moved>();
    other.expect<Moved>();
  }
  bob.send(MoveMsg{game, "a1-a2/a3"});
  CHECK(bob.expect_error() == ErrorCode::NotYourTurn);
  alice.send("{not json");
  CHECK(alice.expect_error() == ErrorCode::BadJson);
  alice.send(MoveMsg{game, "j4-j10/j9"});  // j7 is in the way
  CHECK(alice.expect_error() == ErrorCode::IllegalMove);

  for (int i = 0; i < 40 && scrape(server.port()).at("amazons_games{state=\"active\"}") != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  m = scrape(server.port());
  CHECK(m.at("amazons_games{state=\"active\"}") == 1);
  CHECK(m.at("amazons_games{state=\"open\"}") == 0);
  CHECK(m.at("amazons_connections{transport=\"tcp\"}") == 1);
  CHECK(m.at("amazons_connections{transport=\"ws\"}") == 1);
  CHECK(m.at("amazons_connections{transport=\"tls\"}") == 0);
  CHECK(m.at("amazons_moves_committed_total") == 4);
  CHECK(m.at("amazons_move_round_trip_seconds_count") == 4);
  CHECK(m.at("amazons_move_round_trip_seconds_sum") > 0);
  CHECK(m.at("amazons_move_round_trip_seconds_sum") < 4 * 5.0);
  CHECK(m.at("amazons_storage_commit_seconds_count") >= 4);  // logins and the game commit too
  CHECK(m.at("amazons_errors_total{code=\"not_your_turn\"}") == 1);
  CHECK(m.at("amazons_errors_total{code=\"bad_json\"}") == 1);
  CHECK(m.at("amazons_errors_total{code=\"illegal_move\"}") == 1);
  CHECK(m.at("amazons_errors_total{code=\"rate_limited\"}") == 0);
  CHECK(m.at("amazons_http_requests_total") > http_before + 1);
  CHECK(m.at("amazons_connections_accepted_total") >= 3);

  int status = 0;
  CHECK(get(server.port(), "/ready", &status) == "{\"ready\":true}");
  CHECK(status == 200);
}

TEST_CASE("metrics: rate limiting and refused connections are counted") {
  TempDir dir;
  ServerProcess server(
      dir.path(),
      nlohmann::json{
          {"limits",
           {{"requests_per_second", 1}, {"requests_burst", 2}, {"connections_per_address", 3}}}});
  Client a(server.port());
  a.hello("a");
  for (int i = 0; i < 4; ++i) a.send(Ping{});
  // Two of the pings and the hello used the burst; the rest are refused.
  bool limited = false;
  for (int i = 0; i < 4 && !limited; ++i) {
    const auto env = a.next();
    if (const auto* e = std::get_if<Error>(&env.message))
      limited = e->code == ErrorCode::RateLimited;
  }
  CHECK(limited);
  {
    Client b(server.port()), c(server.port());
    // A fourth connection from this address is over the limit: closed at once.
    auto d = TransportClient::connect(Wire::Tcp, server.port());
    REQUIRE(d.has_value());
    CHECK(d->read_until_closed(Millis{3000}).find("too_many_connections") != std::string::npos);
  }
  // b and c closed: the scrape below has a slot again (the server frees them as it sees them go).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto m = scrape(server.port());
  CHECK(m.at("amazons_errors_total{code=\"rate_limited\"}") >= 1);
  CHECK(m.at("amazons_connections_refused_total") >= 1);
}
