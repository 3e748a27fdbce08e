#include "ai/opening.h"

#include <algorithm>
#include <memory>

#include "ai/evaluate.h"
#include "common/movegen.h"
#include "common/zobrist.h"

namespace amazons::ai {

std::vector<Move> random_opening(const Position& start, int plies, int choices,
                                 std::uint64_t seed) {
  Position pos = start;
  Evaluator eval;
  std::vector<Move> line;
  auto moves = std::make_unique<MoveList>();
  std::vector<std::pair<Score, Move>> scored;
  for (int i = 0; i < plies && !pos.is_game_over(); ++i) {
    moves->clear();
    generate_moves(pos, *moves);
    scored.clear();
    for (Move m : *moves) {
      pos.do_move(m);
      scored.emplace_back(-eval.evaluate(pos), m);
      pos.undo_move(m);
    }
    // Ties broken by the move's bits so that the order never depends on the generator's.
    std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second.raw() < b.second.raw();
    });
    const auto n =
        std::min<std::size_t>(scored.size(), static_cast<std::size_t>(std::max(1, choices)));
    const Move m = scored[zobrist::splitmix64(seed) % n].second;
    pos.do_move(m);
    line.push_back(m);
  }
  return line;
}

}  // namespace amazons::ai
