#include "client/ui/theme.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "client/ui/widgets.h"

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

namespace {

std::uint32_t read_u32(const std::vector<char>& d, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(d[at + i]);
  return v;
}

// Loads the face named `family` of a font file into `font`. SFML 2.5 opens only the first face
// of a collection (.ttc), and the first of Noto Sans CJK is the Japanese one, whose characters
// differ from Chinese ones in places: the collection's table of faces is rewritten in memory so
// that the wanted face comes first (each face's tables are found by offsets from the file's
// start, so nothing else moves).
bool load_face(sf::Font& font, std::vector<char>& data, const std::filesystem::path& file,
               const std::string& family) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  const bool collection = data.size() > 12 && std::string(data.data(), 4) == "ttcf";
  const std::uint32_t faces = collection ? read_u32(data, 8) : 1;
  if (collection && data.size() < 12 + 4 * static_cast<std::size_t>(faces)) return false;
  for (std::uint32_t i = 0; i < faces; ++i) {
    if (collection) {
      const std::uint32_t offset = read_u32(data, 12 + 4 * static_cast<std::size_t>(i));
      for (std::size_t b = 0; b < 4; ++b)
        data[12 + b] = static_cast<char>((offset >> (24 - 8 * b)) & 0xFF);
    }
    if (font.loadFromMemory(data.data(), data.size()) &&
        (family.empty() || font.getInfo().family == family))
      return true;
  }
  return false;
}

}  // namespace

Expected<bool, std::string> load_cjk_fonts(Fonts& fonts) {
  struct Candidate {
    std::filesystem::path regular, bold;
    std::string family;
  };
  const std::vector<Candidate> candidates = {
      {"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
       "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "Noto Sans CJK SC"},
      // One weight only: its bold is the regular face.
      {"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
       "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "WenQuanYi Micro Hei"},
  };
  std::string tried;
  for (const Candidate& c : candidates) {
    if (load_face(fonts.cjk_regular, fonts.cjk_regular_data, c.regular, c.family) &&
        load_face(fonts.cjk_bold, fonts.cjk_bold_data, c.bold, c.family)) {
      fonts.has_cjk = true;
      set_fallback_font(fonts.regular, &fonts.cjk_regular);
      set_fallback_font(fonts.bold, &fonts.cjk_bold);
      return true;
    }
    tried += "\n  " + c.regular.string();
  }
  return Unexpected("cannot find a Chinese font; tried:" + tried +
                    "\ninstall one with `apt-get install fonts-noto-cjk` (or fonts-wqy-microhei)");
}

}  // namespace amazons::client::ui
