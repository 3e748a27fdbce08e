// The record of one game: who played under which rules and clock, every move, and how it ended.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"
#include "common/move.h"
#include "common/position.h"
#include "common/time_control.h"
#include "common/variant.h"

namespace amazons {

enum class EndReason : std::uint8_t {
  NoMoves,      // the side to move could not move
  Resign,       // a player resigned
  Time,         // a player's clock ran out
  Abandon,      // a player left (or stayed disconnected) and the opponent claimed the game
  Aborted,      // called off before both sides had moved; no winner
  IllegalMove,  // a program sent an illegal move (matches, bots)
  Adjudicated,  // a moderator decided the game (docs/PROTOCOL.md "Moderation")
};
// Each reason's code, the one spelling used in records and on the wire (protocol_enums.h reads
// this table too).
inline constexpr std::array<std::pair<EndReason, std::string_view>, 7> kEndReasonCodes{{
    {EndReason::NoMoves, "no_moves"},
    {EndReason::Resign, "resign"},
    {EndReason::Time, "time"},
    {EndReason::Abandon, "abandon"},
    {EndReason::Aborted, "aborted"},
    {EndReason::IllegalMove, "illegal_move"},
    {EndReason::Adjudicated, "adjudicated"},
}};
std::string_view code(EndReason r);  // "no_moves", "resign", ...
std::optional<EndReason> end_reason_from_code(std::string_view code);

struct GameResult {
  std::optional<Color> winner;  // empty only for EndReason::Aborted
  EndReason reason = EndReason::NoMoves;
  friend bool operator==(const GameResult&, const GameResult&) = default;
};

struct PlayerInfo {
  std::string name;
  bool bot = false;
  std::optional<int> rating;
  friend bool operator==(const PlayerInfo&, const PlayerInfo&) = default;
};

using Timestamp = std::chrono::sys_time<std::chrono::milliseconds>;

// How an analysis (amazons-engine analyse, docs/GAME_RECORD.md) judged a move that was lost
// territory: by how much, with the thresholds of ai/analysis.h.
enum class MoveMark : std::uint8_t { None, Mistake, Blunder };
std::string_view code(MoveMark m);  // "", "mistake", "blunder"
std::optional<MoveMark> move_mark_from_code(std::string_view code);

// What an analysis said about one move. Scores are squares of territory from the mover's point
// of view; a decided game (proven or counted) is +-kDecidedSquares.
struct MoveAnnotation {
  static constexpr double kDecidedSquares = 100;
  // A move that loses at least this many squares of territory, by the engine's judgement before
  // and after it, is a mistake; at least kBlunderSquares, a blunder. A square is about what one
  // arrow more or less decides in the end game, so two are worth a look and five usually lose a
  // balanced game. (Here, not in ai/, so that the web client's review is generated the same.)
  static constexpr double kMistakeSquares = 2.0;
  static constexpr double kBlunderSquares = 5.0;
  // A lead of at least this many squares is one no reply changes: where the mover leads by this
  // much before and after a move, or trails by this much before it, the move is not marked, since
  // the choice did not matter (a proven or counted result is such a lead too). Why 20: the
  // logistic fit of the evaluation to self-play results (docs/ENGINE.md, "Fitting the weights",
  // 0.00613 a hundredth of a square on 8x8) gives the side 20 squares ahead all but about 5
  // games in a million (10 squares: all but 2 in 1,000, which a strong player can still turn),
  // and 20 is more than a fifth of the 10x10 board's empty squares at the start.
  static constexpr double kDecisiveSquares = 20.0;
  double before = 0;         // the position before the move, with the engine's best move
  double after = 0;          // the position after the move played
  std::optional<Move> best;  // the engine's move, when it is not the one played
  MoveMark mark = MoveMark::None;
  friend bool operator==(const MoveAnnotation&, const MoveAnnotation&) = default;
};

struct RecordedMove {
  Move move;
  std::optional<Millis> elapsed;     // thinking time spent on the move
  std::optional<Millis> clock_left;  // the mover's clock after the move (increment included)
  std::optional<MoveAnnotation> annotation{};  // from an analysis
  friend bool operator==(const RecordedMove&, const RecordedMove&) = default;
};

struct GameRecord {
  RuleVariant rules = standard_variant();
  PlayerInfo white;
  PlayerInfo black;
  TimeControl time_control;
  std::optional<std::string> start_position;  // position text; empty means the variant's start
  std::vector<RecordedMove> moves;
  std::optional<GameResult> result;
  std::optional<Timestamp> started_at;
  std::optional<Timestamp> ended_at;
  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// The position before the first move. Fails only on a bad start_position text.
Expected<Position, std::string> initial_position(const GameRecord& record);
// Plays every move of the record from its initial position; the first illegal move is reported
// as "move 12 (d1-d7/g7): the path of the queen is blocked".
Expected<Position, std::string> replay(const GameRecord& record);

// JSON form (docs/GAME_RECORD.md). Reading checks every field and replays the moves.
nlohmann::json to_json(const GameRecord& record);
Expected<GameRecord, std::string> record_from_json(const nlohmann::json& j);
Expected<GameRecord, std::string> parse_record_json(std::string_view text);

// Plain text form: tag lines, then numbered moves, each optionally followed by a {comment};
// an annotation is written as the comment {before +0.50 after -2.25 best d1-d7/g7 mistake}.
// It keeps everything but per-move times.
std::string to_text(const GameRecord& record);
Expected<GameRecord, std::string> parse_record_text(std::string_view text);

// "2026-11-29T14:25:19.123Z" (milliseconds omitted when zero); reading accepts the same forms.
std::string format_timestamp(Timestamp t);
std::optional<Timestamp> parse_timestamp(std::string_view text);

}  // namespace amazons
