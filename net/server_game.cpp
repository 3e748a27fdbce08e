#include "net/server_game.h"

#include <mutex>

#include "common/notation.h"

namespace amazons::net {

namespace {

using SteadyClock = std::chrono::steady_clock;

// After the server's grace period, the claim goes out this much later, so that it does not
// arrive a moment too early.
constexpr Millis kClaimSlack{250};
// How often a refused claim is tried again while the opponent stays away. Also the first try
// after a resumed game shows the opponent away: the server's `state` does not say since when.
constexpr Millis kClaimRetry{5000};

PlayerInfo info_of(const protocol::PlayerRef& p) { return {p.name, p.bot, p.rating}; }

}  // namespace

// Shared with the answers and timers that may outlive the game. `link` is read from any thread
// (under the mutex); `game` only in the callback context, where the destructor also runs.
struct ServerGame::Gate {
  std::mutex mutex;
  ServerLink* link = nullptr;
  ServerGame* game = nullptr;
};

ServerGame::ServerGame(std::string id, Player& local, ServerLink& link, ServerGameOptions options,
                       ServerGameObserver* observer)
    : id_(std::move(id)),
      local_(local),
      link_(link),
      options_(options),
      observer_(observer),
      gate_(std::make_shared<Gate>()) {
  gate_->link = &link_;
  gate_->game = this;
}

ServerGame::~ServerGame() {
  {
    std::lock_guard lock(gate_->mutex);
    gate_->link = nullptr;
    gate_->game = nullptr;
  }
  if (executor_) {
    if (!finished()) executor_->post([&local = local_] { local.cancel_request(); });
    executor_.reset();
  }
}

void ServerGame::note(std::string_view what, const std::string& detail) {
  if (observer_) observer_->on_game_note(*this, what, detail);
}

// ---- messages ---------------------------------------------------------------------------------

void ServerGame::handle(const protocol::ServerMessage& message) {
  if (const auto* s = std::get_if<protocol::Start>(&message)) {
    if (s->game != id_ || started_ || finished()) return;
    begin(s->rules, s->variant, s->white, s->black, s->time, s->rated, s->color);
    set_clock(s->clock);
    ask();
  } else if (const auto* st = std::get_if<protocol::State>(&message)) {
    if (st->game == id_) on_state(*st);
  } else if (const auto* m = std::get_if<protocol::Moved>(&message)) {
    if (m->game == id_) on_moved(*m);
  } else if (const auto* e = std::get_if<protocol::End>(&message)) {
    if (e->game == id_) finish({e->winner, e->reason});
  } else if (const auto* p = std::get_if<protocol::Presence>(&message)) {
    if (p->game == id_) on_presence(*p);
  }
}

void ServerGame::begin(const std::string& rules_name, const nlohmann::json& variant,
                       const protocol::PlayerRef& white, const protocol::PlayerRef& black,
                       const TimeControl& time, bool rated, std::optional<Color> color) {
  auto rules = variant_from_json(variant);
  if (!rules) {
    // Without the rules there is no playing: better an honest resignation than a lost clock.
    note("bad_start", "the server's rules for game " + id_ + " are unusable: " + rules.error());
    link_.send(protocol::Resign{{id_}});
    return;
  }
  if (!color) {
    note("bad_start", "the server does not give this player a seat in game " + id_);
    return;
  }
  rules_ = *rules;
  rules_name_ = rules_name;
  white_ = white;
  black_ = black;
  time_ = time;
  rated_ = rated;
  color_ = *color;
  start_ = Position(rules_);
  position_ = start_;
  moves_.clear();
  executor_ = std::make_unique<SerialExecutor>();
  network_ = std::make_unique<NetworkPlayer>(info_of(player(~color_)));
  started_ = true;

  const GameStart mine{rules_, start_, info_of(white_), info_of(black_), time_, color_};
  executor_->post([&local = local_, mine] { local.on_game_start(mine); });
  GameStart theirs = mine;
  theirs.your_color = ~color_;
  network_->on_game_start(theirs);
  if (observer_) observer_->on_game_start(*this);
}

void ServerGame::on_state(const protocol::State& s) {
  if (finished()) return;
  if (!started_) {
    begin(s.rules, s.variant, s.white.value_or(protocol::PlayerRef{}),
          s.black.value_or(protocol::PlayerRef{}), s.time, s.rated, s.color);
    if (!started_) return;
  }
  set_clock(s.clock);
  const bool away = std::find(s.offline.begin(), s.offline.end(), ~color_) != s.offline.end();
  network_->set_online(!away);
  resync(s.moves, "the server's game differs from ours");
  if (s.result) return finish({s.result->winner, s.result->reason});
  if (s.status != protocol::GameStatus::Active) return;
  // In a correspondence game only the clock decides: the server refuses claims until it has.
  if (away && options_.claim_abandoned && !time_.correspondence()) schedule_claim(kClaimRetry);
  // An answer that the connection may have lost goes out again; the server refuses a duplicate
  // (not_your_turn), which resynchronises.
  if (answer_ && asked_ply_ == moves_.size()) send_answer();
  ask();
}

void ServerGame::on_moved(const protocol::Moved& m) {
  if (!started_ || finished()) return;
  set_clock(m.clock);
  const auto known = moves_.size();
  if (m.ply >= 1 && static_cast<std::size_t>(m.ply) <= known) {
    // Seen already (a resumed game replays what we know): fine if it is the same move.
    if (to_string(moves_[static_cast<std::size_t>(m.ply) - 1]) == m.move) return;
    return request_state("the server reports move " + std::to_string(m.ply) + " as " + m.move +
                         ", we have " + to_string(moves_[static_cast<std::size_t>(m.ply) - 1]));
  }
  if (m.ply != static_cast<int>(known) + 1)
    return request_state("move " + std::to_string(m.ply) + " arrived after move " +
                         std::to_string(known));
  const auto parsed = parse_move(m.move);
  if (!parsed)
    return request_state("the server's move \"" + m.move +
                         "\" does not parse: " + parsed.error().message());
  if (!apply(*parsed))
    return request_state("the server's move " + m.move + " is illegal in our position");
  ask();
}

void ServerGame::on_presence(const protocol::Presence& p) {
  if (!started_ || finished() || p.color == color_) return;
  network_->set_online(p.online);
  ++claim_serial_;  // a claim scheduled earlier no longer applies
  if (!p.online && options_.claim_abandoned && !time_.correspondence())
    schedule_claim(Millis{p.claim_in_ms.value_or(kClaimRetry.count())} + kClaimSlack);
}

void ServerGame::set_clock(const std::optional<protocol::ClockView>& clock) {
  if (!clock) return;
  clock_ = clock;
  clock_at_ = SteadyClock::now();
}

std::optional<ClockState> ServerGame::clock_now() const {
  if (!clock_) return std::nullopt;
  ClockState c{time_, {Millis{clock_->white}, Millis{clock_->black}}};
  if (clock_->running) {
    const auto spent = std::chrono::duration_cast<Millis>(SteadyClock::now() - clock_at_);
    auto& left = c.remaining[static_cast<std::size_t>(index_of(*clock_->running))];
    left = std::max(Millis{0}, left - spent);
  }
  return c;
}

// ---- moves ------------------------------------------------------------------------------------

void ServerGame::resync(const std::vector<std::string>& texts, const std::string& why) {
  std::vector<Move> theirs;
  for (const std::string& t : texts) {
    const auto m = parse_move(t);
    if (!m) return note("bad_state", "the server's move \"" + t + "\" does not parse");
    theirs.push_back(*m);
  }
  std::size_t common = 0;
  while (common < moves_.size() && common < theirs.size() && moves_[common] == theirs[common])
    ++common;
  if (common < moves_.size()) {
    // Not a continuation of what we have: take the server's game as it is. The players learn
    // the position from their next request.
    note("resync", why + " from ply " + std::to_string(common + 1) + ": replaying the server's");
    Position replayed = start_;
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      if (auto err = replayed.check(theirs[i]))
        return note("bad_state", "the server's move " + std::to_string(i + 1) + " (" +
                                     to_string(theirs[i]) +
                                     ") is illegal: " + std::string(describe(*err)));
      replayed.do_move(theirs[i]);
    }
    executor_->post([&local = local_] { local.cancel_request(); });
    position_ = replayed;
    moves_ = theirs;
    asked_ply_.reset();
    answer_.reset();
    ++serial_;
    return;
  }
  for (std::size_t i = common; i < theirs.size(); ++i)
    if (!apply(theirs[i]))
      return note("bad_state", "the server's move " + std::to_string(i + 1) + " (" +
                                   to_string(theirs[i]) + ") is illegal in our position");
}

void ServerGame::request_state(const std::string& why) {
  note("resync", why + ": asking the server for the game");
  link_.send(protocol::Watch{id_, std::nullopt});  // the state comes back through handle()
}

bool ServerGame::apply(Move m) {
  if (position_.check(m)) return false;
  const Color mover = position_.side_to_move();
  const bool asked_local = asked_ply_ == moves_.size() && mover == color_ && !answer_;
  // The opponent's pending request is answered with its move; the move itself takes effect
  // below, from the server's report, like every move.
  if (mover != color_) network_->deliver(PlayerAction::play(m));
  if (asked_local) executor_->post([&local = local_] { local.cancel_request(); });
  position_.do_move(m);
  moves_.push_back(m);
  asked_ply_.reset();
  answer_.reset();
  ++serial_;
  executor_->post([&local = local_, m, mover] { local.on_move(m, mover); });
  network_->on_move(m, mover);
  if (observer_) observer_->on_game_move(*this, m, mover);
  return true;
}

Millis ServerGame::margin() const { return options_.lag_margin + link_.round_trip(); }

ClockState ServerGame::budget(Color side) const {
  auto now = clock_now();
  if (time_.kind == TimeControl::Kind::Unlimited || !now) return ClockState{time_, {}};
  ClockState c = *now;
  auto& mine = c.remaining[static_cast<std::size_t>(index_of(side))];
  mine = std::max(Millis{1}, mine - margin());
  if (time_.kind == TimeControl::Kind::PerMove) c.control.per_move = mine;
  return c;
}

void ServerGame::ask() {
  if (!started_ || finished() || resigned_ || position_.is_game_over()) return;
  if (asked_ply_ == moves_.size()) return;  // asked already
  asked_ply_ = moves_.size();
  answer_.reset();
  const std::uint64_t serial = ++serial_;
  const Color side = position_.side_to_move();
  MoveRequest request{position_, moves_, budget(side)};
  if (side != color_) {
    // Answered by deliver() when the opponent's move arrives; see apply().
    network_->request_move(request, [](PlayerAction) {});
    return;
  }
  ReplyFn reply = [gate = gate_, serial](PlayerAction action) {
    std::lock_guard lock(gate->mutex);
    if (!gate->link) return;
    gate->link->post([gate, serial, action] {
      if (gate->game) gate->game->on_local_answer(serial, action);
    });
  };
  executor_->post([&local = local_, request = std::move(request), reply = std::move(reply)] {
    local.request_move(request, reply);
  });
  const auto now = clock_now();
  if (!options_.resign_before_flag || time_.kind == TimeControl::Kind::Unlimited || !now) return;
  const Millis fire_in = std::max(Millis{0}, now->left(side) - margin() / 2);
  link_.post_after(fire_in, [gate = gate_, serial] {
    ServerGame* game = gate->game;
    if (!game || serial != game->serial_ || game->answer_ || game->finished()) return;
    game->executor_->post([&local = game->local_] { local.cancel_request(); });
    game->resign("no answer from the player with " + std::to_string(game->margin().count() / 2) +
                 " ms left on its clock: resigning rather than losing on time");
  });
}

void ServerGame::on_local_answer(std::uint64_t serial, PlayerAction action) {
  if (serial != serial_ || finished() || resigned_ || answer_) return;
  if (action.kind == PlayerAction::Kind::Resign) return resign("the player resigned");
  if (auto err = position_.check(action.move))
    return resign("the player answered " + to_string(action.move) + ", which is illegal here (" +
                  std::string(describe(*err)) + ")");
  answer_ = action.move;
  send_answer();
}

void ServerGame::send_answer() {
  const Move m = *answer_;
  const std::uint64_t serial = serial_;
  link_.send(protocol::MoveMsg{id_, to_string(m)},
             [gate = gate_, serial, m](ServerLink::Reply reply) {
               ServerGame* game = gate->game;
               if (!game || reply || serial != game->serial_ || game->finished()) return;
               const ClientError& e = reply.error();
               const std::string what = "the move " + to_string(m) + ": " + e.describe();
               if (e.kind == ClientError::Kind::Server) {
                 if (e.code == protocol::ErrorCode::IllegalMove)
                   return game->resign("the server refused " + what);
                 return game->request_state("the server refused " + what);
               }
               if (e.kind == ClientError::Kind::Timeout)
                 return game->request_state("no reply to " + what);
               // Dropped: the login that resumes the game brings its state, and the answer is
               // sent again if the server does not have it.
               game->note("send_failed", what + "; it goes out again when the game resumes");
             });
}

void ServerGame::resign(const std::string& why) {
  if (resigned_ || finished()) return;
  resigned_ = true;
  note("resign", why);
  const std::uint64_t serial = serial_;
  link_.send(protocol::Resign{{id_}}, [gate = gate_, serial](ServerLink::Reply reply) {
    ServerGame* game = gate->game;
    if (!game || reply || game->finished()) return;
    game->note("send_failed", "the resignation: " + reply.error().describe());
    // Asked again once the game resumes; the player may do better by then.
    if (serial == game->serial_) game->resigned_ = false;
  });
}

void ServerGame::schedule_claim(Millis delay) {
  const std::uint64_t serial = claim_serial_;
  link_.post_after(delay, [gate = gate_, serial] {
    ServerGame* game = gate->game;
    if (!game || serial != game->claim_serial_ || game->finished()) return;
    game->note("claim", "the opponent stayed away past the grace period: claiming the game");
    game->link_.send(protocol::Claim{{game->id_}}, [gate, serial](ServerLink::Reply reply) {
      ServerGame* g = gate->game;
      if (!g || reply || serial != g->claim_serial_ || g->finished()) return;
      if (reply.error().code == protocol::ErrorCode::NotAllowed)
        return g->schedule_claim(kClaimRetry);
      g->note("send_failed", "the claim: " + reply.error().describe());
    });
  });
}

void ServerGame::finish(const GameResult& result) {
  if (result_) return;
  result_ = result;
  ++serial_;
  ++claim_serial_;
  if (started_) {
    executor_->post([&local = local_, result] {
      local.cancel_request();
      local.on_game_end(result);
    });
    network_->cancel_request();
    network_->on_game_end(result);
  }
  if (observer_) observer_->on_game_end(*this, result);
}

}  // namespace amazons::net
