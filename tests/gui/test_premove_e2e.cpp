// Premoves end to end: a real amazons-server on loopback, a real amazons-bot playing with the
// UCI test engine in its "gated" mode (it plays its least legal move, and only when the test
// opens the gate), and the real client under Xvfb driven by real X input events. The bot's
// replies are known in advance, so which premove stays legal is decided, not hoped for.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>

#include "client/premove.h"
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

const fs::path kEngineExe = amazons::test::binary_dir() + "/tests/amazons-uci-test-engine";

// The gated engine's choice: the legal move with the smallest raw().
Move least_move(const Position& pos) {
  MoveList moves;
  generate_moves(pos, moves);
  REQUIRE(!moves.empty());
  return *std::min_element(moves.begin(), moves.end(),
                           [](Move a, Move b) { return a.raw() < b.raw(); });
}

Position after(Position p, Move m) {
  REQUIRE_FALSE(p.check(m));
  p.do_move(m);
  return p;
}

// A premove of White in `now` (Black to move) that is, or is not, legal after Black's `reply`.
Move premove_for(const Position& now, Move reply, bool legal_after) {
  const Position then = after(now, reply);
  MoveList moves;
  generate_moves(client::premove_position(now, Color::White), moves);
  for (Move m : moves)
    if (then.check(m).has_value() != legal_after) return m;
  FAIL("no premove that the reply leaves " << (legal_after ? "legal" : "illegal"));
  return Move{};
}

void enter(ClientDriver& c, Move m) {
  c.click_square(to_string(m.from()));
  c.wait_for("destinations", [](const json& st) { return st["stage"] == "choose_destination"; });
  c.click_square(to_string(m.to()));
  c.wait_for("arrow targets", [](const json& st) { return st["stage"] == "choose_arrow"; });
  c.click_square(to_string(m.arrow()));
}

json wait_premove(ClientDriver& c, const std::string& move) {
  return c.wait_for("the premove " + (move.empty() ? "gone" : move),
                    [&](const json& st) { return st.value("premove", "?") == move; });
}

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE(
      "online: a premove is sent on the bot's reply, dropped when the reply blocks it, "
      "and cancelled by right click and Esc") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir, {{"tls", {{"enabled", false}}}});
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    const fs::path gate = home.path() / "gate";
    Child bot({kBotExe.string(), "--server", address, "--name", "Gatekeeper", "--engine",
               kEngineExe.string() + " gated " + gate.string(), "--protocol", "uci",
               "--list-interval", "1", "--log-level", "warn"},
              {}, -1, home.path() / "bot.log");
    auto open_gate = [&] { std::ofstream(gate) << "go\n"; };

    write_client_settings(home.path(), json{{"name", "Alice"}, {"last_server", address}});
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    connect_to_lobby(c, "the lobby with the bot", [](const json& st) {
      const auto& p = st["players"];
      return std::find(p.begin(), p.end(), "Gatekeeper") != p.end();
    });
    select_option(c, "rules", "standard (10x10)");
    // The engine gets the time per move to think: enough for the test to open its gate.
    select_option(c, "time_control", "30 s per move");
    select_option(c, "colour", "White");
    c.click("create");
    json s = c.wait_for("our first move in the game with the bot", [](const json& st) {
      return st.value("screen", "") == "online_game" && st.contains("position") &&
             st["human_to_move"].get<bool>() && st["stage"] == "choose_queen";
    });
    REQUIRE(s["black"] == "Gatekeeper");
    const Position start = *parse_position(s["position"].get<std::string>());
    const Move first = least_move(start);
    enter(c, first);
    s = c.wait_for("the bot thinking, a premove may be entered", [](const json& st) {
      return st["moves"].size() == 1 && st["premove_input"].get<bool>() &&
             st["stage"] == "choose_queen";
    });
    CHECK(s["status"].get<std::string>().find("You may premove") != std::string::npos);

    // ---- a premove the bot's reply leaves legal: right click and Esc cancel it, then it goes
    // out the moment the reply arrives ----
    const Position p1 = after(start, first);
    const Move reply1 = least_move(p1);
    const Move kept = premove_for(p1, reply1, true);
    enter(c, kept);
    s = wait_premove(c, to_string(kept));
    CHECK(s["status"] == "Premove " + to_string(kept) + ", Esc cancels");
    CHECK(s["moves"].size() == 1);  // nothing sent yet
    c.click_square(to_string(kept.to()), 3);
    s = wait_premove(c, "");
    CHECK(s["notice"] == "Premove cancelled.");
    c.wait_for("premove input again", [](const json& st) {
      return st["premove_input"].get<bool>() && st["stage"] == "choose_queen";
    });
    enter(c, kept);
    wait_premove(c, to_string(kept));
    c.screenshot(kShotDir, "premove-pending");
    c.key("Escape");
    wait_premove(c, "");
    c.wait_for("premove input again", [](const json& st) {
      return st["premove_input"].get<bool>() && st["stage"] == "choose_queen";
    });
    enter(c, kept);
    wait_premove(c, to_string(kept));
    open_gate();
    s = c.wait_for("the bot's reply and the premove, sent at once",
                   [](const json& st) { return st["moves"].size() == 3; });
    CHECK(s["moves"][1] == to_string(reply1));
    CHECK(s["moves"][2] == to_string(kept));
    CHECK(s["premove"] == "");

    // ---- a premove the bot's reply makes illegal: dropped with the reason, and the turn is
    // ours as usual ----
    const Position p3 = after(after(p1, reply1), kept);
    const Move reply3 = least_move(p3);
    const Move doomed = premove_for(p3, reply3, false);
    c.wait_for("premove input for the next reply", [](const json& st) {
      return st["moves"].size() == 3 && st["premove_input"].get<bool>() &&
             st["stage"] == "choose_queen";
    });
    enter(c, doomed);
    wait_premove(c, to_string(doomed));
    open_gate();
    s = c.wait_for("the reply, and the premove dropped", [](const json& st) {
      return st["moves"].size() == 4 && st["human_to_move"].get<bool>() &&
             st["stage"] == "choose_queen" && !st["notice"].get<std::string>().empty();
    });
    CHECK(s["moves"][3] == to_string(reply3));
    CHECK(s["premove"] == "");
    const std::string notice = s["notice"];
    CHECK(notice.rfind("Premove " + to_string(doomed) + " dropped: ", 0) == 0);
    CHECK(notice.find("now blocked") != std::string::npos);
    CHECK(s["status"] == "Premove " + to_string(doomed) + " dropped. Your move.");
    c.screenshot(kShotDir, "premove-dropped");
  }
}
