// Another engine program as a Player: it runs as a child process and speaks either our engine
// protocol (docs/ENGINE_PROTOCOL.md) or Botzone's format (8x8 only). Every move it returns is
// checked; a failure (it cannot start, crashes, hangs, prints garbage or an illegal move) is
// reported through failure() and the callback, and the player then resigns (or, for an illegal
// move, passes the move on so the game records it as illegal).
//
// Every failure goes through one place (fail()), where a later policy such as restarting a crashed
// bot can hook in.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "ai/child_process.h"
#include "common/player.h"

namespace amazons::ai {

enum class ExternalProtocol : std::uint8_t { Engine, Botzone };

struct ExternalEngineOptions {
  std::string command;  // run with /bin/sh -c
  ExternalProtocol protocol = ExternalProtocol::Engine;
  std::string name;  // default: the command
  // Time per move when the game has no clock: sent as `go movetime` (engine protocol); a Botzone
  // bot decides for itself, so it only sets how long to wait (doubled on its first turn).
  Millis movetime{1000};
  // How long past its time limit an answer may come before the engine counts as hung.
  Millis grace{500};
  Millis startup_timeout{10000};  // for the engine protocol's handshake
  bool quiet_stderr = false;
};

struct EngineFailure {
  enum class Kind : std::uint8_t { Start, Crash, Timeout, Garbage, Illegal };
  Kind kind;
  std::string message;  // says which engine and what happened
};
std::string_view code(EngineFailure::Kind kind);  // "start", "crash", ...

class ExternalEnginePlayer final : public Player {
 public:
  explicit ExternalEnginePlayer(ExternalEngineOptions options);
  ~ExternalEnginePlayer() override;
  ExternalEnginePlayer(const ExternalEnginePlayer&) = delete;
  ExternalEnginePlayer& operator=(const ExternalEnginePlayer&) = delete;

  PlayerInfo info() const override { return {name_, true, std::nullopt}; }
  // Starts the program if it is not running (and, for the engine protocol, waits for it to
  // answer isready). Blocks up to the startup timeout.
  void on_game_start(const GameStart& start) override;
  void request_move(const MoveRequest& request, ReplyFn reply) override;
  void cancel_request() override;
  void on_game_end(const GameResult&) override;

  // The time the program is given for this request (it counts as hung after that plus the grace
  // period). Call before request_move.
  Millis time_limit(const MoveRequest& request) const;

  // The first failure of the current game, if any.
  std::optional<EngineFailure> failure() const;
  // Called on the player's worker thread (or in on_game_start) for every failure.
  void set_failure_callback(std::function<void(const EngineFailure&)> cb) {
    on_failure_ = std::move(cb);
  }

 private:
  struct Job {
    MoveRequest request;
    ReplyFn reply;
  };
  void worker();
  void play(const Job& job);
  void play_engine(const Job& job);
  void play_botzone(const Job& job);
  bool ensure_started();
  // Records the failure, stops the program, and resigns if `reply` is given.
  void fail(EngineFailure::Kind kind, const std::string& what, const ReplyFn* reply);
  // Why reading failed, in words, with the program's exit status when it has ended.
  std::string read_problem(ChildProcess::Read r);

  ExternalEngineOptions options_;
  std::string name_;
  std::unique_ptr<ChildProcess> process_;  // used on the worker thread (and in on_game_start)
  bool botzone_alive_ = false;             // the Botzone bot asked to keep running
  std::atomic<bool> first_turn_{true};
  std::function<void(const EngineFailure&)> on_failure_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Job> job_;                // guarded by mutex_
  bool quit_ = false;                     // guarded by mutex_
  std::optional<EngineFailure> failure_;  // guarded by mutex_
  std::atomic<bool> cancelled_{false};
  std::thread thread_;
};

}  // namespace amazons::ai
