// amazons-bot processes against the real amazons-server on loopback, with a real SQLite file and
// real engine processes.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <thread>

#include "bot/known_servers.h"
#include "bot_process.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "tests/integration/server_process.h"
#include "tls/tls.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::BotProcess;
using amazons::test::Client;
using amazons::test::engine_command;
using amazons::test::kTestData;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using std::chrono::seconds;

namespace {

// A game's clock and rules small enough for quick games: the 8x8 board, 8 s a side.
const std::vector<std::string> kQuickSeek = {"--rules", "botzone8", "--seek", "8+0"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

History history_of(Client& c, const std::string& player) {
  c.send(HistoryRequest{player, 20});
  return c.expect<History>();
}

// The one game in progress on the server, once there is one.
std::optional<GameSummary> active_game(Client& c, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    c.send(List{});
    for (const auto& g : c.expect<Games>().games)
      if (g.status == GameStatus::Active) return g;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::nullopt;
}

void require_clean_exit(BotProcess& bot, std::chrono::milliseconds timeout = seconds(60)) {
  const auto status = bot.wait_exit(timeout);
  INFO(bot.log());
  REQUIRE(status.has_value());
  CHECK(*status == 0);
}

}  // namespace

TEST_CASE("bots: two bots play whole games through the server, both show as bots everywhere") {
  TempDir dir;
  ServerProcess server(dir.path());
  // The built-in engine against our engine as a Botzone-format program, rematching once.
  BotProcess level(dir.path(), server.port(),
                   with({"--name", "lvl", "--level", "beginner", "--games", "2", "--rematch",
                         "--max-games", "1"},
                        kQuickSeek));
  BotProcess botzone(
      dir.path(), server.port(),
      with({"--name", "bz", "--engine",
            engine_command(" --botzone --movetime 40 --first-movetime 60"), "--protocol", "botzone",
            "--games", "2", "--rematch", "--max-games", "1"},
           kQuickSeek));
  Client watcher(server.port());
  watcher.hello("watcher");
  REQUIRE(level.wait_event("game_start"));
  watcher.send(Players{});
  const auto online = watcher.expect<PlayerList>().players;
  for (const char* name : {"lvl", "bz"}) {
    const auto p = std::find_if(online.begin(), online.end(),
                                [&](const OnlinePlayer& o) { return o.name == name; });
    REQUIRE(p != online.end());
    CHECK(p->bot);
    CHECK(p->games == 1);
  }
  const auto game = active_game(watcher, seconds(5));
  REQUIRE(game);
  CHECK(game->white->bot);
  CHECK(game->black->bot);

  require_clean_exit(level);
  require_clean_exit(botzone);
  CHECK(level.events("game_end").size() == 2);
  CHECK(level.events("rematch").size() == 1);
  CHECK(level.events("engine_failure").empty());
  CHECK(botzone.events("engine_failure").empty());
  const auto games = history_of(watcher, "lvl").games;
  REQUIRE(games.size() == 2);
  for (const auto& g : games) {
    CHECK(g.white.bot);
    CHECK(g.black.bot);
    CHECK(g.reason == EndReason::NoMoves);
    CHECK(g.rules == "botzone8");
    watcher.send(RecordRequest{g.game, RecordFormat::Json});
    const auto record = record_from_json(watcher.expect<Record>().record);
    REQUIRE(record);
    CHECK(record->white.bot);
    CHECK(record->black.bot);
    const auto end = replay(*record);
    REQUIRE(end);
    CHECK(end->is_game_over());
  }
  // The rematch swapped the colours.
  CHECK(games[0].white.name == games[1].black.name);
}

TEST_CASE("bots: a bot survives the server being killed mid-game and finishes the game") {
  TempDir dir;
  std::optional<ServerProcess> server(std::in_place, dir.path());
  const unsigned short port = server->port();
  // The 10x10 board at the weakest level: a game of many quick moves.
  const std::vector<std::string> seek = {"--rules", "standard", "--seek", "120+0", "--games", "1"};
  BotProcess a(dir.path(), port, with({"--name", "aa", "--level", "beginner"}, seek));
  BotProcess b(dir.path(), port,
               with({"--name", "bb", "--password", "pw", "--level", "easy"}, seek));
  std::string game;
  {
    Client watcher(port);
    watcher.hello("watcher");
    const auto g = active_game(watcher, seconds(10));
    REQUIRE(g);
    game = g->game;
    watcher.send(Watch{game, std::nullopt});
    watcher.expect<State>();
    for (int i = 0; i < 6; ++i) watcher.expect<Moved>(seconds(10));
  }
  CHECK(server->stop(SIGKILL) == -1);
  REQUIRE(a.wait_event("connection", "status=waiting_retry"));
  REQUIRE(b.wait_event("connection", "status=waiting_retry"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  server.emplace(dir.path(), nlohmann::json::object(), std::vector<std::string>{},
                 Launch::on_port(port));

  require_clean_exit(a);
  require_clean_exit(b);
  CHECK_FALSE(a.events("logged_in", "resumed=true").empty());
  CHECK_FALSE(b.events("logged_in", "resumed=true").empty());
  const auto ends = a.events("game_end");
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].find("game=" + game + " ") != std::string::npos);
  CHECK(ends[0].find("reason=no_moves") != std::string::npos);
  Client watcher(port);
  watcher.hello("watcher");
  const auto games = history_of(watcher, "aa").games;
  REQUIRE(games.size() == 1);
  CHECK(games[0].game == game);
  CHECK(games[0].reason == EndReason::NoMoves);
  CHECK(games[0].plies > 6);
}

TEST_CASE("bots: a UCI engine program plays through amazons-bot --protocol uci") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::string uci =
      (std::filesystem::path(amazons::test::binary_dir()) / "tests" / "amazons-uci-test-engine")
          .string();
  BotProcess fsf(
      dir.path(), server.port(),
      with({"--name", "fsf", "--engine", uci + " good", "--protocol", "uci", "--games", "1"},
           kQuickSeek));
  BotProcess other(dir.path(), server.port(),
                   with({"--name", "other", "--level", "beginner", "--games", "1"}, kQuickSeek));
  require_clean_exit(fsf);
  require_clean_exit(other);
  CHECK(fsf.events("engine_failure").empty());
  const auto ends = fsf.events("game_end");
  REQUIRE(ends.size() == 1);
  // The test engine plays random legal moves: it loses, but every move of it was legal.
  CHECK(ends[0].find("reason=no_moves") != std::string::npos);
  Client watcher(server.port());
  watcher.hello("watcher");
  const auto games = history_of(watcher, "fsf").games;
  REQUIRE(games.size() == 1);
  watcher.send(RecordRequest{games[0].game, RecordFormat::Json});
  const auto record = record_from_json(watcher.expect<Record>().record);
  REQUIRE(record);
  CHECK(replay(*record));
  CHECK(record->moves.size() > 6);
}

TEST_CASE("bots: an engine program that crashes is restarted and the game goes on") {
  TempDir dir;
  ServerProcess server(dir.path());
  const auto marker = dir.path() / "crashed-once";
  const std::string flaky = (kTestData / "flaky_engine.sh").string() + " " + marker.string() +
                            " 3 'go*' " + engine_command();
  BotProcess crashy(dir.path(), server.port(),
                    with({"--name", "crashy", "--engine", flaky, "--games", "1"}, kQuickSeek));
  BotProcess other(dir.path(), server.port(),
                   with({"--name", "other", "--level", "beginner", "--games", "1"}, kQuickSeek));
  require_clean_exit(crashy);
  require_clean_exit(other);
  const auto failures = crashy.events("engine_failure");
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].find("kind=crash restarting=true") != std::string::npos);
  CHECK(failures[0].find("exited with code 3") != std::string::npos);
  const auto ends = crashy.events("game_end");
  REQUIRE(ends.size() == 1);
  CHECK(ends[0].find("reason=no_moves") != std::string::npos);
  CHECK(crashy.events("game_note").empty());
}

TEST_CASE("bots: a hung engine resigns before its flag falls, garbage is logged and resigns") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::string broken = (kTestData / "broken_engine.sh").string();
  // A hung engine resigns with half the 600 ms lag margin left: time enough on a busy machine.
  const std::vector<std::string> seek = {"--rules", "botzone8", "--seek",       "2/move",
                                         "--games", "1",        "--lag-margin", "600"};

  SUBCASE("hang") {
    BotProcess hung(dir.path(), server.port(),
                    with({"--name", "hung", "--engine", broken + " hang"}, seek));
    BotProcess other(dir.path(), server.port(),
                     with({"--name", "other", "--level", "beginner"}, seek));
    require_clean_exit(hung);
    require_clean_exit(other);
    const auto ends = hung.events("game_end");
    REQUIRE(ends.size() == 1);
    CHECK(ends[0].find("result=loss reason=resign") != std::string::npos);
    // Usually the game's watchdog resigns first; on a busy machine the engine player's own
    // timeout (its budget plus a grace period, a little later) may: either way, a resignation.
    CHECK((!hung.events("game_note", "rather than losing on time").empty() ||
           !hung.events("engine_failure", "kind=timeout").empty()));
  }
  SUBCASE("garbage") {
    BotProcess garbage(
        dir.path(), server.port(),
        with({"--name", "garbage", "--engine", broken + " garbage", "--engine-restarts", "1"},
             seek));
    BotProcess other(dir.path(), server.port(),
                     with({"--name", "other", "--level", "beginner"}, seek));
    require_clean_exit(garbage);
    require_clean_exit(other);
    const auto failures = garbage.events("engine_failure", "kind=garbage");
    REQUIRE(failures.size() == 2);
    CHECK(failures[0].find("restarting=true") != std::string::npos);
    CHECK(failures[1].find("restarting=false") != std::string::npos);
    CHECK(failures[1].find("bestmove \\\"banana\\\" is not a move") != std::string::npos);
    const auto ends = garbage.events("game_end");
    REQUIRE(ends.size() == 1);
    CHECK(ends[0].find("result=loss reason=resign") != std::string::npos);
  }
}

TEST_CASE("bots: challenges are filtered, open games joined, and a stop lets games finish") {
  TempDir dir;
  ServerProcess server(dir.path());
  BotProcess bot(dir.path(), server.port(),
                 {"--name", "picky", "--level", "beginner", "--max-games", "1", "--min-time", "60",
                  "--no-unlimited", "--list-interval", "0.2"});
  REQUIRE(bot.wait_event("logged_in"));
  Client alice(server.port()), bob(server.port());
  alice.hello("alice");
  bob.hello("bob");

  // Too fast for the filter: declined with the reason in the log.
  alice.send(ChallengeSend{"picky", "standard", TimeControl::fischer(Millis{10'000}, Millis{0}),
                           ColorChoice::Black, false});
  const auto sent = alice.expect<ChallengeSent>();
  CHECK(alice.expect<ChallengeClosed>().reason == "declined");
  CHECK_FALSE(bot.events("challenge", "decision=decline why=\"time control 10+0").empty());

  // An open game that fits is joined; one that does not is left alone.
  bob.send(Create{"standard", TimeControl::fischer(Millis{5000}, Millis{0}), ColorChoice::White});
  bob.expect<Created>();
  alice.send(
      Create{"standard", TimeControl::fischer(Millis{300'000}, Millis{0}), ColorChoice::Black});
  const auto wanted = alice.expect<Created>().game;
  const auto start = alice.expect<Start>(seconds(5));
  CHECK(start.game == wanted);
  CHECK(start.white.name == "picky");
  CHECK(start.white.bot);
  alice.expect<Moved>(seconds(5));  // the bot moves first

  // Busy with one game: a fitting challenge is declined too.
  bob.send(ChallengeSend{"picky", "standard", TimeControl::fischer(Millis{300'000}, Millis{0}),
                         ColorChoice::Random, false});
  bob.expect<ChallengeSent>();
  CHECK(bob.expect<ChallengeClosed>().reason == "declined");
  CHECK_FALSE(bot.events("challenge", "why=\"already playing 1 of at most 1 games\"").empty());

  // A stop: no new games, the one in progress finishes, then the bot leaves.
  bot.signal(SIGTERM);
  REQUIRE(bot.wait_event("draining"));
  CHECK_FALSE(bot.wait_exit(std::chrono::milliseconds(300)));
  alice.send(Resign{{wanted}});
  CHECK(alice.expect<End>().winner == Color::White);
  require_clean_exit(bot, seconds(10));
  CHECK(bot.events("game_end", "result=win reason=resign").size() == 1);
  (void)sent;
}

TEST_CASE("bots: a bot run in Chinese says in its log why it declines and why it stops") {
  TempDir dir;
  ServerProcess server(dir.path());
  BotProcess bot(dir.path(), server.port(),
                 {"--name", "xiaobai", "--level", "beginner", "--no-challenges", "--no-join",
                  "--language", "zh-CN"});
  REQUIRE(bot.wait_event("logged_in"));
  Client alice(server.port());
  alice.hello("alice");
  alice.send(ChallengeSend{"xiaobai", "standard", TimeControl::fischer(Millis{60'000}, Millis{0}),
                           ColorChoice::Black, false});
  alice.expect<ChallengeSent>();
  CHECK(alice.expect<ChallengeClosed>().reason == "declined");
  CHECK(bot.wait_event("challenge", "decision=decline why=不接受挑战"));
  bot.signal(SIGTERM);
  require_clean_exit(bot, seconds(10));
  INFO(bot.log());
  CHECK_FALSE(bot.events("draining", "why=收到停止请求：先下完进行中的对局").empty());
  // The events and keys stay as they are; the sentences are the person's language.
  for (const char* english : {"does not take", "asked to stop", "finishing the games"})
    CHECK(bot.log().find(english) == std::string::npos);
}

TEST_CASE("bots: a bot plays several games at once, up to its maximum") {
  TempDir dir;
  ServerProcess server(dir.path());
  BotProcess bot(dir.path(), server.port(),
                 {"--name", "busy", "--level", "beginner", "--max-games", "2", "--no-join"});
  REQUIRE(bot.wait_event("logged_in"));
  Client alice(server.port()), bob(server.port()), carol(server.port());
  alice.hello("alice");
  bob.hello("bob");
  carol.hello("carol");
  std::vector<std::string> games;
  for (Client* c : {&alice, &bob}) {
    c->send(ChallengeSend{"busy", "standard", {}, ColorChoice::Black, false});
    c->expect<ChallengeSent>();
    games.push_back(c->expect<Start>().game);
  }
  // Both games are played at once: the bot has moved in each.
  CHECK(alice.expect<Moved>().game == games[0]);
  CHECK(bob.expect<Moved>().game == games[1]);
  carol.send(ChallengeSend{"busy", "standard", {}, ColorChoice::Black, false});
  carol.expect<ChallengeSent>();
  CHECK(carol.expect<ChallengeClosed>().reason == "declined");
  CHECK_FALSE(bot.events("challenge", "why=\"already playing 2 of at most 2 games\"").empty());
  alice.send(Resign{{games[0]}});
  alice.expect<End>();
  bob.send(Resign{{games[1]}});
  bob.expect<End>();
  REQUIRE(bot.wait_event("game_end", "game=" + games[1]));
  CHECK(bot.events("game_end", "result=win reason=resign").size() == 2);
  bot.signal(SIGINT);
  require_clean_exit(bot, seconds(10));
}

TEST_CASE("bots: a bot restarted with its password picks its game up again") {
  TempDir dir;
  ServerProcess server(dir.path());
  const std::vector<std::string> args = {"--name",  "phoenix",  "--password",      "pw",
                                         "--level", "beginner", "--list-interval", "0.2"};
  auto first = std::make_unique<BotProcess>(dir.path(), server.port(), args);
  Client alice(server.port());
  alice.hello("alice");
  alice.send(Create{"standard", {}, ColorChoice::White});
  const auto game = alice.expect<Created>().game;
  CHECK(alice.expect<Start>(seconds(10)).black.name == "phoenix");
  Position pos(standard_variant());
  const auto play = [&](const std::string& move) {
    alice.send(MoveMsg{game, move});
    alice.expect<Moved>();
    pos.do_move(*parse_move(move));
    const auto reply = alice.expect<Moved>(seconds(10));  // the bot's answer
    const auto m = parse_move(reply.move);
    REQUIRE(m);
    REQUIRE_FALSE(pos.check(*m));
    pos.do_move(*m);
    return reply.ply;
  };
  CHECK(play("d1-d7/g7") == 2);

  first->signal(SIGKILL);
  CHECK(first->wait_exit(seconds(5)) == -1);
  CHECK_FALSE(alice.expect<Presence>().online);
  BotProcess second(dir.path(), server.port(), args);
  CHECK(alice.expect<Presence>(seconds(10)).online);
  REQUIRE(second.wait_event("game_start", "game=" + game));
  MoveList moves;
  generate_moves(pos, moves);
  CHECK(play(to_string(moves[0])) == 4);
  alice.send(Resign{{game}});
  alice.expect<End>();
  REQUIRE(second.wait_event("game_end", "result=win"));
  second.signal(SIGTERM);
  require_clean_exit(second, seconds(10));
}

namespace {

// A certificate for the server, made here so that the test knows its fingerprint.
struct TestCertificate {
  TestCertificate(const std::filesystem::path& dir, const std::string& stem) {
    cert = dir / (stem + ".crt");
    key = dir / (stem + ".key");
    REQUIRE(tls::write_self_signed(cert, key, {"localhost", "127.0.0.1"}).has_value());
    fingerprint = tls::fingerprint_of_pem(cert).value();
  }
  std::filesystem::path cert, key;
  std::string fingerprint;
};

}  // namespace

TEST_CASE("bots: over TLS, trusting the first certificate seen, a bot plays a whole game") {
  TempDir dir;
  const TestCertificate cert(dir.path(), "server");
  ServerProcess server(dir.path(), nlohmann::json::object(),
                       {"--tls-cert", cert.cert.string(), "--tls-key", cert.key.string()});
  const std::string address = "tls://127.0.0.1:" + std::to_string(server.port());
  const auto known = dir.path() / "state" / "known_servers";
  // First use: the fingerprint is logged and remembered; the other one is pinned on the command
  // line. Both log in with a password, which the server takes only over TLS from other hosts.
  BotProcess first(dir.path(), server.port(),
                   with({"--server", address, "--known-servers", known.string(), "--name", "tofu",
                         "--password", "pw-tofu", "--level", "beginner", "--games", "1"},
                        kQuickSeek));
  BotProcess pinned(
      dir.path(), server.port(),
      with({"--server", address, "--tls-fingerprint", cert.fingerprint, "--name", "pinned",
            "--password", "pw-pinned", "--level", "beginner", "--games", "1"},
           kQuickSeek));
  require_clean_exit(first);
  require_clean_exit(pinned);
  CHECK(first.events("tls_trust_first_use", cert.fingerprint).size() == 1);
  CHECK(pinned.events("tls_trust_first_use").empty());
  CHECK(first.events("game_end").size() == 1);
  CHECK(pinned.events("game_end").size() == 1);
  const auto remembered = bot::load_known_servers(known);
  REQUIRE(remembered);
  CHECK(remembered->at("127.0.0.1:" + std::to_string(server.port())) == cert.fingerprint);
  Client watcher(server.port());
  watcher.hello("watcher");
  const auto games = history_of(watcher, "tofu").games;
  REQUIRE(games.size() == 1);
  CHECK((games[0].white.name == "pinned" || games[0].black.name == "pinned"));

  // The known certificate is used again without a word; a different one is refused.
  BotProcess again(
      dir.path(), server.port(),
      with({"--server", address, "--known-servers", known.string(), "--name", "tofu", "--password",
            "pw-tofu", "--level", "beginner", "--games", "1", "--no-join"},
           kQuickSeek));
  REQUIRE(again.wait_event("logged_in"));
  CHECK(again.events("tls_trust_first_use").empty());
  again.signal(SIGINT);
  const TestCertificate other(dir.path(), "other");
  REQUIRE_FALSE(
      bot::remember_server(known, "127.0.0.1:" + std::to_string(server.port()), other.fingerprint));
  BotProcess refused(dir.path(), server.port(),
                     {"--server", address, "--known-servers", known.string(), "--name", "tofu2"});
  const auto status = refused.wait_exit(seconds(20));
  INFO(refused.log());
  REQUIRE(status.has_value());
  CHECK(*status == 1);
  CHECK(refused.events("tls_certificate_refused", other.fingerprint).size() == 1);
  CHECK(refused.events("tls_certificate_refused", cert.fingerprint).size() == 1);
}

TEST_CASE("bots: a bot with --ponder thinks on the reply it expects and logs what came") {
  TempDir dir;
  ServerProcess server(dir.path());
  BotProcess ponderer(dir.path(), server.port(),
                      with({"--name", "pondering", "--level", "medium", "--ponder", "--games", "1",
                            "--max-games", "1"},
                           kQuickSeek));
  BotProcess plain(
      dir.path(), server.port(),
      with({"--name", "plain", "--level", "medium", "--games", "1", "--max-games", "1"},
           kQuickSeek));
  require_clean_exit(ponderer);
  require_clean_exit(plain);
  const auto ends = ponderer.events("game_end");
  REQUIRE(ends.size() == 1);
  INFO(ends[0]);
  CHECK(ends[0].find(" reason=no_moves") != std::string::npos);  // no time loss, no illegal move
  // The same engine on the other side: most replies are the ones expected.
  const auto hits_at = ends[0].find(" ponder_hits=");
  REQUIRE(hits_at != std::string::npos);
  CHECK(std::stoi(ends[0].substr(hits_at + 13)) >= 1);
  CHECK(ends[0].find(" ponder_misses=") != std::string::npos);
  CHECK(ponderer.events("starting", "ponder=true").size() == 1);
  // Without --ponder nothing is counted.
  REQUIRE(plain.events("game_end").size() == 1);
  CHECK(plain.events("game_end")[0].find(" ponder_hits=\"\"") != std::string::npos);
}

TEST_CASE(
    "bots: a bot takes a game of a day per move, thinks its own time, and leaves it waiting") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"limits", {{"claim_grace_seconds", 0.2}}}});
  BotProcess bot(dir.path(), server.port(), {"--name", "postal", "--level", "beginner"});
  REQUIRE(bot.wait_event("logged_in"));
  Client alice(server.port());
  alice.hello("alice");
  const auto per_day = TimeControl::fixed_per_move(Millis{86'400'000});
  alice.send(ChallengeSend{"postal", "standard", per_day, ColorChoice::Black, false});
  const auto game = alice.expect<ChallengeSent>();
  const auto start = alice.expect<Start>(seconds(5));
  CHECK(start.time == per_day);
  CHECK(start.white.name == "postal");
  // The engine's level decides how long it thinks, not the day on its clock.
  const auto first = alice.expect<Moved>(seconds(10));
  REQUIRE(first.clock.has_value());
  CHECK(first.clock->white == 86'400'000);  // a fresh day for the next move
  CHECK(alice.expect<YourTurn>().games.at(0).game == start.game);
  alice.send(MoveMsg{start.game, "a7-b7/c7"});
  alice.expect<Moved>();
  CHECK(alice.expect<Moved>(seconds(10)).ply == 3);
  alice.expect<YourTurn>();
  // Alice goes away: in a correspondence game the bot does not claim (only the clock decides).
  alice.raw().close();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(bot.events("claim").empty());
  // Stopped, the bot leaves at once: the game waits at the server.
  bot.signal(SIGTERM);
  require_clean_exit(bot, seconds(10));
  Client carol(server.port());
  carol.hello("carol");
  carol.send(List{});
  const auto games = carol.expect<Games>().games;
  REQUIRE(games.size() == 1);
  CHECK(games[0].status == GameStatus::Active);
  (void)game;
}
