// Crash and restart: 200 games played by 400 real TCP clients against the real amazons-server on
// loopback with a real SQLite file. The server is killed with SIGKILL at random moments several
// times and restarted on the same database; the clients reconnect with their session tokens and
// play on. Checked: every move a client was told of (`moved`) is in every later state and in the
// final record; every game finishes by the rules; no game is lost or started twice; the database
// passes PRAGMA integrity_check.
//
// The same run against a cluster: three nodes on a real PostgreSQL and Redis, each game's players
// on two different nodes, and a random node killed each time (and started again under its name).
// A player whose connection drops comes back on the next node of the three, as a client with an
// address list does; the node a game ran on is gone, and another takes the game over.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange under GCC 12

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/protocol.h"
#include "server/storage/pg_storage.h"
#include "server/storage/sqlite_storage.h"
#include "tests/integration/server_process.h"
#include "tests/pg_server.h"
#include "tests/redis_server.h"

namespace {

using namespace amazons;
using namespace amazons::protocol;
namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

constexpr int kGames = 200;
constexpr int kKills = 5;
// A rough size of the whole run, to spread the kills over it: random games on the standard
// board last about 70 plies.
constexpr int kExpectedMoves = kGames * 70;
constexpr auto kDeadline = std::chrono::minutes(4);
// The third kill comes while the players are logging in again after the second, when a welcome
// (and the token in it) may be committed but not yet read.
constexpr int kKillWhileReconnecting = 2;

struct Pair {
  int index = 0;
  std::string names[2];
  std::string tokens[2];
  std::string time = "null";
  std::optional<std::string> open_id;  // created but not yet started, in server epoch open_epoch
  int open_epoch = -1;
  std::optional<std::string> game;     // from the start (or a state after a restart)
  std::vector<std::string> moves;      // as the clients know them
  std::vector<std::string> acked;      // every move announced by a `moved` or a state, by ply
  std::size_t acked_before_crash = 0;  // of those, how many before the last kill
  std::optional<End> end;
  bool resolving = false;   // asked the archive whether a game missing from a welcome ended
  bool locked_out = false;  // a player could not log in again: the pair cannot go on
};

class Run;

// The last few lines of a conversation, pings and pongs left out, each cut to 160 characters.
class LastLines {
 public:
  void add(const std::string& line) {
    if (line.starts_with(R"({"type":"ping")") || line.starts_with(R"({"type":"pong")")) return;
    lines_.push_back(line.substr(0, 160));
    if (lines_.size() > 8) lines_.pop_front();
  }
  std::string text() const {
    std::string out;
    for (const auto& l : lines_) out += (out.empty() ? "" : " | ") + l;
    return out.empty() ? "nothing" : out;
  }

 private:
  std::deque<std::string> lines_;
};

// One player's connection. Reconnects by itself whenever the server goes away.
class Player : public std::enable_shared_from_this<Player> {
 public:
  Player(Run& run, Pair& pair, Color color);
  void connect();
  void send(const std::string& line);
  Color color() const { return color_; }
  bool logged_in() const { return logged_in_; }
  int epoch() const { return epoch_; }
  bool done() const { return pair_.end.has_value() || pair_.locked_out; }
  // Moves once per position: the two players' copies of a `moved` can arrive in either order,
  // and only the first news of the position may trigger the move.
  bool may_move_at(std::size_t plies) {
    if (moved_at_ == plies) return false;
    moved_at_ = plies;
    state_since_move_ = refused_ = false;
    return true;
  }
  // A cluster node answers a move `unavailable` when the node running the game died before it
  // answered (maybe before playing it, maybe after): the game's state comes back from the node
  // that takes it over, before or after the answer, and the player moves again once it has both,
  // where that state says (which has the move if it was played).
  void state_seen() {
    if (refused_) {
      refused_ = false;
      moved_at_.reset();
    } else {
      state_since_move_ = true;
    }
  }
  void move_refused();
  void drop() {
    error_code ec;
    socket_.close(ec);
  }
  int connects() const { return connects_; }
  // What the player last sent and read, for a pair that did not finish: what each side last
  // knew tells a lost message from a stuck game.
  std::string last_lines() const { return "sent: " + sent_.text() + "; read: " + read_.text(); }

 private:
  void read();
  void write_next();
  void lost(int generation);
  void on_line(const std::string& line);

  Run& run_;
  Pair& pair_;
  Color color_;
  tcp::socket socket_;
  asio::steady_timer retry_;
  LineFramer framer_{kMaxLineBytes * 4};
  std::array<char, 8192> buffer_{};
  std::deque<std::string> out_;
  bool writing_ = false;
  bool logged_in_ = false;
  int epoch_ = -1;                       // the server epoch this connection belongs to
  int generation_ = 0;                   // bumped per connection, so stale handlers do nothing
  int connects_ = 0;                     // connections made (a cluster's players go round)
  std::optional<std::size_t> moved_at_;  // the position (in plies) of the last move sent
  bool state_since_move_ = false;        // a state came since that move was sent
  bool refused_ = false;                 // that move was answered `unavailable`
  LastLines sent_, read_;
};

// One server, or a cluster of nodes sharing a PostgreSQL and a Redis.
struct Topology {
  int nodes = 1;
  std::string db;     // the cluster's database (a PostgreSQL URL)
  std::string redis;  // the cluster's Redis URL
  bool cluster() const { return !redis.empty(); }
};

class Run {
 public:
  Run(const std::filesystem::path& dir, nlohmann::json config, std::uint64_t seed,
      Topology topology = {})
      : rng(seed), dir_(dir), config_(std::move(config)), topology_(std::move(topology)) {
    servers_.resize(static_cast<std::size_t>(topology_.nodes));
  }

  asio::io_context io;
  std::mt19937_64 rng;
  std::vector<Pair> pairs;
  std::vector<std::shared_ptr<Player>> players;
  std::vector<std::string> violations;
  int epoch = 0;
  int kills = 0;
  long long acked_total = 0;
  int unavailable = 0;       // "try again in a moment" answers of a cluster node
  int unavailable_kept = 0;  // of which answered a move on a connection that stayed open
  long long acked_since_start = 0;
  long long kill_after = 0;  // acknowledged moves since the start, or
  int kill_at_login = 0;     // logins since the start (a kill in the middle of reconnecting)
  int logins_since_start = 0;
  std::vector<double> recovery_ms;  // restart to every player logged in again
  std::optional<Clock::time_point> restarted_at;

  // Where a player connects: the one server, or in a cluster the node after the last one it
  // tried (White of pair i starts on node i mod N, Black on the next).
  unsigned short port_for(const Pair& p, Color c, int attempt) const {
    const auto n = servers_.size();
    const auto k = (static_cast<std::size_t>(p.index) + static_cast<std::size_t>(index_of(c)) +
                    static_cast<std::size_t>(attempt)) %
                   n;
    return servers_[k]->port();
  }
  const Topology& topology() const { return topology_; }

  void start_servers() {
    for (std::size_t k = 0; k < servers_.size(); ++k) start_server(k);
    plan_kill();
  }
  void start_server(std::size_t k) {
    std::vector<std::string> flags;
    test::Launch launch;
    if (topology_.cluster()) {
      const auto node_dir = dir_ / ("node" + std::to_string(k));
      std::filesystem::create_directories(node_dir);
      flags = {"--cluster", topology_.redis, "--node", "n" + std::to_string(k), "--no-tls"};
      launch.db = topology_.db;
      launch.stderr_file = node_dir / ("stderr-" + std::to_string(kills) + ".log");
      launch.quiet = false;
      servers_[k].reset();
      servers_[k] = std::make_unique<test::ServerProcess>(node_dir, config_, flags, launch);
      return;
    }
    servers_[k].reset();
    servers_[k] = std::make_unique<test::ServerProcess>(dir_, config_, flags, launch);
  }
  void plan_kill() {
    acked_since_start = 0;
    logins_since_start = 0;
    kill_after = -1;
    kill_at_login = -1;
    if (epoch == kKillWhileReconnecting) {
      // In a cluster only the players of the killed node's games come back: a few dozen, or
      // fewer when that node had just restarted and run few games. Then the kill comes after
      // some moves instead, so that every run has all its kills.
      kill_at_login = std::uniform_int_distribution<int>(1, topology_.cluster() ? 20 : kGames)(rng);
      if (topology_.cluster())
        kill_after = static_cast<long long>(
            std::uniform_real_distribution<double>(0.02, 0.08)(rng) * kExpectedMoves);
    } else {
      // A cluster's games go on on the other nodes while one is down, so its kills come sooner,
      // or the games would end before the last one.
      const double most = topology_.cluster() ? 0.08 : 0.15;
      const double fraction = std::uniform_real_distribution<double>(0.0, most)(rng);
      kill_after = static_cast<long long>(fraction * kExpectedMoves);
    }
  }
  int stop_server(int sig, std::size_t k = 0) { return servers_[k]->stop(sig); }
  // What each cluster node logged (warnings and errors), for a failed run.
  void show_logs() const {
    for (std::size_t k = 0; topology_.cluster() && k < servers_.size(); ++k) {
      std::string log;
      for (int life = 0; life <= kills; ++life) {
        std::ifstream in(dir_ / ("node" + std::to_string(k)) /
                         ("stderr-" + std::to_string(life) + ".log"));
        log += std::string{std::istreambuf_iterator<char>(in), {}};
      }
      std::ofstream("/tmp/crash-node" + std::to_string(k) + ".log") << log;
      MESSAGE("node " << k << " logged:\n"
                      << log.substr(log.size() > 6000 ? log.size() - 6000 : 0));
    }
  }
  std::size_t nodes() const { return servers_.size(); }

  void violation(const std::string& what) {
    if (violations.size() < 50) violations.push_back(what);
  }

  bool all_done() const {
    for (const Pair& p : pairs)
      if (!p.end && !p.locked_out) return false;
    return true;
  }

  // A move was acknowledged; maybe it is time to kill the server.
  void on_acked() {
    ++acked_total;
    ++acked_since_start;
    if (kills < kKills && acked_since_start == kill_after) kill_soon();
  }

  void on_logged_in() {
    if (kills < kKills && ++logins_since_start == kill_at_login) kill_soon();
    if (!restarted_at) return;
    for (const auto& p : players)
      if (!p->done() && (!p->logged_in() || p->epoch() != epoch)) return;
    recovery_ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - *restarted_at).count());
    restarted_at.reset();
  }

 private:
  // At a random moment a little later, so the kill does not always fall between two reads.
  void kill_soon() {
    if (kill_pending_) return;  // a login and a move may both reach their mark
    kill_pending_ = true;
    auto timer = std::make_shared<asio::steady_timer>(io);
    timer->expires_after(
        std::chrono::microseconds(std::uniform_int_distribution<int>(0, 20'000)(rng)));
    timer->async_wait([this, timer](error_code) { crash_and_restart(); });
  }

  void crash_and_restart() {
    kill_pending_ = false;
    if (all_done()) return;
    const auto k = std::uniform_int_distribution<std::size_t>(0, servers_.size() - 1)(rng);
    CHECK(stop_server(SIGKILL, k) == -1);
    for (Pair& p : pairs) p.acked_before_crash = p.acked.size();
    ++kills;
    ++epoch;
    start_server(k);
    plan_kill();
    restarted_at = Clock::now();
    MESSAGE("kill " << kills << " (node " << k << ") after " << acked_total
                    << " acknowledged moves");
  }

  bool kill_pending_ = false;
  std::filesystem::path dir_;
  nlohmann::json config_;
  Topology topology_;
  std::vector<std::unique_ptr<test::ServerProcess>> servers_;
};

Player::Player(Run& run, Pair& pair, Color color)
    : run_(run), pair_(pair), color_(color), socket_(run.io), retry_(run.io) {}

void Player::connect() {
  const int generation = ++generation_;
  logged_in_ = false;
  moved_at_.reset();  // a move sent before the server went away may never have arrived
  out_.clear();
  writing_ = false;
  framer_ = LineFramer(kMaxLineBytes * 4);
  socket_ = tcp::socket(run_.io);
  epoch_ = run_.epoch;
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"),
                         run_.port_for(pair_, color_, connects_++));
  socket_.async_connect(ep, [self = shared_from_this(), generation](error_code ec) {
    if (generation != self->generation_) return;
    if (ec) return self->lost(generation);
    self->socket_.set_option(tcp::no_delay(true), ec);
    Hello h;
    h.name = self->pair_.names[index_of(self->color_)];
    h.bot = true;
    if (const auto& t = self->pair_.tokens[index_of(self->color_)]; !t.empty()) h.token = t;
    self->send(encode(ClientMessage{h}));
    self->read();
  });
}

void Player::lost(int generation) {
  if (generation != generation_) return;
  ++generation_;
  logged_in_ = false;
  drop();
  if (pair_.end || pair_.locked_out) return;
  retry_.expires_after(
      std::chrono::milliseconds(std::uniform_int_distribution<int>(10, 60)(run_.rng)));
  retry_.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec) self->connect();
  });
}

void Player::send(const std::string& line) {
  sent_.add(line);
  out_.push_back(line + "\n");
  if (!writing_) write_next();
}

void Player::write_next() {
  writing_ = true;
  const int generation = generation_;
  asio::async_write(socket_, asio::buffer(out_.front()),
                    [self = shared_from_this(), generation](error_code ec, std::size_t) {
                      if (generation != self->generation_) return;
                      self->writing_ = false;
                      if (ec) return self->lost(generation);
                      self->out_.pop_front();
                      if (!self->out_.empty()) self->write_next();
                    });
}

void Player::read() {
  const int generation = generation_;
  socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this(), generation](
                                                     error_code ec, std::size_t n) {
    if (generation != self->generation_) return;
    if (ec) return self->lost(generation);
    self->framer_.append(std::string_view(self->buffer_.data(), n));
    std::string line;
    while (generation == self->generation_ && self->framer_.next(line) == LineFramer::Status::Line)
      self->on_line(line);
    if (generation == self->generation_) self->read();
  });
}

// The game logic shared by both players of a pair.
class Referee {
 public:
  static Position position_of(const Pair& p) {
    Position pos(standard_variant());
    for (const auto& m : p.moves) pos.do_move(*parse_move(m));
    return pos;
  }

  // The player of `color` moves if it is its turn.
  static void maybe_move(Run& run, Pair& p, Color color) {
    if (!p.game || p.end) return;
    const Position pos = position_of(p);
    if (pos.is_game_over() || pos.side_to_move() != color) return;
    auto& player = *run.players[static_cast<std::size_t>(2 * p.index + index_of(color))];
    if (!player.logged_in() || !player.may_move_at(p.moves.size())) return;
    MoveList moves;
    generate_moves(pos, moves);
    const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(run.rng)];
    player.send(encode(ClientMessage{MoveMsg{*p.game, to_string(m)}}));
  }

  // What a state (after a login) says must agree with every move acknowledged so far.
  // A state is the game as it was when it was sent: one sent by the server running now holds
  // at least every move acknowledged before the last one went down, and may lack moves
  // acknowledged since (the other player's copy of a later `moved` can be read first). One
  // sent by a server killed since (`from_current_server` false: read from the dead connection's
  // buffer after the kill, when the kill fell in the middle of the logins) may lack moves the
  // other player's connection acknowledged after it was sent.
  static void adopt(Run& run, Pair& p, const std::vector<std::string>& moves,
                    const std::string& where, bool from_current_server) {
    if (from_current_server && moves.size() < p.acked_before_crash)
      run.violation(where + ": pair " + std::to_string(p.index) + " has " +
                    std::to_string(moves.size()) + " moves but " +
                    std::to_string(p.acked_before_crash) + " were acknowledged before the crash");
    for (std::size_t i = 0; i < std::min(moves.size(), p.acked.size()); ++i)
      if (moves[i] != p.acked[i])
        run.violation(where + ": pair " + std::to_string(p.index) + " ply " +
                      std::to_string(i + 1) + " is " + moves[i] + ", acknowledged " + p.acked[i]);
    // What a state shows is committed: acknowledged from now on.
    if (moves.size() > p.acked.size()) p.moves = p.acked = moves;
  }

  static void moved(Run& run, Pair& p, const Moved& m) {
    const auto ply = static_cast<std::size_t>(m.ply);
    if (ply == 0 || ply > p.acked.size() + 1) {
      run.violation("pair " + std::to_string(p.index) + ": moved ply " + std::to_string(m.ply) +
                    " after " + std::to_string(p.acked.size()) + " acknowledged moves");
      return;
    }
    if (ply <= p.acked.size()) {
      if (p.acked[ply - 1] != m.move)
        run.violation("pair " + std::to_string(p.index) + ": ply " + std::to_string(m.ply) +
                      " announced twice, differently");
      return;  // the other player's copy
    }
    p.acked.push_back(m.move);
    if (p.moves.size() < p.acked.size()) p.moves = p.acked;
    run.on_acked();
  }
};

void Player::move_refused() {
  if (!state_since_move_) {
    refused_ = true;
    return;
  }
  moved_at_.reset();
  Referee::maybe_move(run_, pair_, color_);
}

void Player::on_line(const std::string& line) {
  read_.add(line);
  const auto env = decode_server(line);
  if (!env) return run_.violation("undecodable line: " + line);
  Pair& p = pair_;
  const Color me = color_;
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, Ping>) {
          send(encode(ClientMessage{Pong{}}));
        } else if constexpr (std::is_same_v<M, Welcome>) {
          p.tokens[index_of(me)] = m.token;
          logged_in_ = true;
          if (m.games.size() > 1)
            run_.violation("pair " + std::to_string(p.index) + ": " +
                           std::to_string(m.games.size()) + " games");
          if (m.games.empty() && p.game && !p.end && !p.resolving) {
            // Gone from the games in progress: it must have ended while the news was lost.
            p.resolving = true;
            send(encode(ClientMessage{RecordRequest{*p.game, RecordFormat::Json}}));
          } else if (m.games.empty() && !p.game) {
            if (me == Color::White) {
              Create c;
              c.color = ColorChoice::White;
              c.time = *time_control_from_json(nlohmann::json::parse(p.time));
              send(encode(ClientMessage{c}));
            } else if (p.open_id && (p.open_epoch == run_.epoch || run_.topology().cluster())) {
              // On a cluster the open game may live on a node that was not killed (or may not:
              // then the join is refused, and White creates another when it comes back).
              send(encode(ClientMessage{Join{*p.open_id, std::nullopt}}));
            }
          }
          run_.on_logged_in();
        } else if constexpr (std::is_same_v<M, Created>) {
          p.open_id = m.game;
          p.open_epoch = run_.epoch;
          auto& black = *run_.players[static_cast<std::size_t>(2 * p.index + 1)];
          if (black.logged_in() && (black.epoch() == run_.epoch || run_.topology().cluster()))
            black.send(encode(ClientMessage{Join{m.game, std::nullopt}}));
        } else if constexpr (std::is_same_v<M, Start>) {
          if (p.game && *p.game != m.game)
            run_.violation("pair " + std::to_string(p.index) + " started a second game " + m.game);
          p.game = m.game;
          Referee::maybe_move(run_, p, me);
        } else if constexpr (std::is_same_v<M, State>) {
          if (p.game && *p.game != m.game)
            run_.violation("pair " + std::to_string(p.index) + ": state of another game " + m.game);
          p.game = m.game;
          state_seen();
          Referee::adopt(run_, p, m.moves, "state after a restart", epoch_ == run_.epoch);
          // The game may have ended while this player was away (its `end` went to the
          // connection that closed): the state says so, as a client shows it.
          if (m.status == GameStatus::Finished && m.result) {
            if (!p.end)
              p.end = End{m.game, m.result->winner, m.result->reason, std::nullopt, std::nullopt};
            if (m.result->reason != EndReason::NoMoves)
              run_.violation("pair " + std::to_string(p.index) + " ended by " +
                             std::string(code(m.result->reason)));
            return;
          }
          Referee::maybe_move(run_, p, me);
        } else if constexpr (std::is_same_v<M, Moved>) {
          Referee::moved(run_, p, m);
          Referee::maybe_move(run_, p, me);
        } else if constexpr (std::is_same_v<M, End>) {
          if (!p.end) p.end = m;
          if (m.reason != EndReason::NoMoves)
            run_.violation("pair " + std::to_string(p.index) + " ended by " +
                           std::string(code(m.reason)));
        } else if constexpr (std::is_same_v<M, Record>) {
          auto rec = record_from_json(m.record);
          if (!rec || !rec->result) {
            run_.violation("pair " + std::to_string(p.index) + ": game " + m.game +
                           " is neither in progress nor finished (" + last_lines() + ")");
            return;
          }
          std::vector<std::string> moves;
          for (const auto& rm : rec->moves) moves.push_back(to_string(rm.move));
          Referee::adopt(run_, p, moves, "record of a game that ended unseen",
                         epoch_ == run_.epoch);
          p.end = End{m.game, rec->result->winner, rec->result->reason, std::nullopt, std::nullopt};
        } else if constexpr (std::is_same_v<M, Error>) {
          // A join of an open game whose node was killed (it went with White's connection there;
          // the answer may come after White's next game has started).
          if (run_.topology().cluster() && m.code == ErrorCode::NoSuchGame && m.game &&
              (!p.game || *m.game != *p.game))
            return;
          // A first login whose welcome died with its node: the name stays held by that node's
          // session until the cluster knows the node restarted (or the name's time runs out).
          // Without a token the player can only try again a little later.
          if (run_.topology().cluster() && m.code == ErrorCode::NameTaken && !logged_in_ &&
              p.tokens[index_of(me)].empty())
            return lost(generation_);
          // A node that has just restarted and is not yet ready, or has lost Redis, starts
          // nothing and says `unavailable`: "try again in a moment" (docs/PROTOCOL.md). So does
          // one that stops running the player's game because it could not renew the game's lease
          // in time (starved of CPU, as under the sanitizers on a busy machine), and closes the
          // player. The player comes back a moment later, as a client does; what it had is
          // checked as ever.
          //
          // A move sent to a node that has just died is answered `unavailable` with the game's
          // id, and the connection stays open: the game's state comes back by itself from the
          // node that takes it over, and the player moves again then, as a client does (without
          // that state the pair stands still, and the run fails).
          if (run_.topology().cluster() && m.code == ErrorCode::Unavailable) {
            ++run_.unavailable;
            if (m.game && p.game && *m.game == *p.game && logged_in_) {
              ++run_.unavailable_kept;
              return move_refused();
            }
            return lost(generation_);
          }
          run_.violation("pair " + std::to_string(p.index) + " " + std::string(color_name(me)) +
                         ": " + line + " (" + last_lines() + ")");
          if (!logged_in_) p.locked_out = true;
        }
      },
      env->message);
}

std::vector<std::string> query_column(sqlite3* db, const char* sql) {
  std::vector<std::string> out;
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(st, 0);
    out.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
  }
  sqlite3_finalize(st);
  return out;
}

// Plays the 200 games through the kills.
void play_through_kills(Run& run) {
  run.pairs.resize(kGames);
  for (int i = 0; i < kGames; ++i) {
    Pair& p = run.pairs[static_cast<std::size_t>(i)];
    p.index = i;
    p.names[0] = "crash" + std::to_string(i) + "w";
    p.names[1] = "crash" + std::to_string(i) + "b";
    // Half the games have a clock, which must come back too (and not run while the server is
    // down): generous enough that nobody loses on time even under the sanitizers.
    if (i % 2 == 1) p.time = R"({"initial":900,"increment":5})";
  }
  run.start_servers();
  for (auto& p : run.pairs)
    for (Color c : {Color::White, Color::Black})
      run.players.push_back(std::make_shared<Player>(run, p, c));
  for (auto& player : run.players) player->connect();

  const auto began = Clock::now();
  while (!run.all_done() && Clock::now() - began < kDeadline)
    run.io.run_for(std::chrono::milliseconds(200));
  const double seconds = std::chrono::duration<double>(Clock::now() - began).count();
  int unfinished = 0;
  for (const Pair& p : run.pairs) unfinished += p.end ? 0 : 1;
  MESSAGE(kGames << " games, " << run.acked_total << " acknowledged moves, " << run.kills
                 << " kills, " << seconds << " s, " << run.unavailable
                 << " answers of unavailable (" << run.unavailable_kept
                 << " to a move, the connection kept; the others tried again)");
  for (double ms : run.recovery_ms) MESSAGE("every player back " << ms << " ms after a restart");
  for (const auto& v : run.violations) MESSAGE("violation: " << v);
  CHECK(run.violations.empty());
  CHECK(unfinished == 0);
  for (const Pair& p : run.pairs) {
    if (p.end) continue;
    std::string players;
    for (Color c : {Color::White, Color::Black}) {
      const auto& pl = *run.players[static_cast<std::size_t>(2 * p.index + index_of(c))];
      players += std::string(color_name(c)) + (pl.logged_in() ? " logged in" : " out") + " after " +
                 std::to_string(pl.connects()) + " connections; ";
    }
    std::string acked;
    for (const auto& m : p.acked) acked += m + " ";
    MESSAGE("unfinished: pair " << p.index << " game " << p.game.value_or("none") << ", "
                                << p.acked.size() << " moves acknowledged (" << acked << "), "
                                << players << std::string(p.locked_out ? "locked out" : ""));
    for (Color c : {Color::White, Color::Black})
      MESSAGE(
          "  " << color_name(c) << " "
               << run.players[static_cast<std::size_t>(2 * p.index + index_of(c))]->last_lines());
  }
  if (unfinished > 0 || !run.violations.empty()) run.show_logs();
  CHECK(run.kills == kKills);
  for (auto& player : run.players) player->drop();
  run.io.run_for(std::chrono::milliseconds(100));
  for (std::size_t k = 0; k < run.nodes(); ++k) REQUIRE(run.stop_server(SIGTERM, k) == 0);
  if (unfinished > 0 && run.topology().cluster()) {
    server::PgStorage storage(run.topology().db);
    for (const Pair& p : run.pairs)
      if (!p.end && p.game) {
        const auto rec = storage.game_record(std::stoll(*p.game));
        std::string moves;
        if (rec)
          for (const auto& m : rec->moves) moves += to_string(m.move) + " ";
        MESSAGE("stored for game " << *p.game << ": " << moves);
      }
  }
}

// A fresh seed per run, or the one in AMAZONS_CRASH_SEED to draw a failed run's moves and kill
// points again (its timing still follows the machine).
std::uint64_t run_seed() {
  if (const char* v = std::getenv("AMAZONS_CRASH_SEED")) return std::strtoull(v, nullptr, 10);
  return std::random_device{}();
}

// Every pair's game as stored: its players, every acknowledged move and a result by the rules.
void check_records(const Run& run, server::Storage& storage) {
  for (const Pair& p : run.pairs) {
    INFO("pair " << p.index);
    REQUIRE(p.game.has_value());
    const auto id = std::stoll(*p.game);
    const auto rec = storage.game_record(id);
    REQUIRE(rec.has_value());
    CHECK(rec->white.name == p.names[0]);
    CHECK(rec->black.name == p.names[1]);
    std::vector<std::string> moves;
    for (const auto& m : rec->moves) moves.push_back(to_string(m.move));
    CHECK(moves == p.acked);
    const auto final_position = replay(*rec);
    REQUIRE(final_position.has_value());
    CHECK(final_position->is_game_over());
    REQUIRE(rec->result.has_value());
    CHECK(rec->result->reason == EndReason::NoMoves);
    CHECK(rec->result->winner == ~final_position->side_to_move());
    REQUIRE(p.end.has_value());
    CHECK(p.end->winner == rec->result->winner);
    // The record reader agrees: it replays and judges the result itself.
    CHECK(parse_record_json(to_json(*rec).dump()).has_value());
  }
}

}  // namespace

TEST_CASE("crash and restart: 200 games survive SIGKILL at random moments") {
  test::TempDir dir;
  // The timing of the kills depends on the machine, so a run cannot be replayed exactly; the
  // seed still tells which moves and which kill points a failing run drew.
  const std::uint64_t seed = run_seed();
  MESSAGE("seed " << seed << " (AMAZONS_CRASH_SEED=" << seed
                  << " draws the same moves and kill points)");
  Run run(dir.path(), {{"limits", {{"connections_per_address", 4 * kGames}}}}, seed);
  play_through_kills(run);

  // The database on its own: sound, one finished game per pair, every acknowledged move.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2((dir.path() / "test.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
          SQLITE_OK);
  CHECK(query_column(db, "PRAGMA integrity_check") == std::vector<std::string>{"ok"});
  CHECK(query_column(db, "PRAGMA foreign_key_check").empty());
  CHECK(query_column(db, "SELECT COUNT(*) FROM games") ==
        std::vector<std::string>{std::to_string(kGames)});
  CHECK(query_column(db, "SELECT id FROM games WHERE reason IS NULL").empty());
  CHECK(query_column(db, "SELECT white FROM games GROUP BY white, black HAVING COUNT(*) > 1")
            .empty());
  CHECK(
      query_column(db, "SELECT game FROM moves GROUP BY game HAVING MAX(ply) != COUNT(*)").empty());
  sqlite3_close(db);

  server::SqliteStorage storage(dir.path() / "test.db");
  check_records(run, storage);
}

TEST_CASE("crash and restart: 200 games on a cluster of three survive SIGKILL of random nodes" *
          doctest::test_suite("redis")) {
  test::TempDir dir;
  test::RedisServer redis;
  auto& pg = test::shared_pg_server();
  Topology topology{3, pg.create_database(), redis.url()};
  const std::uint64_t seed = run_seed();
  MESSAGE("seed " << seed << " (AMAZONS_CRASH_SEED=" << seed
                  << " draws the same moves and kill points)");
  Run run(dir.path(),
          {{"limits", {{"connections_per_address", 4 * kGames}}},
           {"cluster", {{"lease_seconds", 2}, {"node_seconds", 2}, {"name_seconds", 6}}}},
          seed, topology);
  play_through_kills(run);

  // The database on its own: one finished game per pair, every acknowledged move once.
  const auto db = topology.db.substr(topology.db.rfind('/') + 1);
  const auto sql = [&](const std::string& q) { return pg.psql(q, db).second; };
  CHECK(sql("SELECT COUNT(*) FROM games") == std::to_string(kGames) + "\n");
  CHECK(sql("SELECT COUNT(*) FROM games WHERE reason IS NULL") == "0\n");
  CHECK(sql("SELECT COUNT(*) FROM (SELECT white FROM games GROUP BY white, black HAVING COUNT(*) "
            "> 1) x") == "0\n");
  CHECK(sql("SELECT COUNT(*) FROM (SELECT game FROM moves GROUP BY game HAVING MAX(ply) != "
            "COUNT(*)) x") == "0\n");
  server::PgStorage storage(topology.db);
  check_records(run, storage);
}
