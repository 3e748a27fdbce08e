#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <fstream>
#include <random>

#include "common/movegen.h"
#include "common/notation.h"
#include "common/position_text.h"
#include "lobby_harness.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::protocol;
using amazons::test::LobbyHarness;
using server::SessionId;

namespace {

Create create(ColorChoice color, TimeControl tc = {}, bool rated = false,
              std::string rules = "standard") {
  Create c;
  c.rules = std::move(rules);
  c.color = color;
  c.time = tc;
  c.rated = rated;
  return c;
}

// Alice (white) and Bob (black) in a started game; returns the game id.
std::string start_game(LobbyHarness& h, SessionId alice, SessionId bob, TimeControl tc = {},
                       bool rated = false, std::string rules = "standard") {
  h.send(alice, create(ColorChoice::White, tc, rated, std::move(rules)));
  const auto game = h.take<Created>(alice).game;
  h.send(bob, Join{game, std::nullopt});
  CHECK(h.take<Start>(alice).color == Color::White);
  CHECK(h.take<Start>(bob).color == Color::Black);
  return game;
}

// Plays random legal moves through the lobby until the game ends; returns the plies played.
int play_out(LobbyHarness& h, const std::string& game, SessionId white, SessionId black,
             const RuleVariant& v, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Position pos(v);
  int plies = 0;
  while (!pos.is_game_over()) {
    const Move m = test::random_move(pos, rng);
    const SessionId s = pos.side_to_move() == Color::White ? white : black;
    pos.do_move(m);
    h.send(s, MoveMsg{game, to_string(m)});
    ++plies;
    const auto moved = h.take<Moved>(s == white ? black : white);
    CHECK(moved.ply == plies);
    h.take<Moved>(s);
  }
  return plies;
}

struct TinyRules {
  amazons::test::TempDir dir;
  RuleVariant variant;
  TinyRules() {
    variant.name = "tiny";
    variant.description = "6x6, one queen each";
    variant.size = 6;
    variant.white_queens = {Square::at(0, 0)};
    variant.black_queens = {Square::at(5, 5)};
    std::ofstream(dir.path() / "tiny.json") << to_json(variant).dump();
    std::filesystem::copy(amazons::test::config_dir() + "/rules/standard.json",
                          dir.path() / "standard.json");
  }
  server::LobbyConfig config() const {
    auto c = LobbyHarness::default_config();
    c.rules_dir = dir.path();
    return c;
  }
};

}  // namespace

TEST_CASE("lobby: hello, welcome, and the errors before it") {
  LobbyHarness h;
  const auto s = h.connect();
  h.send(s, Players{});
  CHECK(h.error(s) == ErrorCode::NotLoggedIn);
  h.send(s, "{\"type\":\"hello\",\"protocol\":2,\"name\":\"a\"}");
  CHECK(h.error(s) == ErrorCode::ProtocolVersion);
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"a b\"}");
  CHECK(h.error(s) == ErrorCode::BadField);
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\",\"id\":1}");
  const auto welcome = h.drain(s);
  REQUIRE(welcome.size() == 1);
  CHECK(*welcome[0].id == 1);
  const auto& w = std::get<Welcome>(welcome[0].message);
  CHECK(w.name == "alice");
  CHECK(w.token.size() == 32);
  CHECK(w.player.rating == 1500);
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\"}");
  CHECK(h.error(s) == ErrorCode::AlreadyLoggedIn);

  const auto other = h.connect();
  h.send(other, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\"}");
  CHECK(h.error(other) == ErrorCode::NameTaken);
  h.send(other, "{\"type\":\"ping\",\"id\":\"p\"}");
  CHECK(h.drain(other).size() == 1);
}

TEST_CASE("lobby: passwords protect a name and tokens resume it") {
  LobbyHarness h;
  const auto s = h.connect();
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"password\":\"s3cret\"}");
  const auto token = h.take<Welcome>(s).token;
  h.disconnect(s);

  const auto thief = h.connect();
  h.send(thief, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\"}");
  CHECK(h.error(thief) == ErrorCode::AuthFailed);
  h.send(thief, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"password\":\"guess\"}");
  CHECK(h.error(thief) == ErrorCode::AuthFailed);
  h.send(thief, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"token\":\"00\"}");
  CHECK(h.error(thief) == ErrorCode::AuthFailed);

  const auto back = h.connect();
  h.send(back, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"password\":\"s3cret\"}");
  const auto token2 = h.take<Welcome>(back).token;
  CHECK(token2 != token);
  // The new connection with the token replaces the old one, which is told why.
  const auto again = h.connect();
  h.send(again,
         "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"token\":\"" + token2 + "\"}");
  h.take<Welcome>(again);
  CHECK(h.error(back) == ErrorCode::Replaced);
  CHECK(h.closed(back));

  // The stored password survives a restart, and only its hash is in the database.
  h.reopen();
  const auto after = h.connect();
  h.send(after, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"carol\",\"password\":\"s3cret\"}");
  h.take<Welcome>(after);
  const auto hash = h.storage().load().players.at(0).password_hash;
  CHECK(hash.find("s3cret") == std::string::npos);
  CHECK(hash.starts_with("$argon2id$"));
}

TEST_CASE("lobby: a server password keeps strangers out") {
  auto config = LobbyHarness::default_config();
  config.server_password = "club";
  LobbyHarness h(config);
  const auto s = h.connect();
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"dan\"}");
  CHECK(h.error(s) == ErrorCode::AuthFailed);
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"dan\",\"server_password\":\"club\"}");
  h.take<Welcome>(s);
  CHECK(h.lobby().discovery_info().password);
}

TEST_CASE("lobby: passwords only over private channels unless the host allows plain ones") {
  auto config = LobbyHarness::default_config();
  config.server_password = "club";
  LobbyHarness h(config);
  const server::ConnectionInfo plain{false, {}};
  const auto s = h.connect(plain);
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"erin\",\"server_password\":\"club\"}");
  CHECK(h.error(s) == ErrorCode::TlsRequired);
  h.send(s,
         "{\"type\":\"hello\",\"protocol\":1,\"name\":\"erin\",\"password\":\"pw\","
         "\"server_password\":\"club\"}");
  CHECK(h.error(s) == ErrorCode::TlsRequired);
  // The same hello over a private channel (TLS, or loopback) logs in.
  const auto t = h.connect();
  h.send(t, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"erin\",\"server_password\":\"club\"}");
  CHECK(h.take<Welcome>(t).name == "erin");

  config.allow_plain_passwords = true;
  LobbyHarness allowed(config);
  const auto u = allowed.connect(plain);
  allowed.send(u,
               "{\"type\":\"hello\",\"protocol\":1,\"name\":\"fay\",\"password\":\"pw\","
               "\"server_password\":\"club\"}");
  CHECK(allowed.take<Welcome>(u).name == "fay");
}

TEST_CASE("lobby: a guest over a plain connection needs no TLS") {
  LobbyHarness h;
  const auto s = h.connect(server::ConnectionInfo{false, {}});
  h.send(s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"gus\"}");
  CHECK(h.take<Welcome>(s).name == "gus");
}

TEST_CASE("lobby: create, list, join, play, spectate, resign, archive") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob", true);
  const auto eve = h.login("eve");

  h.send(alice, create(ColorChoice::White, TimeControl::fischer(Millis{300'000}, Millis{5'000})),
         "c1");
  const auto created = h.drain(alice);
  REQUIRE(created.size() == 1);
  CHECK(*created[0].id == "c1");
  const auto game = std::get<Created>(created[0].message).game;

  h.send(eve, List{});
  auto games = h.take<Games>(eve).games;
  REQUIRE(games.size() == 1);
  CHECK(games[0].status == GameStatus::Open);
  CHECK(games[0].white->name == "alice");
  CHECK_FALSE(games[0].black.has_value());

  h.send(alice, Join{game, std::nullopt});
  CHECK(h.error(alice) == ErrorCode::NotAllowed);
  h.send(bob, Join{"999", std::nullopt});
  CHECK(h.error(bob) == ErrorCode::NoSuchGame);
  h.send(bob, Join{game, std::nullopt});
  const auto start = h.take<Start>(bob);
  CHECK(start.black.name == "bob");
  CHECK(start.black.bot);
  CHECK(start.clock->white == 300'000);
  h.take<Start>(alice);
  h.send(eve, Join{game, std::nullopt});
  CHECK(h.error(eve) == ErrorCode::GameFull);

  h.send(eve, Watch{game, std::nullopt});
  const auto st = h.take<State>(eve);
  CHECK(st.status == GameStatus::Active);
  CHECK(st.moves.empty());
  CHECK_FALSE(st.color.has_value());

  h.send(eve, MoveMsg{game, "d1-d7/g7"});
  CHECK(h.error(eve) == ErrorCode::NotAPlayer);
  h.send(bob, MoveMsg{game, "a7-b7/c7"});
  CHECK(h.error(bob) == ErrorCode::NotYourTurn);
  h.send(alice, MoveMsg{game, "a4-a8/a9"});
  const auto illegal = h.take<Error>(alice);
  CHECK(illegal.code == ErrorCode::IllegalMove);
  CHECK(illegal.reason == "path_blocked");

  h.advance(Millis{1500});
  h.send(alice, MoveMsg{game, "d1-d7/g7"}, 5);
  const auto mine = h.drain(alice);
  REQUIRE(mine.size() == 1);
  CHECK(*mine[0].id == 5);
  const auto seen = h.take<Moved>(eve);
  CHECK(seen.move == "d1-d7/g7");
  CHECK(seen.clock->white == 300'000 - 1'500 + 5'000);
  CHECK(h.take<Moved>(bob).ply == 1);

  h.send(eve, ChatSend{game, "nice move"});
  CHECK(h.take<Chat>(alice).from == "eve");
  CHECK(h.take<Chat>(bob).text == "nice move");
  h.take<Chat>(eve);

  h.send(bob, Resign{{game}});
  const auto end = h.take<End>(alice);
  CHECK(end.winner == Color::White);
  CHECK(end.reason == EndReason::Resign);
  h.take<End>(eve);
  h.take<End>(bob);

  h.send(alice, HistoryRequest{std::nullopt, 10});
  const auto hist = h.take<History>(alice);
  REQUIRE(hist.games.size() == 1);
  CHECK(hist.games[0].game == game);
  CHECK(hist.games[0].winner == Color::White);
  CHECK(hist.games[0].plies == 1);
  CHECK(hist.games[0].black.bot);

  h.send(eve, RecordRequest{game, RecordFormat::Text});
  const auto text = h.take<Record>(eve).record.get<std::string>();
  auto parsed = parse_record_text(text);
  REQUIRE_MESSAGE(parsed.has_value(), text);
  CHECK(parsed->moves.size() == 1);
  CHECK(parsed->black.bot);
  CHECK(parsed->result == GameResult{Color::White, EndReason::Resign});
  h.send(eve, RecordRequest{game, RecordFormat::Json});
  CHECK(record_from_json(h.take<Record>(eve).record).has_value());
  h.send(eve, RecordRequest{"12345", RecordFormat::Json});
  CHECK(h.error(eve) == ErrorCode::NoSuchGame);
}

TEST_CASE("lobby: a game to no_moves on a small board, rated, then the leaderboard") {
  TinyRules tiny;
  LobbyHarness h(tiny.config());
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game(h, alice, bob, {}, true, "tiny");
  const int plies = play_out(h, game, alice, bob, tiny.variant, 11);
  const auto end = h.take<End>(alice);
  CHECK(end.reason == EndReason::NoMoves);
  REQUIRE(end.winner.has_value());
  REQUIRE(end.white_rating.has_value());
  const bool white_won = *end.winner == Color::White;
  CHECK((end.white_rating->change > 0) == white_won);
  CHECK((end.black_rating->change > 0) == !white_won);

  h.send(bob, LeaderboardRequest{10});
  const auto board = h.take<Leaderboard>(bob).players;
  REQUIRE(board.size() == 2);
  CHECK(board[0].name == (white_won ? "alice" : "bob"));
  CHECK(board[0].games == 1);
  CHECK(board[0].deviation < 350);

  h.send(bob, RecordRequest{game, RecordFormat::Json});
  const auto rec = record_from_json(h.take<Record>(bob).record);
  REQUIRE(rec.has_value());
  CHECK(static_cast<int>(rec->moves.size()) == plies);

  // Ratings survive a restart.
  h.reopen();
  const auto carol = h.login("carol");
  h.send(carol, LeaderboardRequest{10});
  CHECK(h.take<Leaderboard>(carol).players == board);
}

TEST_CASE("lobby: abort before both moved, loss on time, and claim after a disconnect") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  auto game = start_game(h, alice, bob);
  h.send(alice, MoveMsg{game, "d1-d7/g7"});
  h.send(bob, Abort{{game}});
  CHECK(h.take<End>(alice).reason == EndReason::Aborted);
  h.drain(alice);
  h.drain(bob);

  game = start_game(h, alice, bob, TimeControl::fixed_per_move(Millis{2'000}));
  h.advance(Millis{1'000});
  h.send(alice, MoveMsg{game, "d1-d7/g7"});
  h.drain(alice);
  h.drain(bob);
  h.advance(Millis{1'999});
  CHECK_FALSE(h.has<End>(alice));
  h.advance(Millis{1});
  const auto end = h.take<End>(alice);
  CHECK(end.reason == EndReason::Time);
  CHECK(end.winner == Color::White);
  h.drain(bob);

  game = start_game(h, alice, bob);
  h.disconnect(bob);
  const auto presence = h.take<Presence>(alice);
  CHECK_FALSE(presence.online);
  CHECK(presence.player == "bob");
  h.send(alice, Claim{{game}});
  CHECK(h.error(alice) == ErrorCode::NotAllowed);
  h.advance(Millis{1'000});
  h.send(alice, Claim{{game}});
  const auto claimed = h.take<End>(alice);
  CHECK(claimed.reason == EndReason::Abandon);
  CHECK(claimed.winner == Color::White);
}

// Found by tests/reliability (crash and restart): every welcome used to issue a new token, so a
// server killed after storing a token login but before the client read its welcome left the
// client with a dead token and a name it could not take back (its seats made it busy).
TEST_CASE("lobby: a token login keeps the token, so a lost welcome locks nobody out") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  start_game(h, alice, bob);
  const std::string token = h.token("alice");
  const std::string hello =
      "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\",\"token\":\"" + token + "\"}";
  h.disconnect(alice);
  const auto back = h.connect();
  h.send(back, hello);
  CHECK(h.take<Welcome>(back).token == token);
  // The login is stored; the server dies before the client reads the welcome.
  h.reopen();
  const auto again = h.connect();
  h.send(again, hello);
  CHECK(h.take<Welcome>(again).token == token);
  h.take<State>(again);
}

TEST_CASE("lobby: reconnecting with the token resumes every seat with the full state") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto g1 = start_game(h, alice, bob);
  h.send(alice, MoveMsg{g1, "d1-d7/g7"});
  h.drain(alice);
  h.drain(bob);
  h.send(bob, create(ColorChoice::White));
  const auto g2 = h.take<Created>(bob).game;
  h.send(alice, Join{g2, std::nullopt});
  h.drain(alice);
  h.drain(bob);

  h.disconnect(alice);
  CHECK_FALSE(h.take<Presence>(bob).online);
  h.drain(bob);
  const auto back = h.connect();
  h.send(back, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\"}");
  CHECK(h.error(back) == ErrorCode::NameTaken);  // seats are held: only the token resumes them
  h.send(back, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\",\"token\":\"" +
                   h.token("alice") + "\"}");
  const auto w = h.take<Welcome>(back);
  CHECK(w.games == std::vector<std::string>{g1, g2});
  const auto s1 = h.take<State>(back);
  CHECK(s1.game == g1);
  CHECK(s1.moves == std::vector<std::string>{"d1-d7/g7"});
  CHECK(s1.color == Color::White);
  CHECK(s1.to_move == Color::Black);
  const auto s2 = h.take<State>(back);
  CHECK(s2.color == Color::Black);
  CHECK(h.take<Presence>(bob).online);
  h.send(bob, MoveMsg{g1, "a7-b7/c7"});
  CHECK(h.take<Moved>(back).ply == 2);
}

TEST_CASE("lobby: after a restart every unfinished game comes back and goes on") {
  LobbyHarness h;
  auto alice = h.login("alice");
  auto bob = h.login("bob");
  const auto game = start_game(h, alice, bob, TimeControl::fischer(Millis{60'000}, Millis{0}));
  h.advance(Millis{10'000});
  h.send(alice, MoveMsg{game, "d1-d7/g7"});
  h.advance(Millis{20'000});
  h.send(bob, MoveMsg{game, "a7-b7/c7"});
  h.advance(Millis{5'000});  // white thinks 5 s, then the server dies
  const auto alice_token = h.token("alice");
  const auto bob_token = h.token("bob");

  // The restart comes after a long outage: the 5 s white had thought and the downtime are
  // charged to nobody; from the restore on, white's clock runs again (offline or not).
  h.reopen();
  h.advance(Millis{2'000});
  alice = h.connect();
  h.send(alice, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"alice\",\"token\":\"" + alice_token +
                    "\"}");
  h.take<Welcome>(alice);
  const auto st = h.take<State>(alice);
  CHECK(st.moves == std::vector<std::string>{"d1-d7/g7", "a7-b7/c7"});
  REQUIRE(st.clock.has_value());
  CHECK(st.clock->white == 48'000);
  CHECK(st.clock->black == 40'000);
  CHECK(st.clock->running == Color::White);
  bob = h.connect();
  h.send(bob,
         "{\"type\":\"hello\",\"protocol\":1,\"name\":\"bob\",\"token\":\"" + bob_token + "\"}");
  h.take<Welcome>(bob);
  h.send(alice, MoveMsg{game, "g1-g3/g1"});
  CHECK(h.take<Moved>(bob).ply == 3);
}

TEST_CASE("lobby: quick pairing matches equal seeks and challenges can be accepted or declined") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto carol = h.login("carol");
  const auto tc = TimeControl::fischer(Millis{60'000}, Millis{1'000});
  h.send(alice, Seek{"standard", tc, false});
  h.take<Seeking>(alice);
  h.send(carol, Seek{"standard", TimeControl::fixed_per_move(Millis{5'000}), false});
  h.take<Seeking>(carol);
  h.send(bob, Seek{"standard", tc, false});
  const auto sa = h.take<Start>(alice);
  const auto sb = h.take<Start>(bob);
  CHECK(sa.game == sb.game);
  CHECK(sa.time == tc);
  CHECK(*sa.color != *sb.color);
  CHECK_FALSE(h.has<Start>(carol));

  h.send(alice, ChallengeSend{"nobody", "standard", {}, ColorChoice::Black, false});
  CHECK(h.error(alice) == ErrorCode::NoSuchPlayer);
  h.send(alice, ChallengeSend{"carol", "standard", {}, ColorChoice::Black, false});
  const auto sent = h.take<ChallengeSent>(alice);
  const auto got = h.take<ChallengeReceived>(carol);
  CHECK(got.challenge == sent.challenge);
  CHECK(got.from.name == "alice");
  h.send(bob, Accept{got.challenge});
  CHECK(h.error(bob) == ErrorCode::NoSuchChallenge);
  h.send(carol, Accept{got.challenge});
  CHECK(h.take<Start>(carol).color == Color::White);
  CHECK(h.take<Start>(alice).color == Color::Black);

  h.send(bob, ChallengeSend{"carol", "standard", {}, ColorChoice::Random, false});
  const auto c2 = h.take<ChallengeReceived>(carol);
  h.send(carol, Decline{c2.challenge});
  h.take<Ok>(carol);
  CHECK(h.take<ChallengeClosed>(bob).reason == "declined");

  h.send(alice, Players{});
  CHECK(h.take<PlayerList>(alice).players.size() == 3);
}

TEST_CASE("lobby: rematch when both offer, colours swapped") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game(h, alice, bob);
  h.send(alice, Rematch{{game}});
  CHECK(h.error(alice) == ErrorCode::GameNotActive);
  h.send(alice, Resign{{game}});
  h.drain(alice);
  h.drain(bob);
  h.send(bob, Rematch{{game}});
  h.take<Ok>(bob);
  CHECK(h.take<RematchOffer>(alice).from == "bob");
  h.send(alice, Rematch{{game}});
  const auto s = h.take<Start>(alice);
  CHECK(s.color == Color::Black);
  CHECK(s.game != game);
  CHECK(h.take<Start>(bob).color == Color::White);
}

TEST_CASE("lobby: private games need their invite code") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  Create c = create(ColorChoice::Random);
  c.is_private = true;
  h.send(alice, c);
  const auto created = h.take<Created>(alice);
  REQUIRE(created.invite.has_value());
  h.send(bob, List{});
  CHECK(h.take<Games>(bob).games.empty());
  h.send(bob, Join{created.game, std::string("wrong")});
  CHECK(h.error(bob) == ErrorCode::NoSuchGame);
  h.send(bob, Join{created.game, created.invite});
  h.take<Start>(bob);
}

TEST_CASE("lobby: leave cancels an open game or stops watching") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  h.send(alice, create(ColorChoice::White));
  const auto game = h.take<Created>(alice).game;
  h.send(bob, Watch{game, std::nullopt});
  h.take<State>(bob);
  h.send(bob, Leave{{game}});
  h.take<Ok>(bob);
  h.send(bob, Leave{{game}});
  CHECK(h.error(bob) == ErrorCode::NotAPlayer);
  h.send(alice, Leave{{game}});
  h.take<Ok>(alice);
  h.send(bob, Join{game, std::nullopt});
  CHECK(h.error(bob) == ErrorCode::NoSuchGame);
}

TEST_CASE("lobby: chat limits, request rate limits, and a stream of errors closes the connection") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game(h, alice, bob);
  h.send(alice, ChatSend{game, std::string(501, 'x')});
  CHECK(h.error(alice) == ErrorCode::TooLong);
  for (int i = 0; i < 5; ++i) h.send(alice, ChatSend{game, "hi"});
  h.send(alice, ChatSend{game, "hi"});
  CHECK(h.error(alice) == ErrorCode::RateLimited);
  h.advance(Millis{1'000});
  h.send(alice, ChatSend{game, "hi"});
  CHECK_FALSE(h.has<Error>(alice));

  const auto eve = h.login("eve");
  for (int i = 0; i < 20; ++i) h.send(eve, "garbage");
  CHECK_FALSE(h.closed(eve));
  h.send(eve, "garbage");
  CHECK(h.closed(eve));
  auto all = h.drain(eve);
  CHECK(std::get<Error>(all.back().message).code == ErrorCode::TooManyErrors);

  const auto flood = h.login("flood");
  for (int i = 0; i < 100; ++i) h.send(flood, Ping{});
  h.drain(flood);
  h.send(flood, Ping{});
  CHECK(h.error(flood) == ErrorCode::RateLimited);
}

TEST_CASE("lobby: every malformed request gets its error code and changes nothing") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto writes = h.writes_applied();
  const std::pair<const char*, ErrorCode> cases[] = {
      {"{", ErrorCode::BadJson},
      {"42", ErrorCode::BadJson},
      {"{\"type\":\"teleport\"}", ErrorCode::UnknownType},
      {"{\"type\":\"move\",\"game\":1,\"move\":\"d1-d7/g7\"}", ErrorCode::BadField},
      {"{\"type\":\"create\",\"rules\":\"../etc/passwd\"}", ErrorCode::BadField},
      {"{\"type\":\"create\",\"rules\":\"nosuchrules\"}", ErrorCode::BadField},
      {"{\"type\":\"create\",\"time\":{\"initial\":0}}", ErrorCode::BadField},
      {"{\"type\":\"move\",\"game\":\"abc\",\"move\":\"d1-d7/g7\"}", ErrorCode::NoSuchGame},
      {"{\"type\":\"resign\",\"game\":\"-1\"}", ErrorCode::NoSuchGame},
      {"{\"type\":\"accept\",\"challenge\":\"c99\"}", ErrorCode::NoSuchChallenge},
      {"{\"type\":\"history\",\"player\":\"ghost\"}", ErrorCode::NoSuchPlayer},
  };
  for (const auto& [line, code] : cases) {
    h.send(alice, line);
    const auto e = h.take<Error>(alice);
    CHECK_MESSAGE(e.code == code, line);
  }
  CHECK(h.writes_applied() == writes);
  h.send(alice, List{});
  CHECK(h.take<Games>(alice).games.empty());
}

TEST_CASE("lobby: finished games leave memory after the retention time but stay in the archive") {
  LobbyHarness h;
  const auto alice = h.login("alice");
  const auto bob = h.login("bob");
  const auto game = start_game(h, alice, bob);
  h.send(alice, Resign{{game}});
  h.drain(alice);
  h.drain(bob);
  h.advance(Millis{299'000});
  h.send(alice, Watch{game, std::nullopt});
  CHECK(h.take<State>(alice).result->reason == EndReason::Resign);
  h.advance(Millis{1'000});
  h.send(alice, Rematch{{game}});
  CHECK(h.error(alice) == ErrorCode::NoSuchGame);
  h.send(alice, RecordRequest{game, RecordFormat::Json});
  CHECK(record_from_json(h.take<Record>(alice).record)->result->reason == EndReason::Resign);
}
