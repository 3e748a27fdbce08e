#include "common/shipped_files.h"

#include <cstdlib>
#include <system_error>

namespace amazons {

std::filesystem::path shipped_dir(std::string_view name, const std::filesystem::path& build_tree,
                                  const std::filesystem::path& program) {
  const auto bin = program.parent_path();
  if (bin.filename() == "bin" || bin.filename() == "games") {
    const auto installed = bin.parent_path() / "share" / "amazons" / name;
    std::error_code ec;
    if (std::filesystem::is_directory(installed, ec)) return installed;
  }
  return build_tree;
}

std::filesystem::path shipped_config_dir(const std::filesystem::path& build_tree) {
  if (const char* env = std::getenv("AMAZONS_CONFIG_DIR"); env && *env) return env;
  return shipped_dir("config", build_tree);
}

}  // namespace amazons
