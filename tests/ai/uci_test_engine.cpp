// A small UCI engine for the tests: it speaks UCI as Fairy-Stockfish does for the Amazons
// (UCI_Variant amazons, "position fen FEN", moves "d1d7,d7g7") over its real stdin and stdout,
// and plays a random legal move. The first argument makes it misbehave in one way:
//   good         plays properly
//   plain        plays properly but has no UCI_Variant option (a plain UCI engine)
//   chess        offers only the chess variant
//   no-uciok     never finishes the uci handshake
//   crash        exits with code 3 on the first go
//   hang         never answers go (but answers stop)
//   deaf         never answers go, nor stop
//   garbage      answers go with a line that is not UCI
//   bad-move     answers go with "bestmove d1d7g7"
//   illegal      answers go with a move from an empty square
//   none         answers go with "bestmove (none)"
//   gated FILE   plays the legal move with the smallest Move::raw(), and only once FILE exists
//                (it removes it; after kGateWait it plays anyway): the test says when it moves
// Without `setoption name UCI_Variant value amazons` (when it offers the option) it answers
// every go with a chess move, as Fairy-Stockfish would play chess.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "common/movegen.h"
#include "formats/move_list.h"

using namespace amazons;

// The longest a gated engine waits for its gate, so a test that fails never leaves it hanging.
constexpr auto kGateWait = std::chrono::seconds(20);

void wait_for_gate(const std::filesystem::path& gate) {
  const auto until = std::chrono::steady_clock::now() + kGateWait;
  std::error_code ec;
  while (!std::filesystem::exists(gate, ec) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::filesystem::remove(gate, ec);
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "good";
  std::mt19937_64 rng(7);
  std::optional<Position> pos;
  bool variant_set = false;
  const bool offers_variant = mode != "plain";
  std::string line;
  std::cout.setf(std::ios::unitbuf);
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "uci") {
      std::cout << "id name uci-test-engine " << mode << "\nid author amazons tests\n";
      if (offers_variant)
        std::cout << "option name UCI_Variant type combo default chess var chess"
                  << (mode == "chess" ? "" : " var amazons") << " var shogi\n";
      std::cout << "option name Hash type spin default 16 min 1 max 1024\n";
      if (mode != "no-uciok") std::cout << "uciok\n";
    } else if (cmd == "setoption") {
      if (line == "setoption name UCI_Variant value amazons") variant_set = true;
    } else if (cmd == "isready") {
      std::cout << "readyok\n";
    } else if (cmd == "ucinewgame") {
      rng.seed(7);
    } else if (cmd == "position") {
      std::string kind, board, side;
      in >> kind >> board >> side;
      auto p = formats::parse_fen(board, side);
      if (kind != "fen" || !p) {
        std::cout << "info string cannot read " << line << "\n";
        pos.reset();
      } else {
        pos = *p;
      }
    } else if (cmd == "go") {
      if (mode == "crash") return 3;
      if (mode == "hang" || mode == "deaf") continue;
      if (mode == "garbage") {
        std::cout << "I am thinking very hard about this\n";
        continue;
      }
      std::cout << "info depth 1 score cp 12 nodes 10 pv d1d7,d7g7\n";
      if (mode == "bad-move") {
        std::cout << "bestmove d1d7g7\n";
      } else if (mode == "none") {
        std::cout << "bestmove (none)\n";
      } else if (offers_variant && !variant_set) {
        std::cout << "bestmove e2e4\n";
      } else if (mode == "illegal") {
        std::cout << "bestmove e5e6,e6e7\n";
      } else if (!pos) {
        std::cout << "bestmove (none)\n";
      } else {
        MoveList moves;
        generate_moves(*pos, moves);
        if (moves.empty()) {
          std::cout << "bestmove (none)\n";
        } else if (mode == "gated") {
          wait_for_gate(argc > 2 ? argv[2] : "gate");
          const Move m = *std::min_element(moves.begin(), moves.end(),
                                           [](Move a, Move b) { return a.raw() < b.raw(); });
          std::cout << "bestmove " << formats::to_uci(m) << "\n";
        } else {
          const Move m =
              moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
          std::cout << "bestmove " << formats::to_uci(m) << "\n";
        }
      }
    } else if (cmd == "stop") {
      if (mode == "hang") std::cout << "bestmove (none)\n";
    } else if (cmd == "quit") {
      return 0;
    }
  }
  return 0;
}
