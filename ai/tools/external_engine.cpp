#include "ai/tools/external_engine.h"

#include "ai/botzone.h"
#include "common/notation.h"
#include "common/position_text.h"
#include "common/variant.h"
#include "formats/move_list.h"

namespace amazons::ai {

namespace {

using Clock = ChildProcess::Clock;

// How long to wait for a Botzone bot's keep-running line after its move; a bot that neither
// sends it nor exits is treated as one that ends after every turn.
constexpr Millis kKeepRunningWait{200};
// How long an engine may take to answer `stop` after a cancelled request before it is killed.
constexpr Millis kStopWait{500};
// Less time than this left on the clock is not worth restarting a failed program for.

std::string shown(std::string_view s) {
  constexpr std::size_t kMaxShown = 80;
  std::string out = "\"";
  out += s.substr(0, kMaxShown);
  if (s.size() > kMaxShown) out += "...";
  return out + "\"";
}

bool is_botzone_start(const GameStart& g) { return g.start == Position(botzone8_variant()); }

}  // namespace

std::string_view code(ExternalProtocol p) {
  switch (p) {
    case ExternalProtocol::Engine:
      return "amazons";
    case ExternalProtocol::Uci:
      return "uci";
    case ExternalProtocol::Botzone:
      return "botzone";
  }
  return "unknown";
}

std::optional<ExternalProtocol> external_protocol_from_code(std::string_view c) {
  for (ExternalProtocol p :
       {ExternalProtocol::Engine, ExternalProtocol::Uci, ExternalProtocol::Botzone})
    if (code(p) == c) return p;
  return std::nullopt;
}

std::string_view code(EngineFailure::Kind kind) {
  switch (kind) {
    case EngineFailure::Kind::Start:
      return "start";
    case EngineFailure::Kind::Crash:
      return "crash";
    case EngineFailure::Kind::Timeout:
      return "timeout";
    case EngineFailure::Kind::Garbage:
      return "garbage";
    case EngineFailure::Kind::Illegal:
      return "illegal";
  }
  return "unknown";
}

ExternalEnginePlayer::ExternalEnginePlayer(ExternalEngineOptions options)
    : options_(std::move(options)),
      name_(options_.name.empty() ? options_.command : options_.name),
      thread_([this] { worker(); }) {}

ExternalEnginePlayer::~ExternalEnginePlayer() {
  cancelled_ = true;
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    wake_.notify_all();
  }
  thread_.join();
  if (process_ && options_.protocol != ExternalProtocol::Botzone) process_->send_line("quit");
}

std::optional<EngineFailure> ExternalEnginePlayer::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

void ExternalEnginePlayer::fail(EngineFailure::Kind kind, const std::string& what,
                                const ReplyFn* reply) {
  // A crash or garbage may be a one-off; a hang has used the time, an illegal move is a bug.
  const bool restart =
      reply != nullptr &&
      (kind == EngineFailure::Kind::Crash || kind == EngineFailure::Kind::Garbage) &&
      restarts_ < options_.max_restarts && !cancelled_;
  EngineFailure f{kind, name_ + ": " + what, restart};
  if (restart)
    f.message += " (restarting it: " + std::to_string(++restarts_) + " of " +
                 std::to_string(options_.max_restarts) + ")";
  {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = f;
  }
  if (on_failure_) on_failure_(f);
  if (kind != EngineFailure::Kind::Illegal) {
    // Whatever it does next cannot be trusted to match our idea of the game.
    process_.reset();
    botzone_alive_ = false;
  }
  if (restart) {
    retry_ = true;
    return;
  }
  gave_up_ = true;
  if (reply != nullptr) (*reply)(PlayerAction::resign());
}

void ExternalEnginePlayer::fail_timeout(const Job& job) {
  const Millis waited = time_limit(job.request) + options_.grace;
  fail(EngineFailure::Kind::Timeout, "no move within " + std::to_string(waited.count()) + " ms",
       &job.reply);
}

std::string ExternalEnginePlayer::read_problem(ChildProcess::Read r) {
  switch (r) {
    case ChildProcess::Read::Timeout:
      return "no answer in time";
    case ChildProcess::Read::TooLong:
      return "printed a line longer than " + std::to_string(ChildProcess::kMaxLine) + " characters";
    case ChildProcess::Read::Closed:
    case ChildProcess::Read::Line:
      break;
  }
  const auto status = process_->exit_status(std::chrono::milliseconds(200));
  return "the program " + (status ? *status : std::string("closed its output"));
}

bool ExternalEnginePlayer::ensure_started() {
  if (process_ && !process_->exit_status()) return true;
  process_.reset();
  auto started = ChildProcess::start(options_.command, options_.quiet_stderr);
  if (!started) {
    fail(EngineFailure::Kind::Start, started.error(), nullptr);
    return false;
  }
  process_ = std::move(*started);
  botzone_alive_ = false;
  if (options_.protocol == ExternalProtocol::Botzone) return true;
  if (options_.protocol == ExternalProtocol::Uci) return handshake_uci();
  // The engine protocol: a handshake proves it is one.
  const auto deadline = Clock::now() + options_.startup_timeout;
  if (!process_->send_line("isready")) {
    fail(EngineFailure::Kind::Start,
         "does not read its input: " + read_problem(ChildProcess::Read::Closed), nullptr);
    return false;
  }
  for (std::string line;;) {
    const auto r = process_->read_line(line, deadline);
    if (r != ChildProcess::Read::Line) {
      fail(EngineFailure::Kind::Start, "did not answer isready: " + read_problem(r), nullptr);
      return false;
    }
    if (line == "readyok") return true;
  }
}

void ExternalEnginePlayer::on_game_start(const GameStart& start) {
  {
    std::lock_guard lock(mutex_);
    failure_.reset();
  }
  first_turn_ = true;
  gave_up_ = false;
  restarts_ = 0;
  if (options_.protocol == ExternalProtocol::Botzone) {
    // A bot that kept running still thinks it is in the last game.
    process_.reset();
    botzone_alive_ = false;
    if (!is_botzone_start(start))
      fail(EngineFailure::Kind::Start,
           "a Botzone bot plays only from the start of the 8x8 Botzone variant (botzone8)",
           nullptr);
    return;
  }
  if (options_.protocol == ExternalProtocol::Uci) {
    // ucinewgame has no answer; isready waits until the engine has done what it needs for it.
    if (ensure_started() && process_->send_line("ucinewgame") && process_->send_line("isready")) {
      const auto deadline = Clock::now() + options_.startup_timeout;
      for (std::string line;;) {
        const auto r = process_->read_line(line, deadline);
        if (r != ChildProcess::Read::Line) {
          fail(EngineFailure::Kind::Start,
               "did not answer isready after ucinewgame: " + read_problem(r), nullptr);
          break;
        }
        if (line == "readyok") break;
      }
    }
    return;
  }
  if (ensure_started() && process_->send_line("newgame")) {
    std::string line;
    process_->read_line(line, Clock::now() + options_.startup_timeout);
  }
}

bool ExternalEnginePlayer::handshake_uci() {
  // uci, then the id and option lines up to uciok; UCI_Variant amazons when the engine has
  // variants; isready and readyok. Lines a GUI does not know are ignored, as UCI asks.
  const auto deadline = Clock::now() + options_.startup_timeout;
  if (!process_->send_line("uci")) {
    fail(EngineFailure::Kind::Start,
         "does not read its input: " + read_problem(ChildProcess::Read::Closed), nullptr);
    return false;
  }
  std::optional<std::string> variants;  // the UCI_Variant option line, when there is one
  for (std::string line;;) {
    const auto r = process_->read_line(line, deadline);
    if (r != ChildProcess::Read::Line) {
      fail(EngineFailure::Kind::Start, "did not answer uci with uciok: " + read_problem(r),
           nullptr);
      return false;
    }
    if (line == "uciok") break;
    if (line.rfind("option name UCI_Variant ", 0) == 0) variants = line;
  }
  if (variants) {
    const std::string var = " var " + std::string(kUciVariant);
    const std::string& v = *variants;
    const std::size_t at = v.find(var);
    const bool offered =
        at != std::string::npos && (at + var.size() == v.size() || v[at + var.size()] == ' ');
    if (!offered) {
      fail(EngineFailure::Kind::Start,
           "does not offer the variant " + std::string(kUciVariant) + ": " + shown(v), nullptr);
      return false;
    }
    if (!process_->send_line("setoption name UCI_Variant value " + std::string(kUciVariant))) {
      fail(EngineFailure::Kind::Start, read_problem(ChildProcess::Read::Closed), nullptr);
      return false;
    }
  }
  if (!process_->send_line("isready")) {
    fail(EngineFailure::Kind::Start, read_problem(ChildProcess::Read::Closed), nullptr);
    return false;
  }
  for (std::string line;;) {
    const auto r = process_->read_line(line, deadline);
    if (r != ChildProcess::Read::Line) {
      fail(EngineFailure::Kind::Start, "did not answer isready: " + read_problem(r), nullptr);
      return false;
    }
    if (line == "readyok") return true;
  }
}

void ExternalEnginePlayer::on_game_end(const GameResult&) {
  if (options_.protocol == ExternalProtocol::Botzone) {
    process_.reset();
    botzone_alive_ = false;
  }
}

void ExternalEnginePlayer::request_move(const MoveRequest& request, ReplyFn reply) {
  cancelled_ = false;
  std::lock_guard lock(mutex_);
  job_ = Job{request, std::move(reply)};
  wake_.notify_all();
}

void ExternalEnginePlayer::cancel_request() { cancelled_ = true; }

void ExternalEnginePlayer::worker() {
  for (;;) {
    std::optional<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return quit_ || job_.has_value(); });
      if (quit_) return;
      job.swap(job_);
    }
    play(*job);
  }
}

Millis ExternalEnginePlayer::time_limit(const MoveRequest& request) const {
  const ClockState& c = request.clock;
  switch (c.control.kind) {
    case TimeControl::Kind::Fischer:
      return c.left(request.position.side_to_move());
    case TimeControl::Kind::PerMove:
      return c.control.per_move;
    case TimeControl::Kind::Unlimited:
      break;
  }
  if (options_.protocol == ExternalProtocol::Botzone && first_turn_) return 2 * options_.movetime;
  return options_.movetime;
}

bool ExternalEnginePlayer::shorten(MoveRequest& request, Millis spent) const {
  ClockState& c = request.clock;
  switch (c.control.kind) {
    case TimeControl::Kind::Fischer: {
      auto& left = c.remaining[static_cast<std::size_t>(index_of(request.position.side_to_move()))];
      left -= spent;
      return left >= options_.min_restart_time;
    }
    case TimeControl::Kind::PerMove:
      c.control.per_move -= spent;
      return c.control.per_move >= options_.min_restart_time;
    case TimeControl::Kind::Unlimited:
      break;
  }
  return true;
}

void ExternalEnginePlayer::play(const Job& job) {
  if (gave_up_) return job.reply(PlayerAction::resign());  // reported when it happened
  const auto asked = Clock::now();
  Job attempt = job;
  for (;;) {
    retry_ = false;
    if (options_.protocol == ExternalProtocol::Engine) {
      play_engine(attempt);
    } else if (options_.protocol == ExternalProtocol::Uci) {
      play_uci(attempt);
    } else {
      play_botzone(attempt);
    }
    if (!retry_) break;
    attempt.request = job.request;
    if (!shorten(attempt.request, std::chrono::duration_cast<Millis>(Clock::now() - asked))) {
      fail(EngineFailure::Kind::Timeout, "too little time left on the clock to restart it",
           nullptr);
      job.reply(PlayerAction::resign());
      break;
    }
  }
  first_turn_ = false;
}

void ExternalEnginePlayer::play_engine(const Job& job) {
  if (!ensure_started()) return job.reply(PlayerAction::resign());
  const MoveRequest& req = job.request;
  std::string go = "go";
  const ClockState& c = req.clock;
  if (c.control.kind == TimeControl::Kind::Fischer) {
    go += " wtime " + std::to_string(c.left(Color::White).count()) + " btime " +
          std::to_string(c.left(Color::Black).count()) + " winc " +
          std::to_string(c.control.increment.count()) + " binc " +
          std::to_string(c.control.increment.count());
  } else {
    go += " movetime " + std::to_string(time_limit(req).count());
  }
  if (!process_->send_line("position text " + to_text(req.position)) || !process_->send_line(go))
    return fail(EngineFailure::Kind::Crash, read_problem(ChildProcess::Read::Closed), &job.reply);

  const auto deadline = Clock::now() + time_limit(req) + options_.grace;
  bool stop_sent = false;
  for (std::string line;;) {
    // Short slices, so that a cancelled request is noticed and the engine told to stop.
    const auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(20));
    const auto r = process_->read_line(line, stop_sent ? Clock::now() + kStopWait : slice);
    if (r == ChildProcess::Read::Timeout) {
      if (cancelled_ && !stop_sent) {
        process_->send_line("stop");
        stop_sent = true;
        continue;
      }
      if (stop_sent) return fail(EngineFailure::Kind::Timeout, "did not answer stop", &job.reply);
      if (Clock::now() < deadline) continue;
      return fail_timeout(job);
    }
    if (r != ChildProcess::Read::Line)
      return fail(EngineFailure::Kind::Crash, read_problem(r), &job.reply);
    if (line == "ok" || line.rfind("info ", 0) == 0 || line == "readyok") continue;
    if (line.rfind("error ", 0) == 0)
      return fail(EngineFailure::Kind::Garbage, "answered " + shown(line), &job.reply);
    if (line.rfind("bestmove ", 0) != 0)
      return fail(EngineFailure::Kind::Garbage, "printed " + shown(line) + " instead of bestmove",
                  &job.reply);
    const std::string text = line.substr(9);
    auto m = parse_move(text);
    if (!m)
      return fail(EngineFailure::Kind::Garbage,
                  "bestmove " + shown(text) + " is not a move: " + m.error().message(), &job.reply);
    if (auto e = req.position.check(*m)) {
      fail(EngineFailure::Kind::Illegal,
           "played the illegal move " + to_string(*m) + ": " + std::string(describe(*e)), nullptr);
    }
    return job.reply(PlayerAction::play(*m));
  }
}

void ExternalEnginePlayer::play_uci(const Job& job) {
  if (!ensure_started()) return job.reply(PlayerAction::resign());
  const MoveRequest& req = job.request;
  std::string go = "go";
  const ClockState& c = req.clock;
  if (c.control.kind == TimeControl::Kind::Fischer) {
    go += " wtime " + std::to_string(c.left(Color::White).count()) + " btime " +
          std::to_string(c.left(Color::Black).count()) + " winc " +
          std::to_string(c.control.increment.count()) + " binc " +
          std::to_string(c.control.increment.count());
  } else {
    go += " movetime " + std::to_string(time_limit(req).count());
  }
  if (!process_->send_line("position fen " + formats::to_fen(req.position)) ||
      !process_->send_line(go))
    return fail(EngineFailure::Kind::Crash, read_problem(ChildProcess::Read::Closed), &job.reply);

  const auto deadline = Clock::now() + time_limit(req) + options_.grace;
  bool stop_sent = false;
  for (std::string line;;) {
    const auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(20));
    const auto r = process_->read_line(line, stop_sent ? Clock::now() + kStopWait : slice);
    if (r == ChildProcess::Read::Timeout) {
      if (cancelled_ && !stop_sent) {
        process_->send_line("stop");
        stop_sent = true;
        continue;
      }
      if (stop_sent) return fail(EngineFailure::Kind::Timeout, "did not answer stop", &job.reply);
      if (Clock::now() < deadline) continue;
      return fail_timeout(job);
    }
    if (r != ChildProcess::Read::Line)
      return fail(EngineFailure::Kind::Crash, read_problem(r), &job.reply);
    if (line.empty() || line.rfind("info", 0) == 0 || line == "readyok") continue;
    if (line.rfind("bestmove ", 0) != 0)
      return fail(EngineFailure::Kind::Garbage, "printed " + shown(line) + " instead of bestmove",
                  &job.reply);
    // "bestmove MOVE [ponder MOVE]"
    std::string text = line.substr(9);
    if (const auto space = text.find(' '); space != std::string::npos) text.resize(space);
    if (text == "(none)" || text == "0000")
      return fail(EngineFailure::Kind::Garbage,
                  "answered " + shown(line) + " (no move) where the side to move has moves",
                  &job.reply);
    auto m = formats::parse_uci_move(text);
    if (!m)
      return fail(EngineFailure::Kind::Garbage, "bestmove " + shown(text) + ": " + m.error(),
                  &job.reply);
    if (auto e = req.position.check(*m)) {
      fail(EngineFailure::Kind::Illegal,
           "played the illegal move " + text + " (" + to_string(*m) +
               "): " + std::string(describe(*e)),
           nullptr);
    }
    return job.reply(PlayerAction::play(*m));
  }
}

void ExternalEnginePlayer::play_botzone(const Job& job) {
  const MoveRequest& req = job.request;
  const Color me = req.position.side_to_move();
  if (!botzone_alive_) {
    if (!ensure_started()) return job.reply(PlayerAction::resign());
    // The whole history, request first: Black's first request is the "no move" line.
    std::vector<std::string> lines;
    if (me == Color::Black) lines.emplace_back(botzone::kNoMove);
    for (Move m : req.history) lines.push_back(botzone::format_move(m));
    bool ok = process_->send_line(std::to_string((lines.size() + 1) / 2));
    for (const std::string& l : lines) ok = ok && process_->send_line(l);
    if (!ok)
      return fail(EngineFailure::Kind::Crash, read_problem(ChildProcess::Read::Closed), &job.reply);
  } else if (req.history.empty() ||
             !process_->send_line(botzone::format_move(req.history.back()))) {
    return fail(EngineFailure::Kind::Crash, read_problem(ChildProcess::Read::Closed), &job.reply);
  }

  const auto deadline = Clock::now() + time_limit(req) + options_.grace;
  std::string line;
  const auto r = process_->read_line(line, deadline);
  if (r == ChildProcess::Read::Timeout) return fail_timeout(job);
  if (r != ChildProcess::Read::Line)
    return fail(EngineFailure::Kind::Crash, read_problem(r), &job.reply);
  auto parsed = botzone::parse_move_line(line);
  if (!parsed) return fail(EngineFailure::Kind::Garbage, parsed.error(), &job.reply);
  if (!parsed->has_value())
    return fail(EngineFailure::Kind::Garbage, "answered \"-1 -1 -1 -1 -1 -1\" (no move)",
                &job.reply);
  const Move m = **parsed;

  std::string next;
  const auto k = process_->read_line(next, Clock::now() + kKeepRunningWait);
  botzone_alive_ = k == ChildProcess::Read::Line && next == botzone::kKeepRunning;

  if (auto e = req.position.check(m))
    fail(EngineFailure::Kind::Illegal,
         "played the illegal move " + botzone::format_move(m) + " (" + to_string(m) +
             "): " + std::string(describe(*e)),
         nullptr);
  job.reply(PlayerAction::play(m));
  // A bot that ends after each turn is started afresh next time. Its exit (which can take a
  // while for a program with a large memory) is waited for after the reply, not before.
  if (!botzone_alive_) process_.reset();
}

}  // namespace amazons::ai
