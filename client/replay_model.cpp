#include "client/replay_model.h"

#include <algorithm>

#include "client/analysis_model.h"
#include "client/user_files.h"
#include "common/notation.h"
#include "formats/record_formats.h"
#include "formats/sgf.h"

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

Expected<ReplayModel, std::string> ReplayModel::open(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  auto format = formats::format_for_path(file);
  if (!format) return Unexpected(name + ": " + format.error());
  auto text = formats::read_file(file);
  if (!text) return Unexpected(name + ": " + text.error());
  auto record = formats::read_record(*text, *format);
  if (!record) return Unexpected(name + ": " + record.error());
  return make(std::move(*record));
}

std::string ReplayModel::export_sgf() const { return formats::to_sgf(record_); }

Expected<std::filesystem::path, std::string> export_replay(const ReplayModel& model,
                                                           const std::filesystem::path& data_dir,
                                                           ExportFormat format) {
  const GameRecord& r = model.record();
  std::string base = r.started_at ? format_timestamp(*r.started_at) : "game";
  std::replace(base.begin(), base.end(), ':', '-');
  const bool sgf = format == ExportFormat::Sgf;
  const auto file = data_dir / "exports" / (base + (sgf ? ".sgf" : ".txt"));
  if (auto problem = write_file_atomically(file, sgf ? model.export_sgf() : model.export_text()))
    return Unexpected(*problem);
  return file;
}

std::vector<std::filesystem::path> importable_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto format = formats::format_for_path(it->path());
    if (format &&
        (*format == formats::RecordFormat::Sgf || *format == formats::RecordFormat::LittleGolem ||
         *format == formats::RecordFormat::MoveList))
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
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

bool ReplayModel::annotate(const GameRecord& analysed) {
  if (analysed.rules != record_.rules || analysed.start_position != record_.start_position ||
      analysed.moves.size() != record_.moves.size())
    return false;
  for (std::size_t i = 0; i < record_.moves.size(); ++i)
    if (analysed.moves[i].move != record_.moves[i].move) return false;
  for (std::size_t i = 0; i < record_.moves.size(); ++i)
    record_.moves[i].annotation = analysed.moves[i].annotation;
  return true;
}

std::vector<MoveRow> ReplayModel::move_rows() const {
  std::vector<Move> moves;
  moves.reserve(record_.moves.size());
  for (const RecordedMove& m : record_.moves) moves.push_back(m.move);
  std::vector<MoveRow> rows = client::move_rows(moves);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].first += mark_suffix(record_, 2 * i + 1);
    if (!rows[i].second.empty()) rows[i].second += mark_suffix(record_, 2 * i + 2);
  }
  return rows;
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
