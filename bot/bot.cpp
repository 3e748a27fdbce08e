#include "bot/bot.h"

#include <algorithm>

#include "ai/ai_player.h"
#include "ai/tools/external_engine.h"
#include "bot/known_servers.h"
#include "common/notation.h"

namespace amazons::bot {

namespace {

using SteadyClock = std::chrono::steady_clock;

// How long the connection waits for something to do before the loop looks at stop requests.
constexpr Millis kPollSlice{100};
// After a forced stop, how long to wait for the server to confirm the resignations.
constexpr Millis kQuitWait{2000};
// How long a rematch offer holds a place for the opponent's answer.
constexpr Millis kRematchWait{15000};

std::string time_text(const TimeControl& t) { return to_string(t); }

std::string yes_no(bool b) { return b ? "true" : "false"; }

}  // namespace

struct Bot::Seat {
  std::unique_ptr<Player> player;
  ai::AIPlayer* engine = nullptr;         // the player, when it is the built-in engine
  std::unique_ptr<net::ServerGame> game;  // declared after the player: destroyed before it
};

Expected<std::unique_ptr<Bot>, std::string> Bot::create(BotConfig config, Log& log,
                                                        client::Catalogue t) {
  ai::AiConfig ai = ai::builtin_ai_config();
  if (!config.engine) {
    if (!config.ai_config.empty()) {
      auto loaded = ai::load_ai_config(config.ai_config);
      // The levels file's own reason is English (ai/ speaks no language); the file is named.
      if (!loaded)
        return Unexpected(t("bot.settings.ai_config",
                            {{"file", config.ai_config.string()}, {"error", loaded.error()}}));
      ai = *loaded;
    }
    if (!ai.find(config.level)) {
      std::string known;
      for (const ai::Level& l : ai.levels) known += (known.empty() ? "" : ", ") + l.name;
      return Unexpected(t("bot.settings.no_level", {{"level", config.level}, {"known", known}}));
    }
  }
  ai.threads = config.threads;
  ai.hash_mb = static_cast<std::size_t>(config.hash_mb);
  return std::unique_ptr<Bot>(new Bot(std::move(config), std::move(ai), log, std::move(t)));
}

Bot::Bot(BotConfig config, ai::AiConfig ai, Log& log, client::Catalogue t)
    : config_(std::move(config)), ai_(std::move(ai)), log_(log), t_(std::move(t)) {}

Bot::~Bot() {
  // The games first: they talk to the connection while they go.
  seats_.clear();
  retired_.clear();
  connection_.reset();
}

// ---- the loop ---------------------------------------------------------------------------------

void Bot::connect(std::optional<std::string> pin) {
  net::ConnectionOptions o;
  o.host = config_.host;
  o.port = config_.port;
  o.more_servers = config_.more_servers;
  o.tls = config_.tls;
  o.tls_fingerprint = std::move(pin);
  o.name = config_.name;
  o.password = config_.password;
  o.server_password = config_.server_password;
  o.bot = true;
  o.delivery = net::Delivery::Poll;
  o.reconnect.initial = Millis{500};
  o.reconnect.max = Millis{15000};
  connection_ =
      std::make_unique<net::Connection>(o, [this](const net::ConnectionEvent& e) { on_event(e); });
  connection_->start();
  connection_->post_after(config_.list_interval, [this] { tick(); });
}

std::optional<std::string> Bot::known_pin() {
  if (config_.tls_fingerprint) return config_.tls_fingerprint;
  if (config_.known_servers.empty()) return std::nullopt;
  auto known = load_known_servers(config_.known_servers);
  if (!known) {
    log_.warn("known_servers", {{"why", known.error()}});
    return std::nullopt;
  }
  const auto it = known->find(server_key());
  if (it == known->end()) return std::nullopt;
  return it->second;
}

void Bot::on_certificate(const net::ClientError& e) {
  if (e.certificate == net::ClientError::Trust::Unknown && !logged_in_ && seats_.empty()) {
    // Trust on first use, as ssh does: remember this certificate and refuse any other later.
    log_.warn("tls_trust_first_use", {{"server", server_key()},
                                      {"fingerprint", e.fingerprint},
                                      {"known_servers", config_.known_servers.string()}});
    if (!config_.known_servers.empty())
      if (auto why = remember_server(config_.known_servers, server_key(), e.fingerprint))
        log_.warn("known_servers", {{"why", *why}});
    trust_next_ = e.fingerprint;
    return;
  }
  log_.error("tls_certificate_refused",
             {{"server", server_key()},
              {"why", e.message},
              {"fingerprint", e.fingerprint},
              {"known_servers", config_.known_servers.string()},
              {"fix", t_("bot.log.certificate_fix", {{"fingerprint", e.fingerprint},
                                                     {"server", server_key()},
                                                     {"file", config_.known_servers.string()}})}});
  exit_status_ = 1;
  done_ = true;
}

int Bot::run() {
  log_.info(
      "starting",
      {{"name", config_.name},
       {"server", std::string(config_.tls ? "tls://" : "") + server_key()},
       {"player", config_.engine ? "engine" : "level"},
       {"level", config_.engine ? "" : config_.level},
       {"engine", config_.engine.value_or("")},
       {"max_games", std::to_string(config_.max_games)},
       {"join_open", yes_no(config_.join_open)},
       {"accept_challenges", yes_no(config_.accept_challenges)},
       {"seek", config_.seek ? config_.seek->rules + " " + time_text(config_.seek->time) : "no"},
       {"rematch", yes_no(config_.rematch)},
       {"ponder", yes_no(config_.ponder)}});
  connect(config_.tls ? known_pin() : std::nullopt);

  std::optional<SteadyClock::time_point> quit_by;
  while (!done_) {
    connection_->poll_for(kPollSlice);
    if (trust_next_) {
      // Outside the connection's callbacks: it may be destroyed here.
      connect(std::exchange(trust_next_, std::nullopt));
      continue;
    }
    for (const int requested = stop_requests_; stops_seen_ < requested;) {
      if (++stops_seen_ == 1) {
        drain();
      } else if (!quit_by) {
        quit_now();
        quit_by = SteadyClock::now() + kQuitWait;
      }
    }
    // Correspondence games are not waited for (they last days): they wait at the server, and
    // go on when the bot comes back.
    const bool only_correspondence = std::all_of(
        seats_.begin(), seats_.end(),
        [](const auto& entry) { return entry.second->game->time_control().correspondence(); });
    if (draining_ && only_correspondence && pending_.empty()) done_ = true;
    if (quit_by && SteadyClock::now() >= *quit_by) done_ = true;
  }
  seats_.clear();
  retired_.clear();
  connection_->close();
  log_.info("stopped", {{"games_finished", std::to_string(finished_games_)},
                        {"status", std::to_string(exit_status_)}});
  return exit_status_;
}

void Bot::tick() {
  std::erase_if(retired_, [](const std::unique_ptr<Seat>& s) { return !s->game->busy(); });
  look_for_games();
  connection_->post_after(config_.list_interval, [this] { tick(); });
}

void Bot::drain() {
  if (draining_) return;
  draining_ = true;
  log_.info("draining", {{"games_in_progress", std::to_string(seats_.size())},
                         {"why", t_(tournament_over_ ? "bot.log.tournament_over"
                                    : config_.games > 0 && finished_games_ >= config_.games
                                        ? "bot.log.games_played"
                                        : "bot.log.asked_to_stop")}});
  if (seeking_) {
    connection_->send(protocol::Unseek{});
    seeking_ = false;
  }
  // Joins and accepts in flight are waited for; rematch offers are not.
  std::erase_if(pending_, [](const auto& p) { return p.first.starts_with("rematch "); });
}

void Bot::quit_now() {
  draining_ = true;
  log_.warn("quitting", {{"resigning", std::to_string(seats_.size())}});
  for (auto& [id, seat] : seats_)
    if (!seat->game->finished() && !seat->game->time_control().correspondence())
      connection_->send(protocol::Resign{{id}});
}

int Bot::active_games() const { return static_cast<int>(seats_.size()); }

bool Bot::has_room() const {
  return active_games() + static_cast<int>(pending_.size()) < config_.max_games;
}

bool Bot::wants_games() const {
  const bool more =
      config_.games == 0 || started_games_ + static_cast<int>(pending_.size()) < config_.games;
  return !draining_ && more && has_room() && connection_->status() == net::ConnectionStatus::Online;
}

// ---- the connection ---------------------------------------------------------------------------

void Bot::on_event(const net::ConnectionEvent& event) {
  if (const auto* s = std::get_if<net::StatusEvent>(&event)) {
    const std::string status(net::to_string(s->status));
    if (s->status == net::ConnectionStatus::WaitingRetry) {
      // The server forgets seeks and pending joins of a connection that is gone.
      seeking_ = false;
      pending_.clear();
      log_.warn("connection", {{"status", status},
                               {"why", s->error ? s->error->describe() : ""},
                               {"retry_in_ms", std::to_string(s->retry_in.count())},
                               {"attempt", std::to_string(s->attempt)}});
    } else if (s->status == net::ConnectionStatus::Closed) {
      if (s->error && s->error->kind == net::ClientError::Kind::Certificate) {
        on_certificate(*s->error);
        return;
      }
      if (s->error) {
        log_.error("connection", {{"status", status}, {"why", s->error->describe()}});
        exit_status_ = 1;
      }
      done_ = true;
    } else {
      log_.debug("connection", {{"status", status}});
    }
  } else if (const auto* l = std::get_if<net::LoginEvent>(&event)) {
    logged_in_ = true;
    on_login(*l);
  } else if (const auto* m = std::get_if<net::MessageEvent>(&event)) {
    on_message(m->message);
  } else if (const auto* e = std::get_if<net::ErrorEvent>(&event)) {
    log_.warn("server_error", {{"why", e->error.describe()}, {"game", e->error.game.value_or("")}});
  }
}

void Bot::on_login(const net::LoginEvent& login) {
  const auto& w = login.welcome;
  log_.info("logged_in", {{"name", w.name},
                          {"bot", yes_no(w.player.bot)},
                          {"rating", std::to_string(w.player.rating)},
                          {"resumed", yes_no(login.resumed)},
                          {"games_in_progress", std::to_string(w.games.size())}});
  keep_seeking();
  look_for_games();
  if (config_.tournament) {
    // Again after every reconnection: "already in the tournament" is harmless.
    const std::string id = std::to_string(*config_.tournament);
    connection_->send(
        protocol::TournamentJoin{*config_.tournament}, [this, id](net::ServerLink::Reply r) {
          if (r)
            log_.info("tournament_joined", {{"tournament", id}});
          else
            log_.info("tournament_join", {{"tournament", id}, {"why", r.error().describe()}});
        });
    connection_->send(protocol::TournamentShow{*config_.tournament});
  }
}

void Bot::on_message(const protocol::ServerMessage& message) {
  const auto route = [&](const std::string& game) {
    if (const auto it = seats_.find(game); it != seats_.end()) it->second->game->handle(message);
  };
  if (const auto* s = std::get_if<protocol::Start>(&message)) {
    if (!s->color) return;
    // Whatever brought the game (a join, an accepted challenge, a rematch) has done its work.
    const std::string& opponent = (*s->color == Color::White ? s->black : s->white).name;
    pending_.erase(s->game);
    std::erase_if(pending_, [&](const auto& p) { return p.second == opponent; });
    if (!seats_.contains(s->game)) open_seat(s->game);
    route(s->game);
  } else if (const auto* st = std::get_if<protocol::State>(&message)) {
    if (st->color && st->status == protocol::GameStatus::Active && !seats_.contains(st->game))
      open_seat(st->game);  // a game this account holds from before the bot started
    route(st->game);
  } else if (const auto* mv = std::get_if<protocol::Moved>(&message)) {
    route(mv->game);
  } else if (const auto* e = std::get_if<protocol::End>(&message)) {
    route(e->game);
  } else if (const auto* p = std::get_if<protocol::Presence>(&message)) {
    route(p->game);
  } else if (const auto* c = std::get_if<protocol::ChallengeReceived>(&message)) {
    on_challenge(*c);
  } else if (const auto* r = std::get_if<protocol::RematchOffer>(&message)) {
    // An offer that crosses ours needs no answer: both have offered.
    log_.info("rematch_offer", {{"game", r->game}, {"from", r->from}});
    offer_rematch(r->game, r->from);
  } else if (const auto* ch = std::get_if<protocol::Chat>(&message)) {
    log_.info("chat", {{"game", ch->game}, {"from", ch->from}, {"text", ch->text}});
  } else if (const auto* cc = std::get_if<protocol::ChallengeClosed>(&message)) {
    log_.info("challenge_closed", {{"challenge", cc->challenge}, {"reason", cc->reason}});
  } else if (const auto* t = std::get_if<protocol::TournamentInfo>(&message)) {
    if (config_.tournament && t->tournament.id == *config_.tournament &&
        t->tournament.status == "finished" && !draining_) {
      log_.info("tournament_over", {{"tournament", std::to_string(t->tournament.id)}});
      tournament_over_ = true;
      drain();
    }
  } else if (const auto* sd = std::get_if<protocol::Shutdown>(&message)) {
    log_.warn("server_shutdown", {{"message", sd->message}});
  }
}

// ---- finding games ----------------------------------------------------------------------------

void Bot::on_challenge(const protocol::ChallengeReceived& c) {
  std::optional<std::string> why;
  if (draining_)
    why = t_("bot.decline.leaving");
  else if (!config_.accept_challenges)
    why = t_("bot.decline.no_challenges");
  else if (!has_room())
    why = t_("bot.decline.full", {{"playing", std::to_string(active_games())},
                                  {"max", std::to_string(config_.max_games)}});
  else if (!wants_games())
    why = t_("bot.decline.enough", {{"games", std::to_string(config_.games)}});
  else
    why = refusal(config_.accept, c.rules, c.time, c.rated, c.from, t_);
  log_.info("challenge", {{"challenge", c.challenge},
                          {"from", c.from.name},
                          {"rules", c.rules},
                          {"time", time_text(c.time)},
                          {"rated", yes_no(c.rated)},
                          {"decision", why ? "decline" : "accept"},
                          {"why", why.value_or("")}});
  if (why) return connection_->send(protocol::Decline{c.challenge});
  const std::string key = "challenge " + c.challenge;
  pending_.emplace(key, c.from.name);
  connection_->send(protocol::Accept{c.challenge}, [this, key](net::ServerLink::Reply r) {
    pending_.erase(key);
    if (!r) log_.warn("accept_failed", {{"challenge", key}, {"why", r.error().describe()}});
  });
}

void Bot::look_for_games() {
  if (!config_.join_open || !wants_games()) return;
  connection_->send(protocol::List{}, [this](net::ServerLink::Reply r) {
    if (!r || !std::holds_alternative<protocol::Games>(*r)) return;
    for (const protocol::GameSummary& g : std::get<protocol::Games>(*r).games) {
      if (!wants_games()) break;
      if (g.status != protocol::GameStatus::Open || seats_.contains(g.game) ||
          pending_.contains(g.game))
        continue;
      const auto& creator = g.white ? g.white : g.black;
      if (!creator || creator->name == config_.name) continue;
      if (const auto why = refusal(config_.accept, g.rules, g.time, g.rated, *creator, t_)) {
        log_.debug("skip_game", {{"game", g.game}, {"why", *why}});
        continue;
      }
      join(g);
    }
  });
}

void Bot::join(const protocol::GameSummary& g) {
  const auto& creator = g.white ? g.white : g.black;
  log_.info("join", {{"game", g.game},
                     {"opponent", creator->name},
                     {"rules", g.rules},
                     {"time", time_text(g.time)},
                     {"rated", yes_no(g.rated)}});
  pending_.emplace(g.game, creator->name);
  connection_->send(protocol::Join{g.game, std::nullopt},
                    [this, game = g.game](net::ServerLink::Reply r) {
                      pending_.erase(game);
                      if (!r)
                        log_.info("join_failed", {{"game", game}, {"why", r.error().describe()}});
                    });
}

void Bot::keep_seeking() {
  if (!config_.seek || connection_->status() != net::ConnectionStatus::Online) return;
  if (wants_games()) {
    const SeekSettings& s = *config_.seek;
    log_.info("seek",
              {{"rules", s.rules}, {"time", time_text(s.time)}, {"rated", yes_no(s.rated)}});
    connection_->send(protocol::Seek{s.rules, s.time, s.rated}, [this](net::ServerLink::Reply r) {
      if (!r) {
        seeking_ = false;
        log_.warn("seek_failed", {{"why", r.error().describe()}});
      }
    });
    seeking_ = true;
  } else if (seeking_) {
    connection_->send(protocol::Unseek{});
    seeking_ = false;
  }
}

void Bot::offer_rematch(const std::string& game, const std::string& opponent) {
  if (!config_.rematch || !wants_games() || rematches_.contains(game)) return;
  rematches_.insert(game);
  const std::string key = "rematch " + game;
  pending_.emplace(key, opponent);
  log_.info("rematch", {{"game", game}, {"opponent", opponent}});
  connection_->send(protocol::Rematch{{game}}, [this, game, key](net::ServerLink::Reply r) {
    if (!r) {
      log_.info("rematch_failed", {{"game", game}, {"why", r.error().describe()}});
      pending_.erase(key);
      return;
    }
    // Offered: the place stays held while the opponent may still accept.
    connection_->post_after(kRematchWait, [this, key] {
      if (pending_.erase(key) == 0) return;
      keep_seeking();
      look_for_games();
    });
  });
}

// ---- games ------------------------------------------------------------------------------------

std::unique_ptr<Player> Bot::make_player(const std::string& game) {
  if (config_.engine) {
    ai::ExternalEngineOptions o;
    o.command = *config_.engine;
    o.protocol = config_.protocol;
    o.name = config_.name;
    o.max_restarts = config_.engine_restarts;
    auto engine = std::make_unique<ai::ExternalEnginePlayer>(o);
    engine->set_failure_callback([&log = log_, game](const ai::EngineFailure& f) {
      log.write(f.restarting ? Log::Level::Warn : Log::Level::Error, "engine_failure",
                {{"game", game},
                 {"kind", std::string(ai::code(f.kind))},
                 {"restarting", yes_no(f.restarting)},
                 {"message", f.message}});
    });
    return engine;
  }
  auto engine =
      std::make_unique<ai::AIPlayer>(*ai_.find(config_.level), ai_, config_.name, seed_++);
  engine->set_ponder(config_.ponder);
  return engine;
}

void Bot::open_seat(const std::string& game) {
  auto seat = std::make_unique<Seat>();
  seat->player = make_player(game);
  seat->engine = dynamic_cast<ai::AIPlayer*>(seat->player.get());
  net::ServerGameOptions o;
  o.lag_margin = config_.lag_margin;
  o.resign_before_flag = true;
  o.claim_abandoned = config_.claim;
  net::ServerGameObserver* observer = this;
  seat->game = std::make_unique<net::ServerGame>(game, *seat->player, *connection_, o, observer);
  seats_.emplace(game, std::move(seat));
  ++started_games_;
}

void Bot::on_game_start(const net::ServerGame& game) {
  const Color me = game.color();
  const auto& opponent = game.player(~me);
  log_.info("game_start", {{"game", game.id()},
                           {"color", std::string(color_name(me))},
                           {"opponent", opponent.name},
                           {"opponent_bot", yes_no(opponent.bot)},
                           {"opponent_rating", std::to_string(opponent.rating)},
                           {"rules", game.rules_name()},
                           {"time", time_text(game.time_control())},
                           {"rated", yes_no(game.rated())}});
  keep_seeking();
}

void Bot::on_game_move(const net::ServerGame& game, Move move, Color mover) {
  log_.debug("move", {{"game", game.id()},
                      {"ply", std::to_string(game.moves().size())},
                      {"move", to_string(move)},
                      {"by", mover == game.color() ? "us" : "opponent"}});
}

void Bot::on_game_end(const net::ServerGame& game, const GameResult& result) {
  ++finished_games_;
  std::string ponder_hits, ponder_misses;
  if (const auto it = seats_.find(game.id()); config_.ponder && it != seats_.end()) {
    if (const ai::AIPlayer* engine = it->second->engine) {
      ponder_hits = std::to_string(engine->ponder_stats().hits);
      ponder_misses = std::to_string(engine->ponder_stats().misses);
    }
  }
  const std::string outcome = !result.winner                   ? "aborted"
                              : *result.winner == game.color() ? "win"
                                                               : "loss";
  log_.info("game_end", {{"game", game.id()},
                         {"result", outcome},
                         {"reason", std::string(code(result.reason))},
                         {"plies", std::to_string(game.moves().size())},
                         {"ponder_hits", ponder_hits},
                         {"ponder_misses", ponder_misses},
                         {"opponent", game.started() ? game.player(~game.color()).name : ""}});
  if (const auto it = seats_.find(game.id()); it != seats_.end()) {
    retired_.push_back(std::move(it->second));
    seats_.erase(it);
  }
  if (config_.games > 0 && finished_games_ >= config_.games) return drain();
  // Offered while the opponent is here; one who comes back and offers is answered then.
  if (game.started() && game.opponent().online())
    offer_rematch(game.id(), game.opponent().info().name);
  keep_seeking();
  look_for_games();
}

void Bot::on_game_note(const net::ServerGame& game, std::string_view what,
                       const std::string& detail) {
  log_.warn("game_note", {{"game", game.id()}, {"what", std::string(what)}, {"detail", detail}});
}

}  // namespace amazons::bot
