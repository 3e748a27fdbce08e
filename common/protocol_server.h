// What the server sends a client (docs/PROTOCOL.md), one struct per message type, and the
// variant of them all that clients decode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/protocol_types.h"

namespace amazons::protocol {

struct Welcome {
  static constexpr std::string_view kType = "welcome";
  std::string name;
  std::string token;
  int protocol = kVersion;
  std::string server;
  PlayerRef player;
  std::vector<std::string> games;           // games in progress where you hold a seat
  std::optional<Role> role = std::nullopt;  // moderator or admin; absent for players
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("token", s.token);
    v("protocol", s.protocol);
    v("server", s.server);
    v("player", s.player);
    v("games", s.games);
    v("role", s.role);
  }
  friend bool operator==(const Welcome&, const Welcome&) = default;
};

struct Created {
  static constexpr std::string_view kType = "created";
  std::string game;
  std::optional<std::string> invite;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("invite", s.invite);
  }
  friend bool operator==(const Created&, const Created&) = default;
};

struct Games {
  static constexpr std::string_view kType = "games";
  std::vector<GameSummary> games;                         // newest first
  std::optional<std::string> next_cursor = std::nullopt;  // set when older games are left
  static void fields(auto& s, auto& v) {
    v("games", s.games);
    v("next_cursor", s.next_cursor);
  }
  friend bool operator==(const Games&, const Games&) = default;
};

struct Start {
  static constexpr std::string_view kType = "start";
  std::string game;
  std::string rules;
  nlohmann::json variant;  // the rule variant in full (docs/GAME_RECORD.md "rules")
  PlayerRef white;
  PlayerRef black;
  TimeControl time;
  bool rated = false;
  std::optional<Color> color;  // yours, when you play in this game
  std::optional<ClockView> clock;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("rules", s.rules);
    v("variant", s.variant);
    v("white", s.white);
    v("black", s.black);
    v("time", s.time);
    v("rated", s.rated, false);
    v("color", s.color);
    v("clock", s.clock);
  }
  friend bool operator==(const Start&, const Start&) = default;
};

struct GameResultView {
  std::optional<Color> winner;
  EndReason reason = EndReason::NoMoves;
  static void fields(auto& s, auto& v) {
    v("winner", s.winner);
    v("reason", s.reason);
  }
  friend bool operator==(const GameResultView&, const GameResultView&) = default;
};

// The whole of one game as it stands: sent on watch, and on reconnect for every seat resumed.
struct State {
  static constexpr std::string_view kType = "state";
  std::string game;
  std::string rules;
  nlohmann::json variant;
  std::optional<PlayerRef> white;
  std::optional<PlayerRef> black;
  TimeControl time;
  bool rated = false;
  GameStatus status = GameStatus::Open;
  std::vector<std::string> moves;
  Color to_move = Color::White;
  std::optional<ClockView> clock;
  std::optional<GameResultView> result;
  std::optional<Color> color;  // yours, when you play in this game
  int spectators = 0;
  std::vector<Color> offline;  // seats whose player is disconnected
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("rules", s.rules);
    v("variant", s.variant);
    v("white", s.white);
    v("black", s.black);
    v("time", s.time);
    v("rated", s.rated, false);
    v("status", s.status);
    v("moves", s.moves);
    v("to_move", s.to_move);
    v("clock", s.clock);
    v("result", s.result);
    v("color", s.color);
    v("spectators", s.spectators, 0);
    v("offline", s.offline);
  }
  friend bool operator==(const State&, const State&) = default;
};

struct Moved {
  static constexpr std::string_view kType = "moved";
  std::string game;
  int ply = 0;  // 1 for the first move of the game
  std::string move;
  std::optional<ClockView> clock;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("ply", s.ply);
    v("move", s.move);
    v("clock", s.clock);
  }
  friend bool operator==(const Moved&, const Moved&) = default;
};

struct End {
  static constexpr std::string_view kType = "end";
  std::string game;
  std::optional<Color> winner;  // absent only when aborted
  EndReason reason = EndReason::NoMoves;
  std::optional<RatingChange> white_rating;  // rated games
  std::optional<RatingChange> black_rating;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("winner", s.winner);
    v("reason", s.reason);
    v("white_rating", s.white_rating);
    v("black_rating", s.black_rating);
  }
  friend bool operator==(const End&, const End&) = default;
};

struct Error {
  static constexpr std::string_view kType = "error";
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::optional<std::string> game;
  std::optional<std::string> reason;  // illegal_move: the rules' reason, e.g. "path_blocked"
  static void fields(auto& s, auto& v) {
    v("code", s.code);
    v("message", s.message);
    v("game", s.game);
    v("reason", s.reason);
  }
  friend bool operator==(const Error&, const Error&) = default;
};

struct Ok {
  static constexpr std::string_view kType = "ok";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Ok&, const Ok&) = default;
};

struct Chat {
  static constexpr std::string_view kType = "chat";
  std::string game;
  std::string from;
  std::string text;
  std::optional<std::int64_t> line = std::nullopt;  // the line's id (remove_chat, report)
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("from", s.from);
    v("text", s.text);
    v("line", s.line);
  }
  friend bool operator==(const Chat&, const Chat&) = default;
};

// A moderator removed a chat line: clients drop it from view.
struct ChatRemoved {
  static constexpr std::string_view kType = "chat_removed";
  std::string game;
  std::int64_t line = 0;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("line", s.line);
  }
  friend bool operator==(const ChatRemoved&, const ChatRemoved&) = default;
};

// Replies to the moderators' audit, reports and sanctions requests.
struct AuditLog {
  static constexpr std::string_view kType = "audit";
  std::vector<AuditEntry> entries;  // newest first
  static void fields(auto& s, auto& v) { v("entries", s.entries); }
  friend bool operator==(const AuditLog&, const AuditLog&) = default;
};
struct ReportList {
  static constexpr std::string_view kType = "reports";
  std::vector<ReportInfo> reports;  // open ones, oldest first
  static void fields(auto& s, auto& v) { v("reports", s.reports); }
  friend bool operator==(const ReportList&, const ReportList&) = default;
};
struct SanctionList {
  static constexpr std::string_view kType = "sanctions";
  std::vector<SanctionInfo> sanctions;
  static void fields(auto& s, auto& v) { v("sanctions", s.sanctions); }
  friend bool operator==(const SanctionList&, const SanctionList&) = default;
};

// A seat's player went offline or came back. While offline on their turn their clock runs;
// claim_in_ms says when the opponent may claim the game.
struct Presence {
  static constexpr std::string_view kType = "presence";
  std::string game;
  Color color = Color::White;
  std::string player;
  bool online = true;
  std::optional<std::int64_t> claim_in_ms;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("color", s.color);
    v("player", s.player);
    v("online", s.online);
    v("claim_in_ms", s.claim_in_ms);
  }
  friend bool operator==(const Presence&, const Presence&) = default;
};

struct Seeking {
  static constexpr std::string_view kType = "seeking";
  std::string rules;
  TimeControl time;
  bool rated = false;
  static void fields(auto& s, auto& v) {
    v("rules", s.rules);
    v("time", s.time);
    v("rated", s.rated, false);
  }
  friend bool operator==(const Seeking&, const Seeking&) = default;
};

struct ChallengeReceived {
  static constexpr std::string_view kType = "challenge";
  std::string challenge;
  PlayerRef from;
  std::string rules;
  TimeControl time;
  ColorChoice color = ColorChoice::Random;  // the colour the challenger asked to play
  bool rated = false;
  std::optional<std::string> expires_at = std::nullopt;  // a challenge that waits for you
  static void fields(auto& s, auto& v) {
    v("challenge", s.challenge);
    v("from", s.from);
    v("rules", s.rules);
    v("time", s.time);
    v("color", s.color);
    v("rated", s.rated, false);
    v("expires_at", s.expires_at);
  }
  friend bool operator==(const ChallengeReceived&, const ChallengeReceived&) = default;
};

struct ChallengeSent {
  static constexpr std::string_view kType = "challenge_sent";
  std::string challenge;
  std::string to;
  static void fields(auto& s, auto& v) {
    v("challenge", s.challenge);
    v("to", s.to);
  }
  friend bool operator==(const ChallengeSent&, const ChallengeSent&) = default;
};

// A challenge you sent or received is gone: declined, withdrawn because its sender left.
struct ChallengeClosed {
  static constexpr std::string_view kType = "challenge_closed";
  std::string challenge;
  std::string reason;  // "declined", "offline", "expired", "taken"
  static void fields(auto& s, auto& v) {
    v("challenge", s.challenge);
    v("reason", s.reason);
  }
  friend bool operator==(const ChallengeClosed&, const ChallengeClosed&) = default;
};

struct RematchOffer {
  static constexpr std::string_view kType = "rematch_offer";
  std::string game;
  std::string from;
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("from", s.from);
  }
  friend bool operator==(const RematchOffer&, const RematchOffer&) = default;
};

struct PlayerList {
  static constexpr std::string_view kType = "players";
  std::vector<OnlinePlayer> players;
  static void fields(auto& s, auto& v) { v("players", s.players); }
  friend bool operator==(const PlayerList&, const PlayerList&) = default;
};

struct History {
  static constexpr std::string_view kType = "history";
  std::string player;
  std::vector<ArchiveEntry> games;
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("games", s.games);
  }
  friend bool operator==(const History&, const History&) = default;
};

struct Record {
  static constexpr std::string_view kType = "record";
  std::string game;
  RecordFormat format = RecordFormat::Json;
  nlohmann::json record;  // an object (docs/GAME_RECORD.md) or, for "text", a string
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("format", s.format);
    v("record", s.record);
  }
  friend bool operator==(const Record&, const Record&) = default;
};

struct Leaderboard {
  static constexpr std::string_view kType = "leaderboard";
  std::vector<LeaderboardEntry> players;
  static void fields(auto& s, auto& v) { v("players", s.players); }
  friend bool operator==(const Leaderboard&, const Leaderboard&) = default;
};

struct Shutdown {
  static constexpr std::string_view kType = "shutdown";
  std::string message;
  static void fields(auto& s, auto& v) { v("message", s.message); }
  friend bool operator==(const Shutdown&, const Shutdown&) = default;
};

// Every correspondence game in progress in which you are to move, and how long you have: sent
// after the welcome (when there is one), whenever a correspondence game becomes your move, and
// in reply to turns. Real-time games say whose move it is in their own state and clocks.
struct YourTurn {
  static constexpr std::string_view kType = "your_turn";
  std::vector<TurnInfo> games;
  static void fields(auto& s, auto& v) { v("games", s.games); }
  friend bool operator==(const YourTurn&, const YourTurn&) = default;
};

struct TournamentList {
  static constexpr std::string_view kType = "tournaments";
  std::vector<TournamentSummary> tournaments;
  static void fields(auto& s, auto& v) { v("tournaments", s.tournaments); }
  friend bool operator==(const TournamentList&, const TournamentList&) = default;
};

// A tournament in full: the reply to tournament and tournament_create, and pushed to its
// players and to every connection that asked for it whenever it changes.
struct TournamentInfo {
  static constexpr std::string_view kType = "tournament";
  TournamentSummary tournament;
  std::optional<std::string> ends_at;  // an arena's end, format_timestamp()
  int duration = 0;                    // arena: seconds
  int rounds = 0;                      // Swiss: rounds
  int max_players = 0;
  bool bots_allowed = true;
  std::vector<TournamentStanding> standings;
  std::vector<TournamentPairing> pairings;
  static void fields(auto& s, auto& v) {
    v("tournament", s.tournament);
    v("ends_at", s.ends_at);
    v("duration", s.duration, 0);
    v("rounds", s.rounds, 0);
    v("max_players", s.max_players, 0);
    v("bots_allowed", s.bots_allowed, true);
    v("standings", s.standings);
    v("pairings", s.pairings);
  }
  friend bool operator==(const TournamentInfo&, const TournamentInfo&) = default;
};

using ServerMessage =
    std::variant<Welcome, Ping, Pong, Created, Games, Start, State, Moved, End, Error, Ok, Chat,
                 Presence, Seeking, ChallengeReceived, ChallengeSent, ChallengeClosed, RematchOffer,
                 PlayerList, History, Record, Leaderboard, Shutdown, YourTurn, ChatRemoved,
                 AuditLog, ReportList, SanctionList, TournamentList, TournamentInfo>;

}  // namespace amazons::protocol
