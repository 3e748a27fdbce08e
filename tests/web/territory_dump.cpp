// Prints positions from random games and, for each, what the C++ side says about it: the legal
// move count (common/movegen.h) and ai::territory_map. territory_check.ts replays the same
// moves with the web client's code and compares. One JSON document on stdout.
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "ai/evaluate.h"
#include "common/movegen.h"
#include "common/notation.h"
#include "common/position.h"
#include "common/variant.h"

namespace {

// Enough games of each variant for every stage (opening, middle, separated endgame, the end)
// to show up many times, while the test stays well under a second.
constexpr int kGamesPerVariant = 40;
constexpr int kMaxPlies = 90;

}  // namespace

int main() {
  using namespace amazons;
  std::mt19937 rng(20261201);
  auto moves = std::make_unique<MoveList>();
  nlohmann::json out = nlohmann::json::array();
  for (const RuleVariant& variant : {standard_variant(), botzone8_variant()}) {
    for (int game = 0; game < kGamesPerVariant; ++game) {
      Position pos(variant);
      std::vector<std::string> played;
      const int plies = static_cast<int>(rng() % kMaxPlies);
      for (int ply = 0; ply <= plies; ++ply) {
        moves->clear();
        generate_moves(pos, *moves);
        // A position every few plies, and always the last one.
        if (ply % 7 == 0 || ply == plies || moves->empty()) {
          const ai::TerritoryMap map = ai::territory_map(pos);
          nlohmann::json squares = nlohmann::json::object();
          for (int rank = 0; rank < pos.size(); ++rank)
            for (int file = 0; file < pos.size(); ++file) {
              const Square s = Square::at(file, rank);
              const auto o = map.owner(s);
              squares[to_string(s)] = {
                  map.queen_distance(Color::White, s), map.queen_distance(Color::Black, s),
                  map.king_distance(Color::White, s), map.king_distance(Color::Black, s),
                  !o                   ? ""
                  : *o == Color::White ? "white"
                                       : "black"};
            }
          out.push_back({{"variant", to_json(variant)},
                         {"moves", played},
                         {"legal_moves", count_moves(pos)},
                         {"squares", squares}});
        }
        if (moves->empty()) break;
        const Move m = (*moves)[rng() % moves->size()];
        played.push_back(to_string(m));
        pos.do_move(m);
      }
    }
  }
  std::cout << out.dump() << "\n";
  return std::cout ? 0 : 1;
}
