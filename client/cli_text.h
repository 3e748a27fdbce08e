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

// CLI11's words in `t`'s language. Call before adding options (their heading is set here).
void speak(CLI::App& app, const Catalogue& t);

}  // namespace amazons::client
