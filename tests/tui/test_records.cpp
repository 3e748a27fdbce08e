// The terminal client's replay of other programs' records: SGF files put in <data>/imports are
// listed first and replay move by move, `--replay FILE` opens one directly, a record that is not
// a legal game is refused with the move and the reason, and the shown game exports as SGF and
// as text into <data>/exports. All in the real program under tmux.
#include <doctest/doctest.h>

#include "formats/record_formats.h"
#include "formats/sgf.h"
#include "tests/client/temp_dir.h"
#include "tests/formats/format_test_util.h"
#include "tests/tui/tui_test_util.h"

using namespace amazons;
using namespace amazons::test;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_SUITE("tui") {
  TEST_CASE("terminal: SGF files replay from the imports and --replay, and export as SGF") {
    REQUIRE(tmux_available());
    TempDir home;
    const fs::path imports = home.path() / "data" / "imports";
    fs::create_directories(imports);
    const GameRecord game = random_record(standard_variant(), 3, 40);
    std::ofstream(imports / "from-another-site.sgf") << formats::to_sgf(game);
    // The second move of this one goes through the first one's queen: not a legal game.
    std::ofstream(imports / "zz-broken.sgf") << "(;FF[4]GM[18];B[djddgd];W[dadggd])";

    {
      TmuxSession t(home.path(), tui_args(home.path()), 80, 24);
      t.wait_for("Replay saved games");
      t.keys({"4"});
      std::string s = t.wait_for("Open from-another-site.sgf");
      CHECK(contains(s, "Open zz-broken.sgf"));
      keep_screen("imports", s);
      t.keys({"Enter"});
      s = t.wait_for("Start position");
      CHECK(same_board(s, Position(standard_variant())));
      t.keys({"End"});
      s = t.wait_for("Move 40 of 40");
      Position end(standard_variant());
      for (const auto& m : game.moves) end.do_move(m.move);
      CHECK(same_board(s, end));
      t.keys({"s"});
      s = t.wait_for("Exported to");
      t.keys({"e"});
      t.wait_until("the text export too", [&](const std::string&) {
        return fs::exists(home.path() / "data" / "exports" / "2026-11-29T00-00-00Z.txt");
      });
      // The broken one: refused with the move and why, back on the list.
      t.keys({"Escape"});
      t.wait_for("Open zz-broken.sgf");
      t.keys({"Down", "Enter"});
      s = t.wait_for("move 2");
      CHECK(contains(s, "blocked"));
    }
    // The export is SGF that reads back as the same game.
    const fs::path sgf = home.path() / "data" / "exports" / "2026-11-29T00-00-00Z.sgf";
    REQUIRE(fs::exists(sgf));
    const auto back = formats::parse_sgf(read_all(sgf));
    REQUIRE_MESSAGE(back.has_value(), (back ? "" : back.error()));
    REQUIRE(back->moves.size() == game.moves.size());
    for (std::size_t i = 0; i < game.moves.size(); ++i)
      CHECK(back->moves[i].move == game.moves[i].move);

    // --replay opens a file straight into the replay; Esc leads to the menu.
    TmuxSession t(home.path(), tui_args(home.path(), {"--replay", sgf.string()}), 80, 24);
    std::string s = t.wait_for("Start position");
    CHECK(contains(s, "Replay"));
    t.keys({"Escape"});
    t.wait_for("Replay saved games");
  }
}
