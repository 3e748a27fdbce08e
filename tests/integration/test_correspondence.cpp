// Correspondence against the real amazons-server: an open game left overnight, a game of a day
// per move across two restarts, a player away for a (simulated) day, a refused early claim and
// a won claim once the clock has run out. The day passes through --test-clock: the server's
// clock is moved ahead by a file the test writes and a SIGHUP, so the test takes seconds.
#include <doctest/doctest.h>

#include <fstream>
#include <thread>

#include "server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Client;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;
const nlohmann::json kConfig = {{"limits", {{"claim_grace_seconds", 0.2}}}};

void set_clock(const std::filesystem::path& file, double seconds_ahead) {
  std::ofstream(file) << seconds_ahead << "\n";
}

// Waits until the server's log (its stderr) has a line containing `text`.
bool log_has(const std::filesystem::path& log, const std::string& text) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);)
      if (line.find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string resume_line(const std::string& name, const std::string& token) {
  return R"({"type":"hello","protocol":1,"name":")" + name + R"(","token":")" + token + "\"}";
}

}  // namespace

TEST_CASE("server: a correspondence game across two restarts and a player away for a day") {
  TempDir dir;
  const auto clock = dir.path() / "clock";
  set_clock(clock, 0);
  const std::vector<std::string> flags = {"--test-clock", clock.string()};
  Launch launch;
  launch.stderr_file = dir.path() / "server.log";
  std::string game, alice_token, bob_token;
  {
    // Alice opens a game of a day per move and goes to bed. (Her name has a password: only a
    // registered player's offers are kept while they are away.)
    ServerProcess server(dir.path(), kConfig, flags, launch);
    CHECK(log_has(launch.stderr_file, "event=test_clock"));
    Client alice(server.port());
    alice_token = alice.hello("alice", R"(,"password":"alice's secret")");
    alice.send(R"({"type":"create","color":"white","time":{"per_move":86400}})");
    game = alice.expect<Created>().game;
    alice.raw().close();
    CHECK(server.stop(SIGTERM) == 0);
  }
  {
    // Restart 1: the open game is still there; Bob takes it while Alice is away.
    ServerProcess server(dir.path(), kConfig, flags, launch);
    Client bob(server.port());
    bob_token = bob.hello("bob");
    bob.send(List{});
    const auto listed = bob.expect<Games>().games;
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].game == game);
    CHECK(to_string(listed[0].time) == "1d/move");
    CHECK(listed[0].expires_at.has_value());
    bob.send(Join{game, std::nullopt});
    CHECK(bob.expect<Start>().color == Color::Black);
    CHECK_FALSE(bob.expect<Presence>().online);  // Alice is away

    // Alice comes back: her turn, with a day to move.
    Client alice(server.port());
    alice.send(resume_line("alice", alice_token));
    CHECK(alice.expect<Welcome>().games == std::vector<std::string>{game});
    CHECK(alice.expect<State>().to_move == Color::White);
    const auto turns = alice.expect<YourTurn>();
    REQUIRE(turns.games.size() == 1);
    CHECK(turns.games[0].game == game);
    CHECK(turns.games[0].opponent == "bob");
    CHECK(*turns.games[0].left_ms > kDayMs - 60'000);
    CHECK(bob.expect<Presence>().online);
    alice.send(MoveMsg{game, "d1-d7/g7"});
    alice.expect<Moved>();
    bob.expect<Moved>();
    CHECK(bob.expect<YourTurn>().games.at(0).plies == 1);
    bob.send(MoveMsg{game, "a7-b7/c7"});
    bob.expect<Moved>();
    alice.expect<Moved>();
    alice.expect<YourTurn>();
    alice.send(MoveMsg{game, "g1-g3/g1"});
    alice.expect<Moved>();
    bob.expect<Moved>();
    bob.expect<YourTurn>();
    CHECK(server.stop(SIGTERM) == 0);
  }
  // Restart 2, and Bob stays away.
  ServerProcess server(dir.path(), kConfig, flags, launch);
  Client alice(server.port());
  alice.send(resume_line("alice", alice_token));
  alice.expect<Welcome>();
  const auto st = alice.expect<State>();
  CHECK(st.moves.size() == 3);
  CHECK(st.to_move == Color::Black);
  CHECK(std::find(st.offline.begin(), st.offline.end(), Color::Black) != st.offline.end());
  // Far past the real-time grace (0.2 s here), Bob's absence wins nothing.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  alice.send(Claim{{game}});
  const auto early = alice.expect<Error>();
  CHECK(early.code == ErrorCode::NotAllowed);
  CHECK(early.message.find("only the clock decides") != std::string::npos);

  // A day and a minute later (simulated), Bob has not moved: the claim finds him out of time.
  set_clock(clock, 86'460);
  server.signal(SIGHUP);
  REQUIRE(log_has(launch.stderr_file, "ahead_ms=86460000"));
  alice.send(Claim{{game}});
  const auto end = alice.expect<End>();
  CHECK(end.game == game);
  CHECK(end.winner == Color::White);
  CHECK(end.reason == EndReason::Time);

  // Bob, back after his day away, finds the game in the archive, lost on time.
  Client bob(server.port());
  bob.send(resume_line("bob", bob_token));
  CHECK(bob.expect<Welcome>().games.empty());
  bob.send(HistoryRequest{std::nullopt, 5});
  const auto history = bob.expect<History>();
  REQUIRE(history.games.size() == 1);
  CHECK(history.games[0].game == game);
  CHECK(history.games[0].reason == EndReason::Time);
  CHECK(history.games[0].winner == Color::White);
  // The clock only runs forward: a smaller offset is refused and logged.
  set_clock(clock, 10);
  server.signal(SIGHUP);
  CHECK(log_has(launch.stderr_file, "event=test_clock_refused"));
}

TEST_CASE("server: --test-clock refuses a file that holds no number of seconds") {
  TempDir dir;
  const auto clock = dir.path() / "clock";
  std::ofstream(clock) << "tomorrow\n";
  const std::string cmd = std::string(amazons::test::kServerBinary) + " --port 0 --db " +
                          (dir.path() / "x.db").string() + " --test-clock " + clock.string() +
                          " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "x.db"));
}
