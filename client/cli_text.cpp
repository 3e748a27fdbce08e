#include "client/cli_text.h"

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
}

}  // namespace amazons::client
