#include "client/cli_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include <CLI/CLI.hpp>

namespace amazons::client {

namespace {

// The value of `--name VALUE` or `--name=VALUE` in `args`, the last one given; empty if none.
std::string value_of(const std::vector<std::string>& args, std::string_view name) {
  std::string out;
  const std::string with_equals = std::string(name) + "=";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == name && i + 1 < args.size())
      out = args[i + 1];
    else if (args[i].starts_with(with_equals))
      out = args[i].substr(with_equals.size());
  }
  return out;
}

// A bound as a person writes it: 64, 0.1, 10000000 (not 1e+07).
std::string bound_text(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(v);
}

// What follows the first ": " in `text`; empty if there is none.
std::string after_colon(const std::string& text) {
  const auto at = text.find(": ");
  return at == std::string::npos ? std::string() : text.substr(at + 2);
}

// What comes before the first ':' or ' ' of `text` (CLI11 starts most refusals with the
// option's name).
std::string leading_name(const std::string& text) {
  return text.substr(0, text.find_first_of(": "));
}

template <class Kind>
bool is(const CLI::Error& e) {
  return dynamic_cast<const Kind*>(&e) != nullptr;
}

}  // namespace

Catalogue cli_catalogue(const std::vector<std::string>& args, const std::filesystem::path& dir,
                        const EnvLookup& env) {
  const std::string given_dir = value_of(args, "--i18n-dir");
  const std::filesystem::path from = given_dir.empty() ? dir : std::filesystem::path(given_dir);
  const std::string language =
      choose_language(value_of(args, "--language"), catalogue_languages(from), env);
  return Catalogue::load(from, language).catalogue;
}

Catalogue cli_catalogue(int argc, const char* const* argv, const std::filesystem::path& dir) {
  return cli_catalogue(std::vector<std::string>(argv + std::min(argc, 1), argv + argc), dir);
}

void speak(CLI::App& app, const Catalogue& t) {
  const auto formatter = app.get_formatter();
  formatter->label("Usage", t("cli.usage"));
  formatter->label("OPTIONS", t("cli.options_badge"));
  formatter->label("REQUIRED", t("cli.required"));
  formatter->label("TEXT", t("cli.type.text"));
  formatter->label("INT", t("cli.type.int"));
  formatter->label("UINT", t("cli.type.int"));
  formatter->label("FLOAT", t("cli.type.number"));
  formatter->label("INT:POSITIVE", t("cli.type.int"));
  app.option_defaults()->group(t("cli.options"));
  app.set_help_flag("-h,--help", t("cli.help"));
  app.failure_message([t](const CLI::App*, const CLI::Error& e) {
    return cli_error_text(t, e) + "\n" + t("cli.error.see_help") + "\n";
  });
}

std::string cli_error_text(const Catalogue& t, const CLI::Error& e) {
  // CLI11 2.1 says what it refused only in its message; the forms read here are its Error.hpp's.
  // (Its get_name() is not the kind for every error: an ExtrasError is named after the app.)
  const std::string what = e.what();
  if (is<CLI::ExtrasError>(e)) return t("cli.error.unexpected", {{"args", after_colon(what)}});
  if (is<CLI::ArgumentMismatch>(e) && what.ends_with(" missing"))
    return t("cli.error.missing_value", {{"option", leading_name(what)}});
  if (is<CLI::ArgumentMismatch>(e))
    return t("cli.error.value_count", {{"option", leading_name(what)}});
  if (is<CLI::ValidationError>(e))
    return t("cli.error.invalid", {{"option", leading_name(what)}, {"problem", after_colon(what)}});
  if (is<CLI::RequiredError>(e)) return t("cli.error.required", {{"option", leading_name(what)}});
  if (is<CLI::ConversionError>(e)) {
    // "Could not convert: --games = two", "The value two is not an allowed value for --games".
    constexpr std::string_view kCould = "Could not convert: ";
    constexpr std::string_view kValue = "The value ";
    constexpr std::string_view kFor = " is not an allowed value for ";
    if (what.starts_with(kCould)) {
      const std::string rest = what.substr(kCould.size());
      const auto eq = rest.find(" = ");
      if (eq != std::string::npos)
        return t("cli.error.unreadable",
                 {{"option", rest.substr(0, eq)}, {"value", rest.substr(eq + 3)}});
    }
    if (const auto at = what.find(kFor); what.starts_with(kValue) && at != std::string::npos)
      return t("cli.error.unreadable", {{"option", what.substr(at + kFor.size())},
                                        {"value", what.substr(kValue.size(), at - kValue.size())}});
    return t("cli.error.flag_value", {{"option", leading_name(what)}});
  }
  return what;
}

CLI::Validator in_range(const Catalogue& t, double low, double high, bool whole) {
  const std::string low_text = bound_text(low), high_text = bound_text(high);
  return CLI::Validator(
      [t, low, high, whole, low_text, high_text](std::string& value) -> std::string {
        double v = 0;
        const char* end = value.data() + value.size();
        const auto [stop, ec] = std::from_chars(value.data(), end, v);
        const bool ok = ec == std::errc() && stop == end && std::isfinite(v) && v >= low &&
                        v <= high && (!whole || std::floor(v) == v);
        if (ok) return {};
        if (std::isinf(high))
          return t("cli.check.whole_at_least", {{"low", low_text}, {"value", value}});
        return t(whole ? "cli.check.whole_range" : "cli.check.range",
                 {{"low", low_text}, {"high", high_text}, {"value", value}});
      },
      std::isinf(high) ? ">= " + low_text : "[" + low_text + " - " + high_text + "]");
}

CLI::Validator one_of(const Catalogue& t, std::vector<std::string> choices) {
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "" : ",") + c;
  return CLI::Validator(
      [t, choices, list](std::string& value) -> std::string {
        if (std::find(choices.begin(), choices.end(), value) != choices.end()) return {};
        return t("cli.check.one_of", {{"choices", list}, {"value", value}});
      },
      "{" + list + "}");
}

CLI::Validator existing_file(const Catalogue& t) {
  return CLI::Validator(
      [t](std::string& value) -> std::string {
        std::error_code ec;
        if (std::filesystem::is_regular_file(value, ec)) return {};
        return t("cli.check.no_file", {{"value", value}});
      },
      "");
}

}  // namespace amazons::client
