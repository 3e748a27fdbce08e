// The look of the client: one colour scheme, the fonts, and the sizes everything derives from.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <SFML/Graphics/Color.hpp>
#include <SFML/Graphics/Font.hpp>

#include "client/settings.h"
#include "common/expected.h"

namespace amazons::client::ui {

namespace colors {
inline const sf::Color kBackground{24, 28, 35};
inline const sf::Color kPanel{34, 40, 50};
inline const sf::Color kPanelRaised{44, 52, 64};
inline const sf::Color kBorder{58, 68, 82};
inline const sf::Color kText{232, 230, 225};
inline const sf::Color kMuted{150, 160, 172};
inline const sf::Color kAccent{226, 170, 76};  // warm gold: the active side, primary buttons
inline const sf::Color kAccentHover{240, 190, 100};
inline const sf::Color kDanger{214, 92, 80};  // low time, resign
inline const sf::Color kWhiteQueen{246, 242, 232};
inline const sf::Color kWhiteQueenEdge{40, 36, 32};
inline const sf::Color kBlackQueen{30, 30, 36};
inline const sf::Color kBlackQueenEdge{220, 214, 200};
inline const sf::Color kBurned{66, 58, 54};  // a square an arrow landed on
inline const sf::Color kArrow{44, 38, 36};
inline const sf::Color kArrowEdge{196, 96, 58};
inline const sf::Color kDestination{30, 110, 200, 175};  // where the selected queen may go
inline const sf::Color kArrowTarget{210, 80, 50, 170};   // where the arrow may land
inline const sf::Color kSelected{30, 110, 200, 105};     // the queen being moved
inline const sf::Color kLastMove{250, 220, 90, 95};
inline const sf::Color kHover{255, 255, 255, 50};
// A pending premove: violet, a colour no other marking on the board uses.
inline const sf::Color kPremove{150, 70, 220, 120};
inline const sf::Color kPremoveEdge{175, 105, 255, 235};
}  // namespace colors

sf::Color to_sf(Rgb c, sf::Uint8 alpha = 255);

struct Fonts {
  sf::Font regular;
  sf::Font bold;
  // Chinese (and the rest of CJK), which DejaVu lacks: text drawn in regular or bold takes such
  // characters from these (draw_text). Empty when no CJK font was found.
  sf::Font cjk_regular;
  sf::Font cjk_bold;
  bool has_cjk = false;
  // The font files' bytes: SFML reads a font loaded from memory for as long as it is used.
  std::vector<char> cjk_regular_data, cjk_bold_data;
};

// Loads DejaVu Sans (Debian package fonts-dejavu-core) from the usual places, or from the
// directory in $AMAZONS_FONT_DIR. The error names every place tried and the package to install.
Expected<bool, std::string> load_fonts(Fonts& fonts);

// Loads a Simplified Chinese font as the fallback of `fonts` and registers it with draw_text:
// Noto Sans CJK SC (fonts-noto-cjk), else WenQuanYi Micro Hei (fonts-wqy-microhei). Without
// one the client runs and Chinese shows as boxes; the error names the packages to install.
Expected<bool, std::string> load_cjk_fonts(Fonts& fonts);

}  // namespace amazons::client::ui
