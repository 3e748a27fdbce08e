#include "client/online_client.h"

#include <algorithm>

#include "client/words.h"

namespace amazons::client {

net::ConnectionOptions connection_options(const Settings& settings, const ServerAddress& where,
                                          std::optional<std::string> password) {
  net::ConnectionOptions o;
  o.host = where.host;
  o.port = where.port;
  o.tls = where.transport == Transport::Tls;
  if (o.tls) {
    const auto& pins = settings.pinned_servers;
    if (const auto it = pins.find(net::host_port(where)); it != pins.end())
      o.tls_fingerprint = it->second;
  }
  o.name = settings.name;
  o.password = std::move(password);
  o.reconnect.max = Millis{4000};
  return o;
}

net::ConnectionOptions connection_options(const Settings& settings,
                                          const std::vector<ServerAddress>& nodes,
                                          std::optional<std::string> password) {
  net::ConnectionOptions o = connection_options(settings, nodes.front(), std::move(password));
  for (std::size_t i = 1; i < nodes.size(); ++i)
    o.more_servers.push_back({nodes[i].host, nodes[i].port});
  return o;
}

std::string nodes_text(const std::vector<ServerAddress>& nodes, bool with_scheme) {
  std::string out;
  for (const auto& n : nodes) out += (out.empty() ? "" : ",") + net::host_port(n);
  if (with_scheme && !nodes.empty() && nodes.front().transport != Transport::Tcp)
    out = std::string(to_string(nodes.front().transport)) + "://" + out;
  return out;
}

std::string player_text(const Catalogue& t, const protocol::PlayerRef& p) {
  return t(p.bot ? "player.bot_with_rating" : "player.with_rating",
           {{"name", p.name}, {"rating", std::to_string(p.rating)}});
}

OnlineClient::OnlineClient(net::ConnectionOptions options, const Catalogue& tr)
    : tr_(&tr),
      address_{options.host, options.port, options.tls ? Transport::Tls : Transport::Tcp},
      name_(options.name) {
  options.delivery = net::Delivery::Poll;
  connection_ = std::make_unique<net::Connection>(
      std::move(options), [this](const net::ConnectionEvent& e) { on_event(e); });
}

OnlineClient::~OnlineClient() {
  // The games first: they hold the connection as their link.
  games_held_.clear();
  connection_.reset();
}

void OnlineClient::start() { connection_->start(); }
void OnlineClient::poll() { connection_->poll(); }
void OnlineClient::poll_for(Millis timeout) { connection_->poll_for(timeout); }
void OnlineClient::close() { connection_->close(); }

const std::string& OnlineClient::name() const { return welcome_ ? welcome_->name : name_; }

std::string OnlineClient::status_text() const {
  // The node in use: one of several when the server field named a cluster's nodes.
  const auto node = connection_->server();
  const std::string where = to_string(ServerAddress{node.host, node.port, address_.transport});
  const Catalogue& t = *tr_;
  switch (status_) {
    case net::ConnectionStatus::Idle:
    case net::ConnectionStatus::Connecting:
    case net::ConnectionStatus::LoggingIn:
      return t(welcome_ ? "online.status.reconnecting" : "online.status.connecting",
               {{"server", where}});
    case net::ConnectionStatus::Online:
      return t("online.status.online", {{"server", where},
                                        {"name", name()},
                                        {"rating", std::to_string(welcome_->player.rating)}});
    case net::ConnectionStatus::WaitingRetry: {
      const std::string why =
          last_status_ && last_status_->error ? this->why(*last_status_->error) : "none";
      const auto seconds = last_status_ ? (last_status_->retry_in.count() + 999) / 1000 : 0;
      return t(welcome_ ? "online.status.lost" : "online.status.unreachable",
               {{"server", where}, {"why", why}, {"seconds", seconds}});
    }
    case net::ConnectionStatus::Closed: {
      const auto& e = closed_error_;
      if (!e) return t("connection.disconnected");
      std::string why = this->why(*e);
      if (e->code == protocol::ErrorCode::TlsRequired)
        why = t("online.status.tls_hint", {{"why", why}, {"server", net::host_port(address_)}});
      return t("online.status.closed", {{"why", why}});
    }
  }
  return {};
}

std::string OnlineClient::why(const net::ClientError& e) const {
  return client_error_text(*tr_, e);
}

std::vector<OnlineNotice> OnlineClient::take_notices() {
  std::vector<OnlineNotice> out(notices_.begin(), notices_.end());
  notices_.clear();
  for (auto& [id, g] : games_held_)
    if (id == current_)
      for (auto& n : g->take_notices()) out.push_back(std::move(n));
  return out;
}

void OnlineClient::notice(std::string text, bool error) {
  notices_.push_back({std::move(text), error, {}, {}, {}});
  if (notices_.size() > 20) notices_.pop_front();
}

void OnlineClient::notice(const std::string& what, const net::ClientError& e) {
  const bool refused = e.kind == net::ClientError::Kind::Server && e.code;
  const std::string said = why(e);
  OnlineNotice n{what.empty() ? said : (*tr_)("online.failed", {{"what", what}, {"error", said}}),
                 true,
                 {},
                 {},
                 e.describe()};
  if (refused) {
    n.code = std::string(protocol::code(*e.code));
    n.reason = e.reason.value_or("");
  }
  notices_.push_back(std::move(n));
  if (notices_.size() > 20) notices_.pop_front();
}

// ---- the connection ---------------------------------------------------------------------------

void OnlineClient::on_event(const net::ConnectionEvent& event) {
  ++news_;
  if (const auto* s = std::get_if<net::StatusEvent>(&event)) {
    // Online counts from the welcome (the LoginEvent just after), so welcome() is set by then.
    if (s->status == net::ConnectionStatus::Online) return;
    status_ = s->status;
    last_status_ = *s;
    if (s->status == net::ConnectionStatus::WaitingRetry) {
      // The server forgets seeks, open games and challenges of a connection that is gone.
      seeking_.reset();
      waiting_.reset();
      sent_.clear();
      challenges_.clear();
    } else if (s->status == net::ConnectionStatus::Closed) {
      closed_reason_ = s->error ? s->error->message : "closed";
      closed_error_ = s->error;
    }
  } else if (const auto* l = std::get_if<net::LoginEvent>(&event)) {
    welcome_ = l->welcome;
    status_ = net::ConnectionStatus::Online;
    if (l->resumed) notice((*tr_)("online.notice.reconnected"));
    refresh();
    // The server forgets what a connection followed when it drops.
    if (followed_) follow_tournament(*followed_);
  } else if (const auto* m = std::get_if<net::MessageEvent>(&event)) {
    on_message(m->message);
  } else if (const auto* e = std::get_if<net::ErrorEvent>(&event)) {
    notice("", e->error);
  }
}

OnlineGame* OnlineClient::find(const std::string& id) {
  const auto it = games_held_.find(id);
  return it == games_held_.end() ? nullptr : it->second.get();
}

OnlineGame& OnlineClient::open_game(const std::string& id, bool seat) {
  auto& slot = games_held_[id];
  if (!slot || (seat && !slot->playing()))
    slot = std::make_unique<OnlineGame>(id, seat, name(), *connection_, *tr_);
  return *slot;
}

void OnlineClient::on_message(const protocol::ServerMessage& message) {
  std::optional<std::string> game;
  if (const auto* s = std::get_if<protocol::Start>(&message)) {
    game = s->game;
    if (s->color) {
      if (waiting_ && waiting_->game != s->game) cancel_waiting();
      waiting_.reset();
      seeking_.reset();
      open_game(s->game, true);
      current_ = s->game;
    }
  } else if (const auto* st = std::get_if<protocol::State>(&message)) {
    game = st->game;
    // A game this account plays, resumed by the login (it may have been started elsewhere).
    if (st->color && st->status == protocol::GameStatus::Active && !find(st->game)) {
      open_game(st->game, true);
      if (current_.empty()) current_ = st->game;
    }
  } else if (const auto* m = std::get_if<protocol::Moved>(&message)) {
    game = m->game;
  } else if (const auto* e = std::get_if<protocol::End>(&message)) {
    game = e->game;
  } else if (const auto* p = std::get_if<protocol::Presence>(&message)) {
    game = p->game;
  } else if (const auto* c = std::get_if<protocol::Chat>(&message)) {
    game = c->game;
  } else if (const auto* r = std::get_if<protocol::RematchOffer>(&message)) {
    game = r->game;
    notice((*tr_)("game.rematch.offered_by", {{"player", r->from}}));
  } else if (const auto* ch = std::get_if<protocol::ChallengeReceived>(&message)) {
    std::erase_if(challenges_, [&](const auto& x) { return x.challenge == ch->challenge; });
    challenges_.push_back(*ch);
    const Catalogue& t = *tr_;
    notice(t("challenge.received", {{"player", ch->from.name},
                                    {"rules", rules_name(t, ch->rules)},
                                    {"time", time_choice_text(t, ch->time)},
                                    {"rated", t(ch->rated ? "game.rated" : "game.casual")}}));
  } else if (const auto* cc = std::get_if<protocol::ChallengeClosed>(&message)) {
    std::erase_if(challenges_, [&](const auto& x) { return x.challenge == cc->challenge; });
    if (const auto it = sent_.find(cc->challenge); it != sent_.end()) {
      notice((*tr_)(cc->reason == "declined" ? "online.notice.declined" : "online.notice.gone",
                    {{"player", it->second}}));
      sent_.erase(it);
    }
  } else if (const auto* t = std::get_if<protocol::YourTurn>(&message)) {
    const bool news = std::any_of(t->games.begin(), t->games.end(), [&](const auto& g) {
      return std::none_of(turns_.begin(), turns_.end(),
                          [&](const auto& old) { return old.game == g.game; });
    });
    turns_ = t->games;
    if (news && !t->games.empty())
      notice(t->games.size() == 1
                 ? (*tr_)("online.notice.your_move", {{"opponent", t->games[0].opponent}})
                 : (*tr_)("online.notice.your_moves", {{"count", t->games.size()}}));
  } else if (const auto* tl = std::get_if<protocol::TournamentList>(&message)) {
    tournaments_ = tl->tournaments;
  } else if (const auto* ti = std::get_if<protocol::TournamentInfo>(&message)) {
    // Pushed for every tournament this account plays in, not only the one shown.
    if (followed_ && ti->tournament.id == *followed_) tournament_ = *ti;
    for (auto& listed : tournaments_)
      if (listed.id == ti->tournament.id) listed = ti->tournament;
  } else if (const auto* rl = std::get_if<protocol::ReportList>(&message)) {
    reports_ = *rl;
  } else if (const auto* sl = std::get_if<protocol::SanctionList>(&message)) {
    sanctions_ = *sl;
  } else if (const auto* al = std::get_if<protocol::AuditLog>(&message)) {
    audit_ = *al;
  } else if (const auto* sd = std::get_if<protocol::Shutdown>(&message)) {
    notices_.push_back({(*tr_)("connection.shutdown"), true, {}, {}, sd->message});
  }
  if (game)
    if (OnlineGame* g = find(*game)) g->handle(message);
  // A move or an end changes whose turn it is: a game just moved in, or over, is not waiting.
  if (std::holds_alternative<protocol::Moved>(message) ||
      std::holds_alternative<protocol::End>(message))
    std::erase_if(turns_, [&](const auto& t) {
      const OnlineGame* g = find(t.game);
      const bool mine = g && g->color() && g->view() && g->view()->running() &&
                        g->view()->to_move() == *g->color();
      return t.game == *game && !mine;
    });
}

void OnlineClient::request_turns() {
  if (!online()) return;
  connection_->send(protocol::Turns{}, [this](net::ServerLink::Reply r) {
    if (r && std::holds_alternative<protocol::YourTurn>(*r))
      turns_ = std::get<protocol::YourTurn>(*r).games;
  });
}

void OnlineClient::request(protocol::ClientMessage message, std::string what,
                           std::function<void(const protocol::ServerMessage&)> done) {
  connection_->send(std::move(message), [this, what = std::move(what),
                                         done = std::move(done)](net::ServerLink::Reply r) {
    if (!r) return notice(what, r.error());
    if (done) done(*r);
  });
}

// ---- the lobby --------------------------------------------------------------------------------

void OnlineClient::refresh() {
  if (!online()) return;
  connection_->send(protocol::List{}, [this](net::ServerLink::Reply r) {
    if (r && std::holds_alternative<protocol::Games>(*r))
      games_ = std::get<protocol::Games>(*r).games;
  });
  connection_->send(protocol::Players{}, [this](net::ServerLink::Reply r) {
    if (r && std::holds_alternative<protocol::PlayerList>(*r))
      players_ = std::get<protocol::PlayerList>(*r).players;
  });
  request_tournaments();
}

// ---- tournaments ------------------------------------------------------------------------------

void OnlineClient::request_tournaments() {
  if (!online()) return;
  // The answer reaches on_message as well, which keeps it.
  connection_->send(protocol::TournamentsRequest{}, {});
}

void OnlineClient::follow_tournament(std::int64_t id) {
  if (followed_ != id) tournament_.reset();
  followed_ = id;
  request(protocol::TournamentShow{id}, (*tr_)("tournament.title", {{"id", std::to_string(id)}}));
}

void OnlineClient::unfollow_tournament() {
  followed_.reset();
  tournament_.reset();
}

void OnlineClient::join_tournament(std::int64_t id) {
  // The server pushes the changed tournament to its players and followers (on_message).
  request(protocol::TournamentJoin{id}, (*tr_)("online.request.join_tournament"),
          [this](const auto&) { notice((*tr_)("tournament.joined")); });
}

void OnlineClient::withdraw_tournament(std::int64_t id) {
  request(protocol::TournamentWithdraw{id}, (*tr_)("tournament.withdraw"),
          [this](const auto&) { notice((*tr_)("tournament.withdrew")); });
}

// ---- moderation -------------------------------------------------------------------------------

protocol::Role OnlineClient::role() const {
  return welcome_ && welcome_->role ? *welcome_->role : protocol::Role::Player;
}

void OnlineClient::request_moderation() {
  if (!online() || !moderates()) return;
  // The answers reach on_message as well, which keeps them; a refusal (the role was revoked
  // since the welcome) is a notice.
  request(protocol::ReportsRequest{}, (*tr_)("moderation.reports"));
  request(protocol::SanctionsRequest{}, (*tr_)("moderation.sanctions"));
  request(protocol::AuditRequest{30}, (*tr_)("moderation.audit"));
}

void OnlineClient::moderate(protocol::ClientMessage action, std::string what) {
  request(std::move(action), what, [this, what](const protocol::ServerMessage&) {
    notice((*tr_)("online.notice.done", {{"what", what}}));
    request_moderation();
  });
}

void OnlineClient::report_player(const std::string& player, const std::string& reason) {
  request(protocol::Report{player, std::nullopt, reason},
          (*tr_)("moderation.report.title", {{"player", player}}),
          [this, player](const protocol::ServerMessage&) {
            notice((*tr_)("online.notice.reported", {{"player", player}}));
          });
}

std::vector<protocol::GameSummary> OnlineClient::open_games() const {
  std::vector<protocol::GameSummary> out;
  for (const auto& g : games_)
    if (g.status == protocol::GameStatus::Open) out.push_back(g);
  return out;
}

std::vector<protocol::GameSummary> OnlineClient::live_games() const {
  std::vector<protocol::GameSummary> out;
  for (const auto& g : games_)
    if (g.status == protocol::GameStatus::Active) out.push_back(g);
  return out;
}

void OnlineClient::create(const protocol::Create& c) {
  request(c, (*tr_)("lobby.create"), [this](const protocol::ServerMessage& m) {
    if (const auto* created = std::get_if<protocol::Created>(&m)) {
      waiting_ = *created;
      notice(created->invite ? (*tr_)("online.notice.created_private", {{"code", *created->invite}})
                             : (*tr_)("online.notice.created"));
    }
    refresh();
  });
}

void OnlineClient::cancel_waiting() {
  if (!waiting_) return;
  request(protocol::Leave{{waiting_->game}}, (*tr_)("game.cancel_game"),
          [this](const protocol::ServerMessage&) { refresh(); });
  waiting_.reset();
}

void OnlineClient::join(const std::string& game, std::optional<std::string> invite) {
  request(protocol::Join{game, std::move(invite)}, (*tr_)("online.request.join", {{"game", game}}));
}

void OnlineClient::watch(const std::string& game, std::optional<std::string> invite) {
  request(protocol::Watch{game, std::move(invite)},
          (*tr_)("online.request.watch", {{"game", game}}),
          [this, game](const protocol::ServerMessage& m) {
            // The state that answers is routed to the game after this handler.
            if (const auto* st = std::get_if<protocol::State>(&m)) {
              open_game(game, st->color.has_value());
              current_ = game;
            }
          });
}

void OnlineClient::seek(const protocol::Seek& s) {
  request(s, (*tr_)("lobby.quick"), [this](const protocol::ServerMessage& m) {
    if (const auto* seeking = std::get_if<protocol::Seeking>(&m)) seeking_ = *seeking;
  });
}

void OnlineClient::unseek() {
  if (!seeking_) return;
  seeking_.reset();
  request(protocol::Unseek{}, (*tr_)("lobby.stop_pairing"));
}

void OnlineClient::challenge(const protocol::ChallengeSend& c) {
  request(c, (*tr_)("online.request.challenge", {{"player", c.player}}),
          [this](const protocol::ServerMessage& m) {
            if (const auto* sent = std::get_if<protocol::ChallengeSent>(&m)) {
              sent_[sent->challenge] = sent->to;
              notice((*tr_)("online.challenge.sent", {{"player", sent->to}}));
            }
          });
}

void OnlineClient::accept(const std::string& challenge) {
  std::erase_if(challenges_, [&](const auto& c) { return c.challenge == challenge; });
  request(protocol::Accept{challenge}, (*tr_)("online.request.accept"));
}

void OnlineClient::decline(const std::string& challenge) {
  std::erase_if(challenges_, [&](const auto& c) { return c.challenge == challenge; });
  request(protocol::Decline{challenge}, (*tr_)("online.request.decline"));
}

void OnlineClient::leave_game() {
  if (OnlineGame* g = game()) {
    g->leave();
    // A game being played stays held: its seat keeps following the server until it ends.
    if (!g->playing() || g->finished()) games_held_.erase(current_);
  }
  current_.clear();
  refresh();
}

std::vector<std::string> OnlineClient::games_in_progress() const {
  std::vector<std::string> out;
  for (const auto& [id, g] : games_held_)
    if (g->playing() && g->view() && !g->finished()) out.push_back(id);
  return out;
}

void OnlineClient::show_game(const std::string& id) {
  if (find(id)) current_ = id;
}

// ---- the archive ------------------------------------------------------------------------------

void OnlineClient::request_history(std::optional<std::string> player, int limit) {
  request(protocol::HistoryRequest{std::move(player), limit}, (*tr_)("nav.my_games"),
          [this](const protocol::ServerMessage& m) {
            if (const auto* h = std::get_if<protocol::History>(&m)) history_ = *h;
          });
}

void OnlineClient::request_record(const std::string& game) {
  request(protocol::RecordRequest{game, protocol::RecordFormat::Json},
          (*tr_)("game.title", {{"game", game}}), [this, game](const protocol::ServerMessage& m) {
            const auto* r = std::get_if<protocol::Record>(&m);
            if (!r) return;
            auto record = parse_record_json(r->record.dump());
            if (!record)
              return notice((*tr_)("online.notice.record_unreadable",
                                   {{"game", game}, {"error", record.error()}}),
                            true);
            archived_ = ArchivedGame{game, *record, to_text(*record)};
          });
}

}  // namespace amazons::client
