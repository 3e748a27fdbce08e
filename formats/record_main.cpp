// amazons-record: converts game records between our formats and those of other sites.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/game_record.h"
#include "formats/record_formats.h"

namespace {

using namespace amazons;
using namespace amazons::formats;

constexpr int kFailed = 1;  // the input is not a legal game, or a file could not be used
constexpr int kUsage = 2;   // the command line is wrong

constexpr const char* kHelp = R"(amazons-record: game records to and from other sites

Usage:
  amazons-record convert IN OUT [--from FORMAT] [--to FORMAT]
  amazons-record check IN [--from FORMAT]
  amazons-record --help | --version

convert reads IN, checks every move with the rules, and writes OUT. Nothing is written
unless the whole game is legal: OUT is written to a temporary file next to it and renamed.
check reads IN the same way and prints the players, the number of moves and the result.

Formats (named by --from/--to, else by the file extension):
  json         .json          our game record (docs/GAME_RECORD.md)
  text         .txt           our text record
  sgf          .sgf           SGF for the Amazons, GM[18]; an .sgf file from LittleGolem
                              (no GM, SO names littlegolem) is read as littlegolem
  littlegolem  .lg            LittleGolem's game records (read only)
  moves        .moves .uci .fsf
                              Fairy-Stockfish / PlayStrategy move lists: d1d7,d7g7 ...
                              with an optional "position fen FEN moves" in front

Exit status: 0 done, 1 the input is not a legal game or a file could not be used,
2 the command line is wrong. docs/RECORD_FORMATS.md describes every format.
)";

int usage(const std::string& problem) {
  std::cerr << "amazons-record: " << problem << "\n(amazons-record --help shows the usage)\n";
  return kUsage;
}

std::string result_text(const GameRecord& r) {
  if (!r.result) return "no result";
  if (!r.result->winner) return "aborted";
  return std::string(color_name(*r.result->winner)) + " won (" +
         std::string(code(r.result->reason)) + ")";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage("expected a command: convert or check");
  std::vector<std::string> positional;
  ConvertOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kHelp;
      return 0;
    }
    if (a == "--version") {
      std::cout << "amazons-record " AMAZONS_VERSION "\n";
      return 0;
    }
    if (a == "--from" || a == "--to") {
      if (i + 1 >= args.size()) return usage(a + ": expected a format name");
      const auto f = format_from_name(args[++i]);
      if (!f)
        return usage(a + " " + args[i] +
                     ": unknown format (expected json, text, sgf, littlegolem or moves)");
      (a == "--from" ? options.from : options.to) = *f;
      continue;
    }
    if (a.size() > 1 && a[0] == '-') return usage(a + ": unknown option");
    positional.push_back(a);
  }
  if (positional.empty()) return usage("expected a command: convert or check");
  const std::string command = positional[0];
  if (command == "convert") {
    if (positional.size() != 3) return usage("convert: expected IN and OUT");
    auto done = convert_file(positional[1], positional[2], options);
    if (!done) {
      std::cerr << "amazons-record: " << done.error() << "\n";
      return kFailed;
    }
    std::cout << positional[1] << " -> " << positional[2] << ": " << done->moves.size()
              << " moves, " << result_text(*done) << "\n";
    return 0;
  }
  if (command == "check") {
    if (positional.size() != 2) return usage("check: expected IN");
    if (options.to) return usage("check: --to has no meaning here");
    const std::string& in = positional[1];
    RecordFormat from{};
    if (options.from) {
      from = *options.from;
    } else {
      auto f = format_for_path(in);
      if (!f) {
        std::cerr << "amazons-record: " << in << ": " << f.error() << "\n";
        return kFailed;
      }
      from = *f;
    }
    auto text = read_file(in);
    if (!text) {
      std::cerr << "amazons-record: " << in << ": " << text.error() << "\n";
      return kFailed;
    }
    auto record = read_record(*text, from);
    if (!record) {
      std::cerr << "amazons-record: " << in << " (read as " << name(from) << "): " << record.error()
                << "\n";
      return kFailed;
    }
    std::cout << in << ": " << record->rules.name << " " << record->rules.size << "x"
              << record->rules.size << ", white " << record->white.name << ", black "
              << record->black.name << ", " << record->moves.size() << " moves, "
              << result_text(*record) << "\n";
    return 0;
  }
  return usage("unknown command '" + command + "' (expected convert or check)");
}
