// The client-server protocol (docs/PROTOCOL.md): one JSON object per line, UTF-8, at most
// kMaxLineBytes a line, in both directions. Every message has a "type"; a client request may
// carry an "id" (a string or an integer) that the direct reply echoes.
//
// This file is pure: typed messages, encoding and decoding with stable error codes, and the
// line framing. No sockets. The server, the client connection library, the bots, the tests and
// the load generator all speak through it, so the two sides cannot drift apart.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/expected.h"
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
};
std::string_view code(ErrorCode e);
std::optional<ErrorCode> error_code_from(std::string_view text);

// What a player asks for when creating a game or challenging.
enum class ColorChoice : std::uint8_t { White, Black, Random };
enum class GameStatus : std::uint8_t { Open, Active, Finished };
enum class RecordFormat : std::uint8_t { Json, Text };

// ---- shared pieces ----------------------------------------------------------------------------

struct PlayerRef {
  std::string name;
  int rating = 1500;
  bool bot = false;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("rating", s.rating, 1500);
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
  }
  friend bool operator==(const GameSummary&, const GameSummary&) = default;
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

struct LeaderboardEntry {
  std::string name;
  int rating = 1500;
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
  int rating = 1500;  // after the game
  int change = 0;
  static void fields(auto& s, auto& v) {
    v("rating", s.rating);
    v("change", s.change);
  }
  friend bool operator==(const RatingChange&, const RatingChange&) = default;
};

struct OnlinePlayer {
  std::string name;
  int rating = 1500;
  bool bot = false;
  int games = 0;  // games in progress
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("rating", s.rating, 1500);
    v("bot", s.bot, false);
    v("games", s.games, 0);
  }
  friend bool operator==(const OnlinePlayer&, const OnlinePlayer&) = default;
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

// ---- client -> server -------------------------------------------------------------------------

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
  static void fields(auto& s, auto& v) {
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("color", s.color, ColorChoice::Random);
    v("rated", s.rated, false);
    v("private", s.is_private, false);
  }
  friend bool operator==(const Create&, const Create&) = default;
};

struct List {
  static constexpr std::string_view kType = "list";
  static void fields(auto&, auto&) {}
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
  static void fields(auto& s, auto& v) {
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("rated", s.rated, false);
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
  static void fields(auto& s, auto& v) {
    v("player", s.player);
    v("rules", s.rules, std::string("standard"));
    v("time", s.time, TimeControl{});
    v("color", s.color, ColorChoice::Random);
    v("rated", s.rated, false);
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

using ClientMessage =
    std::variant<Hello, Ping, Pong, Create, List, Join, Watch, Leave, MoveMsg, Resign, Abort, Claim,
                 Rematch, ChatSend, Seek, Unseek, ChallengeSend, Accept, Decline, Players,
                 HistoryRequest, RecordRequest, LeaderboardRequest>;

// ---- server -> client -------------------------------------------------------------------------

struct Welcome {
  static constexpr std::string_view kType = "welcome";
  std::string name;
  std::string token;
  int protocol = kVersion;
  std::string server;
  PlayerRef player;
  std::vector<std::string> games;  // games in progress where you hold a seat
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("token", s.token);
    v("protocol", s.protocol);
    v("server", s.server);
    v("player", s.player);
    v("games", s.games);
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
  std::vector<GameSummary> games;
  static void fields(auto& s, auto& v) { v("games", s.games); }
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
  static void fields(auto& s, auto& v) {
    v("game", s.game);
    v("from", s.from);
    v("text", s.text);
  }
  friend bool operator==(const Chat&, const Chat&) = default;
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
  static void fields(auto& s, auto& v) {
    v("challenge", s.challenge);
    v("from", s.from);
    v("rules", s.rules);
    v("time", s.time);
    v("color", s.color);
    v("rated", s.rated, false);
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
  std::string reason;  // "declined", "offline"
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

using ServerMessage =
    std::variant<Welcome, Ping, Pong, Created, Games, Start, State, Moved, End, Error, Ok, Chat,
                 Presence, Seeking, ChallengeReceived, ChallengeSent, ChallengeClosed, RematchOffer,
                 PlayerList, History, Record, Leaderboard, Shutdown>;

// ---- envelopes and codec ----------------------------------------------------------------------

// The request id: a string or an integer chosen by the client, echoed in the direct reply.
using RequestId = std::optional<nlohmann::json>;

struct ClientEnvelope {
  RequestId id;
  ClientMessage message;
};
struct ServerEnvelope {
  RequestId id;
  ServerMessage message;
};

// Why a line could not be decoded. `id` is the request id when it could be read, so the error
// reply can still echo it.
struct DecodeError {
  ErrorCode code = ErrorCode::BadJson;
  std::string message;
  RequestId id;
};

Expected<ClientEnvelope, DecodeError> decode_client(std::string_view line);
Expected<ServerEnvelope, DecodeError> decode_server(std::string_view line);

// One line of JSON without the trailing '\n'.
std::string encode(const ClientMessage& message, const RequestId& id = std::nullopt);
std::string encode(const ServerMessage& message, const RequestId& id = std::nullopt);

std::string_view type_of(const ClientMessage& message);
std::string_view type_of(const ServerMessage& message);

// The error reply for a decode failure, with the request id echoed when there was one.
std::string encode_error(const DecodeError& error);
Error make_error(ErrorCode code, std::string message, std::optional<std::string> game = {});

// Names of the enums as they appear on the wire.
std::string_view to_string(ColorChoice c);
std::string_view to_string(GameStatus s);
std::string_view to_string(RecordFormat f);

// ---- framing ----------------------------------------------------------------------------------

// Splits a byte stream into lines. A line ends at '\n' (a '\r' before it is dropped). A line
// longer than the limit is an error: the caller refuses it and closes the connection, since it
// cannot know where the next message starts.
class LineFramer {
 public:
  enum class Status : std::uint8_t { Line, NeedMore, TooLong };

  explicit LineFramer(std::size_t max_line = kMaxLineBytes) : max_line_(max_line) {}

  void append(std::string_view bytes) { buffer_.append(bytes.data(), bytes.size()); }
  // Takes the next complete line into `line`. After TooLong the framer stays in that state.
  Status next(std::string& line);
  std::size_t buffered() const { return buffer_.size() - start_; }

 private:
  std::size_t max_line_;
  std::string buffer_;
  std::size_t start_ = 0;    // first unconsumed byte
  std::size_t scanned_ = 0;  // bytes from start_ known to hold no '\n'
  bool failed_ = false;
};

// ---- LAN discovery datagrams ------------------------------------------------------------------

// A query sent over UDP to the discovery port, and the answer every server sends back. Both are
// single JSON objects, one per datagram, at most kMaxDatagramBytes.
inline constexpr std::size_t kMaxDatagramBytes = 1024;

struct DiscoveryQuery {
  static constexpr std::string_view kType = "discover";
  int protocol = kVersion;
  std::string nonce;  // echoed, so the client can match answers to its query
  static void fields(auto& s, auto& v) {
    v("protocol", s.protocol);
    v("nonce", s.nonce, std::string());
  }
  friend bool operator==(const DiscoveryQuery&, const DiscoveryQuery&) = default;
};

struct DiscoveryReply {
  static constexpr std::string_view kType = "server";
  std::string name;
  int port = 0;  // the TCP port of the game server
  int protocol = kVersion;
  int players = 0;
  int games = 0;
  bool password = false;  // a server password is needed
  bool tls = false;       // the port also speaks TLS (connect with tls://)
  std::string nonce;
  static void fields(auto& s, auto& v) {
    v("name", s.name);
    v("port", s.port);
    v("protocol", s.protocol);
    v("players", s.players, 0);
    v("games", s.games, 0);
    v("password", s.password, false);
    v("tls", s.tls, false);
    v("nonce", s.nonce, std::string());
  }
  friend bool operator==(const DiscoveryReply&, const DiscoveryReply&) = default;
};

std::string encode(const DiscoveryQuery& q);
std::string encode(const DiscoveryReply& r);
Expected<DiscoveryQuery, DecodeError> decode_discovery_query(std::string_view datagram);
Expected<DiscoveryReply, DecodeError> decode_discovery_reply(std::string_view datagram);

}  // namespace amazons::protocol
