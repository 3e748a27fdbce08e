// The protocol's shared vocabulary (docs/PROTOCOL.md): its version and limits, the error codes,
// the enums and the shapes that messages of both directions carry, and ping/pong, which both
// sides send. Every message type describes its fields once, in `static void fields(s, v)`: the
// codec (common/protocol_codec.h) and the TypeScript generator walk that one description.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/game_record.h"
#include "common/time_control.h"
#include "common/types.h"

namespace amazons::protocol {

inline constexpr int kVersion = 1;
// The longest line either side accepts, not counting the '\n'.
inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

// Stable error codes, sent as {"type":"error","code":"bad_json",...}. Never renumbered or
// renamed: clients switch on the text.
enum class ErrorCode : std::uint8_t {
  BadJson,             // the line is not a JSON object
  UnknownType,         // "type" names no message this side understands
  BadField,            // a field is missing, has the wrong type or a bad value
  LineTooLong,         // the line exceeded kMaxLineBytes (the connection is closed)
  ProtocolVersion,     // hello asked for a protocol version the server does not speak
  NotLoggedIn,         // a request other than hello before the welcome
  AlreadyLoggedIn,     // a second hello on the same connection
  AuthFailed,          // wrong password, token or server password
  NameTaken,           // the name is in use by someone else
  NoSuchGame,          // no game with that id (or a private one without its invite code)
  NoSuchPlayer,        // no such player, or not online (challenge)
  NoSuchChallenge,     // the challenge does not exist or was not addressed to you
  GameFull,            // both seats are taken
  NotAPlayer,          // you have no seat in that game
  NotYourTurn,         // the move came from the player not to move
  IllegalMove,         // the rules refuse the move; the message gives the reason
  GameNotActive,       // the game has not started or is over
  NotAllowed,          // the request makes no sense now (abort after both moved, early claim...)
  TooLong,             // a text (chat) is longer than allowed
  RateLimited,         // too many requests; slow down
  TooManyErrors,       // a stream of bad requests (the connection is closed)
  TooManyConnections,  // too many connections from your address (the connection is closed)
  IdleTimeout,         // no answer to ping (the connection is closed)
  Replaced,            // the same player logged in on another connection (this one closes)
  Internal,            // a fault in the server; the request changed nothing
  TlsRequired,         // a password over plain TCP from another machine, or a plain connection
                       // to a server that requires TLS: connect with TLS instead
  // Moderation (docs/PROTOCOL.md "Moderation"):
  Forbidden,            // the request needs a moderator (or admin) role
  Banned,               // the name or address is banned; `reason` says why (the connection closes)
  Muted,                // you may not chat until the mute ends
  Kicked,               // a moderator closed your connection; `reason` says why
  RegistrationsClosed,  // the server takes known names only
  // A cluster node that cannot reach what the nodes share (Redis) just now: the request changed
  // nothing; try again in a moment (docs/SCALING.md).
  Unavailable,
};
std::string_view code(ErrorCode e);
std::optional<ErrorCode> error_code_from(std::string_view text);

// What a player asks for when creating a game or challenging.
enum class ColorChoice : std::uint8_t { White, Black, Random };
enum class GameStatus : std::uint8_t { Open, Active, Finished };
enum class RecordFormat : std::uint8_t { Json, Text };
// What a player may do on the server: moderators moderate, admins also moderate moderators.
enum class Role : std::uint8_t { Player, Moderator, Admin };

// Names of the enums as they appear on the wire.
std::string_view to_string(ColorChoice c);
std::string_view to_string(GameStatus s);
std::string_view to_string(RecordFormat f);

// ---- shared pieces ----------------------------------------------------------------------------

// A player's rating before their first rated game: the centre of the Glicko-2 scale, on which
// every player starts (server/core/glicko2.h).
inline constexpr int kInitialRating = 1500;

struct PlayerRef {
  std::string name;
  int rating = kInitialRating;
  bool bot = false;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("rating", s.rating, kInitialRating);
    v("bot", s.bot, false);
  }
  friend bool operator==(const PlayerRef&, const PlayerRef&) = default;
};

// Remaining time of both sides in milliseconds at the moment the message was made, and whose
// clock is running (absent when none is).
struct ClockView {
  std::int64_t white = 0;
  std::int64_t black = 0;
  std::optional<Color> running;
  static void fields(auto& s, auto& v) {
    v("white", s.white);
    v("black", s.black);
    v("running", s.running);
  }
  friend bool operator==(const ClockView&, const ClockView&) = default;
};

struct GameSummary {
  std::string game;
  std::string rules;
  TimeControl time;
  std::optional<PlayerRef> white;
  std::optional<PlayerRef> black;
  GameStatus status = GameStatus::Open;
  bool rated = false;
  int plies = 0;
  int spectators = 0;
  std::optional<std::string> expires_at =
      std::nullopt;  // an open game kept while its creator is away
  std::optional<std::int64_t> tournament = std::nullopt;  // a tournament's game: its id
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("rules", s.rules);
    v("time", s.time);
    v("white", s.white);
    v("black", s.black);
    v("status", s.status);
    v("rated", s.rated, false);
    v("plies", s.plies, 0);
    v("spectators", s.spectators, 0);
    v("expires_at", s.expires_at);
    v("tournament", s.tournament);
  }
  friend bool operator==(const GameSummary&, const GameSummary&) = default;
};

// A game in progress in which the player is to move (your_turn).
struct TurnInfo {
  std::string game;
  std::string opponent;
  std::string rules;
  TimeControl time;
  int plies = 0;                        // moves played so far
  std::optional<std::int64_t> left_ms;  // your time for this move; absent when untimed
  std::optional<std::string> deadline;  // when it runs out (format_timestamp)
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("opponent", s.opponent);
    v("rules", s.rules);
    v("time", s.time);
    v("plies", s.plies, 0);
    v("left_ms", s.left_ms);
    v("deadline", s.deadline);
  }
  friend bool operator==(const TurnInfo&, const TurnInfo&) = default;
};

struct ArchiveEntry {
  std::string game;
  std::string rules;
  TimeControl time;
  PlayerRef white;
  PlayerRef black;
  bool rated = false;
  std::optional<Color> winner;
  EndReason reason = EndReason::NoMoves;
  int plies = 0;
  std::string ended_at;  // format_timestamp()
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("rules", s.rules);
    v("time", s.time);
    v("white", s.white);
    v("black", s.black);
    v("rated", s.rated, false);
    v("winner", s.winner);
    v("reason", s.reason);
    v("plies", s.plies, 0);
    v("ended_at", s.ended_at);
  }
  friend bool operator==(const ArchiveEntry&, const ArchiveEntry&) = default;
};

// A tournament as the tournaments list shows it (docs/PROTOCOL.md "Tournaments").
struct TournamentSummary {
  std::int64_t id = 0;
  std::string name;
  std::string kind;    // "arena", "round_robin", "swiss"
  std::string status;  // "created", "running", "finished"
  std::string rules;
  TimeControl time;
  bool rated = false;
  int players = 0;
  int round = 0;
  std::string start_at;  // format_timestamp()
  static void fields(auto& s, auto& v) {
    v("id", s.id);
    v("name", s.name);
    v("kind", s.kind);
    v("status", s.status);
    v("rules", s.rules);
    v("time", s.time);
    v("rated", s.rated, false);
    v("players", s.players, 0);
    v("round", s.round, 0);
    v("start_at", s.start_at);
  }
  friend bool operator==(const TournamentSummary&, const TournamentSummary&) = default;
};

// One line of a tournament's standings, best first.
struct TournamentStanding {
  int rank = 0;
  std::string name;
  double points = 0;
  double tiebreak = 0;  // Sonneborn-Berger, Buchholz or wins (arena), by kind
  int games = 0;
  int wins = 0;
  int losses = 0;
  int draws = 0;
  bool on_fire = false;  // arena: the next win scores double
  bool withdrawn = false;
  int rating = 0;
  static void fields(auto& s, auto& v) {
    v("rank", s.rank);
    v("name", s.name);
    v("points", s.points);
    v("tiebreak", s.tiebreak, 0.0);
    v("games", s.games, 0);
    v("wins", s.wins, 0);
    v("losses", s.losses, 0);
    v("draws", s.draws, 0);
    v("on_fire", s.on_fire, false);
    v("withdrawn", s.withdrawn, false);
    v("rating", s.rating, 0);
  }
  friend bool operator==(const TournamentStanding&, const TournamentStanding&) = default;
};

// One pairing: a game (live or over), a bye, or a forfeit.
struct TournamentPairing {
  int round = 0;  // 0 in an arena
  std::string white;
  std::string black;                  // "" for a bye
  std::string state;                  // "pending", "playing", "finished", "bye", "forfeit", "void"
  std::optional<std::string> result;  // "white", "black", "draw"
  std::optional<std::string> game;    // the game's id once started
  static void fields(auto& s, auto& v) {
    v("round", s.round, 0);
    v("white", s.white);
    v("black", s.black);
    v("state", s.state);
    v("result", s.result);
    v("game", s.game);
  }
  friend bool operator==(const TournamentPairing&, const TournamentPairing&) = default;
};

struct LeaderboardEntry {
  std::string name;
  int rating = kInitialRating;
  int deviation = 350;
  int games = 0;
  bool bot = false;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("rating", s.rating);
    v("deviation", s.deviation);
    v("games", s.games);
    v("bot", s.bot, false);
  }
  friend bool operator==(const LeaderboardEntry&, const LeaderboardEntry&) = default;
};

struct RatingChange {
  int rating = kInitialRating;  // after the game
  int change = 0;
  static void fields(auto& s, auto& v) {
    v("rating", s.rating);
    v("change", s.change);
  }
  friend bool operator==(const RatingChange&, const RatingChange&) = default;
};

struct OnlinePlayer {
  std::string name;
  int rating = kInitialRating;
  bool bot = false;
  int games = 0;  // games in progress
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("rating", s.rating, kInitialRating);
    v("bot", s.bot, false);
    v("games", s.games, 0);
  }
  friend bool operator==(const OnlinePlayer&, const OnlinePlayer&) = default;
};

// One line of the moderation audit log. Durations are in seconds; absent: for good.
struct AuditEntry {
  std::string at;  // format_timestamp()
  std::string actor;
  std::string action;  // "mute", "ban", "kick", "grant", ...
  std::string target;
  std::string reason;
  std::optional<std::int64_t> duration;
  static void fields(auto& s, auto& v) {
    v("at", s.at);
    v("actor", s.actor);
    v("action", s.action);
    v("target", s.target);
    v("reason", s.reason);
    v("duration", s.duration);
  }
  friend bool operator==(const AuditEntry&, const AuditEntry&) = default;
};

// A player's report of another player (or of one chat line of theirs), open until resolved.
struct ReportInfo {
  std::int64_t report = 0;
  std::string at;
  std::string reporter;
  std::string player;
  std::optional<std::int64_t> line;  // the chat line reported, with its text
  std::optional<std::string> text;
  std::optional<std::string> game;
  std::string reason;
  static void fields(auto& s, auto& v) {
    v("report", s.report);
    v("at", s.at);
    v("reporter", s.reporter);
    v("player", s.player);
    v("line", s.line);
    v("text", s.text);
    v("game", s.game);
    v("reason", s.reason);
  }
  friend bool operator==(const ReportInfo&, const ReportInfo&) = default;
};

// A ban or mute in force. kind: "ban_name", "ban_address" or "mute".
struct SanctionInfo {
  std::string kind;
  std::string target;
  std::string reason;
  std::string by;
  std::optional<std::string> until;  // absent: for good
  static void fields(auto& s, auto& v) {
    v("kind", s.kind);
    v("target", s.target);
    v("reason", s.reason);
    v("by", s.by);
    v("until", s.until);
  }
  friend bool operator==(const SanctionInfo&, const SanctionInfo&) = default;
};

// ---- messages both sides send -----------------------------------------------------------------

struct Ping {
  static constexpr std::string_view kType = "ping";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Ping&, const Ping&) = default;
};
struct Pong {
  static constexpr std::string_view kType = "pong";
  static void fields(auto&, auto&) {}
  friend bool operator==(const Pong&, const Pong&) = default;
};

}  // namespace amazons::protocol
