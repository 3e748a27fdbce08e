// The main menu and the forms that start a local game: against the computer (level, colour,
// rules) and two players at this terminal (names, rules, clock).
#include <random>

#include "client/computer_game.h"
#include "client/game_choices.h"
#include "client/words.h"
#include "tui/app.h"
#include "tui/form.h"

namespace amazons::tui {

namespace {

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

void draw_title(Canvas& c, const std::string& title, const std::string& subtitle) {
  c.text(2, 1, title, {Ink::Accent, Ink::Default, true});
  c.wrapped(2, 2, subtitle, {Ink::Muted}, c.width() - 4, 2);
}

class MenuScreen final : public Screen {
 public:
  explicit MenuScreen(App& app) : Screen(app) {
    if (auto unfinished = app_.store().load_unfinished(); unfinished && *unfinished)
      resumable_ = **unfinished;
    const client::Catalogue& t = app_.tr();
    if (resumable_) items_.push_back({t("menu.resume"), [this] { resume(); }});
    items_.push_back(
        {t("home.play_computer"), [this] { app_.show(make_computer_setup_screen(app_)); }});
    items_.push_back(
        {t("tui.menu.two_players"), [this] { app_.show(make_two_player_setup_screen(app_)); }});
    items_.push_back({t("menu.online"), [this] { app_.show(make_connect_screen(app_)); }});
    items_.push_back({t("menu.replays"), [this] { app_.show(make_replay_list_screen(app_)); }});
    items_.push_back({t("menu.language", {{"language", t("language.name")}}),
                      [this] { app_.show(make_language_screen(app_)); }});
    items_.push_back({t("menu.quit"), [this] { app_.quit(); }});
  }

  void key(const Key& k) override {
    using C = Key::Code;
    if (k.code == C::Up) focus_ = (focus_ + items_.size() - 1) % items_.size();
    if (k.code == C::Down || k.code == C::Tab) focus_ = (focus_ + 1) % items_.size();
    if (k.code == C::Enter) items_[focus_].run();
    if (k.code == C::Escape || k.is(U'q')) app_.quit();
    if (k.code == C::Char && k.ch >= U'1' && k.ch < U'1' + items_.size())
      items_[static_cast<std::size_t>(k.ch - U'1')].run();
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    draw_title(c, t("app.name"), t("tui.menu.subtitle"));
    int y = 4;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const bool f = i == focus_;
      c.text(2, y, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
      c.text(4, y, std::to_string(i + 1) + "  " + items_[i].label,
             {f ? Ink::Accent : Ink::Text, Ink::Default, f});
      ++y;
    }
    if (resumable_)
      c.text(4, y + 1, client::game_summary(t, *resumable_), {Ink::Muted}, c.width() - 6);
    c.wrapped_above(2, c.height() - 2, t("tui.menu.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  void resume() {
    client::SessionSetup setup;
    setup.game = *resumable_;
    setup.store = app_.store();
    if (auto problem = client::add_computer_players(setup, app_.computer().config, fresh_seed())) {
      app_.notify(app_.tr()("computer.cannot_play", {{"problem", *problem}}), true);
      return;
    }
    app_.show(make_local_game_screen(app_, std::move(setup)));
  }

  struct Item {
    std::string label;
    std::function<void()> run;
  };
  std::vector<Item> items_;
  std::size_t focus_ = 0;
  std::optional<GameRecord> resumable_;
};

class ComputerSetupScreen final : public Screen {
 public:
  explicit ComputerSetupScreen(App& app)
      : Screen(app), variants_(client::known_variants(app.options().rules_dir)) {
    const client::ComputerConfig& cc = app_.computer();
    const client::Catalogue& t = app_.tr();
    if (cc.problem) app_.notify(*cc.problem, true);
    Field level = Field::choice(t("computer.level"));
    for (const ai::Level& l : cc.config.levels) {
      level.options.push_back(client::level_name(t, l.name));
      const std::string& want =
          app_.settings().last_level.empty() ? cc.config.default_level : app_.settings().last_level;
      if (l.name == want) level.index = level.options.size() - 1;
    }
    level_ = form_.add(level);
    color_ = form_.add(Field::choice(
        t("computer.colour"), {t("side.white"), t("side.black"), t("computer.colour.random")}));
    Field rules = Field::choice(t("setup.rules"));
    for (const RuleVariant& v : variants_) {
      rules.options.push_back(client::variant_text(t, v));
      if (v.name == app_.settings().last_variant) rules.index = rules.options.size() - 1;
    }
    rules_ = form_.add(rules);
    form_.add(Field::button(t("setup.start"), [this] { start(); }));
    form_.add(Field::button(t("common.back"), [this] { app_.show(make_menu_screen(app_)); }));
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    form_.key(k);
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    draw_title(c, t("home.play_computer"), t("computer.setup.subtitle"));
    int y = form_.draw(c, 2, 4);
    const auto& levels = app_.computer().config.levels;
    if (form_[level_].index < levels.size()) {
      const ai::Level& level = levels[form_[level_].index];
      c.wrapped(4, y + 1, client::level_description(t, level.name, level.description), {Ink::Muted},
                c.width() - 6, 2);
    }
    c.wrapped_above(2, c.height() - 2, t("tui.form.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  void start() {
    const client::ComputerConfig& cc = app_.computer();
    if (cc.config.levels.empty() || variants_.empty()) return;
    const ai::Level& level = cc.config.levels[form_[level_].index];
    const RuleVariant& rules = variants_[form_[rules_].index];
    Color person = Color::White;
    if (form_[color_].index == 1) person = Color::Black;
    if (form_[color_].index == 2)
      person = std::bernoulli_distribution(0.5)(rng_) ? Color::White : Color::Black;
    client::SessionSetup setup;
    setup.game.rules = rules;
    const PlayerInfo me{app_.settings().name, false, std::nullopt};
    const PlayerInfo engine{client::computer_name(level.name), true, std::nullopt};
    setup.game.white = person == Color::White ? me : engine;
    setup.game.black = person == Color::White ? engine : me;
    setup.store = app_.store();
    if (auto problem = client::add_computer_players(setup, cc.config, fresh_seed())) {
      app_.notify(app_.tr()("computer.cannot_play", {{"problem", *problem}}), true);
      return;
    }
    app_.settings().last_variant = rules.name;
    app_.settings().last_level = level.name;
    app_.save_settings();
    if (auto problem = start_local_game(app_, std::move(setup))) app_.notify(*problem, true);
  }

  std::vector<RuleVariant> variants_;
  std::mt19937_64 rng_{fresh_seed()};
  Form form_;
  std::size_t level_ = 0, color_ = 0, rules_ = 0;
};

class TwoPlayerSetupScreen final : public Screen {
 public:
  explicit TwoPlayerSetupScreen(App& app)
      : Screen(app),
        variants_(client::known_variants(app.options().rules_dir)),
        times_(client::time_choices()) {
    const client::Catalogue& t = app_.tr();
    white_ = form_.add(Field::input(t("side.white"), app_.settings().name, client::kMaxNameLength));
    black_ = form_.add(Field::input(t("side.black"), t("tui.two.guest"), client::kMaxNameLength));
    Field rules = Field::choice(t("setup.rules"));
    for (const RuleVariant& v : variants_) {
      rules.options.push_back(client::variant_text(t, v));
      if (v.name == app_.settings().last_variant) rules.index = rules.options.size() - 1;
    }
    rules_ = form_.add(rules);
    Field time = Field::choice(t("setup.clock"));
    for (const client::TimeChoice& choice : times_) {
      time.options.push_back(client::time_choice_text(t, choice.control));
      if (to_string(choice.control) == app_.settings().last_time_control)
        time.index = time.options.size() - 1;
    }
    time_ = form_.add(time);
    form_.add(Field::button(t("setup.start"), [this] { start(); }));
    form_.add(Field::button(t("common.back"), [this] { app_.show(make_menu_screen(app_)); }));
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    form_.key(k);
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    draw_title(c, t("tui.two.title"), t("tui.two.subtitle"));
    form_.draw(c, 2, 4);
    c.wrapped_above(2, c.height() - 2, t("tui.form.keys"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  void start() {
    for (std::size_t f : {white_, black_})
      if (auto problem = client::name_problem(form_[f].text)) {
        app_.notify(form_[f].label + ": " + client::name_problem_text(app_.tr(), *problem), true);
        return;
      }
    client::SessionSetup setup;
    setup.game.rules = variants_[form_[rules_].index];
    setup.game.white = {form_[white_].text, false, std::nullopt};
    setup.game.black = {form_[black_].text, false, std::nullopt};
    setup.game.time_control = times_[form_[time_].index].control;
    setup.store = app_.store();
    app_.settings().last_variant = setup.game.rules.name;
    app_.settings().last_time_control = to_string(setup.game.time_control);
    app_.save_settings();
    if (auto problem = start_local_game(app_, std::move(setup))) app_.notify(*problem, true);
  }

  std::vector<RuleVariant> variants_;
  std::vector<client::TimeChoice> times_;
  Form form_;
  std::size_t white_ = 0, black_ = 0, rules_ = 0, time_ = 0;
};

// The language the client speaks: the locale's, or one chosen here and kept in the settings.
class LanguageScreen final : public Screen {
 public:
  explicit LanguageScreen(App& app) : Screen(app) {
    const client::Catalogue& t = app_.tr();
    Field choice = Field::choice(t("settings.language"), {t("settings.language.system")});
    tags_.push_back("");
    for (const std::string& tag : app_.languages()) {
      // Each language by its own name, so that a person finds theirs whatever is spoken now.
      tags_.push_back(tag);
      choice.options.push_back(
          client::Catalogue::load(app_.options().i18n_dir, tag).catalogue("language.name"));
      if (tag == app_.settings().language) choice.index = choice.options.size() - 1;
    }
    choice_ = form_.add(choice);
    form_.add(Field::button(t("settings.save"), [this] {
      app_.set_language(tags_[form_[choice_].index]);
      app_.show(make_menu_screen(app_));
    }));
    form_.add(Field::button(t("common.back"), [this] { app_.show(make_menu_screen(app_)); }));
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    form_.key(k);
  }

  void draw(Canvas& c, SteadyTime) override {
    const client::Catalogue& t = app_.tr();
    draw_title(c, t("settings.language"), t("tui.language.subtitle"));
    form_.draw(c, 2, 4);
    c.wrapped_above(2, c.height() - 2, t("tui.form.keys_save"), {Ink::Muted}, c.width() - 4, 2);
  }

 private:
  Form form_;
  std::vector<std::string> tags_;
  std::size_t choice_ = 0;
};

}  // namespace

std::unique_ptr<Screen> make_language_screen(App& app) {
  return std::make_unique<LanguageScreen>(app);
}

std::unique_ptr<Screen> make_menu_screen(App& app) { return std::make_unique<MenuScreen>(app); }
std::unique_ptr<Screen> make_computer_setup_screen(App& app) {
  return std::make_unique<ComputerSetupScreen>(app);
}
std::unique_ptr<Screen> make_two_player_setup_screen(App& app) {
  return std::make_unique<TwoPlayerSetupScreen>(app);
}

std::optional<std::string> start_local_game(App& app, client::SessionSetup setup) {
  auto shelved = app.store().shelve_unfinished();
  if (!shelved) return app.tr()("tui.shelve_failed", {{"error", shelved.error()}});
  if (*shelved) app.notify(app.tr()("tui.shelved"));
  app.show(make_local_game_screen(app, std::move(setup)));
  return std::nullopt;
}

}  // namespace amazons::tui
