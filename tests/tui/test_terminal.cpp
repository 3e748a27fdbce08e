// amazons-tui in a real terminal: tmux runs the program in a detached session of a fixed size,
// send-keys types, capture-pane reads the screen (tests/tui/tmux_driver.h).
#include <doctest/doctest.h>
#include <signal.h>

#include <random>

#include "client/game_store.h"
#include "tests/client/temp_dir.h"
#include "tests/tui/tui_test_util.h"
#include "tui/canvas.h"

using namespace amazons;
using namespace amazons::test;
namespace fs = std::filesystem;

namespace {

Move random_move(const Position& pos, std::mt19937_64& rng) {
  MoveList moves;
  generate_moves(pos, moves);
  REQUIRE(!moves.empty());
  return moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
}

// From the menu to a two-player game at the start position.
void start_two_player_game(TmuxSession& t) {
  t.wait_for("Two players at this terminal");
  t.keys({"2"});
  t.wait_for("Both play at this terminal");
  t.keys({"Enter"});
  t.wait_for(kPickQueen);
}

// The shortest start of m's notation that no other legal move shares.
std::string unique_prefix(const Position& pos, Move m) {
  MoveList moves;
  generate_moves(pos, moves);
  const std::string full = to_string(m);
  for (std::size_t n = 1; n <= full.size(); ++n) {
    const std::string p = full.substr(0, n);
    int fits = 0;
    for (Move o : moves) fits += to_string(o).rfind(p, 0) == 0 ? 1 : 0;
    if (fits == 1) return p;
  }
  return full;
}

}  // namespace

TEST_SUITE("tui") {
  TEST_CASE("terminal: a whole game against the beginner with the cursor keys and Enter") {
    REQUIRE_MESSAGE(tmux_available(), "tmux is needed (scripts/debian-packages.txt)");
    TempDir home;
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
    keep_screen("menu", t.wait_for("Play the computer"));
    t.keys({"Enter"});
    std::string s = t.wait_for("Your colour");
    for (int i = 0; i < 8 && !contains(s, "< Beginner >"); ++i) {
      const std::string before = s;
      t.keys({"Left"});
      s = t.wait_until("the level to change", [&](const std::string& x) { return x != before; });
    }
    REQUIRE(contains(s, "< Beginner >"));
    keep_screen("computer-setup", s);
    CHECK(contains(s, "< White >"));
    t.keys({"Enter"});
    s = t.wait_for(kPickQueen);
    CHECK(contains(s, "Computer (Beginner)"));

    std::mt19937_64 rng(11);
    int turns = 0;
    for (; turns < 60; ++turns) {
      s = t.wait_until(
          "our turn or the end",
          [](const std::string& x) { return contains(x, kPickQueen) || contains(x, " wins"); },
          std::chrono::seconds(20));
      if (contains(s, " wins")) break;
      auto b = read_board(s, 10);
      REQUIRE(b.has_value());
      CHECK(b->cell_w == 3);  // 80x24 takes the smallest squares
      const Position pos = b->position(Color::White);
      const Move m = random_move(pos, rng);
      REQUIRE(!b->cursor.is_none());
      auto keys = cursor_path(b->cursor, m.from());
      keys.push_back("Enter");
      t.keys(keys);
      // The same highlights as the desktop client: the queen's destinations...
      s = t.wait_for(kPickDestination);
      if (turns == 4) keep_screen("game-destinations", s);
      b = read_board(s, 10);
      REQUIRE(b.has_value());
      CHECK(b->dots == queen_destinations(pos, m.from()));
      CHECK(b->cursor == m.from());
      keys = cursor_path(m.from(), m.to());
      keys.push_back("Enter");
      t.keys(keys);
      // ... then the arrow targets from where it went.
      s = t.wait_for(kPickArrow);
      if (turns == 4) keep_screen("game-arrow", s);
      b = read_board(s, 10);
      REQUIRE(b.has_value());
      CHECK(b->rings == arrow_targets(pos, m.from(), m.to()));
      keys = cursor_path(m.to(), m.arrow());
      keys.push_back("Enter");
      t.keys(keys);
      Position after = pos;
      after.do_move(m);
      t.wait_until("our move on the board", [&](const std::string& x) {
        auto now = read_board(x, 10);
        return now && now->arrows.test(m.arrow());
      });
    }
    s = t.wait_for(" wins", std::chrono::seconds(20));
    keep_screen("computer-result", s);
    CHECK(turns > 5);
    CHECK(contains(s, "has no legal move left."));
    CHECK(contains(s, ":rematch"));
    // The finished game was saved where the desktop client keeps them too.
    t.wait_until("the saved game", [&](const std::string&) {
      return !client::GameStore(home.path() / "data").list().empty();
    });
    const auto games = client::GameStore(home.path() / "data").list();
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].record.has_value());
    CHECK(games[0].record->black.name == "Computer (beginner)");
    CHECK(games[0].record->result.has_value());
  }

  TEST_CASE("terminal: two players type a whole game in the notation, with completion") {
    REQUIRE(tmux_available());
    TempDir home;
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
    start_two_player_game(t);
    std::mt19937_64 rng(5);
    Position pos(standard_variant());
    int plies = 0;
    for (; plies < 120 && !pos.is_game_over(); ++plies) {
      const Move m = random_move(pos, rng);
      std::string typed = to_string(m);
      if (plies % 3 == 1) {
        // Upper case, spaces for separators.
        typed = to_string(m.from()) + " " + to_string(m.to()) + " " + to_string(m.arrow());
        for (char& c : typed) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      } else if (plies % 3 == 2) {
        typed = unique_prefix(pos, m);  // completed: it can only be this move
      }
      t.type(typed);
      t.keys({"Enter"});
      pos.do_move(m);
      t.wait_until("the move " + to_string(m) + " (typed \"" + typed + "\") on the board",
                   [&](const std::string& x) {
                     return same_board(x, pos) && (contains(x, kPickQueen) || pos.is_game_over());
                   });
    }
    REQUIRE(pos.is_game_over());
    const std::string s = t.wait_for(" wins");
    CHECK(contains(s, (pos.side_to_move() == Color::White ? "Black wins" : "White wins")));
    CHECK(contains(s, "has no legal move left."));
    const auto games = client::GameStore(home.path() / "data").list();
    REQUIRE(games.size() == 1);
    CHECK(static_cast<int>(games[0].record->moves.size()) == plies);

    // The saved game replays from the menu, to its last move and back to the start.
    t.type(":menu");
    t.keys({"Enter"});
    t.wait_for("Replay saved games");
    t.keys({"4"});
    t.wait_for("Player vs Guest");
    t.keys({"Enter"});
    std::string r = t.wait_for("Start position");
    CHECK(same_board(r, Position(standard_variant())));
    t.keys({"End"});
    r = t.wait_for("Move " + std::to_string(plies) + " of " + std::to_string(plies));
    CHECK(same_board(r, pos));
    t.keys({"Home", "Right"});
    t.wait_for("Move 1 of " + std::to_string(plies));
  }

  TEST_CASE(
      "terminal: an illegal move is refused with the reason, and typed squares mark the board") {
    REQUIRE(tmux_available());
    TempDir home;
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
    start_two_player_game(t);
    const Position start(standard_variant());
    t.type("d1-d10/d9");
    t.keys({"Enter"});
    std::string s = t.wait_for("d1-d10: The queen's destination is taken.");
    keep_screen("illegal", s);
    CHECK(same_board(s, start));
    t.keys({"Escape"});
    t.type("a1");
    t.wait_for("there is no White queen on a1");
    t.keys({"Escape"});
    t.type("d1-e3");
    t.wait_for("d1-e3: A queen moves in a straight line");
    t.keys({"Escape"});
    t.type("d1-d7/d1/d2");
    t.wait_for("a move names three squares");
    t.keys({"Escape"});
    t.type("q");
    t.wait_for("'q' has no place in a move");
    t.keys({"Escape"});
    // Typing the queen marks its destinations, as picking it with the cursor does.
    t.type("d1");
    s = t.wait_for(kPickDestination);
    auto b = read_board(s, 10);
    REQUIRE(b.has_value());
    CHECK(b->dots == queen_destinations(start, Square::at(3, 0)));
    t.type("-d7");
    s = t.wait_for(kPickArrow);
    b = read_board(s, 10);
    REQUIRE(b.has_value());
    CHECK(b->rings == arrow_targets(start, Square::at(3, 0), Square::at(3, 6)));
    // A move of the wrong side is refused too; nothing was played.
    t.keys({"Escape"});
    t.type("a7-b7/c7");
    t.keys({"Enter"});
    s = t.wait_for("there is no White queen on a7");
    CHECK(same_board(s, start));
  }

  TEST_CASE("terminal: the layout follows resizes, larger squares with more room") {
    REQUIRE(tmux_available());
    TempDir home;
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
    start_two_player_game(t);
    t.type("d1-d7/g7");
    t.keys({"Enter"});
    Position pos(standard_variant());
    pos.do_move(*parse_move("d1-d7/g7"));
    const std::string small = t.wait_until("the move", [&](const std::string& x) {
      return same_board(x, pos) && contains(x, kPickQueen);
    });
    CHECK(read_board(small, 10)->cell_w == 3);
    auto width_of = [](const std::string& x) {
      std::size_t w = 0;
      for (const std::string& line : lines_of(x))
        w = std::max(w, amazons::tui::decode_utf8(line).size());
      return w;
    };
    CHECK(width_of(small) <= 80);
    t.resize(120, 40);
    std::string s = t.wait_until("7x3 squares", [&](const std::string& x) {
      auto b = read_board(x, 10);
      return b && b->cell_w == 7 && same_board(x, pos);
    });
    CHECK(contains(s, "d1-d7/g7"));
    keep_screen("large-120x40", s);
    t.resize(100, 30);
    t.wait_until("5x2 squares", [&](const std::string& x) {
      auto b = read_board(x, 10);
      return b && b->cell_w == 5 && same_board(x, pos);
    });
    t.resize(40, 12);  // too small for everything: clipped, but alive
    t.wait_until("the small screen", [&](const std::string& x) {
      return lines_of(x).size() <= 12 && !read_board(x, 10);
    });
    t.resize(80, 24);
    // Back to the first size: the same screen, nothing left over from the others.
    s = t.wait_until("the first layout again", [&](const std::string& x) { return x == small; });
    CHECK(s == small);
  }

  TEST_CASE("terminal: --ascii draws the board in plain ASCII") {
    REQUIRE(tmux_available());
    TempDir home;
    TmuxSession t(home.path(), tui_args(home.path(), {"--ascii"}), 80, 24);
    start_two_player_game(t);
    t.type("d1");
    const std::string s = t.wait_for(kPickDestination);
    keep_screen("ascii", s);
    for (unsigned char c : s) CHECK_MESSAGE(c < 0x80, "a byte that is not ASCII: " << int(c));
    auto b = read_board(s, 10, true);
    REQUIRE(b.has_value());
    CHECK(b->white.size() == 4);
    CHECK(b->black.size() == 4);
    CHECK(b->dots == queen_destinations(Position(standard_variant()), Square::at(3, 0)));
  }

  TEST_CASE("terminal: restored after Ctrl-C, SIGTERM and a crash signal, the game kept") {
    REQUIRE(tmux_available());
    TempDir home;
    const std::string restored = "[modes icanon echo ]";
    {
      TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
      start_two_player_game(t);
      t.type("d1-d7/g7");
      t.keys({"Enter"});
      t.wait_for("1.   d1-d7/g7");
      t.keys({"C-c"});
      const std::string s = t.wait_for("[exit 0]");
      t.wait_for(restored);
      CHECK(!contains(s, "Moves"));  // the alternate screen is gone
    }
    {
      TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
      t.wait_for("Resume the unfinished game");  // Ctrl-C left the game saved
      const pid_t pid = t.program_pid();
      REQUIRE(pid > 0);
      kill(pid, SIGTERM);
      t.wait_for("[exit 0]");
      t.wait_for(restored);
    }
    {
      TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
      t.wait_for("Resume the unfinished game");
      t.keys({"Enter"});
      t.wait_for("1.   d1-d7/g7");
      const pid_t pid = t.program_pid();
      REQUIRE(pid > 0);
      kill(pid, SIGSEGV);
      const std::string s = t.wait_for("[exit 139]");
      t.wait_for(restored);
      CHECK(!contains(s, "Moves"));
    }
  }
}

TEST_SUITE("tui") {
  TEST_CASE("terminal: in Chinese from LANG=zh_CN.UTF-8, aligned by display width, never cut") {
    REQUIRE_MESSAGE(tmux_available(), "tmux is needed (scripts/debian-packages.txt)");
    TempDir home;
    // LC_ALL empty: LANG decides, as on a Chinese desktop (zh_CN.UTF-8 need not be generated).
    const std::map<std::string, std::string> chinese = {{"LANG", "zh_CN.UTF-8"}, {"LC_ALL", ""}};
    TmuxSession t(home.path(), tui_args(home.path()), 80, 24, chinese);
    std::string s = t.wait_for("两人在本终端对弈");
    keep_screen("menu-zh", s);
    CHECK(contains(s, "亚马逊棋"));
    CHECK(contains(s, "1  与电脑对弈"));
    CHECK(contains(s, "语言：简体中文"));
    CHECK_FALSE(contains(s, "Play the computer"));

    // The form's values start in one column whatever the labels' widths: "白方" and "规则" are
    // two characters and four columns, "用时" too, so the values line up after them.
    t.keys({"2"});
    s = t.wait_for("双人对弈");
    keep_screen("two-players-zh", s);
    const std::string white = line_with(s, "白方"), rules = line_with(s, "规则");
    REQUIRE_FALSE(white.empty());
    REQUIRE_FALSE(rules.empty());
    CHECK(tui::text_width(white.substr(0, white.find("Player"))) ==
          tui::text_width(rules.substr(0, rules.find("<"))));

    t.keys({"Enter"});
    s = t.wait_for("选一个你的皇后。");
    keep_screen("game-zh", s);
    CHECK(contains(s, "轮到白方"));
    CHECK(contains(s, "着法"));
    CHECK(same_board(s, Position(standard_variant())));
    t.type("d1-d7/g7");
    s = t.wait_for("按回车走 d1-d7/g7。");
    t.keys({"Enter"});
    s = t.wait_for("轮到黑方");
    CHECK(contains(s, "1.   d1-d7/g7"));
    // A refused square says why in Chinese, in the rules' words.
    t.type("a1");
    s = t.wait_for("a1 上没有黑方的皇后");
    keep_screen("game-typed-zh", s);

    // Narrow: the hint line is clipped at a character's edge, never through one (tmux would show
    // the half as a space or a stray byte), and the board still reads back.
    t.resize(50, 24);
    s = t.wait_until("the narrow screen", [](const std::string& x) {
      for (const std::string& line : lines_of(x))
        if (tui::text_width(line) > 50) return false;
      return contains(x, "轮到黑方");
    });
    keep_screen("game-narrow-zh", s);
    CHECK_FALSE(contains(s, "\uFFFD"));
    for (const std::string& line : lines_of(s)) CHECK(tui::text_width(line) <= 50);
  }
}
