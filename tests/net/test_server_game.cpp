#include <doctest/doctest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <thread>

#include "common/local_game.h"
#include "common/notation.h"
#include "net/server_game.h"
#include "net_util.h"
#include "tests/common/test_util.h"
#include "tests/integration/server_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::net::ClientError;
using amazons::net::Connection;
using amazons::net::ServerGame;
using amazons::test::call;
using amazons::test::connection_options;
using amazons::test::ServerProcess;
using amazons::test::TempDir;

namespace {

// A 6x6 board with one queen a side: whole games in a few dozen plies.
std::filesystem::path tiny_rules(const TempDir& dir) {
  const auto rules = dir.path() / "rules";
  std::filesystem::create_directories(rules);
  std::ofstream(rules / "tiny.json")
      << R"({"name":"tiny","size":6,"white":["a1"],"black":["f6"],"first":"white"})";
  return rules;
}

// Runs `fn` in the connection's callback context and waits for it.
void in_context(Connection& c, std::function<void()> fn) {
  std::promise<void> done;
  c.post([&] {
    fn();
    done.set_value();
  });
  REQUIRE(done.get_future().wait_for(std::chrono::seconds(10)) == std::future_status::ready);
}

// One account at the server: a connection, and a ServerGame for each game it is given, all
// played by one local Player. Records what the drivers report, for the test thread to wait on.
class Seat : public net::ServerGameObserver {
 public:
  Seat(unsigned short port, const std::string& name, Player& player,
       net::ServerGameOptions options = {})
      : player_(player),
        options_(options),
        connection_(connection_options(port, name),
                    [this](const net::ConnectionEvent& e) { on_event(e); }) {
    connection_.start();
  }
  ~Seat() override { leave(); }

  // Closes the connection after dropping the games (in the callback context, as they require).
  void leave() {
    if (left_) return;
    left_ = true;
    in_context(connection_, [&] { games_.clear(); });
    connection_.close();
  }
  Connection& connection() { return connection_; }

  std::optional<GameResult> wait_end(Millis timeout = Millis{10000}) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return result_.has_value(); });
    return result_;
  }
  bool wait_moves(std::size_t n, Millis timeout = Millis{10000}) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return moves_.size() >= n; });
  }
  bool wait_online(Millis timeout = Millis{10000}) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (connection_.status() != net::ConnectionStatus::Online &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return connection_.status() == net::ConnectionStatus::Online;
  }
  std::vector<Move> moves() {
    std::lock_guard lock(mutex_);
    return moves_;
  }
  std::vector<std::string> notes() {
    std::lock_guard lock(mutex_);
    return notes_;
  }
  bool noted(std::string_view what, std::string_view says = "") {
    for (const auto& n : notes())
      if (n.rfind(std::string(what) + ": ", 0) == 0 && n.find(says) != std::string::npos)
        return true;
    return false;
  }

  void on_game_move(const ServerGame&, Move m, Color) override {
    std::lock_guard lock(mutex_);
    moves_.push_back(m);
    changed_.notify_all();
  }
  void on_game_end(const ServerGame&, const GameResult& r) override {
    std::lock_guard lock(mutex_);
    result_ = r;
    changed_.notify_all();
  }
  void on_game_note(const ServerGame&, std::string_view what, const std::string& detail) override {
    std::lock_guard lock(mutex_);
    notes_.push_back(std::string(what) + ": " + detail);
  }

 private:
  void on_event(const net::ConnectionEvent& e) {
    const auto* m = std::get_if<net::MessageEvent>(&e);
    if (!m) return;
    std::string game;
    if (const auto* s = std::get_if<Start>(&m->message)) game = s->game;
    if (const auto* s = std::get_if<State>(&m->message)) game = s->game;
    if (!game.empty() && !games_.contains(game))
      games_.emplace(game,
                     std::make_unique<ServerGame>(game, player_, connection_, options_, this));
    for (auto& [id, g] : games_) g->handle(m->message);
  }

  Player& player_;
  net::ServerGameOptions options_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Move> moves_;
  std::optional<GameResult> result_;
  std::vector<std::string> notes_;
  std::map<std::string, std::unique_ptr<ServerGame>> games_;  // callback context only
  bool left_ = false;
  Connection connection_;  // last: destroyed first, so no event arrives during destruction
};

// White creates, black joins. Returns the game id.
std::string start_game(Seat& white, Seat& black, TimeControl time = {},
                       const std::string& rules = "tiny") {
  REQUIRE(white.wait_online());
  REQUIRE(black.wait_online());
  auto created = call(white.connection(), Create{rules, time, ColorChoice::White});
  REQUIRE(created);
  const std::string game = std::get<Created>(*created).game;
  REQUIRE(call(black.connection(), Join{game, std::nullopt}));
  return game;
}

// Never answers; notes whether it was told to stop.
class SilentPlayer final : public Player {
 public:
  PlayerInfo info() const override { return {"silent", true, std::nullopt}; }
  void request_move(const MoveRequest&, ReplyFn reply) override {
    std::lock_guard lock(mutex_);
    held_ = std::move(reply);
  }
  void cancel_request() override { cancelled_ = true; }
  std::atomic<bool> cancelled_{false};

 private:
  std::mutex mutex_;
  ReplyFn held_;
};

// Plays random moves, but only while not paused; notes the clock of every request.
class PausablePlayer final : public Player {
 public:
  explicit PausablePlayer(bool paused = false, std::uint64_t seed = 5)
      : random_("random", seed), paused_(paused) {}
  PlayerInfo info() const override { return {"pausable", true, std::nullopt}; }
  void request_move(const MoveRequest& request, ReplyFn reply) override {
    {
      std::lock_guard lock(mutex_);
      clocks_.push_back(request.clock);
      if (paused_) {
        held_ = {request, std::move(reply)};
        return;
      }
    }
    random_.request_move(request, std::move(reply));
  }
  void resume() {
    std::optional<std::pair<MoveRequest, ReplyFn>> held;
    {
      std::lock_guard lock(mutex_);
      paused_ = false;
      held.swap(held_);
    }
    if (held) random_.request_move(held->first, std::move(held->second));
  }
  bool holding() {
    std::lock_guard lock(mutex_);
    return held_.has_value();
  }
  std::vector<ClockState> clocks() {
    std::lock_guard lock(mutex_);
    return clocks_;
  }

 private:
  RandomPlayer random_;
  std::mutex mutex_;
  bool paused_;
  std::optional<std::pair<MoveRequest, ReplyFn>> held_;
  std::vector<ClockState> clocks_;
};

class IllegalPlayer final : public Player {
 public:
  PlayerInfo info() const override { return {"illegal", true, std::nullopt}; }
  void request_move(const MoveRequest&, ReplyFn reply) override {
    reply(PlayerAction::play(*parse_move("a1-a1/a1")));
  }
};

// Both seats saw the game end the same way, by no moves, after the same moves.
GameResult finished_alike(Seat& one, Seat& two) {
  const auto a = one.wait_end(), b = two.wait_end();
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == *b);
  CHECK(a->reason == EndReason::NoMoves);
  CHECK(one.moves() == two.moves());
  return *a;
}

bool wait_until(const std::function<bool()>& done, Millis timeout = Millis{5000}) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  return done();
}

}  // namespace

TEST_CASE("server game: two drivers play a whole game through the server, which ends it") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"rules_dir", tiny_rules(dir).string()}});
  RandomPlayer one("one", 1), two("two", 2);
  Seat alice(server.port(), "alice", one), bob(server.port(), "bob", two);
  const auto game = start_game(alice, bob);
  const GameResult a = finished_alike(alice, bob);
  CHECK(alice.notes().empty());

  auto record = call(alice.connection(), RecordRequest{game, RecordFormat::Json});
  REQUIRE(record);
  const auto parsed = record_from_json(std::get<Record>(*record).record);
  REQUIRE(parsed);
  std::vector<Move> stored;
  for (const auto& m : parsed->moves) stored.push_back(m.move);
  CHECK(stored == alice.moves());
  CHECK(parsed->result == a);
  const auto final_position = replay(*parsed);
  REQUIRE(final_position);
  CHECK(final_position->is_game_over());
}

TEST_CASE("server game: the player is given the server's clock less the margin for the network") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"rules_dir", tiny_rules(dir).string()}});
  net::ServerGameOptions options;
  options.lag_margin = Millis{300};
  PausablePlayer timed(false, 3);
  RandomPlayer other("other", 4);
  Seat alice(server.port(), "alice", timed, options), bob(server.port(), "bob", other);

  SUBCASE("per move") {
    start_game(alice, bob, TimeControl::fixed_per_move(Millis{2000}));
    REQUIRE(alice.wait_end());
    const auto clocks = timed.clocks();
    REQUIRE_FALSE(clocks.empty());
    for (const ClockState& c : clocks) {
      CHECK(c.control.kind == TimeControl::Kind::PerMove);
      CHECK(c.control.per_move <= Millis{1700});
      CHECK(c.control.per_move > Millis{700});  // what the network and a busy machine took
      CHECK(c.left(Color::White) == c.control.per_move);
    }
  }
  SUBCASE("Fischer") {
    start_game(alice, bob, TimeControl::fischer(Millis{5000}, Millis{1000}));
    REQUIRE(alice.wait_end());
    const auto clocks = timed.clocks();
    REQUIRE(clocks.size() >= 2);
    CHECK(clocks[0].left(Color::White) <= Millis{4700});
    CHECK(clocks[0].left(Color::White) > Millis{3700});
    CHECK(clocks[0].left(Color::Black) == Millis{5000});
    CHECK(clocks[0].control.increment == Millis{1000});
    // Later turns count the increment the server added.
    CHECK(clocks[1].left(Color::White) > Millis{5000});
  }
}

TEST_CASE(
    "server game: a player that never answers loses on the server's clock, or resigns "
    "first when the driver is told to") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"rules_dir", tiny_rules(dir).string()}});
  SilentPlayer silent;
  RandomPlayer other("other", 4);
  net::ServerGameOptions options;
  options.lag_margin = Millis{200};

  SUBCASE("the server flags it") {
    Seat alice(server.port(), "alice", silent, options), bob(server.port(), "bob", other);
    const auto asked_at = std::chrono::steady_clock::now();
    // The shortest clock the server plays (kMinFirstMove).
    start_game(alice, bob, TimeControl::fixed_per_move(Millis{1000}));
    const auto end = alice.wait_end();
    REQUIRE(end);
    CHECK(end->reason == EndReason::Time);
    CHECK(end->winner == Color::Black);
    CHECK(std::chrono::steady_clock::now() - asked_at >= std::chrono::milliseconds(1000));
    CHECK_FALSE(alice.noted("resign"));
  }
  SUBCASE("resign before the flag") {
    // It resigns with half the 800 ms margin left: time enough on a busy machine.
    options.resign_before_flag = true;
    options.lag_margin = Millis{800};
    Seat alice(server.port(), "alice", silent, options), bob(server.port(), "bob", other);
    start_game(alice, bob, TimeControl::fixed_per_move(Millis{2000}));
    const auto end = alice.wait_end();
    REQUIRE(end);
    CHECK(end->reason == EndReason::Resign);
    CHECK(end->winner == Color::Black);
    CHECK(alice.noted("resign", "rather than losing on time"));
    CHECK(wait_until([&] { return silent.cancelled_.load(); }));
  }
}

TEST_CASE("server game: an illegal answer is not sent, the driver resigns and says why") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"rules_dir", tiny_rules(dir).string()}});
  IllegalPlayer illegal;
  RandomPlayer other("other", 4);
  Seat alice(server.port(), "alice", illegal), bob(server.port(), "bob", other);
  start_game(alice, bob);
  const auto end = alice.wait_end();
  REQUIRE(end);
  CHECK(end->reason == EndReason::Resign);
  CHECK(alice.noted("resign", "the player answered a1-a1/a1, which is illegal here"));
}

TEST_CASE("server game: an opponent who stays away is claimed after the grace period") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"rules_dir", tiny_rules(dir).string()},
                                    {"limits", {{"claim_grace_seconds", 0.3}}}});
  RandomPlayer mover("mover", 4);
  SilentPlayer silent;
  net::ServerGameOptions claims;
  claims.claim_abandoned = true;
  Seat alice(server.port(), "alice", mover, claims);
  auto bob = std::make_unique<Seat>(server.port(), "bob", silent);
  start_game(alice, *bob);
  REQUIRE(alice.wait_moves(1));
  const auto left_at = std::chrono::steady_clock::now();
  bob->leave();
  const auto end = alice.wait_end();
  REQUIRE(end);
  CHECK(end->reason == EndReason::Abandon);
  CHECK(end->winner == Color::White);
  CHECK(std::chrono::steady_clock::now() - left_at >= std::chrono::milliseconds(300));
  CHECK(alice.noted("claim"));
}

TEST_CASE(
    "server game: the server is killed mid-game, an answer made meanwhile is sent when the "
    "game resumes, and the game finishes") {
  TempDir dir;
  const auto rules = tiny_rules(dir);
  std::optional<ServerProcess> server(std::in_place, dir.path(),
                                      nlohmann::json{{"rules_dir", rules.string()}});
  const unsigned short port = server->port();
  PausablePlayer paused(true, 8);
  RandomPlayer other("other", 9);
  Seat alice(port, "alice", paused), bob(port, "bob", other);
  start_game(alice, bob);
  REQUIRE(wait_until([&] { return paused.holding(); }));
  CHECK(server->stop(SIGKILL) == -1);
  REQUIRE(wait_until([&] { return alice.connection().status() != net::ConnectionStatus::Online; }));
  paused.resume();  // the answer finds no connection
  REQUIRE(wait_until([&] { return alice.noted("send_failed", "goes out again"); }));
  server.emplace(dir.path(), nlohmann::json{{"rules_dir", rules.string()}},
                 std::vector<std::string>{}, amazons::test::Launch::on_port(port));
  finished_alike(alice, bob);
  CHECK(alice.moves().size() >= 2);
}

// ---- against a scripted server ----------------------------------------------------------------

namespace {

// Plays the server by hand: records what the driver sends and runs posted work when told.
class ScriptedLink final : public net::ServerLink {
 public:
  void send(ClientMessage message, ReplyHandler) override {
    std::lock_guard lock(mutex_);
    sent_.push_back(std::move(message));
  }
  void post(std::function<void()> fn) override {
    std::lock_guard lock(mutex_);
    posted_.push_back(std::move(fn));
  }
  void post_after(Millis, std::function<void()>) override {}
  Millis round_trip() const override { return Millis{0}; }

  // Runs what was posted (answers from the player's thread), waiting up to `timeout` for some.
  void run_posted(Millis timeout = Millis{2000}) {
    wait_until(
        [&] {
          std::lock_guard lock(mutex_);
          return !posted_.empty();
        },
        timeout);
    std::vector<std::function<void()>> batch;
    {
      std::lock_guard lock(mutex_);
      batch.swap(posted_);
    }
    for (auto& fn : batch) fn();
  }
  template <class M>
  std::vector<M> sent() {
    std::lock_guard lock(mutex_);
    std::vector<M> out;
    for (const auto& m : sent_)
      if (const auto* x = std::get_if<M>(&m)) out.push_back(*x);
    return out;
  }

 private:
  std::mutex mutex_;
  std::vector<ClientMessage> sent_;
  std::vector<std::function<void()>> posted_;
};

Moved moved(int ply, const std::string& move) { return Moved{"7", ply, move, std::nullopt}; }

}  // namespace

TEST_CASE("server game: gaps and contradictions in the server's moves lead to a resync") {
  ScriptedLink link;
  RandomPlayer local("local", 3);
  ServerGame game("7", local, link);
  const RuleVariant tiny = test::small_variant(6);
  Start start;
  start.game = "7";
  start.rules = tiny.name;
  start.variant = to_json(tiny);
  start.white = {"them", 1500, false};
  start.black = {"us", 1500, true};
  start.color = Color::Black;
  game.handle(ServerMessage{start});
  REQUIRE(game.started());
  CHECK(game.color() == Color::Black);
  CHECK(game.opponent().info().name == "them");
  CHECK(game.opponent().thinking());

  Position pos(tiny);
  std::mt19937_64 rng(11);
  const Move m1 = test::random_move(pos, rng);
  game.handle(ServerMessage{moved(2, "a1-a2/a3")});  // a gap
  CHECK(link.sent<Watch>().size() == 1);
  game.handle(ServerMessage{moved(1, "a1-a1/a1")});  // illegal here
  CHECK(link.sent<Watch>().size() == 2);
  CHECK(game.moves().empty());
  game.handle(ServerMessage{moved(1, to_string(m1))});
  CHECK(game.moves() == std::vector<Move>{m1});
  CHECK_FALSE(game.opponent().thinking());
  game.handle(ServerMessage{moved(1, to_string(m1))});  // seen already: nothing to do
  CHECK(link.sent<Watch>().size() == 2);

  // Our player answers on its own thread; the answer is checked and sent.
  link.run_posted();
  const auto sent = link.sent<MoveMsg>();
  REQUIRE(sent.size() == 1);
  pos.do_move(m1);
  const Move m2 = *parse_move(sent[0].move);
  CHECK_FALSE(pos.check(m2));
  CHECK(game.moves().size() == 1);  // not played until the server says so

  // The confirmation comes inside a resumed game's state.
  State st;
  st.game = "7";
  st.variant = start.variant;
  st.white = start.white;
  st.black = start.black;
  st.status = GameStatus::Active;
  st.moves = {to_string(m1), to_string(m2)};
  st.color = Color::Black;
  game.handle(ServerMessage{st});
  CHECK(game.moves() == std::vector<Move>{m1, m2});
  CHECK(game.opponent().thinking());
  game.handle(ServerMessage{End{"7", Color::White, EndReason::Resign, {}, {}}});
  REQUIRE(game.finished());
  CHECK(game.result() == GameResult{Color::White, EndReason::Resign});
  CHECK_FALSE(game.opponent().thinking());
}
