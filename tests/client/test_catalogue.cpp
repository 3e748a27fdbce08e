// The catalogue of messages the native clients speak (client/catalogue.h): the real i18n/ files,
// ICU's plurals and selects in both languages, the English fallback, and the choice of language.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "client/catalogue.h"
#include "client/settings.h"
#include "client/words.h"
#include "net/address.h"
#include "tests/client/temp_dir.h"
#include "tests/test_paths.h"

using namespace amazons;
using namespace amazons::client;

namespace {

std::filesystem::path shipped_catalogues() {
  return std::filesystem::path(test::source_dir()) / "i18n";
}

EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace

TEST_CASE("catalogue: the shipped English and Chinese catalogues format plurals by their rules") {
  const auto en = Catalogue::load(shipped_catalogues(), "en");
  const auto zh = Catalogue::load(shipped_catalogues(), "zh-CN");
  CHECK(en.problems.empty());
  CHECK(zh.problems.empty());
  CHECK(en.catalogue.language() == "en");
  CHECK(zh.catalogue.language() == "zh-CN");
  CHECK(en.catalogue("computer.how.won", {{"count", 1}}) == "you won after 1 move");
  CHECK(en.catalogue("computer.how.won", {{"count", 12}}) == "you won after 12 moves");
  CHECK(zh.catalogue("computer.how.won", {{"count", 1}}) == "你在 1 步后获胜");
  CHECK(zh.catalogue("computer.how.won", {{"count", 12}}) == "你在 12 步后获胜");
  CHECK(en.catalogue("result.side_wins", {{"side", en.catalogue("side.white")}}) == "White wins");
  CHECK(zh.catalogue("result.side_wins", {{"side", zh.catalogue("side.white")}}) == "白方胜");
  CHECK(zh.catalogue("app.name") == "亚马逊棋");
}

TEST_CASE("catalogue: select and plural with named arguments, in English and Chinese") {
  const std::map<std::string, std::string, std::less<>> english = {
      {"who",
       "{side, select, white {White} black {Black} other {Nobody}} has {n, plural, "
       "one {# queen} other {# queens}} left"}};
  const Catalogue en("en", english);
  const Catalogue zh("zh-CN",
                     {{"who",
                       "{side, select, white {白方} black {黑方} other {无人}}还剩 "
                       "{n, plural, other {# 个皇后}}"}},
                     english);
  CHECK(en("who", {{"side", "white"}, {"n", 1}}) == "White has 1 queen left");
  CHECK(en("who", {{"side", "black"}, {"n", 3}}) == "Black has 3 queens left");
  CHECK(en("who", {{"side", "?"}, {"n", 0}}) == "Nobody has 0 queens left");
  CHECK(zh("who", {{"side", "white"}, {"n", 1}}) == "白方还剩 1 个皇后");
  CHECK(zh("who", {{"side", "black"}, {"n", 3}}) == "黑方还剩 3 个皇后");
}

TEST_CASE("catalogue: a key the language lacks is said in English, an unknown key as itself") {
  const Catalogue zh("zh-CN", {{"a", "甲"}}, {{"a", "A"}, {"b", "B {x}"}});
  CHECK(zh("a") == "甲");
  CHECK(zh("b", {{"x", 2}}) == "B 2");
  CHECK(zh.has("a"));
  CHECK_FALSE(zh.has("b"));
  CHECK(zh("no.such.key") == "no.such.key");
  // A pattern ICU cannot read is shown as written rather than lost.
  const Catalogue broken("en", {{"bad", "{unclosed"}});
  CHECK(broken("bad") == "{unclosed");
}

TEST_CASE("catalogue: a missing catalogue file is named and English stands in") {
  test::TempDir dir;
  std::filesystem::copy_file(shipped_catalogues() / "en.json", dir.path() / "en.json");
  const auto loaded = Catalogue::load(dir.path(), "zh-CN");
  REQUIRE(loaded.problems.size() == 1);
  CHECK(loaded.problems[0].find("zh-CN.json") != std::string::npos);
  CHECK(loaded.problems[0].find("cannot be read") != std::string::npos);
  CHECK(loaded.problems[0].find("English") != std::string::npos);
  CHECK(loaded.catalogue.language() == "en");
  CHECK(loaded.catalogue("side.black") == "Black");

  std::ofstream(dir.path() / "fr.json") << "[1, 2]";
  const auto bad = Catalogue::load(dir.path(), "fr");
  REQUIRE(bad.problems.size() == 1);
  CHECK(bad.problems[0].find("not a JSON object") != std::string::npos);
  CHECK(bad.catalogue("side.black") == "Black");

  test::TempDir empty;
  const auto none = Catalogue::load(empty.path(), "en");
  REQUIRE(none.problems.size() == 1);
  CHECK(none.problems[0].find("en.json") != std::string::npos);
  CHECK(none.catalogue("side.black") == "side.black");
}

TEST_CASE("catalogue: the language follows the locale, Simplified Chinese only for zh-CN") {
  const std::vector<std::string> available = catalogue_languages(shipped_catalogues());
  CHECK(available == std::vector<std::string>{"en", "zh-CN"});
  CHECK(language_of_locale("zh_CN.UTF-8", available) == "zh-CN");
  CHECK(language_of_locale("zh_CN.utf8", available) == "zh-CN");
  CHECK(language_of_locale("zh_SG", available) == "zh-CN");
  CHECK(language_of_locale("zh", available) == "zh-CN");
  CHECK(language_of_locale("zh_TW.UTF-8", available).empty());
  CHECK(language_of_locale("zh_HK", available).empty());
  CHECK(language_of_locale("en_GB.UTF-8", available) == "en");
  CHECK(language_of_locale("fr_FR.UTF-8", available).empty());
  CHECK(language_of_locale("C.UTF-8", available).empty());
  CHECK(language_of_locale("POSIX", available).empty());

  CHECK(system_language(available, env_of({{"LANG", "zh_CN.UTF-8"}})) == "zh-CN");
  CHECK(system_language(available, env_of({{"LANG", "zh_TW.UTF-8"}})) == "en");
  CHECK(system_language(available, env_of({{"LANG", "fr_FR.UTF-8"}})) == "en");
  CHECK(system_language(available, env_of({})) == "en");
  // POSIX's order: LC_ALL, then LC_MESSAGES, then LANG; an empty one is not set.
  CHECK(system_language(available, env_of({{"LC_ALL", "en_US.UTF-8"}, {"LANG", "zh_CN.UTF-8"}})) ==
        "en");
  CHECK(system_language(available,
                        env_of({{"LC_ALL", ""}, {"LC_MESSAGES", "zh_SG"}, {"LANG", "en_US"}})) ==
        "zh-CN");
  // The setting overrides the locale, unless there is no catalogue for it.
  const auto chinese = env_of({{"LANG", "zh_CN.UTF-8"}});
  CHECK(choose_language("en", available, chinese) == "en");
  CHECK(choose_language("", available, chinese) == "zh-CN");
  CHECK(choose_language("zh-CN", available, env_of({{"LANG", "C"}})) == "zh-CN");
  CHECK(choose_language("xx", available, chinese) == "zh-CN");
}

TEST_CASE("words: the server's refusals in the client's words, in both languages") {
  const auto en = Catalogue::load(shipped_catalogues(), "en").catalogue;
  const auto zh = Catalogue::load(shipped_catalogues(), "zh-CN").catalogue;
  CHECK(error_text(en, "not_your_turn") == "It is not your turn.");
  CHECK(error_text(zh, "not_your_turn") == "还没轮到你走棋。");
  CHECK(error_text(en, "illegal_move", "path_blocked") == "The path of the queen is blocked.");
  CHECK(error_text(zh, "illegal_move", "path_blocked") == "皇后的路线被挡住了。");
  // An unknown reason falls back to the code's message, an unknown code to error.unknown.
  CHECK(error_text(en, "illegal_move", "no_such_reason") == "The rules do not allow that move.");
  CHECK(error_text(en, "brand_new_code") == "The server refused (brand_new_code).");
  CHECK(error_text(zh, "brand_new_code") == "服务器拒绝了请求（brand_new_code）。");
}

TEST_CASE("words: results, time controls and rules in both languages") {
  const auto en = Catalogue::load(shipped_catalogues(), "en").catalogue;
  const auto zh = Catalogue::load(shipped_catalogues(), "zh-CN").catalogue;
  const GameResult black_wins{Color::Black, EndReason::NoMoves};
  CHECK(result_title(en, black_wins) == "Black wins");
  CHECK(result_title(zh, black_wins) == "黑方胜");
  CHECK(result_reason(en, black_wins) == "White has no legal move left.");
  CHECK(result_reason(zh, black_wins) == "白方已无合法着法。");
  using std::chrono::seconds;
  CHECK(time_choice_text(en, TimeControl::fischer(seconds(300), seconds(5))) == "5 min + 5 s");
  CHECK(time_choice_text(zh, TimeControl::fischer(seconds(300), seconds(5))) == "5 分 + 5 秒");
  CHECK(time_choice_text(en, TimeControl::fixed_per_move(seconds(86'400))) == "1 day per move");
  CHECK(time_choice_text(en, TimeControl::fixed_per_move(seconds(3 * 86'400))) ==
        "3 days per move");
  CHECK(time_choice_text(zh, TimeControl::unlimited()) == "不计时");
  CHECK(variant_text(en, standard_variant()) == "standard (10x10)");
  CHECK(variant_text(zh, standard_variant()) == "标准（10x10）");
  CHECK(level_name(en, "beginner") == "Beginner");
  CHECK(level_name(zh, "beginner") == "入门");
  CHECK(level_name(zh, "custom_level") == "custom_level");
}

namespace {

// Characters, not bytes, of UTF-8 text.
std::size_t characters(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

TEST_CASE("pseudo-locale: accented, 40% longer, bracketed, with placeholders and plurals kept") {
  CHECK(pseudo_localize("Start game") == "[Šţàŕţ ĝàɱé ~~~~]");
  CHECK(pseudo_localize("Game {game}: {error}") == "[Ĝàɱé {game}: {error} ~~~]");
  // Plural and select keep their keywords and `#`; the cases' texts are pseudo-localised.
  CHECK(pseudo_localize("{count, plural, one {# game} other {# games}} left") ==
        "[{count, plural, one {# ĝàɱé} other {# ĝàɱéš}} ļéƒţ ~~~~~]");
  CHECK(pseudo_localize("{bot, select, yes {, bot} other {}}") ==
        "[{bot, select, yes {, ƀöţ} other {}} ~~]");
  // ICU's quoting: '' is an apostrophe, '{...}' is literal text; neither changes.
  CHECK(pseudo_localize("it''s '{x}'") == "[îţ''š '{x}' ~~~~]");
  CHECK(pseudo_localize("") == "[ ~]");

  // Every message of the shipped catalogue: ICU reads it, formats it with the same arguments,
  // in brackets, at least 1.4 times as long as the English, and no ASCII letter of the text
  // is left (one that is left comes from an argument, not the catalogue).
  const auto pseudo = Catalogue::load(shipped_catalogues(), "pseudo").catalogue;
  const auto en = Catalogue::load(shipped_catalogues(), "en").catalogue;
  CHECK(pseudo.language() == "en-XA");
  CHECK(pseudo("game.moves") == "[Ṁöṽéš ~~]");
  CHECK(pseudo("archive.plies", {{"count", 1}}) == "[1 ɱöṽé ~~~]");
  CHECK(pseudo("archive.plies", {{"count", 3}}) == "[3 ɱöṽéš ~~~]");
  CHECK(pseudo("game.title", {{"game", "17"}}) == "[Ĝàɱé 17 ~~]");
  std::ifstream in(shipped_catalogues() / "en.json");
  const auto all = nlohmann::json::parse(in);
  std::size_t checked = 0;
  for (const auto& [key, value] : all.items()) {
    const std::string english = value.get<std::string>();
    const std::string made = pseudo_localize(english);
    CAPTURE(key);
    CHECK(made.front() == '[');
    CHECK(made.back() == ']');
    // The text grows by 40%; placeholders ({game}) are not text. (Plurals and selects, whose
    // cases are shown one at a time, are checked above on examples.)
    if (english.find(", plural,") == std::string::npos &&
        english.find(", select,") == std::string::npos) {
      const std::string text = std::regex_replace(english, std::regex("\\{[^{}]*\\}"), "");
      CHECK(static_cast<double>(characters(made)) >=
            static_cast<double>(characters(english)) + 0.4 * static_cast<double>(characters(text)));
    }
    ++checked;
  }
  CHECK(checked > 800);
  // Choosing it: by either name, never from the locale.
  CHECK(choose_language("pseudo", {"en", "zh-CN"}, env_of({})) == "en-XA");
  CHECK(choose_language("en-XA", {"en", "zh-CN"}, env_of({})) == "en-XA");
  CHECK(system_language({"en", "zh-CN"}, env_of({{"LANG", "en_XA.UTF-8"}})) == "en");
}

TEST_CASE("words: what is wrong with a typed server address or name, in both languages") {
  const auto en = Catalogue::load(shipped_catalogues(), "en").catalogue;
  const auto zh = Catalogue::load(shipped_catalogues(), "zh-CN").catalogue;
  using C = net::AddressError::Code;
  struct Case {
    const char* text;
    C code;
    const char* english;
    const char* chinese;
  };
  const Case cases[] = {
      {"", C::Empty, "no server address given", "没有填写服务器地址"},
      {"::1:80", C::BracketsNeeded, "\"::1:80\": write an IPv6 address in brackets, as [::1]:7420",
       "“::1:80”：IPv6 地址要写在方括号里，例如 [::1]:7420"},
      // Two colons in a name are not an IPv6 address: no advice about brackets.
      {"localhost:7420:", C::ExtraColon,
       "\"localhost:7420:\": more than one ':' (write HOST:PORT, as example.org:7420)",
       "“localhost:7420:”：多了一个冒号（请写成“主机:端口”，例如 example.org:7420）"},
      {"fe80::1:7420", C::BracketsNeeded,
       "\"fe80::1:7420\": write an IPv6 address in brackets, as [::1]:7420",
       "“fe80::1:7420”：IPv6 地址要写在方括号里，例如 [::1]:7420"},
      {"[::1", C::UnclosedBracket, "\"[::1\": an IPv6 address needs its closing ']'",
       "“[::1”：IPv6 地址缺少右方括号“]”"},
      {"[::1]x", C::ExpectedPort, "\"[::1]x\": expected ':PORT' after ']'",
       "“[::1]x”：“]”后面应为“:端口”"},
      {"http://h:1", C::UnknownScheme,
       "\"http://h:1\": unknown scheme \"http://\" (tcp://, tls://, ws:// or wss://)",
       "“http://h:1”：不认识的协议“http://”（可用 tcp://、tls://、ws:// 或 wss://）"},
      {"host:70000", C::BadPort, "\"host:70000\": the port must be a number from 1 to 65535",
       "“host:70000”：端口必须是 1 到 65535 之间的数字"},
      {"a,tls://b", C::MixedTransports,
       "\"a,tls://b\": every address must use the same transport (tcp)",
       "“a,tls://b”：所有地址必须使用同一种连接方式（tcp）"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const auto read = net::read_server_addresses(c.text);
    REQUIRE_FALSE(read.has_value());
    CHECK(read.error().code == c.code);
    CHECK(address_error_text(en, read.error()) == c.english);
    CHECK(address_error_text(zh, read.error()) == c.chinese);
  }
  CHECK(name_problem("   ") == "only_spaces");
  CHECK(name_problem_text(zh, *name_problem("")) == "名字不能为空");
  CHECK(name_problem_text(en, *name_problem(std::string(kMaxNameLength + 1, 'a'))) ==
        "a name has at most " + std::to_string(kMaxNameLength) + " bytes");
  CHECK_FALSE(name_problem("Li").has_value());
}

TEST_CASE("words: the moderation audit's targets and removed chat lines, in both languages") {
  const auto& en = test::english();
  const auto& zh = test::chinese();
  // The forms the server writes (lobby_moderation.cpp, admin.cpp).
  CHECK(audit_target_text(en, "adjudicate", "game 12 to White") == "game 12 to White");
  CHECK(audit_target_text(zh, "adjudicate", "game 12 to Black") == "对局 12，判给黑方");
  CHECK(audit_target_text(zh, "abort", "game 12") == "对局 12");
  CHECK(audit_target_text(zh, "resolve", "report 3 on bob") == "对 bob 的举报 3");
  CHECK(audit_target_text(zh, "close_registrations", "server") == "服务器");
  CHECK(audit_target_text(en, "grant", "Li moderator") == "Li as Moderator");
  CHECK(audit_target_text(zh, "grant", "Li moderator") == "Li（管理员）");
  // A player's name or an address is shown as written, whatever it looks like.
  CHECK(audit_target_text(zh, "mute", "bob") == "bob");
  CHECK(audit_target_text(zh, "ban_address", "10.0.0.7") == "10.0.0.7");
  CHECK(audit_target_text(zh, "revoke", "Li") == "Li");
  CHECK(audit_reason_text(zh, "remove_chat", R"(spam (line 4 in game 12: "buy now"))") ==
        "spam（对局 12 第 4 条：“buy now”）");
  CHECK(audit_reason_text(zh, "remove_chat", R"((line 4 in game 12: "x"))") ==
        "（对局 12 第 4 条：“x”）");
  CHECK(audit_reason_text(en, "remove_chat", R"(spam (line 4 in game 12: "buy now"))") ==
        R"(spam (line 4 in game 12: "buy now"))");
  CHECK(audit_reason_text(zh, "mute", "spam (line 4)") == "spam (line 4)");
  // The removed line is anything, quotes and brackets included; the reason may look like one.
  CHECK(audit_reason_text(zh, "remove_chat",
                          R"x(a (line 2) b (line 7 in game 9: "say "(line 1 in game 3: ")"))x") ==
        R"x(a (line 2) b（对局 9 第 7 条：“say "(line 1 in game 3: ")”）)x");
  CHECK(audit_reason_text(zh, "remove_chat", "(line 4 in game 12: \"two\nlines\")") ==
        "（对局 12 第 4 条：“two\nlines”）");
  // Not the form: shown as written.
  for (const char* odd : {R"x(spam (line x in game 12: "a"))x", R"x(spam (line 4 in game : "a"))x",
                          R"x(spam (line 4 in game 12 "a"))x", R"x(spam (line 4 in game 12: "a"x",
                          R"x((line 4 in game 12: ")x",
                          R"x((line 4 in game 12:"a"))x", ""})
    CHECK(audit_reason_text(zh, "remove_chat", odd) == odd);
  CHECK(audit_target_text(zh, "adjudicate", "game 12 to Grey") == "game 12 to Grey");
  CHECK(audit_target_text(zh, "adjudicate", "game 1 2 to White") == "game 1 2 to White");
  CHECK(audit_target_text(zh, "resolve", "report x on bob") == "report x on bob");
  CHECK(audit_target_text(zh, "resolve", "report 3 on ") == "report 3 on ");
  CHECK(audit_target_text(zh, "grant", "Li root") == "Li root");
  CHECK(audit_target_text(zh, "grant", "Li  admin") == "Li  admin");
}
