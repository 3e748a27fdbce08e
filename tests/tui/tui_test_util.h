// What the terminal tests share: the program's path and arguments, and reading the screen.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>
#include "tests/test_paths.h"

#include "common/movegen.h"
#include "common/notation.h"
#include "tests/tui/screen_board.h"
#include "tests/tui/tmux_driver.h"

namespace amazons::test {

inline const std::string kTuiExe = amazons::test::binary_dir() + "/tui/amazons-tui";

// amazons-tui with its settings and saved games in `home`.
inline std::vector<std::string> tui_args(const std::filesystem::path& home,
                                         std::vector<std::string> extra = {}) {
  std::vector<std::string> a = {kTuiExe, "--config-dir", (home / "config").string(), "--data-dir",
                                (home / "data").string()};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// With AMAZONS_TUI_CAPTURES set, the screen is kept there as NAME.txt (for the README).
inline void keep_screen(const std::string& name, const std::string& screen) {
  if (const char* dir = std::getenv("AMAZONS_TUI_CAPTURES"))
    std::ofstream(std::filesystem::path(dir) / (name + ".txt")) << screen;
}

inline bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

// Whether the board drawn on `screen` is `want` (queens and arrows; the side to move is taken
// from `want`).
inline bool same_board(const std::string& screen, const Position& want) {
  auto b = read_board(screen, want.size());
  if (!b) return false;
  auto p = Position::make(want.size(), b->white, b->black, b->arrows, want.side_to_move());
  return p && *p == want;
}

// The first line of `screen` that holds `needle`, empty if none does. Waiting for one line to
// change, not the whole screen, keeps a key's effect apart from unrelated redraws: with two rule
// variants, a wait that ended on some other change let the next key cycle back to the start.
inline std::string line_with(const std::string& screen, const std::string& needle) {
  for (const std::string& line : lines_of(screen))
    if (contains(line, needle)) return line;
  return {};
}

inline const std::string kPickQueen = "Pick up one of your queens.";
inline const std::string kPickDestination = "Move it to a marked square.";
inline const std::string kPickArrow = "Shoot the arrow to a ringed square.";

// Cursor keys from `from` to `to` (White at the bottom unless flipped).
inline std::vector<std::string> cursor_path(Square from, Square to, bool flipped = false) {
  std::vector<std::string> keys;
  int dx = to.file() - from.file(), dy = to.rank() - from.rank();
  if (flipped) {
    dx = -dx;
    dy = -dy;
  }
  for (int i = 0; i < std::abs(dx); ++i) keys.push_back(dx > 0 ? "Right" : "Left");
  for (int i = 0; i < std::abs(dy); ++i) keys.push_back(dy > 0 ? "Up" : "Down");
  return keys;
}

}  // namespace amazons::test
