// A program's command line in the person's language: which catalogue its --help speaks, and
// CLI11's own words (Usage, OPTIONS, the options' heading, the help flag) in it. The option
// descriptions come from the catalogue at the call site.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/App.hpp>

#include "client/catalogue.h"

namespace amazons::client {

// The catalogue a program's command line speaks: the language of --language in `args` (the
// arguments without the program's name) when there is a catalogue for it, else the system's
// (LC_ALL, LC_MESSAGES, LANG; catalogue.h). The catalogues are read from --i18n-dir in `args`,
// else `dir`. Never fails: English when nothing fits.
Catalogue cli_catalogue(const std::vector<std::string>& args, const std::filesystem::path& dir,
                        const EnvLookup& env = process_env);
// The same from main's arguments.
Catalogue cli_catalogue(int argc, const char* const* argv, const std::filesystem::path& dir);

// CLI11's words in `t`'s language: its headings, the help flag, and its refusals of a command
// line (cli_error_text, then a line saying to run --help). Call before adding options (their
// heading is set here).
void speak(CLI::App& app, const Catalogue& t);

// CLI11's refusal of a command line in `t`'s language: an unknown option or argument, a missing
// value, a value that cannot be read or that a check below refused. A refusal CLI11 does not
// tell apart is given in its own words.
std::string cli_error_text(const Catalogue& t, const CLI::Error& e);

// Checks of an option's value that say what is wrong in `t`'s language (CLI11's own say it in
// English). Their descriptions in --help are language-neutral: "[1 - 64]", "{any,rated}".
// A number from `low` to `high` (HUGE_VAL: no bound, for a whole number only); a whole one when
// `whole`.
CLI::Validator in_range(const Catalogue& t, double low, double high, bool whole);
// One of `choices`, as written.
CLI::Validator one_of(const Catalogue& t, std::vector<std::string> choices);
// The name of a file that exists.
CLI::Validator existing_file(const Catalogue& t);

}  // namespace amazons::client
