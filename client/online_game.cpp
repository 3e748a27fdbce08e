#include "client/online_game.h"

#include "client/words.h"
#include "common/notation.h"
#include "common/variant.h"

namespace amazons::client {

namespace {

PlayerInfo info_of(const protocol::PlayerRef& p) { return {p.name, p.bot, p.rating}; }

SteadyTime now() { return std::chrono::steady_clock::now(); }

}  // namespace

// What the seat's driver notes that the person should know of.
class OnlineGame::Observer final : public net::ServerGameObserver {
 public:
  Observer(std::vector<OnlineNotice>& notices, const Catalogue& tr) : notices_(notices), tr_(tr) {}
  void on_game_note(const net::ServerGame&, std::string_view what,
                    const std::string& detail) override {
    // The detail is the driver's English, for the log.
    if (what == "send_failed")
      notices_.push_back({tr_("online.game.send_failed"), true, {}, {}, detail});
    else if (what == "bad_start" || what == "bad_state")
      notices_.push_back({tr_("online.game.out_of_step"), true, {}, {}, detail});
  }

 private:
  std::vector<OnlineNotice>& notices_;
  const Catalogue& tr_;
};

OnlineGame::OnlineGame(std::string id, bool seat, std::string me, net::ServerLink& link,
                       const Catalogue& tr)
    : id_(std::move(id)), seat_(seat), me_(std::move(me)), link_(link), tr_(tr) {
  if (!seat_) return;
  observer_ = std::make_unique<Observer>(notices_, tr_);
  human_ = std::make_unique<HumanPlayer>(PlayerInfo{me_, false, std::nullopt}, nullptr);
  driver_ = std::make_unique<net::ServerGame>(id_, *human_, link_, net::ServerGameOptions{},
                                              observer_.get());
}

OnlineGame::~OnlineGame() {
  // Replies to requests of this game may come after it is gone: they find it gone.
  *alive_ = false;
  driver_.reset();
}

void OnlineGame::handle(const protocol::ServerMessage& message) {
  if (driver_) driver_->handle(message);
  if (const auto* s = std::get_if<protocol::Start>(&message)) {
    if (s->game != id_ || vm_) return;
    begin(s->rules, s->variant, s->white, s->black, s->time, s->color);
    set_clock(s->clock);
  } else if (const auto* st = std::get_if<protocol::State>(&message)) {
    if (st->game == id_) on_state(*st);
  } else if (const auto* m = std::get_if<protocol::Moved>(&message)) {
    if (m->game != id_ || !vm_ || !vm_->running()) return;
    const auto known = vm_->moves().size();
    if (m->ply == static_cast<int>(known) + 1) {
      apply(m->move, m->clock);
    } else if (m->ply > static_cast<int>(known) + 1 && !driver_) {
      link_.send(protocol::Watch{id_, std::nullopt});  // missed a move: the state comes back
    }
  } else if (const auto* e = std::get_if<protocol::End>(&message)) {
    if (e->game != id_ || !vm_ || !vm_->running()) return;
    end_ = *e;
    premove_.cancel();
    vm_->on_end({e->winner, e->reason}, "", now());
  } else if (const auto* p = std::get_if<protocol::Presence>(&message)) {
    if (p->game != id_) return;
    std::erase(offline_, p->color);
    if (!p->online && p->color != color_) offline_.push_back(p->color);
  } else if (const auto* c = std::get_if<protocol::Chat>(&message)) {
    if (c->game == id_) chat_.push_back({c->from, c->text});
  } else if (const auto* r = std::get_if<protocol::RematchOffer>(&message)) {
    if (r->game == id_) rematch_from_ = r->from;
  }
}

void OnlineGame::begin(const std::string& rules_name, const nlohmann::json& variant,
                       const protocol::PlayerRef& white, const protocol::PlayerRef& black,
                       const TimeControl& time, std::optional<Color> color) {
  auto rules = variant_from_json(variant);
  if (!rules) {
    notices_.push_back(
        {tr_("online.game.bad_rules", {{"rules", rules_name}}), true, {}, {}, rules.error()});
    return;
  }
  if (seat_) color_ = color;
  GameRecord record;
  record.rules = *rules;
  record.white = info_of(white);
  record.black = info_of(black);
  record.time_control = time;
  record_ = record;
  const GameStart start{
      *rules, Position(*rules), record.white, record.black, time, color.value_or(Color::White)};
  const bool mine = seat_ && color.has_value();
  vm_.emplace(start,
              std::array<bool, 2>{mine && *color == Color::White, mine && *color == Color::Black});
}

void OnlineGame::on_state(const protocol::State& s) {
  offline_ = s.offline;
  // The state that resumes a game may still list this account's seat as away: it is here.
  if (seat_ && s.color) std::erase(offline_, *s.color);
  spectators_ = s.spectators;
  const auto& known = vm_ ? vm_->moves() : std::vector<Move>{};
  bool continues = vm_.has_value() && known.size() <= s.moves.size();
  for (std::size_t i = 0; continues && i < known.size(); ++i)
    continues = to_string(known[i]) == s.moves[i];
  if (!continues) {
    // Not a continuation of what is shown (or nothing shown yet): show the server's game.
    premove_.cancel();
    vm_.reset();
    begin(s.rules, s.variant, s.white.value_or(protocol::PlayerRef{}),
          s.black.value_or(protocol::PlayerRef{}), s.time, s.color);
    if (!vm_) return;
  }
  for (std::size_t i = vm_->moves().size(); i < s.moves.size(); ++i)
    apply(s.moves[i], std::nullopt);
  if (s.result && vm_->running()) {
    premove_.cancel();
    vm_->on_end({s.result->winner, s.result->reason}, "", now());
  }
  set_clock(s.clock);
}

void OnlineGame::apply(const std::string& text, const std::optional<protocol::ClockView>& clock) {
  const auto m = parse_move(text);
  Position after = vm_->position();
  if (!m || after.check(*m)) {
    notices_.push_back(
        {tr_("online.game.bad_move", {{"move", text}}), true, {}, {}, "unfollowable move " + text});
    if (!driver_) link_.send(protocol::Watch{id_, std::nullopt});
    return;
  }
  const Color mover = after.side_to_move();
  after.do_move(*m);
  RecordedMove recorded{*m, std::nullopt, std::nullopt};
  if (clock) recorded.clock_left = Millis{mover == Color::White ? clock->white : clock->black};
  vm_->on_move(after, recorded, mover, now());
  set_clock(clock);
}

void OnlineGame::set_clock(const std::optional<protocol::ClockView>& clock) {
  if (!vm_ || !clock) return;
  const ClockState state{record_->time_control, {Millis{clock->white}, Millis{clock->black}}};
  if (clock->running && vm_->running())
    vm_->on_turn(*clock->running, state, now());
  else if (!vm_->running())
    vm_->on_turn(vm_->to_move(), state, now());  // a finished game's clocks stand still
}

std::optional<std::uint64_t> OnlineGame::pending_request() const {
  if (!human_ || !vm_ || !vm_->human_to_move()) return std::nullopt;
  return human_->pending();
}

bool OnlineGame::play(std::uint64_t request, Move move) {
  return human_ && human_->answer(request, PlayerAction::play(move));
}

bool OnlineGame::set_premove(Move move) {
  if (!human_ || !color_ || !vm_ || !vm_->running() || vm_->to_move() == *color_) return false;
  return premove_.set(vm_->position(), *color_, move);
}

bool OnlineGame::cancel_premove() { return premove_.cancel(); }

std::optional<Move> OnlineGame::play_premove() {
  const auto request = pending_request();
  if (!request || !premove_.pending()) return std::nullopt;
  const auto out = premove_.resolve(vm_->position());
  if (!out->send()) {
    notices_.push_back({out->notice(tr_), true, {}, {}, {}});
    return std::nullopt;
  }
  if (!play(*request, out->move)) return std::nullopt;
  return out->move;
}

void OnlineGame::request(protocol::ClientMessage message, std::string what) {
  link_.send(std::move(message), [this, alive = std::weak_ptr<bool>(alive_),
                                  what](net::ServerLink::Reply r) {
    const auto live = alive.lock();
    if (!live || !*live || r) return;
    const net::ClientError& e = r.error();
    const bool refused = e.kind == net::ClientError::Kind::Server && e.code;
    OnlineNotice n{tr_("online.failed", {{"what", what}, {"error", client_error_text(tr_, e)}}),
                   true,
                   {},
                   {},
                   e.describe()};
    if (refused) {
      n.code = std::string(protocol::code(*e.code));
      n.reason = e.reason.value_or("");
    }
    notices_.push_back(std::move(n));
  });
}

void OnlineGame::resign() { request(protocol::Resign{{id_}}, tr_("game.resign")); }
void OnlineGame::abort() { request(protocol::Abort{{id_}}, tr_("game.abort")); }
void OnlineGame::offer_rematch() {
  if (rematch_sent_) return;
  rematch_sent_ = true;
  request(protocol::Rematch{{id_}}, tr_("game.rematch"));
}
void OnlineGame::send_chat(const std::string& text) {
  if (!text.empty()) request(protocol::ChatSend{id_, text}, tr_("game.chat"));
}
void OnlineGame::leave() {
  if (!seat_) link_.send(protocol::Leave{{id_}});
}

std::vector<OnlineNotice> OnlineGame::take_notices() { return std::exchange(notices_, {}); }

}  // namespace amazons::client
