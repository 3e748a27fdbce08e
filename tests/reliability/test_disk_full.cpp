// The disk fills up under load: the real amazons-server keeps its SQLite database on a 3 MiB
// tmpfs while eight pairs of real TCP clients play random games as fast as the server answers.
// When a commit fails, the server must tell every client, exit with status 1 at once (so that a
// supervisor restarts it), and have lost nothing it acknowledged: with room again, the database
// holds every move any client was told of. Needs root for the mount (CI runs as root); skipped
// with a message elsewhere.
#include <doctest/doctest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <random>
#include <thread>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/position.h"
#include "common/variant.h"
#include "server/storage/open_storage.h"
#include "tests/integration/server_process.h"

namespace {

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
namespace fs = std::filesystem;

constexpr int kPairs = 8;
constexpr auto kRunDeadline = std::chrono::seconds(60);

struct Seat {
  std::optional<net::LineClient> conn;
  bool told = false;  // received the server's "cannot store games" error
  bool closed = false;
};

struct PairRun {
  std::map<std::string, std::vector<std::string>> acked;  // game -> moves the clients were told of
  Seat seats[2];
  std::string problem;
};

// The next message on a seat, or nullopt when the connection ended (or nothing came in time).
// Remembers the storage-failure notice.
std::optional<ServerEnvelope> next(Seat& s, Millis timeout = Millis{10000}) {
  for (;;) {
    auto line = s.conn->read_line(timeout);
    if (!line) {
      s.closed = true;
      return std::nullopt;
    }
    auto env = decode_server(*line);
    if (!env) continue;
    if (std::holds_alternative<Ping>(env->message)) {
      s.conn->send_line(encode(ClientMessage{Pong{}}));
      continue;
    }
    if (const auto* e = std::get_if<Error>(&env->message);
        e && e->message.find("cannot store games") != std::string::npos)
      s.told = true;
    return std::move(*env);
  }
}

template <class M>
std::optional<M> until(Seat& s) {
  while (auto env = next(s))
    if (auto* m = std::get_if<M>(&env->message))
      return *m;
    else if (std::holds_alternative<Error>(env->message))
      return std::nullopt;
  return std::nullopt;
}

void play(unsigned short port, int index, PairRun& run, const std::atomic<bool>& stop) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(index) + 1);
  for (int i = 0; i < 2; ++i) {
    auto c = net::LineClient::connect("127.0.0.1", port);
    if (!c) {
      run.problem = "connect: " + c.error();
      return;
    }
    run.seats[i].conn.emplace(std::move(*c));
    run.seats[i].conn->send_line(R"({"type":"hello","protocol":1,"name":"p)" +
                                 std::to_string(index) + "_" + std::to_string(i) + R"("})");
    if (!until<Welcome>(run.seats[i])) return;
  }
  const RuleVariant standard = standard_variant();
  while (!stop) {
    run.seats[0].conn->send_line(
        R"({"type":"create","rules":"standard","color":"white","time":null})");
    const auto created = until<Created>(run.seats[0]);
    if (!created) return;
    run.seats[1].conn->send_line(encode(ClientMessage{Join{created->game, std::nullopt}}));
    if (!until<Start>(run.seats[1]) || !until<Start>(run.seats[0])) return;
    auto& acked = run.acked[created->game];
    Position pos(standard);
    auto moves = std::make_unique<MoveList>();
    while (!stop && !pos.is_game_over()) {
      moves->clear();
      generate_moves(pos, *moves);
      const Move m =
          (*moves)[std::uniform_int_distribution<std::size_t>(0, moves->size() - 1)(rng)];
      Seat& mover = run.seats[pos.side_to_move() == Color::White ? 0 : 1];
      Seat& other = run.seats[pos.side_to_move() == Color::White ? 1 : 0];
      mover.conn->send_line(encode(ClientMessage{MoveMsg{created->game, to_string(m)}}));
      const auto ack = until<Moved>(mover);
      if (!ack) return;
      acked.push_back(ack->move);
      if (ack->move != to_string(m)) run.problem = "the server acknowledged another move";
      pos.do_move(m);
      if (!until<Moved>(other)) return;
    }
    if (pos.is_game_over() && (!until<End>(run.seats[0]) || !until<End>(run.seats[1]))) return;
  }
}

struct Mount {
  fs::path dir;
  bool mounted = false;
  Mount(fs::path d, const char* options) : dir(std::move(d)) {
    mounted = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options) == 0;
  }
  bool grow(const char* options) {
    return ::mount("tmpfs", dir.c_str(), "tmpfs", MS_REMOUNT, options) == 0;
  }
  ~Mount() {
    if (mounted) ::umount2(dir.c_str(), MNT_DETACH);
  }
};

}  // namespace

TEST_CASE("disk full: the server tells every client, exits 1, and loses nothing it acknowledged") {
  TempDir dir;
  const fs::path disk = dir.path() / "disk";
  fs::create_directories(disk);
  Mount small(disk, "size=3m,mode=0755");
  if (!small.mounted) {
    MESSAGE("skipped: mounting a tmpfs needs root (" << std::strerror(errno) << ")");
    return;
  }
  const std::string db = (disk / "amazons.db").string();
  Launch launch;
  launch.db = db;
  launch.stderr_file = dir.path() / "server.log";
  ServerProcess server(dir.path(),
                       nlohmann::json{{"limits",
                                       {{"requests_per_second", 10000},
                                        {"requests_burst", 10000},
                                        {"connections_per_address", 100}}}},
                       {}, launch);
  std::vector<PairRun> runs(kPairs);
  std::atomic<bool> stop = false;
  std::vector<std::thread> threads;
  for (int i = 0; i < kPairs; ++i)
    threads.emplace_back(
        [&, i] { play(server.port(), i, runs[static_cast<std::size_t>(i)], stop); });
  // The load runs until the disk is full and the server exits by itself.
  const auto status = server.wait_exit(std::chrono::duration_cast<Millis>(kRunDeadline));
  stop = true;
  for (auto& t : threads) t.join();
  REQUIRE_MESSAGE(status.has_value(), "the disk never filled, or the server did not exit");
  CHECK(*status == 1);
  std::ifstream log_file(launch.stderr_file);
  const std::string log((std::istreambuf_iterator<char>(log_file)),
                        std::istreambuf_iterator<char>());
  CHECK_MESSAGE(log.find("storage_failed") != std::string::npos, log);
  CHECK_MESSAGE(log.find("disk is full") != std::string::npos, log);  // SQLite's SQLITE_FULL

  std::size_t total_acked = 0;
  for (auto& run : runs) {
    CHECK_MESSAGE(run.problem.empty(), run.problem);
    for (auto& seat : run.seats) {
      // Whatever was still in flight, the last thing a client hears is why the server stopped.
      while (seat.conn && !seat.closed) next(seat, Millis{2000});
      CHECK(seat.told);
    }
    for (const auto& [game, moves] : run.acked) total_acked += moves.size();
  }
  MESSAGE("moves acknowledged before the disk filled: " << total_acked);
  CHECK(total_acked > 100);

  // Room again: every acknowledged move is in the database, in order.
  REQUIRE(small.grow("size=64m,mode=0755"));
  const auto storage = server::open_storage(db);
  for (const auto& run : runs)
    for (const auto& [game, moves] : run.acked) {
      if (moves.empty()) continue;
      const auto record = storage->game_record(static_cast<server::GameId>(std::stoll(game)));
      REQUIRE_MESSAGE(record.has_value(), "game " << game << " is not in the database");
      REQUIRE_MESSAGE(record->moves.size() >= moves.size(), "game " << game << " lost moves");
      for (std::size_t i = 0; i < moves.size(); ++i)
        CHECK(to_string(record->moves[i].move) == moves[i]);
    }
}
