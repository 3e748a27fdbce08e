// The desktop client's online screens in another language, end to end: real amazons-servers on
// ephemeral loopback ports (one with TLS, one without), a real bot, the real client under Xvfb.
// The client is started with --language and walked through "Trust this server?", the connect
// form with a server found on the LAN, the lobby, a tournament, the moderation view, the report
// form, a game against the bot to its end and the server's archive. On every screen, the texts
// it draws (the state dump's "texts") are checked for English words the catalogue did not
// supply: in Simplified Chinese, and in the pseudo-locale, whose every text of the catalogue is
// accented and 40% longer (client/catalogue.h), so that an English word left is one the
// catalogue never saw, and a text cut short ("[Ĝàɱé ...") is a layout too tight for it.
// Screenshots go to build/<preset>/screenshots/ (zh-CN-*.png, pseudo-*.png): look at them.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "client/catalogue.h"
#include "client/words.h"
#include "common/variant.h"
#include "tests/gui/gui_driver.h"
#include "tests/integration/server_process.h"
#include "tests/test_paths.h"
#include "tls/tls.h"

using namespace amazons;
using namespace amazons::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Words in Latin letters that any language shows as they are: the people's and the tournament's
// names given below, formats and platforms (SGF, Botzone), units and protocol words written in
// Latin letters in Chinese too, the parts of addresses, fingerprints and file names, and what the
// server's audit log records of the role granted below as its actor and reason ("console",
// "amazons-server admin"; the role itself is said in the person's words).
const std::set<std::string> kAsWritten = {
    "Li",       "Botty",  "bob",     "carol",       "Saturday", "Swiss",     "host",
    "TLS",      "SHA",    "UTC",     "Esc",         "tls",      "tcp",       "json",
    "settings", "pinned", "servers", "fingerprint", "amazons",  "localhost", "console",
    "server",   "admin",  "SGF",     "Botzone"};
// Texts kept in English on purpose: the game's name under the menu's title.
const std::set<std::string> kEnglishOnPurpose = {"Game of the Amazons"};

// The words of `text` in ASCII letters, longer than two letters (shorter ones are squares,
// files of the board and bytes of a fingerprint), that are not in kAsWritten. Paths, links and
// moves (words with a '/') are data, and so is a word cut short by "...".
std::vector<std::string> foreign_words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream spaced(text);
  for (std::string token; spaced >> token;) {
    if (token.find('/') != std::string::npos) continue;
    std::string word;
    auto end_word = [&](bool cut) {
      if (!cut && word.size() > 2 && !kAsWritten.contains(word)) out.push_back(word);
      word.clear();
    };
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (std::isalpha(static_cast<unsigned char>(token[i])))
        word += token[i];
      else
        end_word(token.compare(i, 3, "...") == 0);
    }
    end_word(false);
  }
  return out;
}

struct LanguageFindings {
  std::set<std::string> untranslated;  // "screen: text"
  std::set<std::string> cut;           // pseudo-locale texts elided before their end
};

// Looks at what the client draws now: every text, and the notice.
void look_at_texts(ClientDriver& c, const std::string& screen, bool pseudo,
                   LanguageFindings& found) {
  const json s = c.state();
  REQUIRE(s.contains("texts"));
  for (const auto& t : s["texts"]) {
    const std::string text = t.get<std::string>();
    if (!foreign_words(text).empty() && !kEnglishOnPurpose.contains(text))
      found.untranslated.insert(screen + ": " + text);
    // A pseudo-localised text opens with '[' and closes with ']': one that opens, does not
    // close and ends in "..." was cut to fit.
    if (pseudo && text.find('[') != std::string::npos && text.find(']') == std::string::npos &&
        text.ends_with("..."))
      found.cut.insert(screen + ": " + text);
  }
  CHECK(s["texts"].size() > 2);
}

struct SelfSigned {
  explicit SelfSigned(const fs::path& dir) {
    cert = dir / "server.crt";
    key = dir / "server.key";
    REQUIRE(tls::write_self_signed(cert, key, {"localhost", "127.0.0.1"}).has_value());
  }
  std::vector<std::string> flags() const {
    return {"--tls-cert", cert.string(), "--tls-key", key.string()};
  }
  fs::path cert, key;
};

// The walk through the online screens in `language`; returns what was found.
LanguageFindings walk(const std::string& language, const std::string& shots) {
  const auto t = client::Catalogue::load(fs::path(source_dir()) / "i18n", language).catalogue;
  const bool pseudo = t.language() == client::kPseudoLanguage;
  TempDir home;
  LanguageFindings found;
  const fs::path plain_dir = home.path() / "plain", tls_dir = home.path() / "tls";
  fs::create_directories(plain_dir);
  fs::create_directories(tls_dir);
  const SelfSigned certificate(home.path());
  ServerProcess tls_server(tls_dir, json::object(), certificate.flags());
  ServerProcess server(plain_dir, {{"tls", {{"enabled", false}}},
                                   {"limits", {{"players_create_tournaments", true}}}});
  const std::string address = "127.0.0.1:" + std::to_string(server.port());
  {
    // Li moderates; carol reports bob; a Swiss tournament waits for players.
    Client li(server.port());
    li.hello("Li");
    const std::string grant = std::string(kServerBinary) + " admin grant Li moderator --db '" +
                              (plain_dir / "test.db").string() + "' >/dev/null 2>&1";
    REQUIRE(std::system(grant.c_str()) == 0);
    bool granted = false;
    for (int attempt = 0; attempt < 40 && !granted; ++attempt) {
      li.send(protocol::AuditRequest{1}, attempt);
      granted = std::holds_alternative<protocol::AuditLog>(li.next().message);
      if (!granted) std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    REQUIRE(granted);
    protocol::TournamentCreate swiss;
    swiss.name = "Saturday Swiss";
    swiss.kind = "swiss";
    swiss.rounds = 5;
    swiss.start_in = 3600;
    swiss.time = TimeControl::fischer(std::chrono::minutes(5), std::chrono::seconds(3));
    li.send(swiss);
    li.expect<protocol::TournamentInfo>();
  }
  Client bob(server.port()), carol(server.port());
  bob.hello("bob");
  carol.hello("carol");
  carol.send(protocol::Report{"bob", std::nullopt, "刷屏"});
  carol.expect<protocol::Ok>();
  Child bot({kBotExe.string(), "--server", address, "--name", "Botty", "--level", "beginner",
             "--list-interval", "1", "--log-level", "warn"},
            {}, -1, home.path() / "bot.log");

  write_client_settings(
      home.path(), json{{"name", "Li"},
                        {"last_server", "tls://127.0.0.1:" + std::to_string(tls_server.port())},
                        {"discovery_target", "127.0.0.1"},
                        {"discovery_port", server.discovery_port()}});
  VirtualDisplay display(1280, 800, home.path() / "xvfb.log");
  ClientDriver c(display, home.path(), kClientExe);
  c.start({"--language", language});
  look_at_texts(c, "menu", pseudo, found);
  c.screenshot(kShotDir, shots + "-menu");

  // ---- a TLS server nobody vouches for ----
  c.click("online");
  c.wait_screen("connect");
  c.click("connect");
  c.wait_screen("trust_server");
  look_at_texts(c, "trust_server", pseudo, found);
  c.screenshot(kShotDir, shots + "-trust");
  c.click("cancel");

  // ---- the connect form, the plain server found on the LAN ----
  c.wait_screen("connect");
  c.click("find_lan");
  c.wait_for("a server found on the LAN",
             [](const json& st) { return st.contains("found") && !st["found"].empty(); });
  look_at_texts(c, "connect", pseudo, found);
  c.screenshot(kShotDir, shots + "-connect");
  c.click("lan0");
  c.wait_for("the found server chosen",
             [&](const json& st) { return st["widgets"]["server"]["text"] == address; });
  c.click("connect");
  json s = c.wait_for("the lobby with the bot, the tournament and moderation", [](const json& st) {
    return st.value("screen", "") == "lobby" && st["online"].get<bool>() &&
           st["widgets"].contains("report_Botty") && st["widgets"].contains("moderation") &&
           !st["tournaments"].empty();
  });
  CHECK(s["status"].get<std::string>().find(
            t("online.status.online", {{"server", address}, {"name", "Li"}, {"rating", "1500"}})) ==
        0);
  look_at_texts(c, "lobby", pseudo, found);
  c.screenshot(kShotDir, shots + "-lobby");

  // ---- a tournament: joined ----
  c.click("tournament_" + std::to_string(s["tournaments"][0].get<std::int64_t>()));
  c.wait_for("the tournament", [](const json& st) {
    return st.value("screen", "") == "tournament" && st["widgets"].contains("join") &&
           st.contains("name");
  });
  c.click("join");
  c.wait_for("joined", [](const json& st) { return st.value("joined", false); });
  look_at_texts(c, "tournament", pseudo, found);
  c.screenshot(kShotDir, shots + "-tournament");
  c.click("back");

  // ---- moderation: carol's report ----
  c.wait_screen("lobby");
  c.click("moderation");
  c.wait_for("the report and the audit log", [](const json& st) {
    return st.value("screen", "") == "moderation" && st["reports"].size() == 1 &&
           !st["audit"].empty();
  });
  look_at_texts(c, "moderation", pseudo, found);
  c.screenshot(kShotDir, shots + "-moderation");
  c.click("back");

  // ---- the report form ----
  c.wait_screen("lobby");
  c.wait_for("Botty listed", [](const json& st) { return st["widgets"].contains("report_Botty"); });
  c.click("report_Botty");
  c.wait_screen("report");
  look_at_texts(c, "report", pseudo, found);
  c.screenshot(kShotDir, shots + "-report");
  c.click("cancel");

  // ---- a game against the bot on the small board, where Black (the bot) moves first; aborted,
  // the result shown ----
  c.wait_screen("lobby");
  select_option(c, "rules", client::variant_text(t, botzone8_variant()));
  select_option(c, "colour", t("side.white"));
  c.click("create");
  c.wait_for("the bot's first move, then ours", [](const json& st) {
    return st.value("screen", "") == "online_game" &&
           st.value("moves", json::array()).size() == 1 && st.value("human_to_move", false);
  });
  look_at_texts(c, "online_game", pseudo, found);
  c.screenshot(kShotDir, shots + "-game");
  c.click("abort");
  s = c.wait_for("the game aborted",
                 [](const json& st) { return st.contains("result") && !st["result"].is_null(); });
  CHECK(s["result"]["title"] == t("result.aborted"));
  look_at_texts(c, "online_game_over", pseudo, found);
  c.screenshot(kShotDir, shots + "-game-over");
  c.click("lobby");

  // ---- the server's archive ----
  c.wait_screen("lobby");
  c.click("archive");
  c.wait_for("the aborted game in the archive", [](const json& st) {
    return st.value("screen", "") == "archive" && !st["games"].empty();
  });
  look_at_texts(c, "archive", pseudo, found);
  c.screenshot(kShotDir, shots + "-archive");

  // ---- the game from the archive in the replay screen ----
  c.click("game_" + c.state()["games"][0].get<std::string>());
  c.wait_screen("replay");
  look_at_texts(c, "replay", pseudo, found);
  c.screenshot(kShotDir, shots + "-replay");
  return found;
}

// The screens without a server: settings, two players' form and game, the computer's form and
// game, the saved games.
LanguageFindings walk_local(const std::string& language, const std::string& shots) {
  const auto t = client::Catalogue::load(fs::path(source_dir()) / "i18n", language).catalogue;
  const bool pseudo = t.language() == client::kPseudoLanguage;
  TempDir home;
  LanguageFindings found;
  write_client_settings(home.path(), json{{"name", "Li"}});
  VirtualDisplay display(1280, 800, home.path() / "xvfb.log");
  ClientDriver c(display, home.path(), kClientExe);
  c.start({"--language", language});
  c.click("settings");
  c.wait_screen("settings");
  look_at_texts(c, "settings", pseudo, found);
  c.screenshot(kShotDir, shots + "-settings");
  c.click("back");
  c.wait_screen("menu");
  c.click("hotseat");
  c.wait_screen("new_game");
  look_at_texts(c, "new_game", pseudo, found);
  c.screenshot(kShotDir, shots + "-new-game");
  c.click("start");
  c.wait_for("the game", [](const json& st) {
    return st.value("screen", "") == "game" && st.contains("position");
  });
  look_at_texts(c, "game", pseudo, found);
  c.screenshot(kShotDir, shots + "-local-game");
  c.click("leave");
  c.wait_screen("menu");
  look_at_texts(c, "menu_with_resume", pseudo, found);
  c.click("computer");
  c.wait_screen("computer_setup");
  look_at_texts(c, "computer_setup", pseudo, found);
  c.screenshot(kShotDir, shots + "-computer");
  // A game against the computer: its name on the card in the person's words ("电脑（中等）"),
  // then in the menu's Resume line.
  c.click("start");
  c.wait_for("the computer's game", [](const json& st) {
    return st.value("screen", "") == "game" && st.contains("position");
  });
  look_at_texts(c, "computer_game", pseudo, found);
  c.click("leave");
  c.wait_screen("menu");
  look_at_texts(c, "menu_with_computer_game", pseudo, found);
  c.click("replay");
  c.wait_screen("replay_list");
  look_at_texts(c, "replay_list", pseudo, found);
  c.screenshot(kShotDir, shots + "-replays");
  return found;
}

}  // namespace

TEST_SUITE("gui") {
  TEST_CASE("languages: the online screens in Simplified Chinese say nothing in English") {
    const LanguageFindings found = walk("zh-CN", "zh-CN");
    for (const auto& text : found.untranslated) MESSAGE("untranslated: " << text);
    CHECK(found.untranslated.empty());
  }

  TEST_CASE("languages: the local screens in the pseudo-locale and in Chinese") {
    for (const char* language : {"pseudo", "zh-CN"}) {
      CAPTURE(language);
      const LanguageFindings found = walk_local(language, language);
      for (const auto& text : found.untranslated) MESSAGE("untranslated: " << text);
      for (const auto& text : found.cut) MESSAGE("cut to fit: " << text);
      CHECK(found.untranslated.empty());
      CHECK(found.cut.empty());
    }
  }

  TEST_CASE("languages: the online screens in the pseudo-locale: every text from the catalogue") {
    const LanguageFindings found = walk("pseudo", "pseudo");
    for (const auto& text : found.untranslated) MESSAGE("untranslated: " << text);
    for (const auto& text : found.cut) MESSAGE("cut to fit: " << text);
    CHECK(found.untranslated.empty());
    // A whole text of the catalogue cut short: a button or label too narrow for longer words.
    // (Rows of several texts may be cut at their end; they close a bracket before.)
    CHECK(found.cut.empty());
  }
}
