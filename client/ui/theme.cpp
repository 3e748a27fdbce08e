#include "client/ui/theme.h"

#include <cstdlib>

namespace amazons::client::ui {

sf::Color to_sf(Rgb c, sf::Uint8 alpha) { return {c.r, c.g, c.b, alpha}; }

Expected<bool, std::string> load_fonts(Fonts& fonts) {
  std::vector<std::filesystem::path> dirs;
  if (const char* dir = std::getenv("AMAZONS_FONT_DIR"); dir != nullptr && *dir != '\0')
    dirs.emplace_back(dir);
  dirs.emplace_back("/usr/share/fonts/truetype/dejavu");
  dirs.emplace_back("/usr/share/fonts/TTF");  // Arch, Fedora
  dirs.emplace_back("/usr/share/fonts/dejavu-sans-fonts");
  dirs.emplace_back("/usr/local/share/fonts");
  std::string tried;
  for (const auto& dir : dirs) {
    const auto regular = dir / "DejaVuSans.ttf";
    const auto bold = dir / "DejaVuSans-Bold.ttf";
    std::error_code ec;
    if (std::filesystem::exists(regular, ec) && std::filesystem::exists(bold, ec) &&
        fonts.regular.loadFromFile(regular.string()) && fonts.bold.loadFromFile(bold.string()))
      return true;
    tried += "\n  " + regular.string();
  }
  return Unexpected(
      "cannot find the DejaVu Sans font; tried:" + tried +
      "\ninstall it with `apt-get install fonts-dejavu-core` (or set AMAZONS_FONT_DIR to a "
      "directory holding DejaVuSans.ttf and DejaVuSans-Bold.ttf)");
}

}  // namespace amazons::client::ui
