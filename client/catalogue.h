// The clients' words in the person's language: one catalogue of messages a language, read from
// i18n/LANG.json (the files the web client uses: a flat JSON object of keys to ICU MessageFormat
// patterns, docs/I18N.md), formatted with ICU's MessageFormat under the language's plural rules.
// English (en.json) is the source and the fallback for a key the language lacks. Immutable after
// loading: any thread may format with a Catalogue it can see.
#pragma once

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "client/user_files.h"

namespace amazons::client {

// One named argument of a message: `{name}`, `{name, plural, ...}`, `{name, select, ...}`.
struct MessageArg {
  MessageArg(std::string_view n, std::string v) : name(n), value(std::move(v)) {}
  MessageArg(std::string_view n, const char* v) : name(n), value(std::string(v)) {}
  template <std::integral T>
  MessageArg(std::string_view n, T v) : name(n), value(static_cast<std::int64_t>(v)) {}
  std::string_view name;
  std::variant<std::string, std::int64_t> value;
};

inline constexpr std::string_view kSourceLanguage = "en";
// The pseudo-locale: English made longer and strange (pseudo_localize) to find texts that are
// not translated and layouts that break on longer ones. Made from en.json when loaded, never a
// file; chosen by name only (--language pseudo), never from the locale. "en-XA" is ICU's and
// Android's tag for it, with English plural rules.
inline constexpr std::string_view kPseudoLanguage = "en-XA";
inline constexpr std::string_view kPseudoAlias = "pseudo";

// An ICU MessageFormat pattern pseudo-localised: every letter of its text accented ("Start
// game" -> "Šţàŕţ ĝàɱé"), lengthened by about 40% with tildes and wrapped in brackets:
// "[Šţàŕţ ĝàɱé ~~~~]". Placeholders, plural and select keywords, `#` and quoted text are kept
// as written; the texts inside a plural's or select's cases are pseudo-localised too.
std::string pseudo_localize(std::string_view pattern);

class Catalogue {
 public:
  struct Loaded;
  // Reads dir/en.json and dir/`language`.json (for the pseudo-locale, en.json made into it).
  // Never fails: what cannot be read is named in
  // `problems` (in English: there may be no catalogue to say it in) and English stands in for
  // it; with no en.json either, a message is shown as its key.
  static Loaded load(const std::filesystem::path& dir, std::string_view language);
  // A catalogue of the given messages (tests, and a language given in code).
  Catalogue(std::string language, std::map<std::string, std::string, std::less<>> messages,
            std::map<std::string, std::string, std::less<>> english = {});
  Catalogue() = default;

  // The language whose messages are used: a BCP 47 tag ("en", "zh-CN").
  const std::string& language() const { return language_; }
  // The message of `key` with `args`, in the language, else in English (formatted under
  // English rules), else the key itself. A pattern ICU cannot read is shown as written.
  std::string text(std::string_view key, std::initializer_list<MessageArg> args = {}) const;
  std::string operator()(std::string_view key, std::initializer_list<MessageArg> args = {}) const {
    return text(key, args);
  }
  // Whether the language itself (not the English fallback) has `key`.
  bool has(std::string_view key) const { return messages_.contains(key); }
  // Whether the language or English has `key`.
  bool knows(std::string_view key) const { return has(key) || english_.contains(key); }

 private:
  std::string language_ = std::string(kSourceLanguage);
  std::map<std::string, std::string, std::less<>> messages_;
  std::map<std::string, std::string, std::less<>> english_;
};

struct Catalogue::Loaded {
  Catalogue catalogue;
  std::vector<std::string> problems;
};

// The languages there are catalogues for in `dir`: the LANG of every LANG.json, sorted.
std::vector<std::string> catalogue_languages(const std::filesystem::path& dir);

// The catalogue language for a POSIX locale name ("zh_CN.UTF-8", "en_GB", "zh", "C"), among
// `available`; empty when none fits. Chinese written in Simplified characters (zh, zh_CN,
// zh_SG) is zh-CN; zh_TW, zh_HK and zh_MO write Traditional characters and get no zh-CN.
std::string language_of_locale(std::string_view locale, const std::vector<std::string>& available);
// The language of the system's locale for messages: the first set of LC_ALL, LC_MESSAGES and
// LANG, as POSIX orders them; English when it names no language there is a catalogue for.
std::string system_language(const std::vector<std::string>& available,
                            const EnvLookup& env = process_env);
// The language a client speaks: its setting (a tag, kept in settings.json) when there is a
// catalogue for it (or the pseudo-locale, by either of its names), else the system's.
std::string choose_language(std::string_view setting, const std::vector<std::string>& available,
                            const EnvLookup& env = process_env);

}  // namespace amazons::client
