// The server leaks nothing: a real session through every kind of request, then a clean
// shutdown (SIGTERM), with the server under LeakSanitizer (in the sanitizer build) or under
// valgrind's memcheck (in the others). Any leak report, or any memory error valgrind sees, fails.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "common/protocol.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Launch leak_checked(const std::filesystem::path& report) {
  Launch l;
  l.stderr_file = report;
#if AMAZONS_SANITIZED
  l.environment = {{"ASAN_OPTIONS", "detect_leaks=1:exitcode=23"},
                   {"LSAN_OPTIONS", "report_objects=1"}};
#else
  l.wrapper = {"valgrind", "--leak-check=full",
               "--errors-for-leak-kinds=definite,indirect,possible", "--error-exitcode=23",
               // Threads blocked in the kernel hold nothing of ours: no need to wait long.
               "--fair-sched=yes"};
#endif
  return l;
}

}  // namespace

TEST_CASE("leaks: a whole session and a clean shutdown, with zero leak reports") {
  TempDir dir;
  const auto report = dir.path() / "server-stderr.txt";
  // Timeouts for a server running some 20 times slower under valgrind.
  std::optional<ServerProcess> server;
  server.emplace(dir.path(), nlohmann::json::object(), std::vector<std::string>{},
                 leak_checked(report));
  const Millis slow{60'000};
  {
    Client alice(server->port()), bob(server->port()), eve(server->port());
    alice.send(R"({"type":"hello","protocol":1,"name":"alice","password":"pa55word"})");
    const auto token = alice.expect<Welcome>(slow).token;
    bob.send(R"({"type":"hello","protocol":1,"name":"bob","bot":true})");
    bob.expect<Welcome>(slow);
    eve.send(R"({"type":"hello","protocol":1,"name":"eve"})");
    eve.expect<Welcome>(slow);

    Create c;
    c.color = ColorChoice::White;
    c.time = *time_control_from_json(nlohmann::json{{"initial", 300}, {"increment", 5}});
    c.rated = true;
    alice.send(c);
    const auto game = alice.expect<Created>(slow).game;
    eve.send(List{});
    CHECK(eve.expect<Games>(slow).games.size() == 1);
    bob.send(Join{game, std::nullopt});
    bob.expect<Start>(slow);
    alice.expect<Start>(slow);
    eve.send(Watch{game, std::nullopt});
    eve.expect<State>(slow);
    alice.send(MoveMsg{game, "d1-d7/g7"});
    alice.expect<Moved>(slow);
    bob.expect<Moved>(slow);
    eve.expect<Moved>(slow);
    bob.send(MoveMsg{game, "a7-a1/a2"});
    CHECK(bob.expect_error() == ErrorCode::IllegalMove);
    eve.send(ChatSend{game, "hello"});
    for (Client* x : {&alice, &bob, &eve}) x->expect<Chat>(slow);

    // Bad input of several kinds.
    eve.send("not json");
    CHECK(eve.expect<Error>(slow).code == ErrorCode::BadJson);
    eve.send(R"({"type":"dance"})");
    CHECK(eve.expect<Error>(slow).code == ErrorCode::UnknownType);

    // A dropped connection and a resumed seat.
    alice.raw().close();
    bob.expect<Presence>(slow);
    eve.expect<Presence>(slow);
    Client alice2(server->port());
    alice2.send(R"({"type":"hello","protocol":1,"name":"alice","token":")" + token + "\"}");
    alice2.expect<Welcome>(slow);
    alice2.expect<State>(slow);
    bob.expect<Presence>(slow);
    eve.expect<Presence>(slow);

    // Challenges, seeks, the archive.
    eve.send(
        R"({"type":"challenge","player":"bob","rules":"standard","time":null,"color":"white"})");
    const auto sent = eve.expect<ChallengeSent>(slow);
    bob.expect<ChallengeReceived>(slow);
    bob.send(Decline{sent.challenge});
    bob.expect<Ok>(slow);
    eve.expect<ChallengeClosed>(slow);
    eve.send(R"({"type":"seek","rules":"standard","time":null,"rated":false})");
    eve.expect<Seeking>(slow);
    alice2.send(Resign{{game}});
    alice2.expect<End>(slow);
    bob.expect<End>(slow);
    eve.expect<End>(slow);
    bob.send(RecordRequest{game, RecordFormat::Text});
    bob.expect<Record>(slow);
    bob.send(HistoryRequest{std::string("alice"), 5});
    CHECK(bob.expect<History>(slow).games.size() == 1);
    bob.send(LeaderboardRequest{10});
    CHECK(bob.expect<Leaderboard>(slow).players.size() == 2);
    bob.send(Players{});
    bob.expect<PlayerList>(slow);
    // Clients still connected at shutdown are told and closed by the server.
    CHECK(server->stop(SIGTERM) == 0);
  }
  const std::string text = read_file(report);
  INFO("the server's stderr:\n" << text);
  CHECK(text.find("LeakSanitizer") == std::string::npos);
  CHECK(text.find("AddressSanitizer") == std::string::npos);
#if !AMAZONS_SANITIZED
  // Leaks of every kind but "still reachable" count as errors (--errors-for-leak-kinds), and
  // the summary shows valgrind really ran.
  CHECK(text.find("ERROR SUMMARY: 0 errors") != std::string::npos);
#endif
}
