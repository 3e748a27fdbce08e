// The terminal client's screen model without a terminal: typed moves, the board's fit, the
// canvas, and whole screens driven through tui::App with keys.
#include <doctest/doctest.h>
#include "tests/test_paths.h"

#include <thread>
#include <tuple>

#include "common/movegen.h"
#include "common/notation.h"
#include "tests/client/temp_dir.h"
#include "tui/app.h"
#include "tui/board_draw.h"
#include "tui/canvas.h"
#include "tui/move_entry.h"

using namespace amazons;
using namespace amazons::tui;

namespace {

Square sq(const char* s) { return *parse_square(s); }

const client::Catalogue& english() {
  static const client::Catalogue catalogue =
      client::Catalogue::load(std::filesystem::path(amazons::test::source_dir()) / "i18n", "en")
          .catalogue;
  return catalogue;
}

struct Driven {
  explicit Driven(const std::filesystem::path& home, bool ascii = false)
      : app([&] {
          AppOptions o;
          o.config_dir = home / "config";
          o.data_dir = home / "data";
          o.rules_dir = std::filesystem::path(amazons::test::config_dir()) / "rules";
          o.ai_config = std::filesystem::path(amazons::test::config_dir()) / "ai.json";
          o.i18n_dir = std::filesystem::path(amazons::test::source_dir()) / "i18n";
          o.language = "en";
          o.ascii = ascii;
          return o;
        }()) {}
  std::string screen(int w = 80, int h = 24) {
    const auto now = std::chrono::steady_clock::now();
    app.tick(now);
    Canvas c(w, h);
    app.draw(c, now);
    return c.text();
  }
  void type(const std::string& text) {
    for (char ch : text) app.key(Key::character(static_cast<char32_t>(ch)));
  }
  void press(Key::Code code) { app.key(Key::of(code)); }
  // Ticks until the screen shows `needle` (a game's events come from its own thread).
  std::string wait_for(const std::string& needle) {
    for (int i = 0; i < 400; ++i) {
      const std::string s = screen();
      if (s.find(needle) != std::string::npos) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("no \"" << needle << "\" on the screen:\n" << screen());
    return {};
  }
  App app;
};

}  // namespace

TEST_SUITE("tui") {
  TEST_CASE("move entry: the fitting moves, the completion and the squares every fit shares") {
    const Position pos(standard_variant());
    MoveEntry e = read_move_entry(english(), pos, "d1");
    CHECK(e.problem.empty());
    CHECK(e.from == sq("d1"));
    CHECK(e.to.is_none());
    CHECK(e.fits.size() == static_cast<std::size_t>([&] {
            int n = 0;
            MoveList all;
            generate_moves(pos, all);
            for (Move m : all) n += m.from() == sq("d1") ? 1 : 0;
            return n;
          }()));
    CHECK(e.completion == "d1-");
    e = read_move_entry(english(), pos, "D1 d7");
    CHECK(e.canonical == "d1-d7");
    CHECK(e.to == sq("d7"));
    e = read_move_entry(english(), pos, "d1d7g7");
    REQUIRE(e.unique());
    CHECK(to_string(e.fits.front()) == "d1-d7/g7");
    e = read_move_entry(english(), pos, "a4-a5/a");
    CHECK(e.problem.empty());
    CHECK(e.completion.rfind("a4-a5/a", 0) == 0);
    e = read_move_entry(english(), pos, "");
    CHECK(e.problem.empty());
    CHECK(e.from.is_none());
  }

  TEST_CASE("move entry: why nothing fits") {
    const Position pos(standard_variant());
    CHECK(read_move_entry(english(), pos, "a1").problem == "there is no White queen on a1");
    CHECK(read_move_entry(english(), pos, "a7-a8/a9").problem == "there is no White queen on a7");
    CHECK(read_move_entry(english(), pos, "d1-d10").problem ==
          "d1-d10: The queen's destination is taken.");
    CHECK(read_move_entry(english(), pos, "d1-e3/e4").problem ==
          "d1-e3: A queen moves in a straight line: along a row, a column or a diagonal.");
    CHECK(read_move_entry(english(), pos, "d1-d7/d10").problem ==
          "d1-d7/d10: The arrow's square is taken.");
    CHECK(read_move_entry(english(), pos, "d1-d7/e9").problem ==
          "d1-d7/e9: An arrow flies in a straight line from the queen: along a row, a column or a "
          "diagonal.");
    CHECK(read_move_entry(english(), pos, "k1").problem == "'k1' is not a square of this board");
    CHECK(read_move_entry(english(), pos, "d1?").problem.find("'?' has no place") == 0);
    CHECK(read_move_entry(english(), pos, "1d").problem.find("starts with its file letter") !=
          std::string::npos);
    CHECK(read_move_entry(english(), pos, "d1-d7/g7-a1").problem.find("three squares") !=
          std::string::npos);
    CHECK(read_move_entry(english(), pos, "d1234").problem == "'d123' is not a square");
  }

  TEST_CASE("board fit: larger squares when there is room, the smallest otherwise") {
    CHECK(fit_board(10, 47, 18).cell_w == 3);
    CHECK(fit_board(10, 53, 21).cell_w == 5);
    CHECK(fit_board(10, 73, 31).cell_w == 7);
    CHECK(fit_board(10, 10, 5).cell_w == 3);  // clipped
    CHECK(fit_board(8, 43, 17).cell_w == 5);
    const BoardFit f = fit_board(10, 47, 18);
    CHECK(f.width() == 33);
    CHECK(f.height() == 11);
  }

  TEST_CASE("canvas: UTF-8 in and out, clipping, control characters neutralised") {
    Canvas c(10, 2);
    CHECK(c.text(0, 0, "\u2655 ab") == 4);
    CHECK(c.row_text(0) == "\u2655 ab");
    c.text(8, 1, "xyz");
    CHECK(c.row_text(1) == "        xy");
    c.text(0, 1, "a\x1b[2Jb");
    CHECK(c.row_text(1).rfind("a?[2Jb", 0) == 0);
    CHECK(decode_utf8("\xff") == U"\uFFFD");
    CHECK(decode_utf8("\xe2\x99") == U"\uFFFD\uFFFD");
    CHECK(text_width("d1-d7/g7") == 8);
  }

  TEST_CASE("canvas: Chinese takes two columns, is clipped whole and never cut in half") {
    CHECK(char_width(U'亚') == 2);
    CHECK(char_width(U'，') == 2);  // fullwidth punctuation
    CHECK(char_width(U'a') == 1);
    CHECK(char_width(U'\u2655') == 1);  // the queens stay one column
    CHECK(char_width(U'\u0301') == 0);  // a combining accent
    CHECK(text_width("亚马逊棋 d1") == 11);
    CHECK(fit_width("亚马逊棋", 5) == "亚马");
    CHECK(pad_width("白方", 6) == "白方  ");

    Canvas c(9, 3);
    CHECK(c.text(0, 0, "亚马逊棋") == 8);
    CHECK(c.row_text(0) == "亚马逊棋");
    CHECK(c.at(1, 0).ch == kWideTail);
    // Clipped to 5 columns: the third character would need columns 4 and 5, so it is left out.
    CHECK(c.text(0, 1, "亚马逊棋", {}, 5) == 4);
    CHECK(c.row_text(1) == "亚马");
    // At the canvas's edge likewise: column 8 is the last, too narrow for a wide character.
    CHECK(c.text(6, 2, "ab亚") == 8);
    CHECK(c.row_text(2) == "      ab");
    // Writing over half of a wide character blanks its other half.
    c.text(1, 0, "x");
    CHECK(c.row_text(0) == " x马逊棋");
    c.text(4, 0, "y");
    CHECK(c.row_text(0) == " x马y 棋");

    // Wrapping breaks between Chinese characters, and at spaces in Latin text.
    Canvas w(8, 4);
    CHECK(w.wrapped(0, 0, "轮到你：选一个皇后。", {}, 8, 4) == 3);
    CHECK(w.row_text(0) == "轮到你：");
    CHECK(w.row_text(1) == "选一个皇");
    CHECK(w.row_text(2) == "后。");
    Canvas l(10, 3);
    CHECK(l.wrapped(0, 0, "White has no move", {}, 10, 3) == 2);
    CHECK(l.row_text(0) == "White has");
    CHECK(l.row_text(1) == "no move");
  }

  TEST_CASE("model: the board with coordinates, the cursor and the stage marks, also in ASCII") {
    const Position pos(standard_variant());
    Canvas c(40, 12);
    BoardMarks marks;
    marks.cursor = sq("d1");
    marks.selected = sq("d1");
    marks.targets = queen_destinations(pos, sq("d1"));
    draw_board(c, 1, 1, fit_board(10, 40, 12), pos, marks, {false, false});
    CHECK(c.row_text(11) == "     a  b  c  d  e  f  g  h  i  j");
    CHECK(c.row_text(1).substr(1, 2) == "10");
    const std::string first = c.row_text(10);  // rank 1
    CHECK(first.find("[\u2655]") != std::string::npos);
    CHECK(c.at(13, 10).paint.bg == Ink::Selected);
    Canvas a(40, 12);
    draw_board(a, 1, 1, fit_board(10, 40, 12), pos, marks, {true, false});
    for (char ch : a.text()) CHECK(static_cast<unsigned char>(ch) < 0x80);
    CHECK(a.row_text(10).find("[W]") != std::string::npos);
    // Flipped: Black at the bottom, files from j to a.
    Canvas f(40, 12);
    draw_board(f, 1, 1, fit_board(10, 40, 12), pos, {}, {false, true});
    CHECK(f.row_text(11) == "     j  i  h  g  f  e  d  c  b  a");
    CHECK(step_square(sq("d1"), 1, 1, 10, true) == sq("c1"));  // clamped at rank 1
  }

  TEST_CASE("model: a queen is a token across its square's middle, its glyph in the other colour") {
    const Position pos(standard_variant());
    // The three sizes of square: the token is 5, 3 and 1 cells wide; the square shows around it.
    for (const auto& [w, h, token] : {std::tuple{90, 40, 5}, {60, 24, 3}, {40, 12, 1}}) {
      CAPTURE(w);
      Canvas c(w, h);
      const BoardFit fit = fit_board(10, w, h);
      draw_board(c, 0, 0, fit, pos, {}, {false, false});
      for (const auto& [name, own, other, glyph] :
           {std::tuple{"d1", Ink::WhiteQueen, Ink::BlackQueen, U'\u2655'},
            {"d10", Ink::BlackQueen, Ink::WhiteQueen, U'\u265B'}}) {
        CAPTURE(name);
        const Square s = sq(name);
        const int left = BoardFit::kRankGutter + s.file() * fit.cell_w;
        const int top = (9 - s.rank()) * fit.cell_h;
        const int mid_x = left + fit.cell_w / 2, mid_y = top + fit.cell_h / 2;
        CHECK(c.at(mid_x, mid_y).ch == glyph);
        CHECK(c.at(mid_x, mid_y).paint.fg == other);
        for (int x = mid_x - token / 2; x <= mid_x + token / 2; ++x)
          CHECK(c.at(x, mid_y).paint.bg == own);
        const Ink square = (s.file() + s.rank()) % 2 == 0 ? Ink::DarkSquare : Ink::LightSquare;
        CHECK(c.at(mid_x - token / 2 - 1, mid_y).paint.bg == square);
        CHECK(c.at(mid_x + token / 2 + 1, mid_y).paint.bg == square);
        if (fit.cell_h > 1) CHECK(c.at(mid_x, mid_y - 1).paint.bg == square);
      }
    }
  }

  TEST_CASE("model: a two-player game driven by keys, typed and with the cursor") {
    test::TempDir home;
    Driven d(home.path());
    std::string s = d.screen();
    CHECK(s.find("Play the computer") != std::string::npos);
    d.type("2");
    d.wait_for("Both play at this terminal");
    d.press(Key::Code::Enter);
    s = d.wait_for("Pick up one of your queens.");
    CHECK(s.find("> \u2655 Player") != std::string::npos);  // White to move, marked
    d.type("d1-d7/g7");
    s = d.wait_for("Enter plays d1-d7/g7");
    d.press(Key::Code::Enter);
    s = d.wait_for("1.   d1-d7/g7");
    // Black with the cursor: Tab goes to a queen that can move, Enter picks it up.
    d.press(Key::Code::Tab);
    d.press(Key::Code::Enter);
    s = d.wait_for("Move it to a marked square.");
    d.press(Key::Code::Escape);  // back a stage
    s = d.wait_for("Pick up one of your queens.");
    d.press(Key::Code::Enter);
    d.wait_for("Move it to a marked square.");
    d.press(Key::Code::Tab);
    d.press(Key::Code::Enter);
    d.wait_for("Shoot the arrow");
    d.press(Key::Code::Tab);
    d.press(Key::Code::Enter);
    s = d.wait_for("Pick up one of your queens.");
    const std::string row = s.substr(s.find("1.   d1-d7/g7"));
    CHECK(row.substr(0, row.find('\n')).size() > std::string("1.   d1-d7/g7").size() + 3);
    // Commands: an unknown one says which apply; :abort ends the game before both moved twice.
    d.type(":nonsense");
    d.press(Key::Code::Enter);
    d.wait_for("Unknown command :nonsense");
    d.type(":menu");
    d.press(Key::Code::Enter);
    d.wait_for("Resume the unfinished game");
  }

  TEST_CASE("model: :abort ends the game, and a move typed afterwards says the game is over") {
    test::TempDir home;
    Driven d(home.path());
    d.type("2");
    d.wait_for("Both play at this terminal");
    d.press(Key::Code::Enter);
    d.wait_for("Pick up one of your queens.");
    d.type(":abort");
    d.press(Key::Code::Enter);
    std::string s = d.wait_for("Game aborted");
    d.type("d1-d7/g7");
    s = d.wait_for("The game is over.");
  }
}

#include "tests/tui/screen_board.h"

TEST_CASE("screen board: reads back the board the model draws, with the marks and the cursor") {
  const Position pos(standard_variant());
  for (int w : {80, 100, 120}) {
    const int h = w == 80 ? 24 : w == 100 ? 30 : 40;
    Canvas c(w, h);
    BoardMarks marks;
    marks.cursor = sq("g1");
    marks.selected = sq("g1");
    marks.targets = queen_destinations(pos, sq("g1"));
    const BoardFit fit = fit_board(10, w - 33, h - 6);
    draw_board(c, 1, 1, fit, pos, marks, {false, false});
    auto b = amazons::test::read_board(c.text(), 10);
    INFO(c.text());
    REQUIRE(b.has_value());
    CHECK(b->cell_w == fit.cell_w);
    CHECK(b->cursor == sq("g1"));
    CHECK(b->dots == marks.targets);
    CHECK(b->position(Color::White) == pos);
  }
}

TEST_SUITE("tui") {
  TEST_CASE(
      "model: a clock, Space to pick, :resign, the result and :rematch with colours changed") {
    test::TempDir home;
    Driven d(home.path());
    d.type("2");
    d.wait_for("Both play at this terminal");
    // Down to the clock, then to "3 min + 2 s".
    for (int i = 0; i < 3; ++i) d.press(Key::Code::Down);
    for (int i = 0; i < 6 && d.screen().find("< 3 min + 2 s >") == std::string::npos; ++i)
      d.press(Key::Code::Right);
    REQUIRE(d.screen().find("< 3 min + 2 s >") != std::string::npos);
    d.press(Key::Code::Enter);
    std::string s = d.wait_for("Pick up one of your queens.");
    CHECK(s.find("3:00") != std::string::npos);
    // Space picks up the queen under the cursor, as Enter does.
    d.app.key(Key::character(U' '));
    d.wait_for("Move it to a marked square.");
    d.press(Key::Code::Escape);
    d.type("d1-d7/g7");
    d.press(Key::Code::Enter);
    d.wait_for("1.   d1-d7/g7");
    d.wait_for("Black to move");
    d.type(":resign");
    d.press(Key::Code::Enter);
    s = d.wait_for("White wins");
    CHECK(s.find("Black resigned.") != std::string::npos);
    CHECK(s.find(":rematch") != std::string::npos);
    d.type(":rematch");
    d.press(Key::Code::Enter);
    s = d.wait_for("Pick up one of your queens.");
    // Guest, Black before, now plays White (the side to move, marked with ">").
    CHECK(s.find("> \u2655 Guest") != std::string::npos);
    CHECK(s.find("1.   d1-d7/g7") == std::string::npos);
  }
}
