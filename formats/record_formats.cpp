#include "formats/record_formats.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/littlegolem.h"
#include "formats/move_list.h"
#include "formats/sgf.h"

namespace amazons::formats {

namespace fs = std::filesystem;

namespace {

struct FormatInfo {
  RecordFormat format;
  std::string_view name;
  std::string_view extensions[3];  // empty ones unused
};
const FormatInfo kFormats[] = {
    {RecordFormat::Json, "json", {".json"}},
    {RecordFormat::Text, "text", {".txt"}},
    {RecordFormat::Sgf, "sgf", {".sgf"}},
    {RecordFormat::LittleGolem, "littlegolem", {".lg"}},
    {RecordFormat::MoveList, "moves", {".moves", ".uci", ".fsf"}},
};

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string system_error(int err) { return std::strerror(err); }

}  // namespace

std::string_view name(RecordFormat f) {
  for (const auto& info : kFormats)
    if (info.format == f) return info.name;
  return "?";
}

std::optional<RecordFormat> format_from_name(std::string_view n) {
  for (const auto& info : kFormats)
    if (info.name == n) return info.format;
  return std::nullopt;
}

bool can_write(RecordFormat f) { return f != RecordFormat::LittleGolem; }

Expected<RecordFormat, std::string> format_for_path(const fs::path& path) {
  const std::string ext = lower(path.extension().string());
  for (const auto& info : kFormats)
    for (std::string_view e : info.extensions)
      if (!e.empty() && e == ext) return info.format;
  return Unexpected(
      std::string(ext.empty() ? "no file extension" : "unknown file extension '" + ext + "'") +
      ": expected .json, .txt, .sgf, .lg or .moves (.uci, .fsf), or say --from/--to json, text, "
      "sgf, littlegolem or moves");
}

Expected<GameRecord, std::string> read_record(std::string_view text, RecordFormat f) {
  switch (f) {
    case RecordFormat::Json:
      return parse_record_json(text);
    case RecordFormat::Text:
      return parse_record_text(text);
    case RecordFormat::Sgf: {
      auto nodes = parse_sgf_main_line(text);
      if (!nodes) return Unexpected(nodes.error());
      if (!nodes->empty() && looks_like_littlegolem(nodes->front()))
        return littlegolem_record(*nodes);
      return sgf_record(*nodes);
    }
    case RecordFormat::LittleGolem:
      return parse_littlegolem(text);
    case RecordFormat::MoveList:
      return parse_move_list(text);
  }
  return Unexpected(std::string("unknown format"));
}

Expected<std::string, std::string> write_record(const GameRecord& record, RecordFormat f) {
  switch (f) {
    case RecordFormat::Json:
      // Names from other formats need not be UTF-8: the JSON gets U+FFFD for what is not.
      return to_json(record).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    case RecordFormat::Text:
      return to_text(record);
    case RecordFormat::Sgf:
      return to_sgf(record);
    case RecordFormat::MoveList:
      return to_move_list(record);
    case RecordFormat::LittleGolem:
      break;
  }
  return Unexpected(std::string(name(f)) +
                    ": this format can only be read (write sgf, which LittleGolem's tools read)");
}

Expected<std::string, std::string> read_file(const fs::path& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return Unexpected(std::string("no such file"));
  if (fs::is_directory(status)) return Unexpected(std::string("is a directory, not a file"));
  if (const auto size = fs::file_size(path, ec); !ec && size > kMaxRecordFileBytes)
    return Unexpected("larger than " + std::to_string(kMaxRecordFileBytes / (1024 * 1024)) +
                      " MB: not a game record");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Unexpected("cannot be opened: " + system_error(errno));
  std::string text;
  char buffer[64 * 1024];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxRecordFileBytes)
      return Unexpected("larger than " + std::to_string(kMaxRecordFileBytes / (1024 * 1024)) +
                        " MB: not a game record");
  }
  if (in.bad()) return Unexpected("cannot be read: " + system_error(errno));
  return text;
}

Expected<GameRecord, std::string> convert_file(const fs::path& in, const fs::path& out,
                                               const ConvertOptions& options) {
  RecordFormat from{}, to{};
  if (options.from) {
    from = *options.from;
  } else {
    auto f = format_for_path(in);
    if (!f) return Unexpected(in.string() + ": " + f.error());
    from = *f;
  }
  if (options.to) {
    to = *options.to;
  } else {
    auto f = format_for_path(out);
    if (!f) return Unexpected(out.string() + ": " + f.error());
    to = *f;
  }
  if (!can_write(to))
    return Unexpected(out.string() + ": " + std::string(name(to)) +
                      " can only be read; write sgf, json, text or moves");
  auto text = read_file(in);
  if (!text) return Unexpected(in.string() + ": " + text.error());
  auto record = read_record(*text, from);
  if (!record)
    return Unexpected(in.string() + " (read as " + std::string(name(from)) +
                      "): " + record.error());
  auto written = write_record(*record, to);
  if (!written) return Unexpected(out.string() + ": " + written.error());
  if (auto done = write_file_atomically(out, *written); !done)
    return Unexpected(out.string() + ": " + done.error());
  return record;
}

}  // namespace amazons::formats
