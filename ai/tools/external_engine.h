// Another engine program as a Player: it runs as a child process and speaks our engine protocol
// (docs/ENGINE_PROTOCOL.md), UCI as Fairy-Stockfish plays the Amazons (variant "amazons", FEN
// with arrows as '*', moves "d1d7,d7g7"), or Botzone's format (8x8 only). Every move it returns is
// checked; a failure (it cannot start, crashes, hangs, prints garbage or an illegal move) is
// reported through failure() and the callback, and the player then resigns (or, for an illegal
// move, passes the move on so the game records it as illegal). With max_restarts, a program that
// crashes or prints garbage while thinking is first restarted and asked again.
//
// Every failure goes through one place (fail()), which also decides on restarts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "ai/tools/child_process.h"
#include "common/player.h"

namespace amazons::ai {

enum class ExternalProtocol : std::uint8_t { Engine, Uci, Botzone };
std::string_view code(ExternalProtocol p);  // "amazons", "uci", "botzone"
std::optional<ExternalProtocol> external_protocol_from_code(std::string_view code);

// The UCI_Variant a UCI engine is asked for, when it offers the option (Fairy-Stockfish does).
inline constexpr std::string_view kUciVariant = "amazons";

struct ExternalEngineOptions {
  std::string command;  // run with /bin/sh -c
  ExternalProtocol protocol = ExternalProtocol::Engine;
  std::string name;  // default: the command
  // Time per move when the game has no clock: sent as `go movetime` (engine protocol); a Botzone
  // bot decides for itself, so it only sets how long to wait (doubled on its first turn).
  Millis movetime{1000};
  // How long past its time limit an answer may come before the engine counts as hung.
  Millis grace{500};
  Millis startup_timeout{10000};  // for the handshake (engine protocol and UCI)
  bool quiet_stderr = false;
  // A program that crashes or prints garbage while thinking is started again and asked the same
  // question with the time that is left, up to this many times a game; then it resigns.
  int max_restarts = 0;
  // A restart needs at least this much of the move's time left; with less, the engine resigns.
  Millis min_restart_time{100};
};

struct EngineFailure {
  enum class Kind : std::uint8_t { Start, Crash, Timeout, Garbage, Illegal };
  Kind kind;
  std::string message;      // says which engine and what happened
  bool restarting = false;  // the program is being restarted: the game goes on
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

  // The first failure of the current game, if any (also one it recovered from by a restart).
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
  // The same request with `spent` less on the clock; false when too little is left.
  bool shorten(MoveRequest& request, Millis spent) const;
  void play_engine(const Job& job);
  void play_uci(const Job& job);
  // uci ... uciok, the variant, isready ... readyok; false (after fail()) when it goes wrong.
  bool handshake_uci();
  void play_botzone(const Job& job);
  bool ensure_started();
  // Records the failure and stops the program. With `reply` given, either asks play() to restart
  // it (a crash or garbage, while restarts are left) or resigns.
  void fail(EngineFailure::Kind kind, const std::string& what, const ReplyFn* reply);
  void fail_timeout(const Job& job);
  // Why reading failed, in words, with the program's exit status when it has ended.
  std::string read_problem(ChildProcess::Read r);

  ExternalEngineOptions options_;
  std::string name_;
  std::unique_ptr<ChildProcess> process_;  // used on the worker thread (and in on_game_start)
  bool botzone_alive_ = false;             // the Botzone bot asked to keep running
  std::atomic<bool> first_turn_{true};
  std::atomic<bool> gave_up_{false};  // this game: every request resigns
  std::atomic<int> restarts_{0};      // this game
  bool retry_ = false;                // worker thread: fail() asked for a restart
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
