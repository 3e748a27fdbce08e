#include <doctest/doctest.h>

#include <random>

#include "common/movegen.h"
#include "common/notation.h"
#include "server/core/game_room.h"
#include "tests/common/test_util.h"

using namespace amazons;
using namespace amazons::server;
using protocol::ErrorCode;

namespace {

Instant at(long long ms) { return {Millis{ms}, Timestamp{Millis{1'800'000'000'000 + ms}}}; }

GameRoom started_room(TimeControl tc = {}, RuleVariant v = standard_variant()) {
  GameRoom room(7, GameSettings{v.name, v, tc, false, std::nullopt}, Millis{1000});
  room.sit(Color::White, {"w", false, 1500});
  room.sit(Color::Black, {"b", true, 1500});
  room.start(at(0));
  return room;
}

protocol::ClientMessage move_msg(const std::string& text) { return protocol::MoveMsg{"7", text}; }

template <class M>
const M* find(const RoomOutput& out) {
  for (const auto& e : out.events)
    if (const auto* m = std::get_if<M>(&e.message)) return m;
  return nullptr;
}

}  // namespace

TEST_CASE("room: start tells each seat its colour and spectators none") {
  GameRoom room(7, GameSettings{"standard", standard_variant(), {}, false, std::nullopt},
                Millis{1000});
  room.sit(Color::White, {"w", false, 1500});
  room.sit(Color::Black, {"b", false, 1500});
  const auto out = room.start(at(0));
  REQUIRE(out.events.size() == 3);
  CHECK(out.events[0].to == Audience::White);
  CHECK(std::get<protocol::Start>(out.events[0].message).color == Color::White);
  CHECK(std::get<protocol::Start>(out.events[1].message).color == Color::Black);
  CHECK_FALSE(std::get<protocol::Start>(out.events[2].message).color.has_value());
  CHECK(room.status() == protocol::GameStatus::Active);
}

TEST_CASE("room: a legal move is stored and announced, others are refused and change nothing") {
  GameRoom room = started_room();
  const auto bad_turn = room.handle(Color::Black, move_msg("a7-b7/c7"), at(10));
  REQUIRE(bad_turn.error.has_value());
  CHECK(bad_turn.error->code == ErrorCode::NotYourTurn);

  const auto illegal = room.handle(Color::White, move_msg("d1-d10/d9"), at(10));
  REQUIRE(illegal.error.has_value());
  CHECK(illegal.error->code == ErrorCode::IllegalMove);
  CHECK(illegal.error->reason == "destination_occupied");

  const auto garbled = room.handle(Color::White, move_msg("d1d7"), at(10));
  REQUIRE(garbled.error.has_value());
  CHECK(garbled.error->code == ErrorCode::BadField);
  CHECK(room.plies() == 0);

  const auto ok = room.handle(Color::White, move_msg("d1-d7/g7"), at(20));
  CHECK_FALSE(ok.error);
  REQUIRE(ok.stored_move.has_value());
  CHECK(ok.stored_move->ply == 1);
  CHECK(to_string(ok.stored_move->move) == "d1-d7/g7");
  const auto* moved = find<protocol::Moved>(ok);
  REQUIRE(moved != nullptr);
  CHECK(moved->ply == 1);
  CHECK(moved->move == "d1-d7/g7");
  CHECK_FALSE(moved->clock.has_value());
  CHECK(room.plies() == 1);
}

TEST_CASE("room: resign, abort rules, and no requests after the end") {
  GameRoom room = started_room();
  CHECK_FALSE(room.handle(Color::White, move_msg("d1-d7/g7"), at(1)).error);
  const auto abort_early = room.handle(Color::Black, protocol::Abort{{"7"}}, at(2));
  CHECK(abort_early.ended);
  CHECK(room.result() == GameResult{std::nullopt, EndReason::Aborted});

  GameRoom r2 = started_room();
  CHECK_FALSE(r2.handle(Color::White, move_msg("d1-d7/g7"), at(1)).error);
  CHECK_FALSE(r2.handle(Color::Black, move_msg("a7-b7/c7"), at(2)).error);
  const auto late_abort = r2.handle(Color::White, protocol::Abort{{"7"}}, at(3));
  REQUIRE(late_abort.error.has_value());
  CHECK(late_abort.error->code == ErrorCode::NotAllowed);
  const auto resign = r2.handle(Color::White, protocol::Resign{{"7"}}, at(4));
  CHECK(resign.ended);
  const auto* end = find<protocol::End>(resign);
  REQUIRE(end != nullptr);
  CHECK(end->winner == Color::Black);
  CHECK(end->reason == EndReason::Resign);
  const auto after = r2.handle(Color::Black, move_msg("a7-a8/a9"), at(5));
  REQUIRE(after.error.has_value());
  CHECK(after.error->code == ErrorCode::GameNotActive);
}

TEST_CASE("room: the server decides loss on time, also when a late move arrives") {
  GameRoom room = started_room(TimeControl::fischer(Millis{1000}, Millis{0}));
  CHECK(room.tick(at(999)).events.empty());
  const auto late = room.handle(Color::White, move_msg("d1-d7/g7"), at(1000));
  CHECK(late.ended);
  CHECK_FALSE(late.stored_move.has_value());
  CHECK(room.result() == GameResult{Color::Black, EndReason::Time});

  GameRoom r2 = started_room(TimeControl::fixed_per_move(Millis{500}));
  CHECK_FALSE(r2.handle(Color::White, move_msg("d1-d7/g7"), at(400)).error);
  const auto flag = r2.tick(at(900));
  CHECK(flag.ended);
  CHECK(r2.result() == GameResult{Color::White, EndReason::Time});
}

TEST_CASE("room: claim only after the opponent stayed away for the grace period") {
  GameRoom room = started_room(TimeControl::fischer(Millis{60'000}, Millis{0}));
  const auto claim_now = room.handle(Color::White, protocol::Claim{{"7"}}, at(10));
  REQUIRE(claim_now.error);
  CHECK(claim_now.error->code == ErrorCode::NotAllowed);
  const auto gone = room.set_online(Color::Black, false, at(100));
  const auto* p = find<protocol::Presence>(gone);
  REQUIRE(p != nullptr);
  CHECK_FALSE(p->online);
  CHECK(p->claim_in_ms == 1000);
  CHECK(room.handle(Color::White, protocol::Claim{{"7"}}, at(1099)).error);
  const auto claimed = room.handle(Color::White, protocol::Claim{{"7"}}, at(1100));
  CHECK(claimed.ended);
  CHECK(room.result() == GameResult{Color::White, EndReason::Abandon});
}

TEST_CASE("room: correspondence: a disconnect means nothing, the claim waits for the clock") {
  constexpr long long kDay = 24LL * 3600 * 1000;
  for (const TimeControl tc : {TimeControl::fixed_per_move(Millis{kDay}),
                               TimeControl::fischer(Millis{3 * kDay}, Millis{kDay})}) {
    CAPTURE(to_string(tc));
    GameRoom room = started_room(tc);
    REQUIRE_FALSE(room.handle(Color::White, move_msg("d1-d7/g7"), at(10)).error);
    const auto gone = room.set_online(Color::Black, false, at(100));
    const auto* p = find<protocol::Presence>(gone);
    REQUIRE(p != nullptr);
    CHECK_FALSE(p->claim_in_ms.has_value());
    // Far past the real-time grace (1 s here), the mover still has time: refused.
    const auto early = room.handle(Color::White, protocol::Claim{{"7"}}, at(kDay / 2));
    REQUIRE(early.error);
    CHECK(early.error->code == ErrorCode::NotAllowed);
    CHECK(early.error->message.find("only the clock decides") != std::string::npos);
    CHECK(room.status() == protocol::GameStatus::Active);
    // The side to move cannot claim against a stopped clock.
    CHECK(room.handle(Color::Black, protocol::Claim{{"7"}}, at(kDay / 2)).error);
    // Once Black's time is out, the claim wins on time.
    const Millis out_at = *room.deadline();
    const auto claimed = room.handle(Color::White, protocol::Claim{{"7"}}, Instant{out_at, {}});
    CHECK(claimed.ended);
    CHECK(room.result() == GameResult{Color::White, EndReason::Time});
  }
}

TEST_CASE("room: a game played to the end finishes with no_moves for the player who is stuck") {
  RuleVariant v;
  v.name = "tiny";
  v.size = 6;
  v.white_queens = {Square::at(0, 0)};
  v.black_queens = {Square::at(5, 5)};
  GameRoom room = started_room({}, v);
  std::mt19937_64 rng(5);
  Position pos(v);
  int plies = 0;
  while (!pos.is_game_over()) {
    const Move m = test::random_move(pos, rng);
    const Color mover = pos.side_to_move();
    pos.do_move(m);
    const auto out = room.handle(mover, move_msg(to_string(m)), at(++plies));
    REQUIRE_FALSE(out.error);
    if (pos.is_game_over()) {
      CHECK(out.ended);
      CHECK(room.result() == GameResult{mover, EndReason::NoMoves});
    } else {
      CHECK_FALSE(out.ended);
    }
  }
  const auto rec = room.record();
  CHECK(rec.moves.size() == static_cast<std::size_t>(plies));
  CHECK(replay(rec).has_value());
}

TEST_CASE("room: restore replays stored moves and does not charge the downtime") {
  GameRoom room = started_room(TimeControl::fischer(Millis{10'000}, Millis{1'000}));
  std::vector<MoveRow> rows;
  for (const auto& [c, text, t] :
       {std::tuple{Color::White, "d1-d7/g7", 2'000}, std::tuple{Color::Black, "a7-b7/c7", 5'000}}) {
    const auto out = room.handle(c, move_msg(text), at(t));
    REQUIRE(out.stored_move);
    rows.push_back(*out.stored_move);
  }
  StoredGame stored{room.row(), rows};
  auto back = GameRoom::restore(stored, Millis{1000}, at(1'000'000));
  REQUIRE(back.has_value());
  CHECK(back->plies() == 2);
  CHECK(back->position() == room.position());
  // White used 2 s of 10 and got 1 back; black used 3 s and got 1 back. The 995 s of
  // "downtime" between the last move and the restore count for nobody.
  CHECK(back->state(std::nullopt, at(1'000'000), 0).clock->white == 9'000);
  CHECK(back->state(std::nullopt, at(1'000'000), 0).clock->black == 8'000);
  CHECK(back->state(std::nullopt, at(1'000'000), 0).offline.size() == 2);

  stored.moves[1].move = stored.moves[0].move;
  CHECK_FALSE(GameRoom::restore(stored, Millis{1000}, at(0)).has_value());
}
