// Players: hello and login, passwords, the players list.
#include "server/core/lobby.h"

#include <algorithm>

#include "server/core/auth.h"
#include "server/core/canonical_name.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::ServerMessage;
using namespace lobby_detail;

// ---- players ----------------------------------------------------------------------------------

void Lobby::on(Ctx& ctx, const protocol::Hello& m) {
  const SessionState& s = sessions_.at(ctx.requester);
  if (s.player || s.hello_pending)
    return ctx.error(ErrorCode::AlreadyLoggedIn, "this connection has already said hello");
  if (m.protocol != protocol::kVersion)
    return ctx.error(ErrorCode::ProtocolVersion,
                     "this server speaks protocol " + std::to_string(protocol::kVersion));
  if ((m.password || m.server_password) && !config_.allow_plain_passwords &&
      !sessions_.at(ctx.requester).connection.private_channel)
    return ctx.error(ErrorCode::TlsRequired,
                     "this server takes passwords over TLS only: connect with tls://host:port "
                     "(or the TLS switch), so that nobody on the way can read it");
  const auto existing = players_.find(m.name);
  // A token is 128 random bits, so it is not budgeted: its owner logs in with it from any
  // address, even one that is backing off (a cluster node checks tokens in its login job, and
  // there a token hello is budgeted like any other).
  const bool good_token = m.token && !clustered() && existing != players_.end() &&
                          !existing->second.row.token_digest.empty() &&
                          equal_secret(token_digest(*m.token), existing->second.row.token_digest);
  if (config_.server_password) {
    if (!good_token && over_auth_budget(ctx, "server_password")) return;
    if (!equal_secret(m.server_password.value_or(""), *config_.server_password)) {
      auth_failed(ctx);
      return ctx.error(ErrorCode::AuthFailed, "this server needs the right server_password");
    }
  }
  if (auto problem = name_problem(m.name)) return ctx.error(ErrorCode::BadField, *problem);
  if (refuse_hello(ctx, m.name)) return;
  if (m.password && (m.password->empty() || m.password->size() > kMaxPasswordBytes))
    return ctx.error(ErrorCode::BadField,
                     "password: must be 1 to " + std::to_string(kMaxPasswordBytes) + " bytes");
  // A password is checked only within the address's budget: past it the attempt is refused
  // before any hashing, whichever name it is for (the name's owner still logs in with the token,
  // or with the password from another address).
  if (m.password && !m.token && over_auth_budget(ctx, "password")) return;
  const std::string& address = sessions_.at(ctx.requester).group;
  if (clustered()) {
    // A cluster node hashes in its login job, which has no queue to wait in: over the share, the
    // password is refused.
    if (m.password && !m.token && !address.empty()) {
      std::size_t& checks = password_checks_[address];
      if (checks >= config_.max_password_checks_per_address)
        return ctx.error(ErrorCode::RateLimited,
                         "passwords from your address are being checked already (" +
                             std::to_string(config_.max_password_checks_per_address) +
                             " at a time): try again once they are answered");
      ++checks;
    }
    return login_clustered(ctx, m);
  }

  // A cluster node compares in its login job, with the database's and Redis's names.
  if (const auto other = look_alike_taken(m.name)) return refuse_look_alike(ctx, *other);
  if (m.token) {
    if (existing == players_.end() || existing->second.row.token_digest.empty() ||
        !equal_secret(token_digest(*m.token), existing->second.row.token_digest))
      return ctx.error(ErrorCode::AuthFailed, "the token is not valid for this name");
    return login(ctx, m.name, m.bot, std::nullopt, m.token);
  }
  const bool has_password =
      existing != players_.end() && !existing->second.row.password_hash.empty();
  const bool busy = existing != players_.end() && name_in_use(m.name, existing->second);
  if (m.password) {
    if (!has_password && busy)
      return ctx.error(ErrorCode::NameTaken,
                       "that name is in use; its owner can resume with the token");
    sessions_.at(ctx.requester).hello_pending = true;
    queue_password_job(
        ctx,
        PasswordJob{ctx.requester, ctx.id, m.name, *m.password, m.bot,
                    has_password ? std::optional(existing->second.row.password_hash) : std::nullopt,
                    address});
    return;
  }
  if (has_password) return ctx.error(ErrorCode::AuthFailed, "that name needs its password");
  if (busy)
    return ctx.error(ErrorCode::NameTaken,
                     "that name is in use; its owner can resume with the token");
  login(ctx, m.name, m.bot, std::nullopt);
}

Effects Lobby::complete_password(const PasswordOutcome& outcome, Instant now) {
  const PasswordJob& job = outcome.job;
  password_check_done(job.address);
  Effects next = start_waiting_password_jobs(job.address, now);
  // Counted even when the connection is gone: hanging up on a guess must not hide it.
  if (job.stored_hash && !outcome.verified) auth_budget_.failed(job.address, now.mono);
  const auto it = sessions_.find(job.session);
  if (it == sessions_.end()) return next;
  it->second.hello_pending = false;
  Ctx ctx(job.session, job.id, now);
  const auto existing = players_.find(job.name);
  if (job.stored_hash) {
    if (!outcome.verified || existing == players_.end() ||
        existing->second.row.password_hash != *job.stored_hash)
      ctx.error(ErrorCode::AuthFailed, "wrong password");
    else
      login(ctx, job.name, job.bot, std::nullopt);
  } else if (!outcome.new_hash) {
    ctx.error(ErrorCode::Internal, "could not hash the password");
  } else if (existing != players_.end() && (!existing->second.row.password_hash.empty() ||
                                            name_in_use(job.name, existing->second))) {
    ctx.error(ErrorCode::NameTaken, "that name was taken meanwhile");
  } else if (const auto other = look_alike_taken(job.name)) {
    refuse_look_alike(ctx, *other);
  } else {
    login(ctx, job.name, job.bot, outcome.new_hash);
  }
  if (ctx.errored && !it->second.errors.allow(now.mono)) {
    ctx.send(job.session, protocol::make_error(ErrorCode::TooManyErrors,
                                               "too many bad requests: closing the connection"));
    ctx.fx.close.push_back(job.session);
  }
  ctx.fx.append(std::move(next));
  return std::move(ctx.fx);
}

void Lobby::login(Ctx& ctx, const std::string& name, bool bot, std::optional<std::string> new_hash,
                  std::optional<std::string> kept_token, const std::vector<GameId>& elsewhere) {
  PlayerState& p = player_entry(name);
  p.row.name = name;
  p.row.bot = bot;
  if (new_hash) p.row.password_hash = *new_hash;
  if (p.session && *p.session != ctx.requester) {
    const SessionId old = *p.session;
    ctx.send(old, protocol::make_error(ErrorCode::Replaced, "you logged in on another connection"));
    ctx.fx.close.push_back(old);
    SessionState& old_state = sessions_.at(old);
    old_state.player.reset();
    for (GameId g : old_state.watching)
      if (auto r = rooms_.find(g); r != rooms_.end()) r->second.spectators.erase(old);
    old_state.watching.clear();
  }
  // A token login keeps its token: if the welcome is lost (the connection drops, the server
  // crashes after storing the login), the client can still come back with the token it has.
  const std::string token = kept_token ? *kept_token : new_token();
  p.row.token_digest = token_digest(token);
  ctx.fx.writes.writes.emplace_back(
      PlayerLogin{name, p.row.password_hash, p.row.token_digest, p.row.bot});
  p.session = ctx.requester;
  sessions_.at(ctx.requester).player = name;

  protocol::Welcome w;
  w.name = name;
  w.token = token;
  w.server = config_.server_name;
  w.player = {name, rounded(p.row.rating.rating), bot};
  for (GameId g : p.seats) w.games.push_back(std::to_string(g));
  // Games other nodes run: the welcome names them, and their nodes send their states.
  for (GameId g : elsewhere) {
    if (p.seats.contains(g)) continue;
    w.games.push_back(std::to_string(g));
    ctx.fx.cluster.attaches.push_back(Attach{ctx.requester, g, as_remote(p)});
  }
  if (const auto role = role_of(name); role != protocol::Role::Player) w.role = role;
  ctx.reply(w);
  for (GameId g : p.seats) {
    Room& room = rooms_.at(g);
    const Color c = *room.game.color_of(name);
    ctx.reply(room.game.state(c, ctx.now, static_cast<int>(room.spectators.size())));
    route(ctx, room, room.game.set_online(c, true, ctx.now));
  }
  // Challenges that waited for this player while they were away.
  for (const auto& [id, c] : offers_.challenges()) {
    if (c.to != name || !c.kept_until) continue;
    ctx.reply(challenge_received(id, c));
  }
  if (auto turns = your_turn(name, ctx.now); !turns.games.empty()) ctx.reply(turns);
}

void Lobby::password_check_done(const std::string& address) {
  const auto it = password_checks_.find(address);
  if (it != password_checks_.end() && --it->second == 0) password_checks_.erase(it);
}

void Lobby::queue_password_job(Ctx& ctx, PasswordJob job) {
  if (job.address.empty()) return ctx.fx.password_jobs.push_back(std::move(job));
  std::size_t& checks = password_checks_[job.address];
  if (checks < config_.max_password_checks_per_address) {
    ++checks;
    return ctx.fx.password_jobs.push_back(std::move(job));
  }
  // Waits here, not on the password threads: it delays only its own address.
  password_waiting_[job.address].push_back(std::move(job));
}

Effects Lobby::start_waiting_password_jobs(const std::string& address, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  const auto it = password_waiting_.find(address);
  if (it == password_waiting_.end()) return {};
  while (!it->second.empty() &&
         password_checks_[address] < config_.max_password_checks_per_address) {
    ++password_checks_[address];
    ctx.fx.password_jobs.push_back(std::move(it->second.front()));
    it->second.pop_front();
  }
  if (it->second.empty()) password_waiting_.erase(it);
  return std::move(ctx.fx);
}

bool Lobby::over_auth_budget(Ctx& ctx, const char* what, std::optional<std::string> game) {
  const std::string& address = sessions_.at(ctx.requester).group;
  const auto verdict = auth_budget_.attempt(address, ctx.now.mono);
  if (verdict == AuthBudget::Verdict::Allowed) return false;
  ctx.fx.auth_backoffs.push_back({address, what, verdict == AuthBudget::Verdict::RefusedFirst});
  // Said the same way whatever the secret and whether it was right: over the budget a guess
  // tells nothing.
  ctx.error(ErrorCode::RateLimited,
            "too many wrong codes and passwords from your address: wait a minute", std::move(game));
  return true;
}

void Lobby::auth_failed(const Ctx& ctx) {
  auth_budget_.failed(sessions_.at(ctx.requester).group, ctx.now.mono);
}

Lobby::PlayerState& Lobby::player_entry(const std::string& name) {
  const auto [it, made] = players_.try_emplace(name);
  if (made) look_alikes_.emplace(canonical_name(name), name);
  return it->second;
}

bool Lobby::name_in_use(const std::string& name, const PlayerState& p) const {
  return p.session.has_value() || !p.seats.empty() || holds_offers(name);
}

std::optional<std::string> Lobby::look_alike_taken(const std::string& name) const {
  if (const auto it = players_.find(name);
      it != players_.end() &&
      (!it->second.row.password_hash.empty() || name_in_use(name, it->second)))
    return std::nullopt;
  const auto [first, last] = look_alikes_.equal_range(canonical_name(name));
  for (auto it = first; it != last; ++it) {
    if (it->second == name) continue;
    const PlayerState& other = players_.at(it->second);
    if (!other.row.password_hash.empty() || name_in_use(it->second, other)) return it->second;
  }
  return std::nullopt;
}

void Lobby::refuse_look_alike(Ctx& ctx, const std::string& other) {
  ctx.error(ErrorCode::NameTaken, look_alike_message(other));
}

PlayerInfo Lobby::info_of(const PlayerState& p) const {
  return {p.row.name, p.row.bot, rounded(p.row.rating.rating)};
}

std::optional<SessionId> Lobby::session_of(const std::string& name) const {
  const auto it = players_.find(name);
  return it == players_.end() ? std::nullopt : it->second.session;
}

void Lobby::on(Ctx& ctx, const protocol::Turns&) {
  ctx.reply(your_turn(requester_name(ctx), ctx.now));
}

void Lobby::on(Ctx& ctx, const protocol::Players&) {
  protocol::PlayerList list;
  if (!clustered()) {
    for (const auto& [name, p] : players_)
      if (p.session)
        list.players.push_back(
            {name, rounded(p.row.rating.rating), p.row.bot, static_cast<int>(p.seats.size())});
    return ctx.reply(list);
  }
  // A cluster: everyone connected to any node, with the games they play on every node.
  std::map<std::string, int> playing = directory().playing;
  for (const auto& [node, view] : peers_)
    for (const auto& [name, n] : view.playing) playing[name] += n;
  std::map<std::string, protocol::OnlinePlayer> online;
  const auto add = [&](const std::string& name, double rating, bool bot) {
    online.try_emplace(name, protocol::OnlinePlayer{name, rounded(rating), bot, playing[name]});
  };
  for (const auto& [name, p] : players_)
    if (p.session && !is_remote_session(*p.session)) add(name, p.row.rating.rating, p.row.bot);
  for (const auto& [node, view] : peers_)
    for (const auto& p : view.players) add(p.name, p.rating.rating, p.bot);
  for (auto& [name, entry] : online) list.players.push_back(std::move(entry));
  ctx.reply(list);
}

}  // namespace amazons::server
