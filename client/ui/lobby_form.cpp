#include "client/ui/lobby_form.h"

#include "client/game_choices.h"
#include "client/words.h"

namespace amazons::client::ui {

NewGameForm::NewGameForm(App& app) : app_(app), variants_(known_variants(app.options().rules_dir)) {
  const Catalogue& t = app_.tr();
  for (const RuleVariant& v : variants_) {
    rules_.options.push_back(variant_text(t, v));
    if (v.name == app_.settings().last_variant) rules_.index = rules_.options.size() - 1;
  }
  for (const TimeChoice& c : time_choices()) {
    time_.options.push_back(time_choice_text(t, c.control));
    if (to_string(c.control) == app_.settings().last_time_control)
      time_.index = time_.options.size() - 1;
  }
  rules_.label = t("lobby.rules");
  time_.label = t("lobby.time_control");
  colour_.label = t("lobby.your_colour");
  colour_.options = {t("lobby.color.random"), t("side.white"), t("side.black")};
  rated_.label = t("lobby.rated");
  private_.label = t("lobby.private");
}

float NewGameForm::place(const Style& s, float x, float y, float w) {
  const float fh = s.f(40), fgap = s.f(30);
  for (Widget* widget : std::initializer_list<Widget*>{&rules_, &time_, &colour_}) {
    widget->rect = {x, y, w, fh};
    y += fh + fgap;
  }
  y -= s.f(16);
  rated_.rect = {x, y, w, s.f(30)};
  y += s.f(38);
  private_.rect = {x, y, w, s.f(30)};
  return y + s.f(44);
}

TimeControl NewGameForm::time_control() const { return time_choices()[time_.index].control; }

protocol::ColorChoice NewGameForm::colour() const {
  return colour_.index == 1   ? protocol::ColorChoice::White
         : colour_.index == 2 ? protocol::ColorChoice::Black
                              : protocol::ColorChoice::Random;
}

void NewGameForm::remember() {
  app_.settings().last_variant = rules();
  app_.settings().last_time_control = to_string(time_control());
  app_.save_settings();
}

protocol::Create NewGameForm::create() const {
  protocol::Create c;
  c.rules = rules();
  c.time = time_control();
  c.color = colour();
  c.rated = rated_.value;
  c.is_private = private_.value;
  return c;
}

protocol::Seek NewGameForm::seek() const { return {rules(), time_control(), rated_.value}; }

protocol::ChallengeSend NewGameForm::challenge(const std::string& player) const {
  protocol::ChallengeSend c;
  c.player = player;
  c.rules = rules();
  c.time = time_control();
  c.color = colour();
  c.rated = rated_.value;
  return c;
}

}  // namespace amazons::client::ui
