// Follows one game on a server from the messages a spectator gets (state or start, moved, end;
// docs/PROTOCOL.md) and turns it into text: a heading, then each move with the board, then the
// result. Every move is checked with the rules core: the server's word is untrusted input here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "common/expected.h"
#include "common/game_record.h"
#include "common/position.h"

namespace amazons::client {

class GameWatch {
 public:
  // Takes one message about the watched game and returns the text it adds (each string ends
  // with '\n'; empty for messages that change nothing shown). An error sentence for a message
  // that contradicts the game so far (a bad variant, an illegal or out-of-order move); the watch
  // is then unchanged.
  Expected<std::string, std::string> on_message(const nlohmann::json& message);

  bool started() const { return position_.has_value(); }
  bool finished() const { return result_.has_value(); }
  // Precondition: started().
  const Position& position() const { return *position_; }
  const std::vector<Move>& moves() const { return moves_; }
  const std::optional<GameResult>& result() const { return result_; }

 private:
  Expected<std::string, std::string> on_state(const nlohmann::json& message);
  Expected<std::string, std::string> on_moved(const nlohmann::json& message);
  Expected<std::string, std::string> on_end(const nlohmann::json& message);
  Expected<std::string, std::string> play(std::string_view text, std::size_t ply);

  std::optional<Position> position_;
  std::vector<Move> moves_;
  std::optional<GameResult> result_;
};

// "12. Black c3-c7/f4": how a move is printed; parse_watch_move reads it back (for tests and
// scripts that check a printed game). nullopt for any other line.
std::string watch_move_line(std::size_t ply, Color mover, Move move);
std::optional<Move> parse_watch_move(std::string_view line);

}  // namespace amazons::client
