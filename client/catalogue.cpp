#include "client/catalogue.h"

#include <algorithm>
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

}  // namespace

Catalogue::Catalogue(std::string language, Messages messages, Messages english)
    : language_(std::move(language)), messages_(std::move(messages)), english_(std::move(english)) {
  if (english_.empty() && language_ == kSourceLanguage) english_ = messages_;
}

Catalogue::Loaded Catalogue::load(const std::filesystem::path& dir, std::string_view language) {
  Loaded out;
  Messages english, messages;
  if (std::string problem = read_messages(dir / "en.json", english); !problem.empty())
    out.problems.push_back(problem + "; messages are shown by their keys");
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
  if (!setting.empty() && contains(available, setting)) return std::string(setting);
  return system_language(available, env);
}

}  // namespace amazons::client
