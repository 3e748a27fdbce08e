// The client's lobby and online games (client/online_client.h) against the real amazons-server
// on an ephemeral loopback port with a real SQLite file: the same code the lobby and online game
// screens run, driven without a window.
#include <doctest/doctest.h>

#include <thread>

#include "client/online_client.h"
#include "client/tournament_text.h"
#include "client/words.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "tests/client/catalogues.h"
#include "tests/client/online_util.h"
#include "tests/integration/server_process.h"
#include "tests/net/net_util.h"

using namespace amazons;
using namespace amazons::client;
using amazons::test::Launch;
using amazons::test::Online;
using amazons::test::ServerProcess;
using amazons::test::TempDir;
using amazons::test::wait_until;

namespace {

bool has_game(const std::vector<protocol::GameSummary>& games, const std::string& id) {
  return std::any_of(games.begin(), games.end(), [&](const auto& g) { return g.game == id; });
}

Move first_legal(const Position& pos) {
  auto moves = std::make_unique<MoveList>();
  generate_moves(pos, *moves);
  REQUIRE(!moves->empty());
  return (*moves)[0];
}

// The person at `c` enters the first legal move when asked; waits until both see it.
// Both online; `white` opens a game as White and `black` joins it.
void open_and_join(Online& white, Online& black) {
  OnlineClient* a = &white.client;
  OnlineClient* b = &black.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));
  protocol::Create create;
  create.color = protocol::ColorChoice::White;
  a->create(create);
  REQUIRE(wait_until({a}, [&] { return a->waiting_game().has_value(); }));
  b->join(a->waiting_game()->game);
}

void play_first_move(Online& mover, Online& other) {
  OnlineClient* a = &mover.client;
  OnlineClient* b = &other.client;
  REQUIRE(wait_until({a, b}, [&] { return a->game() && a->game()->pending_request(); }));
  OnlineGame& g = *a->game();
  const std::size_t before = g.view()->moves().size();
  const Move m = first_legal(g.view()->position());
  REQUIRE(g.play(*g.pending_request(), m));
  REQUIRE(wait_until({a, b}, [&] {
    return g.view()->moves().size() == before + 1 && b->game() &&
           b->game()->view()->moves().size() == before + 1;
  }));
  CHECK(b->game()->view()->moves().back() == m);
}

}  // namespace

TEST_CASE("server addresses: host:port, a default port, IPv6 in brackets, clear errors") {
  CHECK(parse_server_address("example.org:7000").value() == ServerAddress{"example.org", 7000});
  CHECK(parse_server_address(" 10.0.0.5 ").value() == ServerAddress{"10.0.0.5", 7420});
  CHECK(parse_server_address("[::1]:9000").value() == ServerAddress{"::1", 9000});
  CHECK(parse_server_address("[::1]").value() == ServerAddress{"::1", 7420});
  CHECK(to_string(ServerAddress{"::1", 9000}) == "[::1]:9000");
  CHECK(to_string(ServerAddress{"host", 1}) == "host:1");
  for (const char* bad :
       {"", "host:", "host:0", "host:70000", "host:12ab", "::1:80", "[::1", ":7420", "a b:1"}) {
    CAPTURE(bad);
    const auto parsed = parse_server_address(bad);
    REQUIRE_FALSE(parsed.has_value());
    CHECK(!parsed.error().empty());
  }
}

TEST_CASE("server addresses: the nodes of a cluster in the server field become one connection") {
  Settings settings;
  settings.name = "ann";
  settings.pinned_servers["a:1"] = "AB:CD";
  const auto nodes = parse_server_addresses("tls://a:1, b:2,[::1]:3").value();
  const auto o = connection_options(settings, nodes, std::string("pw"));
  CHECK(o.host == "a");
  CHECK(o.port == 1);
  CHECK(o.tls);
  CHECK(o.tls_fingerprint == "AB:CD");  // the first node's pin, for all of them
  CHECK(o.password == "pw");
  REQUIRE(o.more_servers.size() == 2);
  CHECK(o.more_servers[0].host == "b");
  CHECK(o.more_servers[1].host == "::1");
  CHECK(o.more_servers[1].port == 3);
  CHECK(nodes_text(nodes, true) == "tls://a:1,b:2,[::1]:3");
  CHECK(nodes_text(nodes, false) == "a:1,b:2,[::1]:3");
  // What the field shows reads back as the same nodes (the settings keep it so).
  CHECK(parse_server_addresses(nodes_text(nodes, true)).value() == nodes);
  CHECK(connection_options(settings, parse_server_addresses("h:9").value(), std::nullopt)
            .more_servers.empty());
}

TEST_CASE("lobby: a created game is listed with its player, then joined, played, watched") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online alice(server.port(), "alice"), bob(server.port(), "bob"), carol(server.port(), "carol");
  OnlineClient *a = &alice.client, *b = &bob.client, *c = &carol.client;
  REQUIRE(wait_until({a, b, c}, [&] { return a->online() && b->online() && c->online(); }));
  CHECK(a->status_text().find("Online at 127.0.0.1:") == 0);
  CHECK(a->welcome()->player.rating == 1500);

  protocol::Create create;
  create.time = TimeControl::fischer(std::chrono::seconds(300), std::chrono::seconds(5));
  create.color = protocol::ColorChoice::White;
  a->create(create);
  REQUIRE(wait_until({a}, [&] { return a->waiting_game().has_value(); }));
  const std::string id = a->waiting_game()->game;
  CHECK_FALSE(a->waiting_game()->invite.has_value());

  b->refresh();
  REQUIRE(wait_until({b}, [&] { return has_game(b->open_games(), id); }));
  const protocol::GameSummary listed = b->open_games().front();
  CHECK(listed.white->name == "alice");
  CHECK(listed.white->rating == 1500);
  CHECK_FALSE(listed.black.has_value());
  CHECK(listed.time == create.time);
  CHECK(listed.rules == "standard");
  CHECK(b->live_games().empty());
  REQUIRE(wait_until({b}, [&] { return b->players().size() == 3; }));

  b->join(id);
  REQUIRE(wait_until(
      {a, b}, [&] { return a->game() && a->game()->view() && b->game() && b->game()->view(); }));
  CHECK_FALSE(a->waiting_game().has_value());
  CHECK(a->game()->id() == id);
  CHECK(a->game()->color() == Color::White);
  CHECK(b->game()->color() == Color::Black);
  CHECK(b->game()->view()->player(Color::White).name == "alice");
  CHECK(b->game()->view()->is_human(Color::Black));
  CHECK_FALSE(b->game()->view()->is_human(Color::White));
  CHECK(b->game()->view()->has_clock());
  CHECK_FALSE(b->game()->pending_request().has_value());  // white moves first

  play_first_move(alice, bob);
  play_first_move(bob, alice);

  // The game is live now, and a third player can watch it from the lobby.
  c->refresh();
  REQUIRE(wait_until({c}, [&] { return has_game(c->live_games(), id); }));
  c->watch(id);
  REQUIRE(wait_until({a, b, c}, [&] { return c->game() && c->game()->view(); }));
  CHECK_FALSE(c->game()->playing());
  CHECK(c->game()->view()->moves() == a->game()->view()->moves());
  CHECK_FALSE(c->game()->view()->is_human(Color::White));
  CHECK_FALSE(c->game()->pending_request().has_value());

  // Chat reaches everyone in the game; a move reaches the spectator.
  a->game()->send_chat("good luck");
  REQUIRE(wait_until(
      {a, b, c}, [&] { return b->game()->chat().size() == 1 && c->game()->chat().size() == 1; }));
  CHECK(b->game()->chat().front() == ChatLine{"alice", "good luck"});
  play_first_move(alice, carol);

  // An abort after both moved is refused: a notice, and the game goes on.
  b->game()->abort();
  REQUIRE(
      wait_until({a, b, c}, [&] { return bob.noticed("not_allowed") || bob.noticed("Abort"); }));
  CHECK(b->game()->view()->running());

  b->game()->resign();
  REQUIRE(wait_until({a, b, c}, [&] {
    return a->game()->finished() && b->game()->finished() && c->game()->finished();
  }));
  for (OnlineClient* x : {a, b, c}) {
    const auto& r = x->game()->view()->result();
    CHECK(r->winner == Color::White);
    CHECK(r->reason == EndReason::Resign);
  }
  CHECK(a->game()->view()->result_title() == "White wins");

  // Watching a finished game shows its end, with the clocks as the server stopped them (white
  // moved twice, gaining the 5 s increment each time), not the initial ones.
  Online dave(server.port(), "dave");
  OnlineClient* d = &dave.client;
  REQUIRE(wait_until({d}, [&] { return d->online(); }));
  d->watch(id);
  REQUIRE(wait_until({d}, [&] { return d->game() && d->game()->view(); }));
  CHECK(d->game()->finished());
  CHECK(d->game()->view()->moves().size() == 3);
  const auto white_left = d->game()->view()->clock(Color::White, std::chrono::steady_clock::now());
  CHECK(white_left > Millis{300000});
  CHECK(white_left <= Millis{310000});

  // The archive has it: listed for alice, fetched in full and in the text notation.
  a->request_history();
  REQUIRE(wait_until({a}, [&] { return a->history().has_value(); }));
  REQUIRE(a->history()->games.size() == 1);
  CHECK(a->history()->games[0].game == id);
  CHECK(a->history()->games[0].plies == 3);
  a->request_record(id);
  REQUIRE(wait_until({a}, [&] { return a->archived().has_value(); }));
  const ArchivedGame& archived = *a->archived();
  CHECK(archived.id == id);
  CHECK(archived.record.black.name == "bob");
  REQUIRE(archived.record.moves.size() == 3);
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(archived.record.moves[i].move == a->game()->view()->moves()[i]);
  CHECK(archived.text.find(to_string(archived.record.moves[0].move)) != std::string::npos);
  CHECK(replay(archived.record).has_value());

  // A rematch: both offer, a new game starts with the colours swapped.
  a->game()->offer_rematch();
  REQUIRE(wait_until({a, b}, [&] { return b->game()->rematch_offer() == "alice"; }));
  b->game()->offer_rematch();
  REQUIRE(wait_until({a, b}, [&] { return a->game()->id() != id && b->game()->id() != id; }));
  CHECK(a->game()->color() == Color::Black);
  CHECK(b->game()->color() == Color::White);
}

TEST_CASE("lobby: private games need the invite code, and bad requests become notices") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online alice(server.port(), "alice"), bob(server.port(), "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));

  protocol::Create create;
  create.is_private = true;
  a->create(create);
  REQUIRE(wait_until({a}, [&] { return a->waiting_game().has_value(); }));
  const auto invite = a->waiting_game()->invite;
  REQUIRE(invite.has_value());
  CHECK(alice.noticed("Invite code: " + *invite));
  const std::string id = a->waiting_game()->game;

  b->refresh();
  REQUIRE(wait_until({b}, [&] { return b->players().size() == 2; }));
  CHECK_FALSE(has_game(b->open_games(), id));
  b->join(id);
  REQUIRE(wait_until({b}, [&] { return bob.noticed("Join game " + id); }));
  CHECK(b->game() == nullptr);
  b->join("9999");
  REQUIRE(wait_until({b}, [&] { return bob.noticed("Join game 9999"); }));
  b->watch("nonsense id");
  REQUIRE(wait_until({b}, [&] { return bob.noticed("Watch game nonsense id"); }));
  CHECK(b->online());

  b->join(id, invite);
  REQUIRE(wait_until({a, b}, [&] { return a->game() && b->game() && b->game()->view(); }));
  CHECK(a->game()->id() == id);

  // Leaving the shown game does not end it: the seat follows the server until the end.
  a->leave_game();
  CHECK(a->game() == nullptr);
  CHECK(a->games_in_progress() == std::vector<std::string>{id});
  a->show_game(id);
  REQUIRE(a->game() != nullptr);
  CHECK(a->game()->id() == id);
}

TEST_CASE("lobby: quick pairing and challenges, accepted and declined") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online alice(server.port(), "alice"), bob(server.port(), "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));

  protocol::ChallengeSend ch;
  ch.player = "bob";
  ch.color = protocol::ColorChoice::Black;
  ch.time = TimeControl::fixed_per_move(std::chrono::seconds(30));
  a->challenge(ch);
  REQUIRE(wait_until(
      {a, b}, [&] { return b->challenges().size() == 1 && a->sent_challenges().size() == 1; }));
  const protocol::ChallengeReceived got = b->challenges().front();
  CHECK(got.from.name == "alice");
  CHECK(got.color == protocol::ColorChoice::Black);
  CHECK(got.time == ch.time);
  CHECK(bob.noticed("alice challenges you"));
  b->decline(got.challenge);
  REQUIRE(wait_until({a, b}, [&] { return alice.noticed("bob declined your challenge"); }));
  CHECK(b->challenges().empty());
  CHECK(a->sent_challenges().empty());

  ch.player = "nobody";
  a->challenge(ch);
  REQUIRE(wait_until({a}, [&] { return alice.noticed("Challenge nobody"); }));

  ch.player = "bob";
  a->challenge(ch);
  REQUIRE(wait_until({a, b}, [&] { return b->challenges().size() == 1; }));
  b->accept(b->challenges().front().challenge);
  REQUIRE(wait_until({a, b}, [&] { return a->game() && b->game() && a->game()->view(); }));
  CHECK(a->game()->color() == Color::Black);
  CHECK(b->game()->color() == Color::White);
  b->game()->abort();  // before both moved: allowed
  REQUIRE(wait_until({a, b}, [&] { return a->game()->finished(); }));
  CHECK(a->game()->view()->result()->reason == EndReason::Aborted);
  a->leave_game();
  b->leave_game();

  protocol::Seek seek;
  seek.time = TimeControl::fischer(std::chrono::seconds(60), std::chrono::seconds(1));
  a->seek(seek);
  REQUIRE(wait_until({a}, [&] { return a->seeking().has_value(); }));
  b->seek(seek);
  REQUIRE(wait_until({a, b}, [&] { return a->game() && b->game() && b->game()->view(); }));
  CHECK_FALSE(a->seeking().has_value());
  CHECK(a->game()->id() == b->game()->id());
  CHECK(a->game()->color() != b->game()->color());
}

TEST_CASE("connection: refused logins and an unreachable server are told, never a crash") {
  TempDir dir;
  ServerProcess server(dir.path());
  {
    Online first(server.port(), "dora", "secret-1");
    REQUIRE(wait_until({&first.client}, [&] { return first.client.online(); }));
  }
  Online wrong(server.port(), "dora", "wrong-password");
  REQUIRE(wait_until({&wrong.client},
                     [&] { return wrong.client.status() == net::ConnectionStatus::Closed; }));
  CHECK(wrong.client.closed_reason().has_value());
  CHECK(wrong.client.status_text().find("Disconnected: ") == 0);

  // A port nobody listens on: the client keeps trying and says so.
  const unsigned short dead = server.port();
  server.stop();
  Online lonely(dead, "erin");
  REQUIRE(wait_until({&lonely.client}, [&] {
    return lonely.client.status() == net::ConnectionStatus::WaitingRetry;
  }));
  CHECK(lonely.client.status_text().find("Cannot reach 127.0.0.1:" + std::to_string(dead)) == 0);
  CHECK(lonely.client.status_text().find("Reconnecting in") != std::string::npos);
  lonely.client.join("1");  // not online: refused at once as a notice
  REQUIRE(wait_until({&lonely.client}, [&] { return lonely.noticed("Join game 1"); }));
}

TEST_CASE("connection: the status and the notices in Chinese, the server's English in the log") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online li(server.port(), "li", std::nullopt, test::chinese());
  Online wang(server.port(), "wang", std::nullopt, test::chinese());
  OnlineClient *a = &li.client, *b = &wang.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));
  CHECK(a->status_text().rfind("已连接 127.0.0.1:", 0) == 0);
  CHECK(a->status_text().find("身份：li（1500）") != std::string::npos);

  // A refusal: the request and the server's code in Chinese; its English sentence for the log.
  b->join("9999");
  REQUIRE(wait_until({b}, [&] { return wang.noticed("加入对局 9999："); }));
  const OnlineNotice* refused = wang.find("加入对局 9999：");
  CHECK(refused->text == "加入对局 9999：" + test::chinese()("error.no_such_game"));
  CHECK(refused->code == "no_such_game");
  CHECK(refused->error);
  CHECK_FALSE(refused->log.empty());
  CHECK(refused->log.find("对局") == std::string::npos);

  // A challenge, its refusal, and a private game's invite code.
  protocol::ChallengeSend c;
  c.player = "wang";
  a->challenge(c);
  REQUIRE(wait_until({a, b}, [&] { return !b->challenges().empty(); }));
  REQUIRE(wait_until({a}, [&] { return li.noticed("已向 wang 发出挑战。"); }));
  CHECK(wang.noticed("li 向你发起挑战：标准，"));
  b->decline(b->challenges().front().challenge);
  REQUIRE(wait_until({a, b}, [&] { return li.noticed("wang 拒绝了你的挑战。"); }));
  protocol::Create create;
  create.is_private = true;
  a->create(create);
  REQUIRE(wait_until({a}, [&] { return a->waiting_game().has_value(); }));
  CHECK(li.noticed("私人对局已创建。邀请码：" + a->waiting_game()->invite.value_or("?")));

  // The server gone: the status says so in Chinese, with the wait before the next attempt.
  server.stop();
  REQUIRE(wait_until({a}, [&] { return a->status() == net::ConnectionStatus::WaitingRetry; }));
  CHECK(a->status_text().rfind("连接中断", 0) == 0);
  CHECK(a->status_text().find("秒后重新连接") != std::string::npos);
}

TEST_CASE("connection: a game survives the server restarting and resumes where it was") {
  TempDir dir;
  auto server = std::make_unique<ServerProcess>(dir.path());
  const unsigned short port = server->port();
  Online alice(port, "alice"), bob(port, "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  open_and_join(alice, bob);
  play_first_move(alice, bob);
  play_first_move(bob, alice);

  server->stop(SIGKILL);
  server.reset();
  REQUIRE(wait_until({a, b}, [&] { return !a->online() && !b->online(); }));
  CHECK(a->status_text().find("Connection lost") == 0);
  CHECK(a->game()->view()->moves().size() == 2);  // still shown while away

  server = std::make_unique<ServerProcess>(dir.path(), nlohmann::json::object(),
                                           std::vector<std::string>{}, Launch::on_port(port));
  REQUIRE(wait_until(
      {a, b}, [&] { return a->online() && b->online(); }, Millis{15000}));
  CHECK(alice.noticed("Reconnected"));
  play_first_move(alice, bob);
  CHECK(a->game()->view()->moves().size() == 3);
  CHECK(b->game()->view()->moves() == a->game()->view()->moves());
}

TEST_CASE("lobby: your turn lists every correspondence game to move in, and opens each") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online alice(server.port(), "alice"), bob(server.port(), "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));
  protocol::Create create;
  create.time = TimeControl::fixed_per_move(std::chrono::hours(24));
  create.color = protocol::ColorChoice::Black;
  std::vector<std::string> ids;
  for (int i = 0; i < 2; ++i) {
    b->create(create);
    REQUIRE(wait_until({b}, [&] { return b->waiting_game().has_value(); }));
    ids.push_back(b->waiting_game()->game);
    a->join(ids.back());
    REQUIRE(
        wait_until({a, b}, [&] { return !b->waiting_game() && a->game() && a->game()->view(); }));
  }
  // Alice plays white in both: both are her move, with a day on the clock.
  REQUIRE(wait_until({a, b}, [&] { return a->turns().size() == 2; }));
  for (const auto& t : a->turns()) {
    CHECK(t.opponent == "bob");
    CHECK(*t.left_ms > 86'000'000);
  }
  CHECK(alice.noticed("Your move"));
  a->show_game(ids[0]);
  REQUIRE(a->game() != nullptr);
  CHECK(a->game()->id() == ids[0]);
  b->show_game(ids[0]);
  play_first_move(alice, bob);
  // Moved in: that game is no longer waiting for her; Bob is told it is his turn.
  REQUIRE(wait_until({a, b}, [&] { return a->turns().size() == 1 && b->turns().size() == 1; }));
  CHECK(a->turns()[0].game == ids[1]);
  CHECK(b->turns()[0].game == ids[0]);
  CHECK(bob.noticed("Your move against alice"));
  a->show_game(ids[1]);
  CHECK(a->game()->id() == ids[1]);
  a->request_turns();
  REQUIRE(wait_until({a}, [&] { return a->turns().size() == 1; }));
}

TEST_CASE(
    "online game: a premove is taken only on the opponent's turn, sent or dropped on the "
    "reply, and forgotten at the end") {
  TempDir dir;
  ServerProcess server(dir.path());
  Online alice(server.port(), "alice"), bob(server.port(), "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  open_and_join(alice, bob);
  REQUIRE(wait_until({a, b}, [&] { return a->game() && a->game()->pending_request(); }));
  OnlineGame& g = *a->game();
  auto play = [&](OnlineClient* who, const char* move) {
    OnlineGame& game = *who->game();
    const std::size_t before = game.view()->moves().size();
    REQUIRE(wait_until({a, b}, [&] { return game.pending_request().has_value(); }));
    REQUIRE(game.play(*game.pending_request(), *parse_move(move)));
    REQUIRE(wait_until({a, b}, [&] {
      return a->game()->view()->moves().size() == before + 1 &&
             b->game()->view()->moves().size() == before + 1;
    }));
  };

  CHECK_FALSE(g.set_premove(*parse_move("g1-g5/e3")));  // Alice's own turn: a move, not a premove
  play(a, "d1-d7/g7");
  CHECK_FALSE(b->game()->set_premove(*parse_move("j7-h7/h8")));  // Bob's turn: his move
  CHECK_FALSE(g.set_premove(*parse_move("d7-d10/d9")));          // onto a queen
  REQUIRE(g.set_premove(*parse_move("g1-g5/e3")));
  CHECK_FALSE(g.set_premove(*parse_move("a4-c4/c8")));  // one at a time
  CHECK_FALSE(g.play_premove().has_value());            // not asked yet: it waits
  CHECK(g.premove().pending());

  // Bob's reply leaves it legal: it goes out as Alice's move.
  play(b, "j7-h7/h8");
  REQUIRE(wait_until({a, b}, [&] { return g.pending_request().has_value(); }));
  CHECK(g.play_premove() == *parse_move("g1-g5/e3"));
  // Both sides must have it: Alice's own view takes it only with the server's acknowledgement,
  // and until then it is still her turn there (no premove possible).
  REQUIRE(wait_until({a, b}, [&] {
    return a->game()->view()->moves().size() == 3 && b->game()->view()->moves().size() == 3;
  }));
  CHECK(b->game()->view()->moves().back() == *parse_move("g1-g5/e3"));

  // Bob's reply shoots onto its arrow square: dropped, with the reason as a notice.
  REQUIRE(g.set_premove(*parse_move("a4-c4/c8")));
  play(b, "d10-c9/c8");
  REQUIRE(wait_until({a, b}, [&] { return g.pending_request().has_value(); }));
  CHECK_FALSE(g.play_premove().has_value());
  CHECK_FALSE(g.premove().pending());
  CHECK(alice.noticed("Premove a4-c4/c8 dropped: the arrow square c8 is now blocked"));
  CHECK(g.pending_request().has_value());  // still Alice's move to make
  CHECK(g.view()->moves().size() == 4);

  // A premove pending when the game ends is forgotten.
  play(a, "j4-j5/j6");
  REQUIRE(g.set_premove(*parse_move("a4-b4/b5")));
  b->game()->resign();
  REQUIRE(wait_until({a, b}, [&] { return g.finished(); }));
  CHECK_FALSE(g.premove().pending());
}

TEST_CASE(
    "lobby: tournaments are listed and followed with their standings, joined, withdrawn, and "
    "their games play in the client") {
  TempDir dir;
  ServerProcess server(dir.path(), {{"limits", {{"players_create_tournaments", true}}}});
  test::Client host(server.port());
  host.send(R"({"type":"hello","protocol":1,"name":"host"})");
  host.expect<protocol::Welcome>();
  Online alice(server.port(), "alice"), bob(server.port(), "bob");
  OnlineClient *a = &alice.client, *b = &bob.client;
  REQUIRE(wait_until({a, b}, [&] { return a->online() && b->online(); }));

  // One far off, to join and withdraw; one about to start, to play.
  protocol::TournamentCreate later;
  later.name = "Later";
  later.kind = "swiss";
  later.rounds = 3;
  later.start_in = 3600;
  later.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  host.send(later);
  const auto later_id = host.expect<protocol::TournamentInfo>().tournament.id;
  protocol::TournamentCreate soon;
  soon.name = "Soon";
  soon.kind = "round_robin";
  soon.rules = "botzone8";
  soon.rated = false;
  soon.start_in = 2;
  soon.time = TimeControl::fischer(Millis{60'000}, Millis{0});
  host.send(soon);
  const auto soon_id = host.expect<protocol::TournamentInfo>().tournament.id;

  a->refresh();
  REQUIRE(wait_until({a}, [&] { return a->tournaments().size() == 2; }));
  CHECK(tournament_line(test::english(), a->tournaments()[0])
            .find("Soon \u00B7 Round robin \u00B7 starts ") == 0);
  CHECK(tournament_line(test::english(), a->tournaments()[1]).find("Later \u00B7 Swiss") == 0);

  a->follow_tournament(later_id);
  REQUIRE(wait_until({a}, [&] { return a->tournament().has_value(); }));
  CHECK(a->tournament()->standings.empty());
  CHECK_FALSE(takes_part(*a->tournament(), "alice"));
  a->join_tournament(later_id);
  REQUIRE(
      wait_until({a}, [&] { return a->tournament() && takes_part(*a->tournament(), "alice"); }));
  CHECK(alice.noticed("You joined the tournament."));
  a->join_tournament(later_id);  // twice: the server's reason comes back as an error notice
  REQUIRE(wait_until({a}, [&] { return alice.noticed("Join tournament: "); }));
  a->withdraw_tournament(later_id);
  REQUIRE(wait_until({a}, [&] { return alice.noticed("You withdrew from the tournament."); }));
  REQUIRE(wait_until({a}, [&] {
    return a->tournament()->standings.empty() || !takes_part(*a->tournament(), "alice");
  }));

  // The other one: both join, it starts, the game opens in both clients and is in its pairings.
  a->follow_tournament(soon_id);
  b->join_tournament(soon_id);
  a->join_tournament(soon_id);
  REQUIRE(wait_until(
      {a, b}, [&] { return a->game() && b->game() && a->game()->view(); }, Millis{10'000}));
  REQUIRE(wait_until({a}, [&] {
    return a->tournament() && current_game(*a->tournament(), "alice") == a->game()->id();
  }));
  CHECK(a->tournament()->tournament.status == "running");
  CHECK(a->tournament()->standings.size() == 2);
  a->game()->resign();
  // Scored at once: Bob has the point, the tournament (one game) is over, the list says so.
  REQUIRE(wait_until(
      {a, b}, [&] { return a->tournament() && a->tournament()->tournament.status == "finished"; }));
  const auto& st = a->tournament()->standings;
  REQUIRE(st.size() == 2);
  CHECK(st[0].name == "bob");
  CHECK(points_text(st[0].points) == "1");
  CHECK(st[1].games == 1);
  CHECK(st[1].losses == 1);
  CHECK(standing_row(test::english(), st[1]).name == "alice (1500)");
  a->refresh();
  REQUIRE(wait_until({a}, [&] {
    return std::any_of(a->tournaments().begin(), a->tournaments().end(),
                       [&](const auto& t) { return t.id == soon_id && t.status == "finished"; });
  }));
  a->unfollow_tournament();
  CHECK_FALSE(a->tournament().has_value());
}

namespace {
// `amazons-server admin ARGS` on the database of a server running in `dir`; its exit status.
int admin(const std::filesystem::path& dir, const std::string& args) {
  const std::string cmd = std::string(test::kServerBinary) + " admin " + args + " --db '" +
                          (dir / "test.db").string() + "' >/dev/null 2>&1";
  return std::system(cmd.c_str());
}
}  // namespace

TEST_CASE(
    "moderation: a moderator's client sees reports, sanctions and the audit log, mutes, "
    "resolves and lifts, and a player is refused") {
  TempDir dir;
  ServerProcess server(dir.path());
  {
    test::Client first(server.port());  // the name must be known to be granted a role
    first.hello("mod");
  }
  REQUIRE(admin(dir.path(), "grant mod moderator") == 0);
  // The running server reads roles every 2 s: log in until the welcome says moderator (a
  // client logged in as mod goes first, as the name is taken while it is online).
  std::unique_ptr<Online> mod;
  for (int attempt = 0; attempt < 30; ++attempt) {
    mod = std::make_unique<Online>(server.port(), "mod");
    if (wait_until(
            {&mod->client}, [&] { return mod->client.online(); }, Millis{3000}) &&
        mod->client.moderates())
      break;
    mod.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(mod != nullptr);
  REQUIRE(mod->client.moderates());
  CHECK(mod->client.role() == protocol::Role::Moderator);
  Online bob(server.port(), "bob"), carol(server.port(), "carol");
  OnlineClient *m = &mod->client, *b = &bob.client, *c = &carol.client;
  REQUIRE(wait_until({b, c}, [&] { return b->online() && c->online(); }));
  CHECK_FALSE(b->moderates());

  // A player asks for nothing, and an action of theirs is refused with the server's reason.
  b->request_moderation();
  b->moderate(protocol::Kick{"carol", "no"}, "Kick carol");
  REQUIRE(wait_until({b}, [&] { return bob.noticed("Kick carol: "); }));
  // Answers come in order: a refused request for the lists would have left its notice by now.
  CHECK_FALSE(bob.noticed("Open reports: "));
  CHECK_FALSE(bob.noticed("Audit log: "));
  CHECK_FALSE(b->reports().has_value());
  CHECK(c->online());

  c->report_player("bob", "rude in chat");
  REQUIRE(wait_until({c}, [&] { return carol.noticed("Reported bob to the moderators."); }));
  m->request_moderation();
  REQUIRE(wait_until({m}, [&] {
    return m->reports() && m->reports()->reports.size() == 1 && m->sanctions() && m->audit();
  }));
  const auto report = m->reports()->reports[0];
  CHECK(report.reporter == "carol");
  CHECK(report.player == "bob");
  CHECK(report.reason == "rude in chat");
  CHECK(m->sanctions()->sanctions.empty());

  m->moderate(protocol::Mute{"bob", 600, "rude in chat"}, "Mute bob");
  REQUIRE(wait_until({m}, [&] { return mod->noticed("Mute bob: done."); }));
  REQUIRE(wait_until({m}, [&] {
    return m->sanctions() && m->sanctions()->sanctions.size() == 1 && m->audit() &&
           !m->audit()->entries.empty() && m->audit()->entries[0].action == "mute";
  }));
  CHECK(m->sanctions()->sanctions[0].kind == "mute");
  CHECK(m->sanctions()->sanctions[0].target == "bob");
  CHECK(m->audit()->entries[0].actor == "mod");
  CHECK(m->audit()->entries[0].duration == 600);

  m->moderate(protocol::Resolve{report.report, "muted"}, "Resolve");
  m->moderate(protocol::Unmute{"bob", "apologised"}, "Unmute bob");
  REQUIRE(wait_until({m}, [&] {
    return m->reports() && m->reports()->reports.empty() && m->sanctions() &&
           m->sanctions()->sanctions.empty() && m->audit() && m->audit()->entries.size() >= 3 &&
           m->audit()->entries[0].action == "unmute";
  }));
}
