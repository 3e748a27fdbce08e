#include "ai/tools/selfplay.h"

#include <cstdio>
#include <ostream>

#include "ai/ai_player.h"
#include "ai/board_text.h"
#include "ai/opening.h"
#include "common/local_game.h"
#include "common/notation.h"

namespace amazons::ai {

namespace {

std::string seconds(Millis t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", static_cast<double>(t.count()) / 1000.0);
  return buf;
}

std::string squares(Score s) {
  if (s >= kWinBound) return "wins in " + std::to_string(kWin - s);
  if (s <= -kWinBound) return "loses in " + std::to_string(kWin + s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", static_cast<double>(s) / 100.0);
  return buf;
}

class Printer final : public GameObserver {
 public:
  Printer(std::ostream& out, const AIPlayer& white, const AIPlayer& black, int opening)
      : out_(out), players_{&white, &black}, opening_(opening) {}

  void on_start(const GameStart& start) override { out_ << board_diagram(start.start) << "\n"; }
  void on_move(const Position& after, const RecordedMove& m, Color mover) override {
    ++plies_;
    out_ << "Move " << plies_ << ": " << color_name(mover) << " " << to_string(m.move);
    if (plies_ <= opening_) {
      out_ << "   (opening)";
    } else if (auto r = players_[index_of(mover)]->last_result()) {
      out_ << "   score " << squares(r->score) << ", depth " << r->depth << ", "
           << (m.elapsed ? seconds(*m.elapsed) : seconds(r->elapsed));
    }
    out_ << "\n" << board_diagram(after, m.move) << "\n";
    out_.flush();
  }
  void on_end(const GameResult& result, const std::string& detail) override {
    out_ << "Game over after " << plies_ << " moves: ";
    if (result.winner) {
      out_ << color_name(*result.winner) << " wins";
      if (result.reason == EndReason::NoMoves)
        out_ << " (" << color_name(~*result.winner) << " cannot move)";
      else
        out_ << " (" << code(result.reason) << ")";
    } else {
      out_ << "no result (" << code(result.reason) << ")";
    }
    if (!detail.empty()) out_ << ": " << detail;
    out_ << "\n";
  }

 private:
  std::ostream& out_;
  const AIPlayer* players_[2];
  int opening_;
  int plies_ = 0;
};

}  // namespace

GameRecord run_selfplay(const SelfplayOptions& options, std::ostream& out) {
  AIPlayer white(options.level, options.config, "white", options.seed);
  AIPlayer black(options.level, options.config, "black", options.seed + 1);
  LocalGameOptions game;
  game.rules = options.rules;
  const Position start(options.rules);
  game.opening = random_opening(start, options.opening_plies, 8, options.seed);

  out << "amazons-engine self-play: " << options.rules.name << " (" << options.rules.size << "x"
      << options.rules.size << "), level " << options.level.name;
  if (options.level.movetime) out << ", " << seconds(*options.level.movetime) << " a move";
  out << ", seed " << options.seed << "\n"
      << color_name(options.rules.first_to_move) << " moves first. W and B are queens, x arrows; "
      << "the last move is bracketed.\n\n";
  Printer printer(out, white, black, static_cast<int>(game.opening.size()));
  LocalGame local(game, white, black);
  return local.play(&printer);
}

}  // namespace amazons::ai
