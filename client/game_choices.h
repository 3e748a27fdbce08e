// What the forms that start a game offer, in the desktop and the terminal client alike: the
// time controls and the rule variants.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/time_control.h"
#include "common/variant.h"

namespace amazons::client {

struct TimeChoice {
  TimeControl control;
  std::string label;  // "3 min + 2 s"
};
std::vector<TimeChoice> time_choices();
// The label of one of time_choices(), else the control's own text ("fischer 60+1").
std::string time_text(const TimeControl& tc);

// The built-in variants, then every valid file in `rules_dir` not named like them.
std::vector<RuleVariant> known_variants(const std::filesystem::path& rules_dir);

// "botzone8  (8x8)": how the forms offer a variant.
std::string variant_label(const RuleVariant& v);

}  // namespace amazons::client
