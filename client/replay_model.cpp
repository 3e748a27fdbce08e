#include "client/replay_model.h"

#include <algorithm>

#include "common/notation.h"

namespace amazons::client {

Expected<ReplayModel, std::string> ReplayModel::make(GameRecord record) {
  auto start = initial_position(record);
  if (!start) return Unexpected(start.error());
  std::vector<Position> positions{*start};
  positions.reserve(record.moves.size() + 1);
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    Position next = positions.back();
    if (auto err = next.try_play(record.moves[i].move))
      return Unexpected("move " + std::to_string(i + 1) + " (" + to_string(record.moves[i].move) +
                        "): " + std::string(describe(*err)));
    positions.push_back(next);
  }
  return ReplayModel(std::move(record), std::move(positions));
}

bool ReplayModel::forward() {
  if (ply_ >= size()) return false;
  ++ply_;
  return true;
}

bool ReplayModel::back() {
  if (ply_ == 0) return false;
  --ply_;
  return true;
}

void ReplayModel::jump(std::size_t ply) { ply_ = std::min(ply, size()); }

std::optional<Move> ReplayModel::last_move() const {
  if (ply_ == 0) return std::nullopt;
  return record_.moves[ply_ - 1].move;
}

std::vector<MoveRow> ReplayModel::move_rows() const {
  std::vector<Move> moves;
  moves.reserve(record_.moves.size());
  for (const RecordedMove& m : record_.moves) moves.push_back(m.move);
  return client::move_rows(moves);
}

std::string ReplayModel::progress() const {
  if (ply_ == 0) return "Start position";
  return "Move " + std::to_string(ply_) + " of " + std::to_string(size());
}

std::string ReplayModel::result_text() const {
  if (!record_.result) return "Unfinished game";
  return client::result_title(*record_.result) + ": " + client::result_reason(*record_.result);
}

}  // namespace amazons::client
