// The lobby's form for a new game: rule variant, time control, colour, rated, private. What it
// asks for is what create, quick pairing and a challenge send; the choice of variant and clock
// is kept in the settings for next time.
#pragma once

#include <string>
#include <vector>

#include "client/ui/app.h"
#include "common/protocol.h"
#include "common/variant.h"

namespace amazons::client::ui {

class NewGameForm {
 public:
  // The choices offered in the catalogue's words; the settings' last variant and clock chosen.
  explicit NewGameForm(App& app);

  std::vector<Widget*> widgets() { return {&rules_, &time_, &colour_, &rated_, &private_}; }
  // Places the form from `y` down in a column at `x` of width `w`; returns the y below it.
  float place(const Style& s, float x, float y, float w);

  protocol::Create create() const;
  protocol::Seek seek() const;
  protocol::ChallengeSend challenge(const std::string& player) const;
  // Keeps the variant and clock in the settings (saved).
  void remember();

 private:
  std::string rules() const { return variants_[rules_.index].name; }
  TimeControl time_control() const;
  protocol::ColorChoice colour() const;

  App& app_;
  const std::vector<RuleVariant> variants_;
  Selector rules_{"rules", "", {}};
  Selector time_{"time_control", "", {}};
  Selector colour_{"colour", "", {}};
  Toggle rated_{"rated", ""};
  Toggle private_{"private", ""};
};

}  // namespace amazons::client::ui
