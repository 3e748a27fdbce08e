// Online play end to end: a real amazons-server on an ephemeral loopback port, a real
// amazons-bot (beginner level), and the real client under Xvfb driven by real X input events.
// The person finds the server by LAN discovery sent to loopback, logs in, sees the bot in the
// lobby, creates a game that the bot joins, chats, plays the whole game to its end, and opens
// it again from the server's archive. The game is checked against the server's record.
// Screenshots go to build/<preset>/screenshots/ (online-*.png).
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <signal.h>

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

bool has(const json& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE("online: find the server on the LAN, play a whole game against a bot, replay it") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    auto server = std::make_unique<ServerProcess>(server_dir);
    REQUIRE(server->discovery_port() != 0);
    const unsigned short port = server->port();
    const std::string address = "127.0.0.1:" + std::to_string(port);
    Child bot({kBotExe.string(), "--server", address, "--name", "Botty", "--level", "beginner",
               "--list-interval", "1", "--log-level", "warn"},
              {}, -1, home.path() / "bot.log");

    // Discovery goes to loopback only; the last server is some other one.
    write_client_settings(home.path(), json{{"name", "Alice"},
                                            {"last_server", "127.0.0.1:1"},
                                            {"discovery_target", "127.0.0.1"},
                                            {"discovery_port", server->discovery_port()}});

    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    c.screenshot(kShotDir, "online-menu");

    // ---- connect: the server is found on the LAN and chosen ----
    c.click("online");
    json s = c.wait_screen("connect");
    CHECK(s["widgets"]["server"]["text"] == "127.0.0.1:1");  // the last server, prefilled
    CHECK(s["widgets"]["name"]["text"] == "Alice");
    c.click("find_lan");
    s = c.wait_for("a server found on the LAN",
                   [](const json& st) { return st.contains("found") && !st["found"].empty(); });
    CHECK(s["found"][0]["port"] == port);
    // A server that speaks TLS is chosen with it; its self-signed certificate is then confirmed.
    const bool tls = s["found"][0].value("tls", false);
    c.click("lan0");
    c.wait_for("the found server chosen", [&](const json& st) {
      return st["widgets"]["server"]["text"] == address && st["widgets"]["tls"]["value"] == tls;
    });
    c.click("connect");
    if (tls) {
      s = c.wait_screen("trust_server");
      CHECK(s["server"] == address);
      c.click("trust");
    }
    s = c.wait_for("the lobby, online, with the bot", [](const json& st) {
      return st.value("screen", "") == "lobby" && st["online"].get<bool>() &&
             has(st["players"], "Botty");
    });
    CHECK(s["status"].get<std::string>().find("as Alice (1500)") != std::string::npos);

    // ---- create a game on the 8x8 board; the bot joins it ----
    select_option(c, "rules", "botzone8 (8x8)");
    select_option(c, "colour", "White");
    c.screenshot(kShotDir, "online-lobby");
    c.click("create");
    s = c.wait_for("the online game with the bot", [](const json& st) {
      return st.value("screen", "") == "online_game" && st.contains("position");
    });
    CHECK(s["white"] == "Alice");
    CHECK(s["black"] == "Botty");
    CHECK(s["color"] == "white");
    const std::string game = s["game"];

    // ---- chat ----
    c.click("chat");
    c.wait_for("chat focused", [](const json& st) { return st["widgets"]["chat"]["focused"]; });
    c.type("good luck");
    c.click("send");
    c.wait_for("the chat line back from the server",
               [](const json& st) { return has(st["chat"], "Alice: good luck"); });

    // ---- play the whole game ----
    std::mt19937_64 rng(7);
    bool shot = false;
    for (int turn = 0; turn < 60; ++turn) {
      s = c.wait_for(
          "our turn or the end",
          [](const json& st) {
            return !st["result"].is_null() ||
                   (st["human_to_move"].get<bool>() && st["stage"] == "choose_queen");
          },
          std::chrono::seconds(60));
      if (!s["result"].is_null()) break;
      const Position pos = *parse_position(s["position"].get<std::string>());
      REQUIRE(pos.side_to_move() == Color::White);
      auto moves = std::make_unique<MoveList>();
      generate_moves(pos, *moves);
      REQUIRE(!moves->empty());
      const Move m =
          (*moves)[std::uniform_int_distribution<std::size_t>(0, moves->size() - 1)(rng)];
      const std::size_t before = s["moves"].size();
      if (turn == 4) {
        // The server dies and comes back on the same port: the client shows that it is
        // reconnecting, and resumes the game where it was.
        server->stop(SIGKILL);
        c.wait_for("the reconnecting banner", [](const json& st) {
          return !st["online"].get<bool>() &&
                 st["connection"].get<std::string>().find("Reconnecting") != std::string::npos;
        });
        c.screenshot(kShotDir, "online-reconnecting");
        server = std::make_unique<ServerProcess>(server_dir, json::object(),
                                                 std::vector<std::string>{}, Launch::on_port(port));
        s = c.wait_for(
            "the game resumed",
            [](const json& st) {
              return st["online"].get<bool>() && st["human_to_move"].get<bool>();
            },
            std::chrono::seconds(30));
        REQUIRE(s["moves"].size() == before);
        REQUIRE(s["position"] == to_text(pos));
      }
      c.click_square(to_string(m.from()));
      const json picked = c.wait_for(
          "destinations", [](const json& st) { return st["stage"] == "choose_destination"; });
      CHECK(picked["targets"] == queen_destinations(pos, m.from()).count());
      if (!shot && before >= 6) {
        c.screenshot(kShotDir, "online-game");
        shot = true;
      }
      c.click_square(to_string(m.to()));
      c.wait_for("arrow targets", [](const json& st) { return st["stage"] == "choose_arrow"; });
      c.click_square(to_string(m.arrow()));
      const json after = c.wait_for("our move confirmed by the server", [&](const json& st) {
        return st["moves"].size() > before || !st["result"].is_null();
      });
      REQUIRE(after["moves"].size() > before);
      CHECK(after["moves"][before] == to_string(m));
    }
    s = c.wait_for("the result", [](const json& st) { return !st["result"].is_null(); });
    CHECK(s["result"]["reason"] == "no_moves");
    CHECK(s["status"].get<std::string>().find("has no legal move left") != std::string::npos);
    c.screenshot(kShotDir, "online-result");

    // ---- the server's record is the game the client showed ----
    Client observer(port);
    observer.hello("Observer");
    observer.send(protocol::RecordRequest{game, protocol::RecordFormat::Json});
    const auto reply = observer.expect<protocol::Record>();
    const auto record = parse_record_json(reply.record.dump());
    REQUIRE(record.has_value());
    CHECK(record->white.name == "Alice");
    CHECK(record->black.name == "Botty");
    CHECK(record->black.bot);
    REQUIRE(record->moves.size() == s["moves"].size());
    for (std::size_t i = 0; i < record->moves.size(); ++i)
      CHECK(to_string(record->moves[i].move) == s["moves"][i]);
    REQUIRE(record->result.has_value());
    CHECK(color_name(*record->result->winner) == s["result"]["winner"]);
    CHECK(record->result->reason == EndReason::NoMoves);

    // ---- the archive: the game is there, replayed and exported ----
    c.click("lobby");
    c.wait_screen("lobby");
    c.click("archive");
    s = c.wait_for("the archive with the game",
                   [&](const json& st) { return st.contains("games") && has(st["games"], game); });
    c.click("game_" + game);
    s = c.wait_screen("replay");
    c.click("export");
    s = c.wait_for("the export",
                   [](const json& st) { return !st["exported"].get<std::string>().empty(); });
    std::ifstream exported(s["exported"].get<std::string>());
    const std::string text((std::istreambuf_iterator<char>(exported)),
                           std::istreambuf_iterator<char>());
    CHECK(text.find(to_string(record->moves.front().move)) != std::string::npos);
    CHECK(text.find(to_string(record->moves.back().move)) != std::string::npos);
    c.click("back");
    c.wait_screen("archive");
  }

  TEST_CASE("online: your turn lists the correspondence games to move in, each opens its game") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir, {{"tls", {{"enabled", false}}}});
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    Client bob(server.port());
    bob.hello("bob");
    write_client_settings(home.path(), json{{"name", "Alice"}, {"last_server", address}});
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    connect_to_lobby(c, "the lobby, online");
    // Bob opens two games of a day per move, Alice takes both from the lobby.
    std::vector<std::string> games;
    for (int i = 0; i < 2; ++i) {
      bob.send(R"({"type":"create","color":"black","time":{"per_move":86400}})");
      std::optional<std::string> id;
      while (!id) {  // past the messages of the game before
        const auto env = bob.next();
        if (const auto* created = std::get_if<protocol::Created>(&env.message)) id = created->game;
      }
      games.push_back(*id);
      c.wait_for("the open game listed", [&](const json& st) {
        return st.value("screen", "") == "lobby" && st["widgets"].contains("join_" + games.back());
      });
      c.click("join_" + games.back());
      c.wait_for("the game", [&](const json& st) {
        return st.value("screen", "") == "online_game" && st.value("game", "") == games.back();
      });
      c.click("lobby");
    }
    json s = c.wait_for("both games under Your turn", [&](const json& st) {
      return st.value("screen", "") == "lobby" && st["widgets"].contains("turn_" + games[0]) &&
             st["widgets"].contains("turn_" + games[1]);
    });
    c.screenshot(kShotDir, "online-your-turn");
    c.click("turn_" + games[0]);
    s = c.wait_for("the first game, Alice to move", [&](const json& st) {
      return st.value("screen", "") == "online_game" && st.value("game", "") == games[0] &&
             st["human_to_move"].get<bool>();
    });
    CHECK(s["color"] == "white");
  }

  TEST_CASE(
      "online: the lobby lists tournaments: one is joined and withdrawn, another's game is "
      "watched and its standings are the server's") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir, {{"tls", {{"enabled", false}}},
                                      {"limits", {{"players_create_tournaments", true}}}});
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    Client host(server.port());
    host.hello("host");
    protocol::TournamentCreate later;
    later.name = "Saturday Swiss";
    later.kind = "swiss";
    later.rounds = 5;
    later.start_in = 3600;
    later.time = TimeControl::fischer(std::chrono::minutes(5), std::chrono::seconds(3));
    host.send(later);
    const auto later_id = host.expect<protocol::TournamentInfo>().tournament.id;
    // Three bots play a round robin on the small board: three rounds, a bye in each.
    protocol::TournamentCreate bots;
    bots.name = "Bot round robin";
    bots.kind = "round_robin";
    bots.rules = "botzone8";
    bots.rated = false;
    bots.start_in = 4;
    bots.time = TimeControl::fischer(std::chrono::seconds(60), std::chrono::seconds(0));
    host.send(bots);
    const auto bots_id = host.expect<protocol::TournamentInfo>().tournament.id;
    // The bots think 0.3 s a move, so that a game lasts about ten seconds: a beginner's game
    // took two, and under load it could end between the Watch button showing and the click
    // (seen in CI: the click found the round over).
    const fs::path ai_config = home.path() / "ai.json";
    json levels = json::parse(std::ifstream(fs::path(amazons::test::config_dir()) / "ai.json"));
    levels["levels"]["steady"] = {{"description", "0.3 s a move, for a game a person can click"},
                                  {"movetime", 0.3}};
    levels["threads"] = 1;
    std::ofstream(ai_config) << levels;
    std::vector<std::unique_ptr<Child>> players;
    for (const char* name : {"Ada", "Bea", "Cyd"})
      players.push_back(std::make_unique<Child>(
          std::vector<std::string>{kBotExe.string(), "--server", address, "--name", name,
                                   "--ai-config", ai_config.string(), "--level", "steady",
                                   "--tournament", std::to_string(bots_id), "--no-join",
                                   "--no-challenges", "--log-level", "warn"},
          std::map<std::string, std::string>{}, -1, home.path() / (std::string(name) + ".log")));

    write_client_settings(home.path(), json{{"name", "Alice"}, {"last_server", address}});
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    const std::string later_row = "tournament_" + std::to_string(later_id);
    const std::string bots_row = "tournament_" + std::to_string(bots_id);
    connect_to_lobby(c, "both tournaments in the lobby", [&](const json& st) {
      return st["widgets"].contains(later_row) && st["widgets"].contains(bots_row);
    });
    c.screenshot(kShotDir, "online-lobby-tournaments");

    // ---- join the Swiss, then withdraw ----
    c.click(later_row);
    json s = c.wait_for("the Swiss, not joined", [](const json& st) {
      return st.value("screen", "") == "tournament" && st.contains("joined") &&
             !st["joined"].get<bool>() && st["widgets"].contains("join");
    });
    CHECK(s["name"] == "Saturday Swiss");
    CHECK(s["status"] == "created");
    c.click("join");
    s = c.wait_for("joined", [](const json& st) {
      return st.value("joined", false) && st["widgets"].contains("withdraw");
    });
    REQUIRE(s["standings"].size() == 1);
    CHECK(s["standings"][0]["name"] == "Alice");
    c.click("withdraw");
    c.wait_for("withdrawn",
               [](const json& st) { return st.contains("joined") && !st["joined"].get<bool>(); });
    c.click("back");
    c.wait_screen("lobby");

    // ---- the bots' tournament: a game of it is watched, then the standings at the end ----
    c.click(bots_row);
    s = c.wait_for(
        "a game of the round robin being played",
        [](const json& st) {
          if (st.value("screen", "") != "tournament" || st.value("status", "") != "running")
            return false;
          for (const auto& [id, w] : st["widgets"].items())
            if (id.starts_with("watch_")) return true;
          return false;
        },
        std::chrono::seconds(20));
    std::string watch;
    for (const auto& [id, w] : s["widgets"].items())
      if (id.starts_with("watch_")) watch = id;
    c.click(watch);
    s = c.wait_screen("online_game");
    CHECK(s["game"] == watch.substr(6));
    c.click("lobby");
    c.wait_screen("lobby");
    c.click(bots_row);
    s = c.wait_for(
        "the round robin finished",
        [](const json& st) {
          return st.value("screen", "") == "tournament" && st.value("status", "") == "finished";
        },
        std::chrono::seconds(90));
    c.screenshot(kShotDir, "tournament-standings");
    host.send(protocol::TournamentShow{bots_id});
    protocol::TournamentInfo final_info;
    for (;;) {  // past the pushes sent before
      final_info = host.expect<protocol::TournamentInfo>();
      if (final_info.tournament.id == bots_id && final_info.tournament.status == "finished") break;
    }
    REQUIRE(s["standings"].size() == 3);
    double total = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(s["standings"][i]["name"] == final_info.standings[i].name);
      CHECK(s["standings"][i]["points"].get<double>() == final_info.standings[i].points);
      CHECK(s["standings"][i]["games"] == 2);
      total += final_info.standings[i].points;
    }
    CHECK(total == 3);              // three games, a point each (a draw shares it)
    CHECK(s["games"].size() == 2);  // the last round: one game and a bye
  }

  TEST_CASE(
      "online: a report from the lobby, and the moderator's view: a kick, a report taken into a "
      "mute, resolved, and the mute lifted") {
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir, {{"tls", {{"enabled", false}}}});
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    {
      // Known names only are granted a role; the running server reads roles every 2 s.
      Client mod(server.port());
      mod.hello("Mod");
      const std::string grant = std::string(kServerBinary) + " admin grant Mod moderator --db '" +
                                (server_dir / "test.db").string() + "' >/dev/null 2>&1";
      REQUIRE(std::system(grant.c_str()) == 0);
      bool allowed = false;
      for (int attempt = 0; attempt < 40 && !allowed; ++attempt) {
        mod.send(protocol::AuditRequest{1}, attempt);
        const auto reply = mod.next();
        allowed = std::holds_alternative<protocol::AuditLog>(reply.message);
        if (!allowed) std::this_thread::sleep_for(std::chrono::milliseconds(150));
      }
      REQUIRE(allowed);
    }
    Client bob(server.port()), carol(server.port());
    bob.hello("bob");
    carol.hello("carol");
    carol.send(protocol::Report{"bob", std::nullopt, "spamming the chat"});
    carol.expect<protocol::Ok>();

    write_client_settings(home.path(), json{{"name", "Mod"}, {"last_server", address}});
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    c.start();
    // The name comes back as soon as the connection above is gone.
    connect_to_lobby(c, "the lobby, online, with the moderation button",
                     [](const json& st) { return st["widgets"].contains("moderation"); });
    // Anyone may report a player from the lobby's list, with a reason; a moderator too.
    c.wait_for("bob in the players' list",
               [](const json& st) { return st["widgets"].contains("report_bob"); });
    c.click("report_bob");
    json s = c.wait_screen("report");
    CHECK(s["player"] == "bob");
    CHECK_FALSE(s["widgets"]["send"]["enabled"].get<bool>());  // not without a reason
    c.click("reason");
    c.type("insults in game 1");
    c.click("send");
    c.wait_screen("lobby");
    c.click("moderation");
    s = c.wait_for("both open reports", [](const json& st) {
      return st.value("screen", "") == "moderation" && st["reports"].size() == 2;
    });
    const std::string report = std::to_string(s["reports"][0].get<int>());  // carol's, the oldest
    CHECK(s["widgets"]["report_" + std::to_string(s["reports"][1].get<int>())]["label"] ==
          "#2 Mod reports bob: insults in game 1");

    // ---- a kick: carol's connection is closed with the reason ----
    c.click("player");
    c.type("carol");
    c.click("reason");
    c.type("testing");
    c.click("kick");
    protocol::Error kicked;
    for (;;) {  // past what the lobby sent before
      const auto env = carol.next();
      if (const auto* e = std::get_if<protocol::Error>(&env.message)) {
        kicked = *e;
        break;
      }
    }
    CHECK(kicked.code == protocol::ErrorCode::Kicked);
    CHECK(kicked.reason == "testing");

    // ---- the report's row fills the form; a mute for a day ----
    c.click("report_" + report);
    c.wait_for("the form filled from the report", [](const json& st) {
      return st["widgets"]["player"]["text"] == "bob" &&
             st["widgets"]["reason"]["text"] == "spamming the chat";
    });
    select_option(c, "duration", "1 day");
    c.click("mute");
    s = c.wait_for("the mute in force and in the audit log", [](const json& st) {
      return st["sanctions"].size() == 1 && !st["audit"].empty() &&
             st["audit"][0].get<std::string>().find("Mod mute bob for 1 d") != std::string::npos;
    });
    CHECK(s["sanctions"][0].get<std::string>().find("Mute: bob") == 0);
    c.screenshot(kShotDir, "moderation");

    // ---- resolved, and the mute lifted ----
    c.click("resolve_" + report);
    c.wait_for("one open report", [](const json& st) { return st["reports"].size() == 1; });
    c.click("lift_0");
    s = c.wait_for("nothing in force", [](const json& st) {
      return st["sanctions"].empty() && !st["audit"].empty() &&
             st["audit"][0].get<std::string>().find("Mod unmute bob") != std::string::npos;
    });
    bob.send(protocol::SanctionsRequest{});
    CHECK(bob.expect_error() == protocol::ErrorCode::Forbidden);  // a player may not look
  }

  TEST_CASE("host: --host starts a server, shows the address to give, and stops it on quit") {
    TempDir home;
    VirtualDisplay display(1600, 1000, home.path() / "xvfb.log");
    ClientDriver c(display, home.path(), kClientExe);
    // Loopback only, and no LAN discovery, as tests must.
    c.start({"--host", "--server-exe", test::kServerBinary, "--server-args",
             "--bind 127.0.0.1 --discovery-port -1 --config " + amazons::test::config_dir() +
                 "/server.json"},
            "lobby");
    json s = c.wait_for("the hosted lobby, online", [](const json& st) {
      return st.value("screen", "") == "lobby" && st["online"].get<bool>();
    });
    const std::string hosting = s["hosting"];
    const std::string marker = "Friends connect to: 127.0.0.1:";
    const auto at = hosting.find(marker);
    REQUIRE(at != std::string::npos);
    const auto port = static_cast<unsigned short>(std::stoi(hosting.substr(at + marker.size())));
    CHECK(s["status"].get<std::string>().find("127.0.0.1:" + std::to_string(port)) !=
          std::string::npos);
    CHECK(fs::exists(home.path() / "data" / "amazons" / "server" / "amazons.db"));
    c.screenshot(kShotDir, "online-host");
    // The lobby at rest is drawn when news comes (its refresh every 3 s) and once a second, not
    // 60 times a second as before.
    s = c.wait_for("the lobby at rest", [](const json& st) {
      return st["notice"] == "" && st["frames_per_second"].get<int>() <= 3;
    });
    MESSAGE("frames per second at the lobby at rest: " << s["frames_per_second"].get<int>());

    // A friend can join: the hosted server is a real one, and the lobby draws the friend with no
    // window event (on the news, or at the latest with its frame a second at rest).
    {
      Client friend_client(port);
      friend_client.hello("Friend");
      c.wait_for("the friend in the lobby, drawn", [](const json& st) {
        if (!has(st["players"], "Friend")) return false;
        for (const auto& text : st["texts"])
          if (text.get<std::string>().find("Friend") != std::string::npos) return true;
        return false;
      });
    }

    // Quitting the client stops the server.
    c.key("Escape");  // the lobby: leave the server
    const json menu = c.wait_screen("menu");
    // The server keeps running while the client is open, and the menu still says where.
    CHECK(menu["hosting"].get<std::string>() == hosting);
    CHECK(net::LineClient::connect("127.0.0.1", port).has_value());
    c.click("quit");
    CHECK(c.wait_exit() == 0);
    CHECK_FALSE(net::LineClient::connect("127.0.0.1", port).has_value());
  }
}
