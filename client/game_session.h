// One game played on this computer, run by common/local_game.h's LocalGame on a worker thread so
// the window never waits for it. The render thread learns what happens through a queue of
// events it drains every frame, and answers for the people at this screen through the session.
// The game is saved after every move, and moved to the finished games when it ends.
#pragma once

#include <array>
#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "client/event_queue.h"
#include "client/game_store.h"
#include "client/game_view_model.h"
#include "client/human_player.h"
#include "common/local_game.h"

namespace amazons::client {

struct GameStartedEvent {
  GameStart start;  // white's view; the position before the first move (also when resuming)
};
struct TurnEvent {
  Color to_move;
  ClockState clock;
  SteadyTime at;  // when the clock started running
};
struct MoveEvent {
  Position after;
  RecordedMove move;
  Color mover;
  SteadyTime at;
};
// A person at this screen may now enter a move for `color`; answer with `request`.
struct HumanTurnEvent {
  Color color;
  std::uint64_t request;
};
struct GameEndEvent {
  GameResult result;
  std::string detail;
  GameRecord record;                           // the whole game, as saved
  std::optional<std::filesystem::path> saved;  // where it was saved, if it was
  SteadyTime at;
};
// Saving failed; the game goes on. For the status line.
struct StorageProblemEvent {
  std::string message;
};
using GameEvent = std::variant<GameStartedEvent, TurnEvent, MoveEvent, HumanTurnEvent, GameEndEvent,
                               StorageProblemEvent>;

struct SessionSetup {
  // Rules, players, time control and start position; when resuming, also the moves played so
  // far (and no result). started_at is set to now when empty.
  GameRecord game;
  // A program for a colour (engine, network opponent); null means a person at this screen.
  std::array<std::unique_ptr<Player>, 2> programs;
  // Where the game is saved after every move; none: it is not saved.
  std::optional<GameStore> store;
};

// The game a rematch of `played` starts (a setup_record()): the same rules, clock and start,
// the players changing colours, no moves, a fresh start time.
GameRecord rematch_record(const GameRecord& played);

class GameSession {
 public:
  // Checks the record (its moves must replay and it must not be finished) and starts the game
  // thread. Never blocks for long.
  static Expected<std::unique_ptr<GameSession>, std::string> start(SessionSetup setup);

  // Leaves the game as it stands (see leave()).
  ~GameSession();
  GameSession(const GameSession&) = delete;
  GameSession& operator=(const GameSession&) = delete;

  // What happened since the last call, in order. Render thread; never blocks.
  std::vector<GameEvent> poll() { return events_.drain(); }
  EventQueue<GameEvent>& events() { return events_; }

  bool is_human(Color c) const { return humans_[idx(c)] != nullptr; }
  std::array<bool, 2> humans() const { return {is_human(Color::White), is_human(Color::Black)}; }
  // The game as it was set up: for a rematch.
  const GameRecord& setup_record() const { return setup_record_; }

  // Answers a HumanTurnEvent. False when `c` is no person here or the request is no longer
  // pending (the game ended, time ran out): the answer is then ignored. Any thread.
  bool play(Color c, std::uint64_t request, Move move);
  // Resigns for the person playing `c`, whose request is pending. False otherwise.
  bool resign(Color c);
  // Calls the game off: it ends as aborted (GameEndEvent follows). Any thread.
  void abort();
  // Stops the game without a result: an unfinished game stays saved, to be resumed later; no
  // GameEndEvent follows. Blocks until the game thread has stopped (briefly).
  void leave();

 private:
  class Observer;
  static std::size_t idx(Color c) { return static_cast<std::size_t>(index_of(c)); }

  GameSession() = default;

  EventQueue<GameEvent> events_;
  GameRecord setup_record_;
  GameRecord record_;  // the game thread's copy, saved after every move
  std::size_t resumed_moves_ = 0;
  std::optional<GameStore> store_;
  std::array<std::unique_ptr<Player>, 2> players_;
  std::array<HumanPlayer*, 2> humans_{};
  std::unique_ptr<LocalGame> game_;
  std::unique_ptr<Observer> observer_;
  std::atomic<bool> leaving_{false};
  std::thread thread_;
};

}  // namespace amazons::client
