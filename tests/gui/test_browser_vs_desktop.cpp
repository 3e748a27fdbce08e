// Two people, two kinds of client, one server: Alice in the real desktop client under Xvfb
// (real X input events), Bob in headless Chromium on the web client (tests/browser/play_as.py,
// clicking squares), both over the server's one loopback port. Alice creates a game, Bob joins
// it from the browser's lobby, and they play it to its end; both clients must show the same
// moves and result as the server's record. Screenshots of both sides go to
// build/<preset>/screenshots/ (browser-vs-desktop-*.png).
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>
#include <random>

#include "common/game_record.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/position_text.h"
#include "tests/gui/gui_driver.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kPlayAs = amazons::test::source_dir() + "/tests/browser/play_as.py";

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE("browser and desktop: a person in Chromium and one in the desktop client play a game") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir);
    const std::string address = "127.0.0.1:" + std::to_string(server.port());

    write_client_settings(home.path(), json{{"name", "Alice"}, {"last_server", address}});
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    c.click("online");
    json s = c.wait_screen("connect");
    REQUIRE(s["widgets"]["server"]["text"] == address);
    if (s["widgets"]["tls"]["value"].get<bool>()) c.click("tls");  // plain lines: loopback
    c.click("connect");
    c.wait_for("the lobby, online", [](const json& st) {
      return st.value("screen", "") == "lobby" && st["online"].get<bool>();
    });
    select_option(c, "rules", "botzone8 (8x8)");
    select_option(c, "colour", "White");
    c.click("create");

    // Bob opens the web client the server serves on the same port, and joins Alice's game.
    const fs::path bob_out = home.path() / "bob.json";
    Child bob({"/usr/bin/python3", kPlayAs.string(), "http://" + address, "Bob", bob_out.string(),
               "--shots", kShotDir.string(), "--shot-after", "9", "--seed", "5"},
              {{"AMAZONS_BINARY_DIR", amazons::test::binary_dir()}}, -1, home.path() / "bob.log");
    s = c.wait_for(
        "the game with Bob", [](const json& st) { return st.value("screen", "") == "online_game"; },
        std::chrono::seconds(60));
    CHECK(s["white"] == "Alice");
    CHECK(s["black"] == "Bob");
    const std::string game = s["game"];

    std::mt19937_64 rng(11);
    bool shot = false;
    for (int turn = 0; turn < 60; ++turn) {
      s = c.wait_for(
          "Alice's turn or the end",
          [](const json& st) {
            return !st["result"].is_null() ||
                   (st["human_to_move"].get<bool>() && st["stage"] == "choose_queen");
          },
          std::chrono::seconds(90));
      if (!s["result"].is_null()) break;
      const Position pos = *parse_position(s["position"].get<std::string>());
      auto moves = std::make_unique<MoveList>();
      generate_moves(pos, *moves);
      REQUIRE(!moves->empty());
      const Move m =
          (*moves)[std::uniform_int_distribution<std::size_t>(0, moves->size() - 1)(rng)];
      const std::size_t before = s["moves"].size();
      if (!shot && before >= 10) {
        c.screenshot(kShotDir, "browser-vs-desktop-desktop");
        shot = true;
      }
      c.click_square(to_string(m.from()));
      c.wait_for("destinations",
                 [](const json& st) { return st["stage"] == "choose_destination"; });
      c.click_square(to_string(m.to()));
      c.wait_for("arrow targets", [](const json& st) { return st["stage"] == "choose_arrow"; });
      c.click_square(to_string(m.arrow()));
      const json after = c.wait_for("Alice's move confirmed by the server", [&](const json& st) {
        return st["moves"].size() > before || !st["result"].is_null();
      });
      REQUIRE(after["moves"].size() > before);
      CHECK(after["moves"][before] == to_string(m));
    }
    s = c.wait_for("the result", [](const json& st) { return !st["result"].is_null(); });
    CHECK(s["result"]["reason"] == "no_moves");

    // The browser saw the same game end the same way.
    REQUIRE(bob.wait(std::chrono::seconds(60)) == 0);
    std::ifstream in(bob_out);
    const json web = json::parse(in);
    CHECK(web["game"] == game);
    CHECK(web["color"] == "black");
    CHECK(web["moves"] == s["moves"]);
    CHECK(web["result"]["reason"] == "no_moves");
    CHECK(web["result"]["winner"] == s["result"]["winner"]);

    // And both are the server's record.
    Client observer(server.port());
    observer.hello("Observer");
    observer.send(protocol::RecordRequest{game, protocol::RecordFormat::Json});
    const auto record = parse_record_json(observer.expect<protocol::Record>().record.dump());
    REQUIRE(record.has_value());
    CHECK(record->white.name == "Alice");
    CHECK(record->black.name == "Bob");
    REQUIRE(record->moves.size() == s["moves"].size());
    for (std::size_t i = 0; i < record->moves.size(); ++i)
      CHECK(to_string(record->moves[i].move) == s["moves"][i]);
    c.screenshot(kShotDir, "browser-vs-desktop-desktop-result");
  }
}
