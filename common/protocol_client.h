// What a client sends the server (docs/PROTOCOL.md), one struct per message type, and the
// variant of them all that the server decodes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "common/protocol_types.h"

namespace amazons::protocol {

struct Hello {
  static constexpr std::string_view kType = "hello";
  int protocol = kVersion;
  std::string name;
  std::optional<std::string> password;
  std::optional<std::string> token;
  std::optional<std::string> server_password;
  bool bot = false;
  static void fields(auto& s, auto& v) {
    v("protocol", s.protocol);
    v("name", s.name);
    v("password", s.password);
    v("token", s.token);
    v("server_password", s.server_password);
    v("bot", s.bot, false);
  }
  friend bool operator==(const Hello&, const Hello&) = default;
};

struct Create {
  static constexpr std::string_view kType = "create";
  std::string rules = "standard";
  TimeControl time;
  ColorChoice color = ColorChoice::Random;
  bool rated = false;
  bool is_private = false;
  // Seconds the offer lasts while you are away (docs/PROTOCOL.md "Correspondence").
  std::optional<std::int64_t> lifetime = std::nullopt;
  static void fields(auto& s, auto& v) {
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("color", s.color, ColorChoice::Random);
    v("rated", s.rated, false);
    v("private", s.is_private, false);
    v("lifetime", s.lifetime);
  }
  friend bool operator==(const Create&, const Create&) = default;
};

// Public games newest first, a page at a time: `cursor` is a reply's next_cursor, and asks for
// the games older than those already listed.
struct List {
  static constexpr std::string_view kType = "list";
  std::optional<std::string> cursor = std::nullopt;
  static void fields(auto& s, auto& v) { v("cursor", s.cursor); }
  friend bool operator==(const List&, const List&) = default;
};

struct Join {
  static constexpr std::string_view kType = "join";
  std::string game;
  std::optional<std::string> invite;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("invite", s.invite);
  }
  friend bool operator==(const Join&, const Join&) = default;
};

struct Watch {
  static constexpr std::string_view kType = "watch";
  std::string game;
  std::optional<std::string> invite;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("invite", s.invite);
  }
  friend bool operator==(const Watch&, const Watch&) = default;
};

// The requests that name one game and nothing else.
template <std::size_t N>
struct GameRequest {
  std::string game;
  static void fields(auto& s, auto& v) { v("game", s.game); }
  friend bool operator==(const GameRequest&, const GameRequest&) = default;
};
struct Leave : GameRequest<0> {
  static constexpr std::string_view kType = "leave";
  friend bool operator==(const Leave&, const Leave&) = default;
};
struct Resign : GameRequest<1> {
  static constexpr std::string_view kType = "resign";
  friend bool operator==(const Resign&, const Resign&) = default;
};
struct Abort : GameRequest<2> {
  static constexpr std::string_view kType = "abort";
  friend bool operator==(const Abort&, const Abort&) = default;
};
struct Claim : GameRequest<3> {
  static constexpr std::string_view kType = "claim";
  friend bool operator==(const Claim&, const Claim&) = default;
};
struct Rematch : GameRequest<4> {
  static constexpr std::string_view kType = "rematch";
  friend bool operator==(const Rematch&, const Rematch&) = default;
};

struct MoveMsg {
  static constexpr std::string_view kType = "move";
  std::string game;
  std::string move;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("move", s.move);
  }
  friend bool operator==(const MoveMsg&, const MoveMsg&) = default;
};

struct ChatSend {
  static constexpr std::string_view kType = "chat";
  std::string game;
  std::string text;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("text", s.text);
  }
  friend bool operator==(const ChatSend&, const ChatSend&) = default;
};

struct Seek {
  static constexpr std::string_view kType = "seek";
  std::string rules = "standard";
  TimeControl time;
  bool rated = false;
  std::optional<std::int64_t> lifetime = std::nullopt;  // seconds, as Create's
  static void fields(auto& s, auto& v) {
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("rated", s.rated, false);
    v("lifetime", s.lifetime);
  }
  friend bool operator==(const Seek&, const Seek&) = default;
};

struct Unseek {
  static constexpr std::string_view kType = "unseek";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Unseek&, const Unseek&) = default;
};

struct ChallengeSend {
  static constexpr std::string_view kType = "challenge";
  std::string player;
  std::string rules = "standard";
  TimeControl time;
  ColorChoice color = ColorChoice::Random;
  bool rated = false;
  std::optional<std::int64_t> lifetime = std::nullopt;  // seconds, as Create's
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("color", s.color, ColorChoice::Random);
    v("rated", s.rated, false);
    v("lifetime", s.lifetime);
  }
  friend bool operator==(const ChallengeSend&, const ChallengeSend&) = default;
};

struct Accept {
  static constexpr std::string_view kType = "accept";
  std::string challenge;
  static void fields(auto& s, auto& v) { v("challenge", s.challenge); }
  friend bool operator==(const Accept&, const Accept&) = default;
};
struct Decline {
  static constexpr std::string_view kType = "decline";
  std::string challenge;
  static void fields(auto& s, auto& v) { v("challenge", s.challenge); }
  friend bool operator==(const Decline&, const Decline&) = default;
};

struct Players {
  static constexpr std::string_view kType = "players";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Players&, const Players&) = default;
};

struct HistoryRequest {
  static constexpr std::string_view kType = "history";
  std::optional<std::string> player;  // default: yourself
  int limit = 20;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("limit", s.limit, 20);
  }
  friend bool operator==(const HistoryRequest&, const HistoryRequest&) = default;
};

struct RecordRequest {
  static constexpr std::string_view kType = "record";
  std::string game;
  RecordFormat format = RecordFormat::Json;
  // A private game's invite code, unless you played in it. Initialised, so that older code
  // writing RecordRequest{game, format} stays free of missing-initializer warnings.
  std::optional<std::string> invite = std::nullopt;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("format", s.format, RecordFormat::Json);
    v("invite", s.invite);
  }
  friend bool operator==(const RecordRequest&, const RecordRequest&) = default;
};

struct LeaderboardRequest {
  static constexpr std::string_view kType = "leaderboard";
  int limit = 20;
  static void fields(auto& s, auto& v) { v("limit", s.limit, 20); }
  friend bool operator==(const LeaderboardRequest&, const LeaderboardRequest&) = default;
};

// Asks for every correspondence game in which you are to move; answered with your_turn.
struct Turns {
  static constexpr std::string_view kType = "turns";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Turns&, const Turns&) = default;
};

// ---- moderation (docs/PROTOCOL.md "Moderation"): moderators and admins only, but report --------
// Durations are seconds; absent: for good. Every action is written to the audit log.

struct Mute {
  static constexpr std::string_view kType = "mute";
  std::string player;
  std::optional<std::int64_t> duration;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("duration", s.duration);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Mute&, const Mute&) = default;
};
struct Unmute {
  static constexpr std::string_view kType = "unmute";
  std::string player;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Unmute&, const Unmute&) = default;
};
struct Kick {
  static constexpr std::string_view kType = "kick";
  std::string player;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Kick&, const Kick&) = default;
};
// Bans a name or an address (exactly one of the two).
struct Ban {
  static constexpr std::string_view kType = "ban";
  std::optional<std::string> player;
  std::optional<std::string> address;
  std::optional<std::int64_t> duration;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("address", s.address);
    v("duration", s.duration);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Ban&, const Ban&) = default;
};
struct Unban {
  static constexpr std::string_view kType = "unban";
  std::optional<std::string> player;
  std::optional<std::string> address;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("address", s.address);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Unban&, const Unban&) = default;
};
// Ends a game in progress: a win for `winner`, or aborted when winner is absent.
struct Adjudicate {
  static constexpr std::string_view kType = "adjudicate";
  std::string game;
  std::optional<Color> winner;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("winner", s.winner);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const Adjudicate&, const Adjudicate&) = default;
};
struct RemoveChat {
  static constexpr std::string_view kType = "remove_chat";
  std::int64_t line = 0;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("line", s.line);
    v("reason", s.reason, std::string());
  }
  friend bool operator==(const RemoveChat&, const RemoveChat&) = default;
};
struct AuditRequest {
  static constexpr std::string_view kType = "audit";
  int limit = 50;
  static void fields(auto& s, auto& v) { v("limit", s.limit, 50); }
  friend bool operator==(const AuditRequest&, const AuditRequest&) = default;
};
struct SanctionsRequest {
  static constexpr std::string_view kType = "sanctions";
  static void fields(auto&, auto&) {}
  friend bool operator==(const SanctionsRequest&, const SanctionsRequest&) = default;
};
// Any player: reports a player, or a chat line (whose author is then the player reported).
struct Report {
  static constexpr std::string_view kType = "report";
  std::optional<std::string> player;
  std::optional<std::int64_t> line;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("line", s.line);
    v("reason", s.reason);
  }
  friend bool operator==(const Report&, const Report&) = default;
};
struct ReportsRequest {
  static constexpr std::string_view kType = "reports";
  static void fields(auto&, auto&) {}
  friend bool operator==(const ReportsRequest&, const ReportsRequest&) = default;
};
struct Resolve {
  static constexpr std::string_view kType = "resolve";
  std::int64_t report = 0;
  std::string note;
  static void fields(auto& s, auto& v) {
    v("report", s.report);
    v("note", s.note, std::string());
  }
  friend bool operator==(const Resolve&, const Resolve&) = default;
};

// Tournaments (docs/PROTOCOL.md "Tournaments"). Creating one is allowed to moderators, and to
// every player where the host sets limits.players_create_tournaments.
struct TournamentCreate {
  static constexpr std::string_view kType = "tournament_create";
  std::string name;
  std::string kind;  // "arena", "round_robin", "swiss"
  std::string rules = "standard";
  TimeControl time;
  bool rated = true;
  int start_in = 60;    // seconds from now
  int duration = 0;     // arena: seconds
  int rounds = 0;       // Swiss
  int max_players = 0;  // 0: no limit
  bool bots_allowed = true;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("kind", s.kind);
    v("rules", s.rules, std::string("standard"));
    v("time", s.time);
    v("rated", s.rated, true);
    v("start_in", s.start_in, 60);
    v("duration", s.duration, 0);
    v("rounds", s.rounds, 0);
    v("max_players", s.max_players, 0);
    v("bots_allowed", s.bots_allowed, true);
  }
  friend bool operator==(const TournamentCreate&, const TournamentCreate&) = default;
};

// The list of tournaments, running and to come first, then finished ones (the archive).
struct TournamentsRequest {
  static constexpr std::string_view kType = "tournaments";
  static void fields(auto&, auto&) {}
  friend bool operator==(const TournamentsRequest&, const TournamentsRequest&) = default;
};

// One tournament in full; the connection then gets every change of it until it disconnects.
// The tournament's id travels as "tournament": "id" is the envelope's request id.
struct TournamentShow {
  static constexpr std::string_view kType = "tournament";
  std::int64_t id = 0;
  static void fields(auto& s, auto& v) { v("tournament", s.id); }
  friend bool operator==(const TournamentShow&, const TournamentShow&) = default;
};

struct TournamentJoin {
  static constexpr std::string_view kType = "tournament_join";
  std::int64_t id = 0;
  static void fields(auto& s, auto& v) { v("tournament", s.id); }
  friend bool operator==(const TournamentJoin&, const TournamentJoin&) = default;
};

struct TournamentWithdraw {
  static constexpr std::string_view kType = "tournament_withdraw";
  std::int64_t id = 0;
  static void fields(auto& s, auto& v) { v("tournament", s.id); }
  friend bool operator==(const TournamentWithdraw&, const TournamentWithdraw&) = default;
};

using ClientMessage =
    std::variant<Hello, Ping, Pong, Create, List, Join, Watch, Leave, MoveMsg, Resign, Abort, Claim,
                 Rematch, ChatSend, Seek, Unseek, ChallengeSend, Accept, Decline, Players,
                 HistoryRequest, RecordRequest, LeaderboardRequest, Turns, Mute, Unmute, Kick, Ban,
                 Unban, Adjudicate, RemoveChat, AuditRequest, SanctionsRequest, Report,
                 ReportsRequest, Resolve, TournamentCreate, TournamentsRequest, TournamentShow,
                 TournamentJoin, TournamentWithdraw>;

}  // namespace amazons::protocol
