// The main menu and the forms that start a local game: against the computer (level, colour,
// rules) and two players at this terminal (names, rules, clock).
#include <random>

#include "client/computer_game.h"
#include "client/game_choices.h"
#include "tui/app.h"
#include "tui/form.h"

namespace amazons::tui {

namespace {

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

void draw_title(Canvas& c, const std::string& title, const std::string& subtitle) {
  c.text(2, 1, title, {Ink::Accent, Ink::Default, true});
  c.text(2, 2, subtitle, {Ink::Muted}, c.width() - 4);
}

class MenuScreen final : public Screen {
 public:
  explicit MenuScreen(App& app) : Screen(app) {
    if (auto unfinished = app_.store().load_unfinished(); unfinished && *unfinished)
      resumable_ = **unfinished;
    if (resumable_) items_.push_back({"Resume the unfinished game", [this] { resume(); }});
    items_.push_back(
        {"Play the computer", [this] { app_.show(make_computer_setup_screen(app_)); }});
    items_.push_back({"Two players at this terminal",
                      [this] { app_.show(make_two_player_setup_screen(app_)); }});
    items_.push_back({"Play online", [this] { app_.show(make_connect_screen(app_)); }});
    items_.push_back({"Replay saved games", [this] { app_.show(make_replay_list_screen(app_)); }});
    items_.push_back({"Quit", [this] { app_.quit(); }});
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
    draw_title(c, "Amazons", "The Game of the Amazons in your terminal.");
    int y = 4;
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const bool f = i == focus_;
      c.text(2, y, f ? ">" : " ", {Ink::Accent, Ink::Default, true});
      c.text(4, y, std::to_string(i + 1) + "  " + items_[i].label,
             {f ? Ink::Accent : Ink::Text, Ink::Default, f});
      ++y;
    }
    if (resumable_)
      c.text(4, y + 1, client::describe_game(*resumable_), {Ink::Muted}, c.width() - 6);
    c.text(2, c.height() - 2, "Up/Down and Enter, or the number.  q: quit", {Ink::Muted});
  }

 private:
  void resume() {
    client::SessionSetup setup;
    setup.game = *resumable_;
    setup.store = app_.store();
    if (auto problem = client::add_computer_players(setup, app_.computer().config, fresh_seed())) {
      app_.notify("The computer cannot play: " + *problem + ".", true);
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
    if (cc.problem) app_.notify(*cc.problem, true);
    Field level = Field::choice("Level");
    for (const ai::Level& l : cc.config.levels) {
      level.options.push_back(capitalized(l.name));
      const std::string& want =
          app_.settings().last_level.empty() ? cc.config.default_level : app_.settings().last_level;
      if (l.name == want) level.index = level.options.size() - 1;
    }
    level_ = form_.add(level);
    color_ = form_.add(Field::choice("Your colour", {"White", "Black", "Random"}));
    Field rules = Field::choice("Rules");
    for (const RuleVariant& v : variants_) {
      rules.options.push_back(client::variant_label(v));
      if (v.name == app_.settings().last_variant) rules.index = rules.options.size() - 1;
    }
    rules_ = form_.add(rules);
    form_.add(Field::button("Start game", [this] { start(); }));
    form_.add(Field::button("Back", [this] { app_.show(make_menu_screen(app_)); }));
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    form_.key(k);
  }

  void draw(Canvas& c, SteadyTime) override {
    draw_title(c, "Play the computer", "Choose your opponent's strength and your colour.");
    int y = form_.draw(c, 2, 4, 12);
    const auto& levels = app_.computer().config.levels;
    if (form_[level_].index < levels.size())
      c.text(4, y + 1, levels[form_[level_].index].description, {Ink::Muted}, c.width() - 6);
    c.text(2, c.height() - 2, "Up/Down: field  Left/Right: change  Enter: start  Esc: back",
           {Ink::Muted});
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
      app_.notify("The computer cannot play: " + *problem + ".", true);
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
    white_ = form_.add(Field::input("White", app_.settings().name, client::kMaxNameLength));
    black_ = form_.add(Field::input("Black", "Guest", client::kMaxNameLength));
    Field rules = Field::choice("Rules");
    for (const RuleVariant& v : variants_) {
      rules.options.push_back(client::variant_label(v));
      if (v.name == app_.settings().last_variant) rules.index = rules.options.size() - 1;
    }
    rules_ = form_.add(rules);
    Field time = Field::choice("Clock");
    for (const client::TimeChoice& t : times_) {
      time.options.push_back(t.label);
      if (to_string(t.control) == app_.settings().last_time_control)
        time.index = time.options.size() - 1;
    }
    time_ = form_.add(time);
    form_.add(Field::button("Start game", [this] { start(); }));
    form_.add(Field::button("Back", [this] { app_.show(make_menu_screen(app_)); }));
  }

  void key(const Key& k) override {
    if (k.code == Key::Code::Escape) return app_.show(make_menu_screen(app_));
    form_.key(k);
  }

  void draw(Canvas& c, SteadyTime) override {
    draw_title(c, "Two players", "Both play at this terminal, taking turns at the keyboard.");
    form_.draw(c, 2, 4, 8);
    c.text(2, c.height() - 2, "Up/Down: field  Left/Right: change  Enter: start  Esc: back",
           {Ink::Muted});
  }

 private:
  void start() {
    for (std::size_t f : {white_, black_})
      if (auto problem = client::check_name(form_[f].text)) {
        app_.notify(form_[f].label + ": " + *problem, true);
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

}  // namespace

std::unique_ptr<Screen> make_menu_screen(App& app) { return std::make_unique<MenuScreen>(app); }
std::unique_ptr<Screen> make_computer_setup_screen(App& app) {
  return std::make_unique<ComputerSetupScreen>(app);
}
std::unique_ptr<Screen> make_two_player_setup_screen(App& app) {
  return std::make_unique<TwoPlayerSetupScreen>(app);
}

std::optional<std::string> start_local_game(App& app, client::SessionSetup setup) {
  auto shelved = app.store().shelve_unfinished();
  if (!shelved) return "The unfinished game could not be put aside: " + shelved.error();
  if (*shelved) app.notify("The unfinished game was moved to your saved games.");
  app.show(make_local_game_screen(app, std::move(setup)));
  return std::nullopt;
}

}  // namespace amazons::tui
