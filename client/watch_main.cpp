// amazons-watch: follows one game on a server as a spectator and prints it move by move with the
// board, checking every move with the rules core. Used by scripts/run.sh on machines without a
// display; exits 0 when the game it watched has ended.
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "client/game_watch.h"
#include "net/line_client.h"

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

int fail(const std::string& why) {
  std::cerr << "amazons-watch: " << why << "\n";
  return 1;
}

std::optional<json> parse(const std::string& line) {
  try {
    return json::parse(line);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace amazons;
  CLI::App cli{"amazons-watch: print a game on a server move by move"};
  std::string server = "127.0.0.1:7420", name = "watcher";
  double timeout_s = 300;
  cli.add_option("--server", server, "the server, HOST:PORT")->capture_default_str();
  cli.add_option("--name", name, "the guest name to log in with")->capture_default_str();
  cli.add_option("--timeout", timeout_s, "give up after this many seconds")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  CLI11_PARSE(cli, argc, argv);

  const auto colon = server.rfind(':');
  unsigned long port = 0;
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no port");
    port = std::stoul(server.substr(colon + 1));
  } catch (const std::exception&) {
    return fail("--server: expected HOST:PORT, got \"" + server + "\"");
  }
  if (port == 0 || port > 65535) return fail("--server: the port must be 1..65535");
  std::string host = server.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);

  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  auto left = [&] {
    return std::max(Millis{1}, std::chrono::duration_cast<Millis>(deadline - Clock::now()));
  };
  auto connected = net::LineClient::connect(host, static_cast<unsigned short>(port));
  if (!connected) return fail("cannot connect to " + server + ": " + connected.error());
  net::LineClient& c = *connected;

  // Reads until a message of `type` (or an error) arrives; other messages are passed to `other`.
  auto await = [&](const std::string& type, auto other) -> std::optional<json> {
    while (Clock::now() < deadline) {
      auto line = c.read_line(std::min(left(), Millis{1000}));
      if (!line) {
        if (c.closed()) return std::nullopt;
        continue;
      }
      auto msg = parse(*line);
      if (!msg || !msg->is_object()) continue;
      const std::string t = msg->value("type", "");
      if (t == type || t == "error") return msg;
      other(*msg);
    }
    return std::nullopt;
  };
  auto ignore = [](const json&) {};

  c.send_line(json{{"type", "hello"}, {"protocol", 1}, {"name", name}}.dump());
  auto welcome = await("welcome", ignore);
  if (!welcome || welcome->value("type", "") != "welcome")
    return fail("the server did not let us in" +
                (welcome ? ": " + welcome->value("message", "") : std::string()));

  // The first game in progress.
  std::string game;
  while (game.empty()) {
    if (Clock::now() >= deadline) return fail("no game started within the time limit");
    c.send_line(R"({"type":"list"})");
    auto games = await("games", ignore);
    if (!games) return fail("the server closed the connection");
    for (const json& g : games->value("games", json::array()))
      if (g.value("status", "") == "active" && g.contains("game") && g["game"].is_string()) {
        game = g["game"].get<std::string>();
        break;
      }
    if (game.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  client::GameWatch watch;
  c.send_line(json{{"type", "watch"}, {"game", game}}.dump());
  std::cout << "Watching game " << game << " on " << server << "\n";
  while (!watch.finished()) {
    if (Clock::now() >= deadline) return fail("the game did not end within the time limit");
    auto line = c.read_line(std::min(left(), Millis{1000}));
    if (!line) {
      if (c.closed()) return fail("the server closed the connection during the game");
      continue;
    }
    auto msg = parse(*line);
    if (!msg || !msg->is_object()) return fail("the server sent a line that is not JSON");
    if (msg->value("type", "") == "error")
      return fail("the server refused: " + msg->value("message", std::string("?")));
    if (msg->contains("game") && (*msg)["game"] != game) continue;
    auto text = watch.on_message(*msg);
    if (!text) return fail(text.error());
    std::cout << *text << std::flush;
  }
  return 0;
}
