// Where a program finds the files shipped with it: the rule variants and engine levels
// (config/), the web client (web/dist). Run from the build tree, they are where the build left
// them (paths fixed at build time); installed (the Debian packages, `cmake --install`) as
// PREFIX/bin/PROGRAM or PREFIX/games/PROGRAM, in PREFIX/share/amazons/NAME. The installed place is
// looked for first, so an installed program never reads a checkout that happens to sit at its
// build's path.
#pragma once

#include <filesystem>
#include <string_view>

namespace amazons {

// This process's executable (Linux: /proc/self/exe; Windows: GetModuleFileName), or an empty
// path where that cannot be read. The platform's file: running_program_{posix,windows}.cpp.
std::filesystem::path running_program();

// PREFIX/share/amazons/`name` if `program` is PREFIX/bin/SOMETHING or PREFIX/games/SOMETHING
// and that directory exists, else `build_tree`. Never fails; touches nothing but the file system's
// metadata.
std::filesystem::path shipped_dir(std::string_view name, const std::filesystem::path& build_tree,
                                  const std::filesystem::path& program = running_program());

// The configuration directory (rules/, ai.json, bot.json, server.json): $AMAZONS_CONFIG_DIR if
// set, else shipped_dir("config", build_tree).
std::filesystem::path shipped_config_dir(const std::filesystem::path& build_tree);

}  // namespace amazons
