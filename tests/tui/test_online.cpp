// amazons-tui online, in tmux: a real amazons-server on an ephemeral loopback port and a real
// amazons-bot. The server is found by LAN discovery (sent to loopback), the lobby lists the bot,
// a game with the server's clock is created and the bot joins; chat; the server is killed and
// restarted mid-game and the game goes on; then the archive replays it.
#include <doctest/doctest.h>
#include <signal.h>

#include <random>

#include "tests/bot/bot_process.h"
#include "tests/integration/server_process.h"
#include "tests/tui/tui_test_util.h"

using namespace amazons;
using namespace amazons::test;
namespace fs = std::filesystem;

TEST_SUITE("tui") {
  TEST_CASE(
      "terminal online: LAN discovery, lobby, a game against a bot across a server restart, "
      "archive") {
    REQUIRE(tmux_available());
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    auto server = std::make_unique<ServerProcess>(server_dir);
    const unsigned short port = server->port();
    REQUIRE(server->discovery_port() != 0);
    BotProcess bot(
        home.path(), port,
        {"--name", "Botty", "--level", "beginner", "--list-interval", "1", "--log-level", "warn"});

    TmuxSession t(home.path(),
                  tui_args(home.path(), {"--server", "127.0.0.1:1", "--name", "Alice",
                                         "--discovery-target", "127.0.0.1", "--discovery-port",
                                         std::to_string(server->discovery_port())}),
                  80, 24);
    std::string s = t.wait_for("Play online");
    CHECK(contains(s, "127.0.0.1:1"));
    // Down to "Find servers on the LAN" (server, name, password, connect, find).
    t.keys({"Down", "Down", "Down", "Down", "Enter"});
    s = t.wait_for("Servers on the LAN");
    const std::string found = "127.0.0.1:" + std::to_string(port);
    REQUIRE(contains(s, found));
    const bool tls = contains(s, "tls://" + found);
    t.keys({"1"});
    t.wait_for("> Server    " + std::string(tls ? "tls://" : "") + found + "_");
    t.keys({"Enter"});
    if (tls) {
      t.wait_for("Trust this server?");
      t.keys({"y"});
    }
    s = t.wait_for("as Alice (1500)", std::chrono::seconds(15));
    t.keys({"Right", "Right"});
    t.wait_for("Botty (");
    t.keys({"Left", "Left"});
    // An 8x8 board, a clock the server runs, and White for us.
    for (int i = 0; i < 6 && !contains(s, "New game: botzone8"); ++i) {
      const std::string before = s;
      t.keys({"v"});
      s = t.wait_until("the rules to change", [&](const std::string& x) { return x != before; });
    }
    REQUIRE(contains(s, "New game: botzone8"));
    t.keys({"t", "o"});
    s = t.wait_for("3 min + 2 s, white");
    t.keys({"c"});
    s = t.wait_for(kPickQueen, std::chrono::seconds(20));
    CHECK(contains(s, "Botty"));
    CHECK(contains(s, "Alice"));
    CHECK(contains(s, "3:0"));  // the server's clocks

    t.type(":chat good luck");
    t.keys({"Enter"});
    t.wait_for("Alice: good luck");

    std::mt19937_64 rng(3);
    int turns = 0;
    for (; turns < 40; ++turns) {
      s = t.wait_until(
          "our turn or the end",
          [](const std::string& x) { return contains(x, kPickQueen) || contains(x, " wins"); },
          std::chrono::seconds(30));
      if (contains(s, " wins")) break;
      auto b = read_board(s, 8);
      REQUIRE(b.has_value());
      const Position pos = b->position(Color::White);
      if (turns == 3) {
        // The server dies and comes back on the same port: the screen says so, and the game
        // resumes where it was.
        server->stop(SIGKILL);
        t.wait_for("Reconnecting", std::chrono::seconds(15));
        server = std::make_unique<ServerProcess>(server_dir, nlohmann::json::object(),
                                                 std::vector<std::string>{}, Launch::on_port(port));
        s = t.wait_until(
            "the game back after the restart",
            [](const std::string& x) {
              return contains(x, kPickQueen) && !contains(x, "Reconnecting");
            },
            std::chrono::seconds(30));
        auto again = read_board(s, 8);
        REQUIRE(again.has_value());
        REQUIRE(again->position(Color::White) == pos);
      }
      MoveList moves;
      generate_moves(pos, moves);
      REQUIRE(!moves.empty());
      const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
      t.type(to_string(m));
      t.keys({"Enter"});
      t.wait_until(
          "our move confirmed",
          [&](const std::string& x) {
            auto now = read_board(x, 8);
            return (now && now->arrows.test(m.arrow())) || contains(x, " wins");
          },
          std::chrono::seconds(20));
    }
    s = t.wait_for(" wins", std::chrono::seconds(30));
    CHECK(turns > 3);
    CHECK(contains(s, "has no legal move left."));
    CHECK(contains(s, ":rematch"));

    // Back to the lobby, then the archive: the game replays to its last move.
    t.type(":lobby");
    t.keys({"Enter"});
    t.wait_for("as Alice (1500)");
    t.keys({"h"});
    s = t.wait_for("Alice vs Botty", std::chrono::seconds(15));
    t.keys({"Enter"});
    t.wait_for("Replay");
    t.keys({"End"});
    s = t.wait_until("the last move", [](const std::string& x) {
      return contains(x, "Move ") && contains(x, " of ");
    });
    t.keys({"Escape"});
    t.wait_for("finished games on the server");
  }
}
