// Private to the lobby's own files (server/core/lobby*.cpp): the effects context of one request
// and the small helpers those files share. Not part of the server library's interface.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "server/core/lobby_effects.h"
#include "server/core/storage.h"
#include "server/core/tournament.h"

namespace amazons::server {

namespace lobby_detail {

inline constexpr std::size_t kMaxPasswordBytes = 256;
inline constexpr std::size_t kInviteLength = 10;
inline constexpr int kMaxListLimit = 100;

inline std::optional<GameId> parse_game_id(const std::string& text) {
  GameId id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

inline int rounded(double v) { return static_cast<int>(std::lround(v)); }

// The number after an offer id's letter ("c12" -> 12), 0 when there is none.
inline std::uint64_t offer_number(const std::string& id) {
  std::uint64_t n = 0;
  if (id.size() < 2) return 0;
  const auto [end, ec] = std::from_chars(id.data() + 1, id.data() + id.size(), n);
  return ec == std::errc() && end == id.data() + id.size() ? n : 0;
}

inline OfferRow offer_row(std::string id, std::string owner, const protocol::ClientMessage& request,
                          std::optional<std::string> invite, Timestamp now, Timestamp expires) {
  return {std::move(id), std::move(owner), protocol::encode(request), std::move(invite),
          now,           expires};
}

// A tournament as `tournaments` lists it (lobby_tournaments.cpp).
protocol::TournamentSummary tournament_summary(const Tournament& t);
// The `tournaments` reply: running and coming ones first, then the archive; at most `limit`.
protocol::TournamentList tournament_list(std::vector<const Tournament*> all, std::size_t limit);

}  // namespace lobby_detail

// The reply to a moderator's audit request (lobby_moderation.cpp), on the storage thread.
Outbound answer_audit(Storage& storage, const ArchiveQuery& query);

// The effects of one request (or tick), and who asked: the first message to the requester
// carries the request id. The Lobby's handlers know it as Lobby::Ctx.
class LobbyContext {
 public:
  LobbyContext(SessionId who, protocol::RequestId request_id, Instant at)
      : requester(who), id(std::move(request_id)), now(at) {}

  void send(SessionId to, const protocol::ServerMessage& m) {
    if (const auto* e = std::get_if<protocol::Error>(&m)) fx.errors.push_back(e->code);
    if (to == 0) return;
    if (to == requester && id && !id_used) {
      id_used = true;
      push(to, std::make_shared<const std::string>(protocol::encode(m, id)));
      return;
    }
    push(to, std::make_shared<const std::string>(protocol::encode(m)));
  }
  void send_all(const std::vector<SessionId>& to, const protocol::ServerMessage& m) {
    std::shared_ptr<const std::string> shared;
    for (SessionId s : to) {
      if (s == requester && id && !id_used) {
        send(s, m);
        continue;
      }
      if (!shared) shared = std::make_shared<const std::string>(protocol::encode(m));
      push(s, shared);
    }
  }
  void reply(const protocol::ServerMessage& m) { send(requester, m); }
  void error(protocol::ErrorCode code, std::string message, std::optional<std::string> game = {}) {
    errored = true;
    reply(protocol::make_error(code, std::move(message), std::move(game)));
  }
  void error(const protocol::Error& e) {
    errored = true;
    reply(e);
  }

  Effects fx;
  SessionId requester;
  protocol::RequestId id;
  Instant now;
  bool id_used = false;
  bool errored = false;

 private:
  void push(SessionId to, std::shared_ptr<const std::string> line) {
    fx.messages.push_back({to, std::move(line)});
  }
};

}  // namespace amazons::server
