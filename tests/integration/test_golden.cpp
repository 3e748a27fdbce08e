#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>
#include <map>

#include "server_process.h"

using namespace amazons;
using amazons::test::Client;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using amazons::test::Wire;
using nlohmann::json;

namespace {

// Expected JSON against actual: "*" matches anything; objects need the same keys.
bool matches(const json& expected, const json& actual) {
  if (expected.is_string() && expected.get<std::string>() == "*") return true;
  if (expected.is_object()) {
    if (!actual.is_object() || actual.size() != expected.size()) return false;
    for (const auto& [k, v] : expected.items())
      if (!actual.contains(k) || !matches(v, actual.at(k))) return false;
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (!matches(expected[i], actual[i])) return false;
    return true;
  }
  return expected == actual;
}

// Replays tests/golden/session.txt against a fresh server with every client on `wire`.
void replay_golden(Wire wire) {
  TempDir dir;
  ServerProcess server(dir.path(), {{"name", "golden"}});
  std::ifstream in(amazons::test::source_dir() + "/tests/golden/session.txt");
  REQUIRE(in);
  std::map<std::string, std::unique_ptr<Client>> clients;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const auto mark = line.find_first_of("<>");
    REQUIRE_MESSAGE(mark != std::string::npos, "line " << number << ": no > or <");
    const std::string who = line.substr(0, mark);
    const std::string body = line.substr(mark + 2);
    auto& client = clients[who];
    if (!client) client = std::make_unique<Client>(server.port(), wire);
    INFO(to_string(wire) << ", transcript line " << number << ": " << line);
    if (line[mark] == '>') {
      client->send(body);
    } else {
      const auto got = client->next();
      const json actual = json::parse(protocol::encode(got.message, got.id));
      CHECK_MESSAGE(matches(json::parse(body), actual), "got " << actual.dump());
    }
  }
  CHECK(number > 40);
}

}  // namespace

TEST_CASE("golden transcript: tests/golden/session.txt against a real server") {
  replay_golden(Wire::Tcp);
}

TEST_CASE("golden transcript: the same over TLS and WebSocket and WebSocket under TLS") {
  for (Wire wire : {Wire::Tls, Wire::Ws, Wire::Wss}) replay_golden(wire);
}
