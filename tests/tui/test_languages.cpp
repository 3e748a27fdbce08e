// amazons-tui in the pseudo-locale (--language pseudo), in tmux at 80x24 and 120x40: every
// screen from the menu to an online lobby, each checked for English the catalogue did not give
// (pseudo text is accented, so a word in plain ASCII letters came from elsewhere) and for a
// message cut short (its closing bracket gone).
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "client/catalogue.h"
#include "client/words.h"
#include "tests/client/temp_dir.h"
#include "tests/integration/server_process.h"
#include "tests/tui/tui_test_util.h"
#include "tui/canvas.h"

using namespace amazons;
using namespace amazons::test;
namespace fs = std::filesystem;

namespace {

// Words in plain letters that the screens show as written in any language: the names given
// below, the server's name, the typed commands (":resign"), and the TLS words of a certificate.
const std::set<std::string> kPseudoAsWritten = {"alice", "Player",  "amazons", "resign", "abort",
                                                "menu",  "rematch", "replay",  "SHA",    "tls"};

// Fails on an English word not from the catalogue and on a bracket left open (a message cut at
// the screen's edge); keeps the screen as pseudo-NAME.txt for the README's captures.
void check_pseudo_screen(const std::string& name, const std::string& shown, TmuxSession& t) {
  CAPTURE(name);
  // The screen the wait matched may be half drawn: read it until two reads agree.
  std::string screen = shown;
  for (std::string again = t.screen(); again != screen; again = t.screen()) screen = again;
  keep_screen("pseudo-" + name, screen);
  static const std::regex kWord("[A-Za-z]{2,}");
  for (auto it = std::sregex_iterator(screen.begin(), screen.end(), kWord);
       it != std::sregex_iterator(); ++it)
    CHECK_MESSAGE(kPseudoAsWritten.contains(it->str()),
                  "English that the catalogue did not give: " << it->str() << "\n"
                                                              << screen);
  // A row of a list that ends in "…" is shortened on purpose; its brackets are not counted.
  std::string counted;
  for (const std::string& line : lines_of(screen))
    if (!line.ends_with("\u2026")) counted += line;
  const auto opened = std::count(counted.begin(), counted.end(), '[');
  const auto closed = std::count(counted.begin(), counted.end(), ']');
  CHECK_MESSAGE(opened == closed, "a message cut short:\n" << screen);
  for (const std::string& line : lines_of(screen)) CHECK(tui::text_width(line) <= 120);
}

}  // namespace

TEST_SUITE("tui") {
  TEST_CASE("terminal: in the pseudo-locale every text is the catalogue's and none is cut") {
    REQUIRE_MESSAGE(tmux_available(), "tmux is needed (scripts/debian-packages.txt)");
    TempDir home;
    const fs::path server_dir = home.path() / "server";
    fs::create_directories(server_dir);
    ServerProcess server(server_dir);
    const client::Catalogue p =
        client::Catalogue::load(fs::path(source_dir()) / "i18n", "pseudo").catalogue;
    REQUIRE(p.language() == "en-XA");
    TmuxSession t(
        home.path(),
        tui_args(home.path(), {"--language", "pseudo", "--server",
                               "127.0.0.1:" + std::to_string(server.port()), "--name", "alice"}),
        80, 24);
    // A screen is whole once its first and its last rows are there (curses writes from the top
    // down): wait for a text of each.
    const auto whole = [&](const std::vector<std::string>& texts) {
      return t.wait_until("a whole screen", [&](const std::string& x) {
        return std::all_of(texts.begin(), texts.end(),
                           [&](const std::string& want) { return contains(x, want); });
      });
    };
    // The start of a message: what shows of it whether or not it wraps.
    const auto head = [&](std::string_view key) { return tui::fit_width(p(key), 16); };

    // --server opens the connect form; Esc goes to the menu.
    check_pseudo_screen("connect", whole({p("online.connect"), head("online.connect.keys")}), t);
    t.keys({"Escape"});
    check_pseudo_screen("menu", whole({p("tui.menu.two_players"), head("tui.menu.keys")}), t);

    t.keys({"1"});
    check_pseudo_screen("computer", whole({head("computer.setup.subtitle"), head("tui.form.keys")}),
                        t);
    // A game against it: the computer's name is the catalogue's too.
    t.keys({"Enter"});
    const std::string computer =
        p("computer.player_name", {{"level", client::level_name(p, "medium")}});
    check_pseudo_screen("computer-game", whole({computer, p("game.hint.queen"), ":menu"}), t);
    t.type(":resign");
    t.keys({"Enter"});
    whole({p("game.status.over"), ":replay :menu"});
    t.type(":menu");
    t.keys({"Enter"});
    whole({p("tui.menu.two_players"), head("tui.menu.keys")});
    t.keys({"2"});
    check_pseudo_screen("two-players", whole({p("tui.two.title"), head("tui.form.keys")}), t);
    t.keys({"Enter"});
    check_pseudo_screen("game", whole({p("game.hint.queen"), ":menu"}), t);
    t.type("d1-d7/g7");
    t.keys({"Enter"});
    t.wait_for("1.   d1-d7/g7");
    t.type("a1");
    check_pseudo_screen("game-refused", whole({" a1 ", ":menu"}), t);
    t.keys({"BSpace", "BSpace"});
    t.type(":resign");
    t.keys({"Enter"});
    check_pseudo_screen("result", whole({p("game.status.over"), ":replay :menu"}), t);
    t.type(":replay");
    t.keys({"Enter"});
    const std::string replay = whole({p("tui.replay.start"), head("tui.replay.keys")});
    check_pseudo_screen("replay", replay, t);
    t.resize(120, 40);
    // At 120 columns the keys fit on one row.
    check_pseudo_screen("replay-wide", whole({p("tui.replay.start"), p("tui.replay.keys")}), t);
    t.resize(80, 24);
    t.wait_until("the replay at 80x24 again", [&](const std::string& x) { return x == replay; });
    t.keys({"Escape"});
    whole({p("tui.menu.two_players"), head("tui.menu.keys")});

    t.keys({"4"});
    check_pseudo_screen("replays", whole({p("tui.replays.title"), head("tui.replays.keys")}), t);
    t.keys({"Escape"});
    whole({p("tui.menu.two_players"), head("tui.menu.keys")});
    t.keys({"5"});
    check_pseudo_screen("language",
                        whole({head("tui.language.subtitle"), head("tui.form.keys_save")}), t);
    t.keys({"Escape"});
    whole({p("tui.menu.two_players"), head("tui.menu.keys")});

    // Online: connect, then the lobby with a game waiting, wider, and the archive.
    t.keys({"3"});
    whole({p("online.connect"), head("online.connect.keys")});
    t.keys({"Down", "Down", "Down", "Enter"});
    std::string s = t.wait_until("the lobby or the certificate", [](const std::string& x) {
      return contains(x, "alice (1500)") || contains(x, "SHA-256");
    });
    if (contains(s, "SHA-256")) {
      check_pseudo_screen("trust", s, t);
      t.keys({"y"});
    }
    const std::string section_keys =
        tui::fit_width(p("online.section.keys", {{"action", p("online.action.join")}}), 16);
    check_pseudo_screen("lobby", whole({"alice (1500)", section_keys}), t);
    t.keys({"c"});
    const std::string waiting =
        tui::fit_width(p("online.waiting", {{"game", "1"}, {"invite", "none"}}), 10);
    check_pseudo_screen("lobby-waiting", whole({waiting, section_keys}), t);
    t.resize(120, 40);
    check_pseudo_screen("lobby-wide", whole({waiting, p("online.lobby.keys")}), t);
    t.keys({"h"});
    check_pseudo_screen("archive", whole({p("online.archive.title"), head("online.archive.keys")}),
                        t);
  }
}
