// Tournaments against the real amazons-server: eight players, two of them real amazons-bot
// processes (--tournament ID), six scripted clients playing random legal moves, an arena and a
// Swiss played to the end with the server killed (SIGKILL) once in the middle and restarted on
// the same database. The standings are checked against the rules of server/core/tournament.h
// recomputed here from the pairings the server reports.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/position.h"
#include "common/variant.h"
#include "server_process.h"
#include "tests/bot/bot_process.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::BotProcess;
using amazons::test::Launch;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using namespace std::chrono_literals;

namespace {

const nlohmann::json kConfig = {{"limits", {{"players_create_tournaments", true}}}};

// A player that answers every move of its games with a random legal move, over its own TCP
// connection. poll() reads whatever has arrived without waiting.
class Scripted {
 public:
  Scripted(std::string name, std::uint64_t seed) : name_(std::move(name)), rng_(seed) {}

  void connect(unsigned short port) {
    games_.clear();
    client_ = std::make_unique<amazons::test::Client>(port);
    const auto extra = token_.empty() ? std::string() : ",\"token\":\"" + token_ + "\"";
    client_->send("{\"type\":\"hello\",\"protocol\":1,\"name\":\"" + name_ + "\"" + extra + "}");
    const auto w = client_->expect<Welcome>();
    token_ = w.token;
    for (const auto& g : w.games) client_->send(Watch{g, std::nullopt});
  }
  void send(const ClientMessage& m) { client_->send(m); }
  const std::string& name() const { return name_; }
  std::optional<TournamentInfo> latest;  // the last tournament message seen

  // Handles what has arrived; false once the connection is gone (the server was killed).
  bool poll() {
    if (!client_) return false;
    for (int i = 0; i < 200; ++i) {
      auto line = client_->raw().read_line(Millis{1});
      if (!line) return !client_->raw().closed();
      auto env = decode_server(*line);
      REQUIRE_MESSAGE(env.has_value(), *line);
      handle(env->message);
    }
    return true;
  }

 private:
  struct Game {
    Position pos;
    Color me;
    int plies = 0;  // moves on the board (ours are played before the server echoes them)
  };
  void handle(const ServerMessage& m) {
    if (std::holds_alternative<Ping>(m)) return client_->send(Pong{});
    if (const auto* t = std::get_if<TournamentInfo>(&m)) latest = *t;
    if (const auto* s = std::get_if<Start>(&m)) {
      if (!s->color) return;
      const auto v = variant_from_json(s->variant);
      REQUIRE(v.has_value());
      games_.insert_or_assign(s->game, Game{Position(*v), *s->color});
      maybe_move(s->game);
    } else if (const auto* st = std::get_if<State>(&m)) {
      if (!st->color || st->status != GameStatus::Active) return;
      // The server sends the state at login and again for a watch: play on from one only.
      if (const auto it = games_.find(st->game);
          it != games_.end() && it->second.plies >= static_cast<int>(st->moves.size()))
        return;
      const auto v = variant_from_json(st->variant);
      REQUIRE(v.has_value());
      Game g{Position(*v), *st->color};
      for (const auto& text : st->moves) {
        g.pos.do_move(*parse_move(text));
        ++g.plies;
      }
      games_.insert_or_assign(st->game, std::move(g));
      maybe_move(st->game);
    } else if (const auto* mv = std::get_if<Moved>(&m)) {
      const auto it = games_.find(mv->game);
      if (it == games_.end()) return;
      const auto move = parse_move(mv->move);
      REQUIRE(move.has_value());
      if (mv->ply == it->second.plies + 1) {
        it->second.pos.do_move(*move);
        ++it->second.plies;
        maybe_move(mv->game);
      }
    } else if (const auto* e = std::get_if<End>(&m)) {
      games_.erase(e->game);
    }
  }
  void maybe_move(const std::string& game) {
    Game& g = games_.at(game);
    if (g.pos.side_to_move() != g.me || g.pos.is_game_over()) return;
    MoveList moves;
    generate_moves(g.pos, moves);
    const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng_)];
    g.pos.do_move(m);
    ++g.plies;
    client_->send(MoveMsg{game, to_string(m)});
  }

  std::string name_;
  std::string token_;
  std::mt19937_64 rng_;
  std::unique_ptr<amazons::test::Client> client_;
  std::map<std::string, Game> games_;
};

struct Field {
  TempDir dir;
  std::unique_ptr<ServerProcess> server;
  unsigned short port = 0;
  std::vector<std::unique_ptr<Scripted>> scripted;
  std::vector<std::unique_ptr<BotProcess>> bots;

  void start_server() {
    server = std::make_unique<ServerProcess>(dir.path(), kConfig, std::vector<std::string>{},
                                             Launch::on_port(port));
    port = server->port();
  }
  void connect_all() {
    for (auto& s : scripted) s->connect(port);
  }
  // Polls every scripted player until `done` says so or the time is up.
  template <class F>
  bool run_until(F done, std::chrono::milliseconds within) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < deadline) {
      for (auto& s : scripted) s->poll();
      if (done()) return true;
      std::this_thread::sleep_for(2ms);
    }
    return false;
  }
};

// Creates the tournament as s1, everyone joins, the bots too.
std::int64_t set_up(Field& f, TournamentCreate create) {
  f.start_server();
  for (int i = 1; i <= 6; ++i)
    f.scripted.push_back(std::make_unique<Scripted>("s" + std::to_string(i), 1000 + i));
  f.connect_all();
  f.scripted[0]->send(create);
  REQUIRE(f.run_until([&] { return f.scripted[0]->latest.has_value(); }, 5s));
  const auto id = f.scripted[0]->latest->tournament.id;
  for (auto& s : f.scripted) s->send(TournamentJoin{id});
  for (int i = 1; i <= 2; ++i)
    f.bots.push_back(std::make_unique<BotProcess>(
        f.dir.path(), f.port,
        std::vector<std::string>{"--name", "bot" + std::to_string(i), "--level", "beginner",
                                 "--tournament", std::to_string(id), "--no-join",
                                 "--no-challenges"}));
  // Everyone is in once the creator's copy of the standings has eight lines.
  REQUIRE(f.run_until(
      [&] { return f.scripted[0]->latest && f.scripted[0]->latest->standings.size() == 8; }, 10s));
  for (auto& b : f.bots) CHECK_MESSAGE(b->wait_event("tournament_joined", "", 5s), b->log());
  return id;
}

// Kills the server, starts it again on the same database and port, reconnects the scripted.
void crash_and_restart(Field& f) {
  CHECK(f.server->stop(SIGKILL) == -1);
  f.server.reset();
  f.start_server();
  f.connect_all();
}

TournamentInfo final_info(Field& f, std::int64_t id) {
  f.scripted[1]->latest.reset();
  f.scripted[1]->send(TournamentShow{id});
  REQUIRE(f.run_until([&] { return f.scripted[1]->latest.has_value(); }, 5s));
  return *f.scripted[1]->latest;
}

// Each bot saw the end; the games still going (an arena's, past its end) are not waited for:
// stopping twice resigns them.
void bots_leave(Field& f) {
  for (auto& b : f.bots) {
    CHECK_MESSAGE(b->wait_event("tournament_over", "", 10s), b->log());
    b->signal(SIGTERM);
    std::this_thread::sleep_for(50ms);
    b->signal(SIGTERM);
    const auto status = b->wait_exit(10s);
    INFO(b->log());
    REQUIRE(status.has_value());
    CHECK(*status == 0);
    CHECK_FALSE(b->events("tournament_over").empty());
  }
}

}  // namespace

TEST_CASE("tournaments: a Swiss of eight with bots is played to the end across a SIGKILL") {
  Field f;
  TournamentCreate c;
  c.name = "Swiss";
  c.kind = "swiss";
  c.rules = "botzone8";
  c.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  c.rated = false;
  c.start_in = 1;
  c.rounds = 3;
  const auto id = set_up(f, c);
  // Killed once round 2 is under way.
  REQUIRE(f.run_until(
      [&] { return f.scripted[0]->latest && f.scripted[0]->latest->tournament.round >= 2; }, 20s));
  crash_and_restart(f);
  const bool finished = f.run_until(
      [&] {
        return f.scripted[0]->latest && f.scripted[0]->latest->tournament.status == "finished";
      },
      25s);
  INFO(encode(ServerMessage{*f.scripted[0]->latest}));
  for (auto& b : f.bots) INFO(b->log());
  REQUIRE(finished);
  const auto info = final_info(f, id);
  bots_leave(f);

  // Three rounds of four games, nobody meets anybody twice, nobody has three of a colour.
  REQUIRE(info.pairings.size() == 12);
  std::set<std::pair<std::string, std::string>> met;
  std::map<std::string, int> whites, points;
  for (const auto& p : info.pairings) {
    CHECK(p.state == "finished");
    REQUIRE(p.result.has_value());
    CHECK(met.insert(std::minmax(p.white, p.black)).second);
    ++whites[p.white];
    ++points[*p.result == "white" ? p.white : p.black];
  }
  for (const auto& [name, w] : whites) CHECK(w <= 2);
  // Points are wins (no draws in Amazons, no byes with eight); Buchholz the opponents' points;
  // the order by points, then Buchholz.
  REQUIRE(info.standings.size() == 8);
  for (std::size_t i = 0; i < info.standings.size(); ++i) {
    const auto& s = info.standings[i];
    CHECK(s.points == points[s.name]);
    double buchholz = 0;
    for (const auto& p : info.pairings)
      if (p.white == s.name || p.black == s.name)
        buchholz += points[p.white == s.name ? p.black : p.white];
    CHECK(s.tiebreak == buchholz);
    if (i > 0) {
      const auto& up = info.standings[i - 1];
      CHECK((up.points > s.points || (up.points == s.points && up.tiebreak >= s.tiebreak)));
    }
  }
}

TEST_CASE("tournaments: an arena of eight with bots runs its time across a SIGKILL") {
  Field f;
  TournamentCreate c;
  c.name = "Arena";
  c.kind = "arena";
  c.rules = "botzone8";
  c.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  c.rated = false;
  c.start_in = 1;
  c.duration = 8;
  const auto id = set_up(f, c);
  // Killed once some games have been scored.
  REQUIRE(f.run_until(
      [&] {
        if (!f.scripted[0]->latest) return false;
        int done = 0;
        for (const auto& p : f.scripted[0]->latest->pairings) done += p.state == "finished";
        return done >= 4;
      },
      20s));
  crash_and_restart(f);
  REQUIRE(f.run_until(
      [&] {
        return f.scripted[0]->latest && f.scripted[0]->latest->tournament.status == "finished";
      },
      20s));
  const auto info = final_info(f, id);
  bots_leave(f);

  // The arena's points from its games in order: 2 a win, 4 once on two wins in a row.
  std::map<std::string, int> points, streak, wins;
  int counted = 0;
  for (const auto& p : info.pairings) {
    CHECK(p.state != "pending");
    CHECK(p.state != "playing");
    if (p.state != "finished") continue;
    ++counted;
    REQUIRE(p.result.has_value());
    const std::string winner = *p.result == "white" ? p.white : p.black;
    const std::string loser = *p.result == "white" ? p.black : p.white;
    points[winner] += streak[winner] >= 2 ? 4 : 2;
    ++streak[winner];
    ++wins[winner];
    streak[loser] = 0;
  }
  CHECK(counted >= 4);
  REQUIRE(info.standings.size() == 8);
  for (std::size_t i = 0; i < info.standings.size(); ++i) {
    const auto& s = info.standings[i];
    CHECK(s.points == points[s.name]);
    CHECK(s.wins == wins[s.name]);
    if (i > 0) {
      const auto& up = info.standings[i - 1];
      CHECK((up.points > s.points || (up.points == s.points && up.wins >= s.wins)));
    }
  }
}
