// The game screen, for local and online games alike: the board, both players with their
// clocks, the move list, the move being typed or chosen with the cursor, the result. What
// differs between a local and an online game is behind GameSource.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/game_view_model.h"
#include "client/online_game.h"
#include "tui/app.h"

namespace amazons::tui {

class GameSource {
 public:
  virtual ~GameSource() = default;
  // Takes what happened since the last call. The view may change or appear.
  virtual void poll(SteadyTime now) = 0;
  // Null until the game started.
  virtual const client::GameViewModel* view() const = 0;
  // A person at this terminal may enter a move for the side to move now.
  virtual bool can_move() const = 0;
  // Plays the entered move (legal in view()->position()); false when it was not taken.
  virtual bool play(Move m) = 0;
  // Black at the bottom of the board.
  virtual bool flipped() const = 0;
  // ":resign", ":abort", ":rematch", ":menu", ... Returns a sentence when the command did not
  // apply. Unknown commands are the screen's business.
  virtual std::optional<std::string> command(const std::string& word, const std::string& rest) = 0;
  // The commands that apply now, as the help line lists them (":resign", ...).
  virtual std::vector<std::string> commands() const = 0;
  // A line under the players: the connection, who is offline, a rematch offer. May be empty.
  virtual std::string status_line() const { return {}; }
  virtual bool status_is_problem() const { return false; }
  // Chat lines, oldest first (online games).
  virtual std::vector<client::ChatLine> chat() const { return {}; }
};

std::unique_ptr<Screen> make_game_screen(App& app, std::unique_ptr<GameSource> source);

}  // namespace amazons::tui
