#include "client/catalogue.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>

#include <unicode/fmtable.h>
#include <unicode/locid.h>
#include <unicode/msgfmt.h>
#include <unicode/unistr.h>
#include <nlohmann/json.hpp>

namespace amazons::client {

namespace {

using Messages = std::map<std::string, std::string, std::less<>>;

// Reads one catalogue file; returns why not (in English) on failure.
std::string read_messages(const std::filesystem::path& file, Messages& out) {
  std::ifstream in(file);
  if (!in) return file.string() + ": the catalogue cannot be read";
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) return file.string() + ": the catalogue is not a JSON object";
  for (const auto& [key, value] : j.items())
    if (value.is_string()) out.emplace(key, value.get<std::string>());
  return {};
}

std::string format(std::string_view pattern, std::string_view language,
                   std::initializer_list<MessageArg> args) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse_error;
  const icu::Locale locale = icu::Locale::forLanguageTag(std::string(language), status);
  const icu::MessageFormat message(icu::UnicodeString::fromUTF8(pattern), locale, parse_error,
                                   status);
  if (U_FAILURE(status)) return std::string(pattern);
  std::vector<icu::UnicodeString> names;
  std::vector<icu::Formattable> values;
  names.reserve(args.size());
  values.reserve(args.size());
  for (const MessageArg& a : args) {
    names.push_back(icu::UnicodeString::fromUTF8(a.name));
    if (const auto* s = std::get_if<std::string>(&a.value))
      values.emplace_back(icu::UnicodeString::fromUTF8(*s));
    else
      values.emplace_back(static_cast<int64_t>(std::get<std::int64_t>(a.value)));
  }
  icu::UnicodeString result;
  message.format(names.data(), values.data(), static_cast<int32_t>(args.size()), result, status);
  if (U_FAILURE(status)) return std::string(pattern);
  std::string out;
  return result.toUTF8String(out);
}

// "zh_CN.UTF-8@euro" -> {"zh", "CN"}.
std::pair<std::string, std::string> split_locale(std::string_view locale) {
  locale = locale.substr(0, locale.find_first_of(".@"));
  const std::size_t sep = locale.find_first_of("_-");
  std::string lang(locale.substr(0, sep)), region;
  if (sep != std::string_view::npos) region = locale.substr(sep + 1);
  for (char& ch : lang) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (char& ch : region) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return {lang, region};
}

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The letters of the pseudo-locale: each ASCII letter as an accented one that reads alike.
constexpr std::string_view kAccented[26][2] = {
    {"à", "À"}, {"ƀ", "Ɓ"}, {"ç", "Ç"}, {"ð", "Ð"}, {"é", "É"}, {"ƒ", "Ƒ"}, {"ĝ", "Ĝ"},
    {"ĥ", "Ĥ"}, {"î", "Î"}, {"ĵ", "Ĵ"}, {"ķ", "Ķ"}, {"ļ", "Ļ"}, {"ɱ", "Ṁ"}, {"ñ", "Ñ"},
    {"ö", "Ö"}, {"þ", "Þ"}, {"ǫ", "Ǫ"}, {"ŕ", "Ŕ"}, {"š", "Š"}, {"ţ", "Ţ"}, {"û", "Û"},
    {"ṽ", "Ṽ"}, {"ŵ", "Ŵ"}, {"ẋ", "Ẋ"}, {"ý", "Ý"}, {"ž", "Ž"}};
// How much longer a pseudo-localised text is: German and Finnish run up to 40% longer than
// English in short interface texts, so a layout that holds this holds them.
constexpr double kPseudoGrowth = 0.4;

// Pseudo-localises one message of `p` from `i` (at depth > 0, a plural's or select's case, up
// to its closing brace, not taken). `letters` counts the text's characters. `hash`: whether `#`
// stands for a plural's number here.
class Pseudo {
 public:
  explicit Pseudo(std::string_view p) : p_(p) {}
  std::string run() {
    message(false);
    // Whatever follows an unbalanced '}' is kept as written: ICU will not read it either.
    out_ += p_.substr(i_);
    return out_;
  }
  std::size_t letters() const { return letters_; }

 private:
  void message(bool hash) {
    while (i_ < p_.size() && p_[i_] != '}') {
      const char c = p_[i_];
      if (c == '{') {
        argument();
      } else if (c == '\'') {
        quoted();
      } else if (c == '#' && hash) {
        out_ += c;
        ++i_;
      } else {
        if (c >= 'a' && c <= 'z')
          out_ += kAccented[c - 'a'][0];
        else if (c >= 'A' && c <= 'Z')
          out_ += kAccented[c - 'A'][1];
        else
          out_ += c;
        // One count a character, not a byte of UTF-8.
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++letters_;
        ++i_;
      }
    }
  }

  // '' is an apostrophe; a quote before { } # | runs to the next single quote, kept as written.
  void quoted() {
    if (i_ + 1 < p_.size() && p_[i_ + 1] == '\'') {
      out_ += "''";
      i_ += 2;
      ++letters_;
      return;
    }
    const char next = i_ + 1 < p_.size() ? p_[i_ + 1] : '\0';
    if (next != '{' && next != '}' && next != '#' && next != '|') {
      out_ += '\'';
      ++i_;
      ++letters_;
      return;
    }
    const std::size_t end = p_.find('\'', i_ + 1);
    const std::size_t stop = end == std::string_view::npos ? p_.size() : end + 1;
    out_ += p_.substr(i_, stop - i_);
    letters_ += stop - i_;
    i_ = stop;
  }

  // {name}, {name, type, style} kept whole; {name, plural|select|selectordinal, cases} with the
  // cases' texts pseudo-localised.
  void argument() {
    const std::size_t open = i_;
    std::size_t j = p_.find_first_of(",}", i_ + 1);
    if (j == std::string_view::npos || p_[j] == '}') return copy_balanced(open);
    const std::size_t type_end = p_.find_first_of(",}", j + 1);
    if (type_end == std::string_view::npos) return copy_balanced(open);
    std::string_view type = p_.substr(j + 1, type_end - j - 1);
    while (!type.empty() && type.front() == ' ') type.remove_prefix(1);
    while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
    const bool plural = type == "plural" || type == "selectordinal";
    if ((!plural && type != "select") || p_[type_end] != ',') return copy_balanced(open);
    out_ += p_.substr(open, type_end + 1 - open);
    i_ = type_end + 1;
    // Cases: a keyword (one, other, =0, offset:1) and then its message in braces. One case is
    // shown at a time, so the text counts as long as its longest case.
    const std::size_t before = letters_;
    std::size_t longest = 0;
    while (i_ < p_.size() && p_[i_] != '}') {
      if (p_[i_] == '{') {
        out_ += '{';
        ++i_;
        letters_ = 0;
        message(plural);
        longest = std::max(longest, letters_);
        if (i_ < p_.size()) {
          out_ += '}';
          ++i_;
        }
      } else {
        out_ += p_[i_++];
      }
    }
    letters_ = before + longest;
    if (i_ < p_.size()) {
      out_ += '}';
      ++i_;
    }
  }

  void copy_balanced(std::size_t open) {
    int depth = 0;
    std::size_t k = open;
    for (; k < p_.size(); ++k) {
      if (p_[k] == '{') ++depth;
      if (p_[k] == '}' && --depth == 0) break;
    }
    const std::size_t stop = k < p_.size() ? k + 1 : p_.size();
    out_ += p_.substr(open, stop - open);
    i_ = stop;
  }

  std::string_view p_;
  std::size_t i_ = 0;
  std::string out_;
  std::size_t letters_ = 0;
};

}  // namespace

std::string pseudo_localize(std::string_view pattern) {
  Pseudo p(pattern);
  std::string body = p.run();
  const auto padding = static_cast<std::size_t>(
      std::ceil(kPseudoGrowth * static_cast<double>(std::max<std::size_t>(p.letters(), 1))));
  return "[" + body + " " + std::string(padding, '~') + "]";
}

Catalogue::Catalogue(std::string language, Messages messages, Messages english)
    : language_(std::move(language)), messages_(std::move(messages)), english_(std::move(english)) {
  if (english_.empty() && language_ == kSourceLanguage) english_ = messages_;
}

Catalogue::Loaded Catalogue::load(const std::filesystem::path& dir, std::string_view language) {
  Loaded out;
  Messages english, messages;
  if (std::string problem = read_messages(dir / "en.json", english); !problem.empty())
    out.problems.push_back(problem + "; messages are shown by their keys");
  if (language == kPseudoLanguage || language == kPseudoAlias) {
    for (const auto& [key, pattern] : english) messages.emplace(key, pseudo_localize(pattern));
    out.catalogue =
        Catalogue(std::string(kPseudoLanguage), std::move(messages), std::move(english));
    return out;
  }
  if (language != kSourceLanguage) {
    if (std::string problem = read_messages(dir / (std::string(language) + ".json"), messages);
        !problem.empty()) {
      out.problems.push_back(problem + "; speaking English instead");
      language = kSourceLanguage;
      messages = english;
    }
  } else {
    messages = english;
  }
  out.catalogue = Catalogue(std::string(language), std::move(messages), std::move(english));
  return out;
}

std::string Catalogue::text(std::string_view key, std::initializer_list<MessageArg> args) const {
  if (auto it = messages_.find(key); it != messages_.end())
    return format(it->second, language_, args);
  if (auto it = english_.find(key); it != english_.end())
    return format(it->second, kSourceLanguage, args);
  return std::string(key);
}

std::vector<std::string> catalogue_languages(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") out.push_back(entry.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string language_of_locale(std::string_view locale, const std::vector<std::string>& available) {
  const auto [lang, region] = split_locale(locale);
  if (lang.empty() || lang == "c" || lang == "posix") return {};
  if (lang == "zh") {
    // Traditional characters are written in Taiwan, Hong Kong and Macau: not zh-CN.
    if (region == "TW" || region == "HK" || region == "MO") return {};
    return contains(available, "zh-CN") ? "zh-CN" : std::string();
  }
  if (!region.empty() && contains(available, lang + "-" + region)) return lang + "-" + region;
  return contains(available, lang) ? lang : std::string();
}

std::string system_language(const std::vector<std::string>& available, const EnvLookup& env) {
  for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* value = env(name);
    if (value == nullptr || *value == '\0') continue;
    std::string found = language_of_locale(value, available);
    return found.empty() ? std::string(kSourceLanguage) : found;
  }
  return std::string(kSourceLanguage);
}

std::string choose_language(std::string_view setting, const std::vector<std::string>& available,
                            const EnvLookup& env) {
  if (setting == kPseudoLanguage || setting == kPseudoAlias) return std::string(kPseudoLanguage);
  if (!setting.empty() && contains(available, setting)) return std::string(setting);
  return system_language(available, env);
}

}  // namespace amazons::client
