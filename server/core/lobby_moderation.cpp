// Moderation (docs/PROTOCOL.md "Moderation"): roles, mutes, kicks, bans of names and addresses,
// adjudication, removing chat lines, the audit log, and players' reports. Every moderator
// action is refused with `forbidden` for players and writes one audit line.
#include <algorithm>

#include "server/core/auth.h"
#include "server/core/canonical_name.h"
#include "server/core/lobby.h"
#include "server/core/lobby_context.h"

namespace amazons::server {

using protocol::ErrorCode;
using protocol::Role;
using protocol::ServerMessage;
using namespace lobby_detail;

namespace {

constexpr std::size_t kMaxReasonBytes = 500;
// Longer than any sensible temporary sanction; beyond it, leave the duration out ("for good").
constexpr std::int64_t kMaxDurationSeconds = 10LL * 366 * 24 * 3600;
// Open reports one player may have at once, so reports cannot flood the moderators.
constexpr std::size_t kMaxOpenReportsPerPlayer = 20;
constexpr std::size_t kMaxAddressBytes = 64;

std::string until_text(const std::optional<Timestamp>& until) {
  return until ? "until " + format_timestamp(*until) : std::string("for good");
}

protocol::Error sanction_error(ErrorCode code, const SanctionRow& row, const std::string& what) {
  protocol::Error e =
      protocol::make_error(code, what + " " + until_text(row.expires_at) +
                                     (row.reason.empty() ? std::string() : ": " + row.reason));
  e.reason = row.reason;
  return e;
}

bool address_ok(const std::string& a) {
  if (a.empty() || a.size() > kMaxAddressBytes) return false;
  return std::all_of(a.begin(), a.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' ||
           c == ':';
  });
}

protocol::Error kick_error(const std::string& reason) {
  protocol::Error e =
      protocol::make_error(ErrorCode::Kicked, "a moderator closed your connection" +
                                                  (reason.empty() ? "" : ": " + reason));
  e.reason = reason;
  return e;
}

protocol::SanctionInfo sanction_info(const SanctionRow& r) {
  return {std::string(sanction_name(r.kind)), r.target, r.reason, r.by,
          r.expires_at ? std::optional(format_timestamp(*r.expires_at)) : std::nullopt};
}

protocol::ReportInfo report_info(const ReportRow& r) {
  return {r.id, format_timestamp(r.at), r.reporter, r.player, r.line, r.text, r.game, r.reason};
}

}  // namespace

protocol::Role Lobby::role_of(const std::string& name) const { return moderation_.role_of(name); }

void Lobby::set_moderation(ModerationSettings settings) {
  moderation_.set_settings(std::move(settings));
}

bool Lobby::refuse_address(Ctx& ctx, SessionId session, const std::string& address) {
  if (address.empty()) return false;
  const SanctionRow* ban = moderation_.active(SanctionKind::BanAddress, address, ctx.now.wall);
  if (!ban) return false;
  ctx.send(session, sanction_error(ErrorCode::Banned, *ban, "your address is banned"));
  ctx.fx.close.push_back(session);
  return true;
}

bool Lobby::refuse_hello(Ctx& ctx, const std::string& name) {
  if (refuse_address(ctx, ctx.requester, sessions_.at(ctx.requester).connection.address)) {
    ctx.errored = true;
    return true;
  }
  if (const SanctionRow* ban = moderation_.name_ban(name, ctx.now.wall)) {
    ctx.error(sanction_error(ErrorCode::Banned, *ban, "the name " + name + " is banned"));
    ctx.fx.close.push_back(ctx.requester);
    return true;
  }
  // A cluster node does not know every player: its login job asks the database (known_only).
  if (!moderation_.settings().registrations_open && !clustered() && !players_.contains(name)) {
    ctx.error(ErrorCode::RegistrationsClosed,
              "this server takes known names only: registrations are closed");
    return true;
  }
  return false;
}

std::optional<std::int64_t> Lobby::admit_chat(Ctx& ctx, const std::string& game,
                                              const std::string& text) {
  const std::string& me = requester_name(ctx);
  if (const SanctionRow* mute = moderation_.active(SanctionKind::Mute, me, ctx.now.wall)) {
    protocol::Error e = sanction_error(ErrorCode::Muted, *mute, "you are muted");
    e.game = game;
    ctx.error(e);
    return std::nullopt;
  }
  // On a cluster the id names its game (kChatLineGameShift), so that it is unique across nodes
  // and a report of it finds the node that keeps it.
  std::int64_t id = moderation_.next_line_number();
  if (clustered())
    if (const auto g = parse_game_id(game))
      id = (static_cast<std::int64_t>(*g) << kChatLineGameShift) |
           (id & ((std::int64_t{1} << kChatLineGameShift) - 1));
  moderation_.keep_line(id, {game, me, text});
  return id;
}

void Lobby::enforce_ban(Ctx& ctx, const SanctionRow& row, bool remote) {
  const auto close_with = [&](SessionId s, const protocol::Error& e) {
    if (s == ctx.requester || (!remote && is_remote_session(s))) return;
    ctx.send(s, e);
    ctx.fx.close.push_back(s);
  };
  if (row.kind == SanctionKind::BanName) {
    const auto [first, last] = look_alikes_.equal_range(canonical_name(row.target));
    for (auto it = first; it != last; ++it)
      if (const auto s = session_of(it->second))
        close_with(*s,
                   sanction_error(ErrorCode::Banned, row, "the name " + row.target + " is banned"));
  } else if (row.kind == SanctionKind::BanAddress) {
    for (const auto& [id, state] : sessions_)
      if (state.connection.address == row.target)
        close_with(id, sanction_error(ErrorCode::Banned, row, "your address is banned"));
  }
}

bool Lobby::online_anywhere(const std::string& name) const {
  if (session_of(name)) return true;
  for (const auto& [node, view] : peers_)
    for (const PeerPlayer& p : view.players)
      if (p.name == name) return true;
  return false;
}

Effects Lobby::moderated(const ModerationEvent& event, Instant now) {
  Ctx ctx(0, std::nullopt, now);
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, SanctionRow>) {
          moderation_.impose(e);
          enforce_ban(ctx, e, false);
        } else if constexpr (std::is_same_v<E, SanctionRemoved>) {
          moderation_.lift(e.kind, e.target);
        } else if constexpr (std::is_same_v<E, KickOrder>) {
          if (const auto s = session_of(e.player); s && !is_remote_session(*s)) {
            ctx.send(*s, kick_error(e.reason));
            ctx.fx.close.push_back(*s);
          }
        } else if constexpr (std::is_same_v<E, ReportRow>) {
          moderation_.learn(e);
        }
      },
      event);
  return std::move(ctx.fx);
}

// ---- the requests -----------------------------------------------------------------------------
// Every request below but report is a moderator's: dispatch refuses it to players before it gets
// here (moderators_only in lobby.cpp).

namespace {

bool reason_ok(LobbyContext& ctx, const std::string& reason) {
  if (reason.size() <= kMaxReasonBytes) return true;
  ctx.error(ErrorCode::TooLong, "reason: at most " + std::to_string(kMaxReasonBytes) + " bytes");
  return false;
}

// When a sanction of `seconds` from now ends (none: for good); false, answered, for a bad
// duration.
bool sanction_end(LobbyContext& ctx, const std::optional<std::int64_t>& seconds,
                  std::optional<Timestamp>& end) {
  if (!seconds) return true;
  if (*seconds <= 0 || *seconds > kMaxDurationSeconds) {
    ctx.error(ErrorCode::BadField, "duration: 1 to " + std::to_string(kMaxDurationSeconds) +
                                       " seconds, or leave it out for good");
    return false;
  }
  end = ctx.now.wall + Millis{*seconds * 1000};
  return true;
}

}  // namespace

void Lobby::audit(Ctx& ctx, std::string action, std::string target, std::string reason,
                  std::optional<std::int64_t> seconds) {
  ctx.fx.writes.writes.emplace_back(
      AuditRow{ctx.now.wall, requester_name(ctx), std::move(action), std::move(target),
               std::move(reason), seconds ? std::optional(Millis{*seconds * 1000}) : std::nullopt});
}

void Lobby::tell_nodes(Ctx& ctx, ModerationEvent event) {
  ctx.fx.cluster.moderation.push_back(std::move(event));
}

bool Lobby::known_player(const std::string& name) const {
  // A cluster node knows only the players it has seen: there any well-formed name will do, as
  // for a ban (the database holds every player, and a sanction on a name nobody has waits for
  // whoever takes it).
  return players_.contains(name) || (clustered() && !name_problem(name));
}

bool Lobby::may_sanction(Ctx& ctx, const std::string& name) {
  if (!known_player(name)) {
    ctx.error(ErrorCode::NoSuchPlayer, "no player named " + name);
    return false;
  }
  // Moderators do not sanction moderators; admins may sanction anyone.
  if (role_of(requester_name(ctx)) != Role::Admin && role_of(name) != Role::Player) {
    ctx.error(ErrorCode::Forbidden, name + " is a moderator too: ask an admin");
    return false;
  }
  return true;
}

void Lobby::on(Ctx& ctx, const protocol::Report& m) {
  if (m.reason.empty()) return ctx.error(ErrorCode::BadField, "reason: say what happened");
  if (!reason_ok(ctx, m.reason)) return;
  ReportRow row;
  row.at = ctx.now.wall;
  row.reporter = requester_name(ctx);
  row.reason = m.reason;
  if (m.line) {
    const ChatLine* line = moderation_.line(*m.line);
    if (!line)
      return ctx.error(ErrorCode::BadField,
                       "line: no chat line " + std::to_string(*m.line) + " (or too old)");
    row.player = line->from;
    row.line = *m.line;
    row.text = line->text;
    row.game = line->game;
  } else if (m.player) {
    if (!known_player(*m.player))
      return ctx.error(ErrorCode::NoSuchPlayer, "no player named " + *m.player);
    row.player = *m.player;
  } else {
    return ctx.error(ErrorCode::BadField, "report a player or a line");
  }
  const std::string& address = sessions_.at(ctx.requester).group;
  const ReportLimits limits{kMaxOpenReportsPerPlayer, config_.max_open_reports_per_address,
                            config_.max_open_reports_per_target};
  if (const auto cap = moderation_.report_cap(row.reporter, address, row.player, limits)) {
    switch (cap->which) {
      case Moderation::Cap::Which::Reporter:
        return ctx.error(ErrorCode::NotAllowed, "you have too many open reports");
      case Moderation::Cap::Which::Address:
        return ctx.error(ErrorCode::RateLimited, "too many open reports from your address (" +
                                                     std::to_string(cap->limit) +
                                                     "): wait until the moderators have read them");
      case Moderation::Cap::Which::Target:
        return ctx.error(ErrorCode::RateLimited, "too many open reports on " + row.player + " (" +
                                                     std::to_string(cap->limit) +
                                                     "): the moderators have been told");
    }
  }
  row.id = new_id(ctx, IdSource::Kind::Report);
  if (row.id == 0) return ctx.error(ErrorCode::Unavailable, no_id_reason());
  moderation_.file(row, address);
  ctx.fx.writes.writes.emplace_back(row);
  tell_nodes(ctx, row);
  ctx.reply(protocol::Ok{});
}

void Lobby::on(Ctx& ctx, const protocol::Mute& m) {
  std::optional<Timestamp> end;
  if (!reason_ok(ctx, m.reason) || !sanction_end(ctx, m.duration, end) ||
      !may_sanction(ctx, m.player))
    return;
  SanctionRow row{SanctionKind::Mute, m.player, m.reason, requester_name(ctx), ctx.now.wall, end};
  moderation_.impose(row);
  ctx.fx.writes.writes.emplace_back(row);
  tell_nodes(ctx, row);
  audit(ctx, "mute", m.player, m.reason, m.duration);
  ctx.reply(protocol::Ok{});
}

void Lobby::on(Ctx& ctx, const protocol::Unmute& m) {
  if (!reason_ok(ctx, m.reason)) return;
  moderation_.lift(SanctionKind::Mute, m.player);
  ctx.fx.writes.writes.emplace_back(SanctionRemoved{SanctionKind::Mute, m.player});
  tell_nodes(ctx, SanctionRemoved{SanctionKind::Mute, m.player});
  audit(ctx, "unmute", m.player, m.reason);
  ctx.reply(protocol::Ok{});
}

void Lobby::on(Ctx& ctx, const protocol::Kick& m) {
  if (!reason_ok(ctx, m.reason) || !may_sanction(ctx, m.player)) return;
  if (!online_anywhere(m.player))
    return ctx.error(ErrorCode::NoSuchPlayer, m.player + " is not online");
  audit(ctx, "kick", m.player, m.reason);
  ctx.reply(protocol::Ok{});
  // Connected to another node: that node closes the connection.
  if (const auto s = session_of(m.player)) {
    ctx.send(*s, kick_error(m.reason));
    ctx.fx.close.push_back(*s);
  }
  tell_nodes(ctx, KickOrder{m.player, m.reason});
}

void Lobby::on(Ctx& ctx, const protocol::Ban& m) {
  std::optional<Timestamp> end;
  if (m.player.has_value() == m.address.has_value())
    return ctx.error(ErrorCode::BadField, "ban a player or an address (one of them)");
  if (!reason_ok(ctx, m.reason) || !sanction_end(ctx, m.duration, end)) return;
  if (m.player) {
    if (auto problem = name_problem(*m.player)) return ctx.error(ErrorCode::BadField, *problem);
    if (role_of(requester_name(ctx)) != Role::Admin && role_of(*m.player) != Role::Player)
      return ctx.error(ErrorCode::Forbidden, *m.player + " is a moderator too: ask an admin");
  } else if (!address_ok(*m.address)) {
    return ctx.error(ErrorCode::BadField, "address: an IPv4 or IPv6 address");
  }
  const SanctionKind kind = m.player ? SanctionKind::BanName : SanctionKind::BanAddress;
  SanctionRow row{
      kind, m.player ? *m.player : *m.address, m.reason, requester_name(ctx), ctx.now.wall, end};
  moderation_.impose(row);
  ctx.fx.writes.writes.emplace_back(row);
  audit(ctx, m.player ? "ban" : "ban_address", row.target, m.reason, m.duration);
  ctx.reply(protocol::Ok{});
  enforce_ban(ctx, row, true);
  tell_nodes(ctx, row);
}

void Lobby::on(Ctx& ctx, const protocol::Unban& m) {
  if (m.player.has_value() == m.address.has_value())
    return ctx.error(ErrorCode::BadField, "unban a player or an address (one of them)");
  if (!reason_ok(ctx, m.reason)) return;
  const SanctionKind kind = m.player ? SanctionKind::BanName : SanctionKind::BanAddress;
  const std::string target = m.player ? *m.player : *m.address;
  moderation_.lift(kind, target);
  ctx.fx.writes.writes.emplace_back(SanctionRemoved{kind, target});
  tell_nodes(ctx, SanctionRemoved{kind, target});
  audit(ctx, m.player ? "unban" : "unban_address", target, m.reason);
  ctx.reply(protocol::Ok{});
}

void Lobby::on(Ctx& ctx, const protocol::Adjudicate& m) {
  if (!reason_ok(ctx, m.reason)) return;
  Room* room = find_room(ctx, m.game, std::nullopt, true);
  if (!room) return;
  if (room->game.status() != protocol::GameStatus::Active)
    return ctx.error(ErrorCode::GameNotActive, "the game is not in progress", m.game);
  audit(ctx, m.winner ? "adjudicate" : "abort",
        "game " + m.game + (m.winner ? " to " + std::string(color_name(*m.winner)) : std::string()),
        m.reason);
  ctx.reply(protocol::Ok{});
  route(ctx, *room, room->game.adjudicate(m.winner, ctx.now));
}

void Lobby::on(Ctx& ctx, const protocol::RemoveChat& m) {
  if (!reason_ok(ctx, m.reason)) return;
  const auto removed = moderation_.remove_line(m.line);
  if (!removed)
    return ctx.error(ErrorCode::BadField,
                     "line: no chat line " + std::to_string(m.line) + " (or too old)");
  const ChatLine& line = *removed;
  audit(ctx, "remove_chat", line.from,
        m.reason + (m.reason.empty() ? "" : " ") + "(line " + std::to_string(m.line) + " in game " +
            line.game + ": \"" + line.text + "\")");
  ctx.reply(protocol::Ok{});
  if (const auto id = parse_game_id(line.game); id && rooms_.contains(*id))
    ctx.send_all(audience(rooms_.at(*id), Audience::Everyone),
                 protocol::ChatRemoved{line.game, m.line});
}

void Lobby::on(Ctx& ctx, const protocol::AuditRequest& m) {
  protocol::AuditRequest q = m;
  q.limit = std::clamp(q.limit, 1, kMaxListLimit);
  ctx.fx.queries.push_back({ctx.requester, requester_name(ctx), ctx.id, q});
  ctx.id_used = true;
}

void Lobby::on(Ctx& ctx, const protocol::SanctionsRequest&) {
  protocol::SanctionList list;
  for (const SanctionRow& row : moderation_.in_force(ctx.now.wall))
    list.sanctions.push_back(sanction_info(row));
  ctx.reply(list);
}

void Lobby::on(Ctx& ctx, const protocol::ReportsRequest&) {
  protocol::ReportList list;
  for (const auto& [id, r] : moderation_.open_reports()) list.reports.push_back(report_info(r));
  ctx.reply(list);
}

void Lobby::on(Ctx& ctx, const protocol::Resolve& m) {
  if (!reason_ok(ctx, m.note)) return;
  const auto row = moderation_.resolve(m.report, requester_name(ctx), ctx.now.wall, m.note);
  if (!row)
    return ctx.error(ErrorCode::BadField, "report: no open report " + std::to_string(m.report));
  ctx.fx.writes.writes.emplace_back(*row);
  tell_nodes(ctx, *row);
  audit(ctx, "resolve", "report " + std::to_string(row->id) + " on " + row->player, m.note);
  ctx.reply(protocol::Ok{});
}

Outbound answer_audit(Storage& storage, const ArchiveQuery& query) {
  const auto& request = std::get<protocol::AuditRequest>(query.request);
  std::string line;
  try {
    protocol::AuditLog log;
    for (const AuditRow& r : storage.audit_log(request.limit))
      log.entries.push_back(
          {format_timestamp(r.at), r.actor, r.action, r.target, r.reason,
           r.duration ? std::optional<std::int64_t>(r.duration->count() / 1000) : std::nullopt});
    line = protocol::encode(ServerMessage{std::move(log)}, query.id);
  } catch (const std::exception& e) {
    line = protocol::encode(
        ServerMessage{protocol::make_error(ErrorCode::Internal, std::string("audit: ") + e.what())},
        query.id);
  }
  return {query.session, std::make_shared<const std::string>(std::move(line))};
}

}  // namespace amazons::server
