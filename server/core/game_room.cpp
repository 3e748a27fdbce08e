#include "server/core/game_room.h"

#include "common/notation.h"

namespace amazons::server {

using protocol::ErrorCode;

GameRoom::GameRoom(GameId id, GameSettings settings, Millis claim_grace)
    : id_(id),
      settings_(std::move(settings)),
      claim_grace_(claim_grace),
      position_(settings_.variant),
      clock_(settings_.time) {}

Expected<GameRoom, std::string> GameRoom::restore(const StoredGame& stored, Millis claim_grace,
                                                  Instant now) {
  const GameRow& row = stored.row;
  GameRoom room(row.id, GameSettings{row.rules, row.variant, row.time, row.rated, row.invite},
                claim_grace);
  room.seats_ = {row.white, row.black};
  room.status_ = protocol::GameStatus::Active;
  room.started_at_ = row.started_at;
  GameClock fresh(row.time);
  std::array<Millis, 2> remaining = {fresh.remaining(Color::White, Millis{0}),
                                     fresh.remaining(Color::Black, Millis{0})};
  for (const MoveRow& m : stored.moves) {
    if (m.ply != room.plies() + 1)
      return Unexpected("game " + std::to_string(row.id) + ": move " + std::to_string(m.ply) +
                        " is out of sequence");
    const Color mover = room.position_.side_to_move();
    if (auto err = room.position_.try_play(m.move))
      return Unexpected("game " + std::to_string(row.id) + ": move " + std::to_string(m.ply) +
                        " (" + to_string(m.move) + "): " + std::string(describe(*err)));
    if (m.clock_left) remaining[at(mover)] = *m.clock_left;
    room.moves_.push_back({m.move, m.elapsed, m.clock_left});
  }
  room.clock_ = GameClock(row.time, remaining);
  room.clock_.start(room.position_.side_to_move(), now.mono);
  room.offline_since_ = {now.mono, now.mono};
  return room;
}

std::optional<Color> GameRoom::color_of(std::string_view name) const {
  for (Color c : {Color::White, Color::Black})
    if (seats_[at(c)] && seats_[at(c)]->name == name) return c;
  return std::nullopt;
}

void GameRoom::sit(Color c, PlayerInfo player) { seats_[at(c)] = std::move(player); }

protocol::Start GameRoom::start_message(std::optional<Color> viewer, Instant now) const {
  protocol::Start s;
  s.game = id_text();
  s.rules = settings_.rules;
  s.variant = to_json(settings_.variant);
  s.white = {seats_[0]->name, seats_[0]->rating.value_or(protocol::kInitialRating), seats_[0]->bot};
  s.black = {seats_[1]->name, seats_[1]->rating.value_or(protocol::kInitialRating), seats_[1]->bot};
  s.time = settings_.time;
  s.rated = settings_.rated;
  s.color = viewer;
  s.clock = clock_.view(now.mono);
  return s;
}

RoomOutput GameRoom::start(Instant now) {
  status_ = protocol::GameStatus::Active;
  started_at_ = now.wall;
  clock_.start(position_.side_to_move(), now.mono);
  RoomOutput out;
  out.events.push_back({Audience::White, start_message(Color::White, now)});
  out.events.push_back({Audience::Black, start_message(Color::Black, now)});
  out.events.push_back({Audience::Spectators, start_message(std::nullopt, now)});
  return out;
}

RoomOutput GameRoom::refuse(ErrorCode code, std::string message) const {
  RoomOutput out;
  out.error = protocol::make_error(code, std::move(message), id_text());
  return out;
}

RoomOutput GameRoom::handle(Color seat, const protocol::ClientMessage& message, Instant now) {
  if (status_ != protocol::GameStatus::Active)
    return refuse(ErrorCode::GameNotActive, status_ == protocol::GameStatus::Open
                                                ? "the game has not started"
                                                : "the game is over");
  // The clock is checked before anything else: a request after the flag fell finds the game
  // already lost on time.
  if (auto timed_out = tick(now); timed_out.ended) return timed_out;
  if (const auto* m = std::get_if<protocol::MoveMsg>(&message)) return play(seat, m->move, now);
  if (std::holds_alternative<protocol::Resign>(message)) return resign(seat, now);
  if (std::holds_alternative<protocol::Abort>(message)) return abort(seat, now);
  if (std::holds_alternative<protocol::Claim>(message)) return claim(seat, now);
  return refuse(ErrorCode::NotAllowed, "not a request about a game in progress");
}

RoomOutput GameRoom::play(Color seat, const std::string& text, Instant now) {
  if (seat != position_.side_to_move())
    return refuse(ErrorCode::NotYourTurn, "it is " + std::string(color_name(~seat)) + "'s turn");
  const auto parsed = parse_move(text);
  if (!parsed) return refuse(ErrorCode::BadField, "move: " + parsed.error().message());
  if (const auto err = position_.try_play(*parsed)) {
    RoomOutput out = refuse(ErrorCode::IllegalMove, std::string(describe(*err)));
    out.error->reason = std::string(code(*err));
    return out;
  }
  const Millis elapsed = clock_.complete_move(now.mono);
  std::optional<Millis> left;
  if (clock_.timed()) left = clock_.remaining(seat, now.mono);
  moves_.push_back({*parsed, elapsed, left});

  RoomOutput out;
  out.stored_move = MoveRow{id_, plies(), *parsed, elapsed, left};
  out.events.push_back({Audience::Everyone, protocol::Moved{id_text(), plies(), to_string(*parsed),
                                                            clock_.view(now.mono)}});
  if (position_.is_game_over()) return finish({seat, EndReason::NoMoves}, now, std::move(out));
  return out;
}

RoomOutput GameRoom::resign(Color seat, Instant now) {
  return finish({~seat, EndReason::Resign}, now);
}

RoomOutput GameRoom::abort(Color seat, Instant now) {
  (void)seat;
  if (plies() >= 2)
    return refuse(ErrorCode::NotAllowed, "a game can only be aborted before both sides have moved");
  return finish({std::nullopt, EndReason::Aborted}, now);
}

RoomOutput GameRoom::claim(Color seat, Instant now) {
  // Correspondence: a disconnect means nothing, only the clock decides. handle() has already
  // ended the game if the mover's time ran out, so a claim that gets here is early.
  if (settings_.time.correspondence()) {
    if (position_.side_to_move() == seat)
      return refuse(ErrorCode::NotAllowed,
                    "it is your move: in a correspondence game only the clock decides");
    return refuse(ErrorCode::NotAllowed,
                  "in a correspondence game only the clock decides: your opponent has " +
                      std::to_string(clock_.remaining(~seat, now.mono).count()) +
                      " ms left to move");
  }
  const auto& since = offline_since_[at(~seat)];
  if (!since) return refuse(ErrorCode::NotAllowed, "your opponent is connected");
  const Millis waited = now.mono - *since;
  if (waited < claim_grace_)
    return refuse(ErrorCode::NotAllowed, "your opponent may still come back: you can claim in " +
                                             std::to_string((claim_grace_ - waited).count()) +
                                             " ms");
  return finish({seat, EndReason::Abandon}, now);
}

RoomOutput GameRoom::tick(Instant now) {
  if (status_ != protocol::GameStatus::Active) return {};
  const auto flagged = clock_.flagged(now.mono);
  if (!flagged) return {};
  return finish({~*flagged, EndReason::Time}, now);
}

RoomOutput GameRoom::finish(GameResult result, Instant now, RoomOutput out) {
  clock_.stop(now.mono);
  status_ = protocol::GameStatus::Finished;
  result_ = result;
  ended_at_ = now.wall;
  out.ended = true;
  out.events.push_back({Audience::Everyone, protocol::End{id_text(), result.winner, result.reason,
                                                          std::nullopt, std::nullopt}});
  return out;
}

RoomOutput GameRoom::set_online(Color seat, bool online, Instant now) {
  RoomOutput out;
  auto& since = offline_since_[at(seat)];
  if (online == !since.has_value() || status_ != protocol::GameStatus::Active) {
    if (online) since.reset();
    return out;
  }
  if (online)
    since.reset();
  else
    since = now.mono;
  protocol::Presence p{id_text(), seat, seats_[at(seat)]->name, online, std::nullopt};
  if (!online && !settings_.time.correspondence()) p.claim_in_ms = claim_grace_.count();
  out.events.push_back({seat_audience(~seat), p});
  out.events.push_back({Audience::Spectators, p});
  return out;
}

RoomOutput GameRoom::adjudicate(std::optional<Color> winner, Instant now) {
  if (status_ != protocol::GameStatus::Active)
    return refuse(protocol::ErrorCode::GameNotActive, "the game is not in progress");
  return finish({winner, winner ? EndReason::Adjudicated : EndReason::Aborted}, now);
}

bool GameRoom::offer_rematch(Color seat) {
  rematch_[at(seat)] = true;
  return rematch_[0] && rematch_[1];
}

protocol::State GameRoom::state(std::optional<Color> viewer, Instant now, int spectators) const {
  protocol::State s;
  s.game = id_text();
  s.rules = settings_.rules;
  s.variant = to_json(settings_.variant);
  for (Color c : {Color::White, Color::Black}) {
    if (!seats_[at(c)]) continue;
    protocol::PlayerRef ref{seats_[at(c)]->name,
                            seats_[at(c)]->rating.value_or(protocol::kInitialRating),
                            seats_[at(c)]->bot};
    (c == Color::White ? s.white : s.black) = ref;
    if (status_ == protocol::GameStatus::Active && offline_since_[at(c)]) s.offline.push_back(c);
  }
  s.time = settings_.time;
  s.rated = settings_.rated;
  s.status = status_;
  for (const auto& m : moves_) s.moves.push_back(to_string(m.move));
  s.to_move = position_.side_to_move();
  if (status_ != protocol::GameStatus::Open) s.clock = clock_.view(now.mono);
  if (result_) s.result = protocol::GameResultView{result_->winner, result_->reason};
  s.color = viewer;
  s.spectators = spectators;
  return s;
}

protocol::GameSummary GameRoom::summary(int spectators) const {
  protocol::GameSummary g;
  g.game = id_text();
  g.rules = settings_.rules;
  g.time = settings_.time;
  for (Color c : {Color::White, Color::Black})
    if (seats_[at(c)])
      (c == Color::White ? g.white : g.black) = protocol::PlayerRef{
          seats_[at(c)]->name, seats_[at(c)]->rating.value_or(protocol::kInitialRating),
          seats_[at(c)]->bot};
  g.status = status_;
  g.rated = settings_.rated;
  g.plies = plies();
  g.spectators = spectators;
  return g;
}

GameRow GameRoom::row() const {
  GameRow r;
  r.id = id_;
  r.variant = settings_.variant;
  r.rules = settings_.rules;
  r.time = settings_.time;
  r.white = seats_[0].value_or(PlayerInfo{});
  r.black = seats_[1].value_or(PlayerInfo{});
  r.rated = settings_.rated;
  r.invite = settings_.invite;
  r.result = result_;
  r.started_at = started_at_;
  r.ended_at = ended_at_;
  return r;
}

GameRecord GameRoom::record() const {
  GameRecord rec;
  rec.rules = settings_.variant;
  rec.white = seats_[0].value_or(PlayerInfo{});
  rec.black = seats_[1].value_or(PlayerInfo{});
  rec.time_control = settings_.time;
  rec.moves = moves_;
  rec.result = result_;
  if (status_ != protocol::GameStatus::Open) rec.started_at = started_at_;
  rec.ended_at = ended_at_;
  return rec;
}

}  // namespace amazons::server
