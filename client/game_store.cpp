#include "client/game_store.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "client/game_text.h"
#include "client/user_files.h"

namespace amazons::client {

namespace fs = std::filesystem;

namespace {

std::string file_safe(const std::string& name) {
  std::string out;
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isalnum(u) || ch == '-' || ch == '_') {
      out += ch;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  return out.empty() ? "player" : out.substr(0, 24);
}

std::string stamp_for_file(const std::optional<Timestamp>& t) {
  std::string s = format_timestamp(t.value_or(
      std::chrono::floor<Millis>(std::chrono::system_clock::now())));  // 2026-11-29T14:25:19Z
  std::replace(s.begin(), s.end(), ':', '-');
  s.erase(std::remove(s.begin(), s.end(), 'Z'), s.end());
  return s;
}

}  // namespace

std::optional<std::string> GameStore::save_unfinished(const GameRecord& record) const {
  return write_file_atomically(unfinished_path(), to_json(record).dump(1) + "\n");
}

std::optional<Expected<GameRecord, std::string>> GameStore::load_unfinished() const {
  std::error_code ec;
  if (!fs::exists(unfinished_path(), ec)) return std::nullopt;
  auto record = load(unfinished_path());
  if (record && record->result)
    return Expected<GameRecord, std::string>(
        Unexpected(unfinished_path().string() + ": the game is already over"));
  return record;
}

void GameStore::discard_unfinished() const {
  std::error_code ec;
  fs::remove(unfinished_path(), ec);
}

Expected<fs::path, std::string> GameStore::archive(const GameRecord& record) const {
  const std::string base = stamp_for_file(record.started_at) + "_" + file_safe(record.white.name) +
                           "_vs_" + file_safe(record.black.name);
  fs::path file = games_dir() / (base + ".json");
  std::error_code ec;
  for (int n = 2; fs::exists(file, ec); ++n)
    file = games_dir() / (base + "_" + std::to_string(n) + ".json");
  if (auto problem = write_file_atomically(file, to_json(record).dump(1) + "\n"))
    return Unexpected(*problem);
  return file;
}

Expected<std::optional<fs::path>, std::string> GameStore::finish(const GameRecord& record) const {
  std::optional<fs::path> written;
  if (!record.moves.empty()) {
    auto file = archive(record);
    if (!file) return Unexpected(file.error());
    written = *file;
  }
  discard_unfinished();
  return written;
}

Expected<std::optional<fs::path>, std::string> GameStore::shelve_unfinished() const {
  auto unfinished = load_unfinished();
  if (!unfinished) return std::optional<fs::path>();
  std::optional<fs::path> written;
  if (*unfinished) {
    auto file = archive(**unfinished);
    if (!file) return Unexpected(file.error());
    written = *file;
    discard_unfinished();
  } else {
    // Unreadable: keep the bytes under another name rather than delete them.
    fs::path aside = unfinished_path();
    aside += ".bad";
    std::error_code ec;
    fs::rename(unfinished_path(), aside, ec);
    if (ec) return Unexpected("cannot move " + unfinished_path().string() + ": " + ec.message());
    written = aside;
  }
  return written;
}

std::vector<GameStore::Entry> GameStore::list() const {
  std::vector<Entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(games_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".json") continue;
    Entry e{it->path(), std::nullopt, {}};
    auto record = load(it->path());
    if (record) {
      e.record = std::move(*record);
    } else {
      e.problem = record.error();
    }
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(),
            [](const Entry& a, const Entry& b) { return a.file.filename() > b.file.filename(); });
  return out;
}

Expected<GameRecord, std::string> GameStore::load(const fs::path& file) {
  auto text = read_file(file);
  if (!text) return Unexpected(text.error());
  auto record = parse_record_json(*text);
  if (!record) return Unexpected(file.filename().string() + ": " + record.error());
  return record;
}

std::string describe_game(const GameRecord& r) {
  std::string line = r.white.name + " vs " + r.black.name;
  if (r.started_at) {
    const std::string t = format_timestamp(*r.started_at);  // 2026-11-29T14:25:19Z
    line += ", " + t.substr(0, 10) + " " + t.substr(11, 5);
  }
  line += " - " + (r.result ? result_title(*r.result) : std::string("unfinished"));
  line += ", " + std::to_string(r.moves.size()) + (r.moves.size() == 1 ? " move" : " moves");
  return line;
}

std::array<Millis, 2> clocks_after(const GameRecord& r) {
  std::array<Millis, 2> clocks{r.time_control.initial, r.time_control.initial};
  auto start = initial_position(r);
  Color mover = start ? start->side_to_move() : r.rules.first_to_move;
  for (const RecordedMove& m : r.moves) {
    if (m.clock_left) clocks[static_cast<std::size_t>(index_of(mover))] = *m.clock_left;
    mover = ~mover;
  }
  return clocks;
}

}  // namespace amazons::client
